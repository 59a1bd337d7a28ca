import { plan } from '../../src/engine';
import type { PermissionEffect, Plan } from '../../src/engine';
import { ROLES } from '../../src/model';
import type { LiveState } from '../../src/model';
import { LiveBuilder, dChannel, desired } from './fixtures';

/**
 * Each Zulip check with its own guest rule, and what Zulip lets through besides an
 * organization setting: differences the differential test
 * (test/apply/effective-permissions-differential.test.ts) found between the plan and the
 * embedded server's checks. guest@ (7) is a guest; `ops` is {alice, guest}.
 */
function live(): {
  b: LiveBuilder;
  state: LiveState;
} {
  const b = new LiveBuilder();
  b.state.users.push({
    id: 7,
    email: 'guest@example.com',
    fullName: 'guest',
    role: ROLES.guest,
    isActive: true,
    isBot: false,
  });
  b.state.userGroups.find((g) => g.name === 'role:everyone')!.members.push(7);
  const ops = b.group('ops', { members: [3, 7] });
  b.channel('news', {
    permissions: {
      can_administer_channel_group: ops.id,
      can_move_messages_out_of_channel_group: b.groupId('role:nobody'),
      can_remove_subscribers_group: b.groupId('role:nobody'),
      can_add_subscribers_group: { direct_members: [3], direct_subgroups: [] },
    },
  });
  const state = b.build();
  state.organizationSettings = { properties: {}, permissions: {} };
  return { b, state };
}

const effect = (p: Plan, address: string, permission: string) =>
  p.permissions?.effects.find((e) => e.address === address && e.permission === permission);

describe('guests, as each of Zulip’s checks treats them', () => {
  it('a guest among the channel’s administrators does not move its messages out (can_administer_accessible_channel refuses guests)', () => {
    const { b, state } = live();
    state.organizationSettings!.permissions = {
      can_move_messages_between_channels_group: b.groupId('role:nobody'),
    };
    const p = plan(
      desired((d) =>
        d.channels.push(
          dChannel('news', {
            permissions: {
              canAdministerChannelGroup: 'ops',
              canMoveMessagesOutOfChannelGroup: 'role:moderators',
            },
          }),
        ),
      ),
      state,
    );
    // Before: owner, admin (administrators) and alice (ops, the channel's administrators), not
    // the guest in ops. After: carol (moderator) too.
    expect(
      effect(p, 'channel["news"]', 'permissions.canMoveMessagesOutOfChannelGroup'),
    ).toMatchObject({
      before: 3,
      after: 4,
      gained: { users: ['carol@example.com'] },
      lost: { count: 0 },
    });
  });

  it('nobody unsubscribes others as a guest, though the setting accepts role:everyone (bulk_can_remove_subscribers_from_streams)', () => {
    const p = plan(
      desired((d) =>
        d.channels.push(
          dChannel('news', { permissions: { canRemoveSubscribersGroup: 'role:everyone' } }),
        ),
      ),
      live().state,
    );
    const e = effect(p, 'channel["news"]', 'permissions.canRemoveSubscribersGroup');
    expect(e?.gained.users).toEqual(['bob@example.com', 'carol@example.com']);
    expect(e?.after).toBe(5);
  });

  it('a user a value names who becomes a guest loses what refuses guests, listed with the role change', () => {
    const p = plan(
      desired((d) => {
        d.users.push({ path: 'acme/alice', email: 'alice@example.com', role: 'guest' });
      }),
      live().state,
    );
    expect(effect(p, 'channel["news"]', 'permissions.canAddSubscribersGroup')).toMatchObject({
      changes: ['user["alice@example.com"]#update'],
      lost: { users: ['alice@example.com'] },
    });
  });
});

/**
 * The organization's permission `name` after a plan that sets `set`, with the organization's
 * settings read as `read` (system group names by wire name).
 */
function organizationEffect(
  read: Record<string, string>,
  set: Record<string, string>,
  name: string,
): PermissionEffect | undefined {
  const { b, state } = live();
  state.organizationSettings!.permissions = Object.fromEntries(
    Object.entries(read).map(([wire, g]) => [wire, b.groupId(g)]),
  );
  const p = plan(
    desired((d) =>
      d.organizationSettings.push({ path: 'acme/settings', properties: {}, permissions: set }),
    ),
    state,
  );
  return effect(p, 'organizationSettings["organization"]', `permissions.${name}`);
}

describe('organization settings Zulip widens', () => {
  it('whoever may create bots may create bots that can only send messages (check_can_create_bot)', () => {
    const e = organizationEffect(
      {
        can_create_bots_group: 'role:members',
        can_create_write_only_bots_group: 'role:administrators',
      },
      { canCreateBotsGroup: 'role:moderators' },
      'canCreateWriteOnlyBotsGroup',
    );
    expect(e).toMatchObject({
      changes: ['organizationSettings["organization"]#update'],
      lost: { users: ['alice@example.com', 'bob@example.com'] },
      gained: { count: 0 },
    });
  });

  it('administrators may always set the channels’ topics and deletion policies (can_set_topics_policy)', () => {
    const e = organizationEffect(
      { can_set_topics_policy_group: 'role:members' },
      { canSetTopicsPolicyGroup: 'role:nobody' },
      'canSetTopicsPolicyGroup',
    );
    // The members and moderator lose it; the owner and the administrator keep it.
    expect(e).toMatchObject({
      after: 2,
      lost: { users: ['alice@example.com', 'bob@example.com', 'carol@example.com'] },
    });
  });
});
