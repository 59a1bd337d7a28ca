/**
 * Applies that a real Zulip treats differently from a naive reading of its API (issue 11),
 * end to end against the embedded server, which follows the Zulip function each case names.
 */
import { PLAN_TYPES, startEmulator } from '../../src/emulator';
import { plan } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import type { DesiredChannel, DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { harness, newClient, summary } from './helpers';
import type { Harness } from './helpers';

const org = (...channels: DesiredChannel[]): DesiredState => {
  const d = emptyDesiredState('real');
  d.channels.push(...channels);
  return d;
};
const ch = (name: string, o: Partial<DesiredChannel> = {}): DesiredChannel => ({
  path: `real/${name}`,
  name,
  permissions: {},
  subscribers: { mode: 'atLeast', users: ['owner@zulip-cdk.example'], groups: [] },
  ...o,
});

describe.each([442, 478])('real-Zulip rules on apply (FL %i)', (fl) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: fl });
  });
  afterAll(() => h.close());
  const liveChannel = async (name: string) =>
    (await readLiveState(h.client)).channels.find((c) => c.name === name);

  // zerver/views/streams.py update_stream_backend: is_private alone resets history to
  // `not is_private`.
  it('makes a channel private with history kept public; the next plan is empty', async () => {
    await h.converge(org(ch('hist-kept')));
    const { first, result, after } = await h.converge(
      org(ch('hist-kept', { private: true, historyPublicToSubscribers: true })),
    );
    expect(summary(first)).toEqual(['update channel["hist-kept"]']);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    expect(await liveChannel('hist-kept')).toMatchObject({
      private: true,
      historyPublicToSubscribers: true,
    });
  });

  // validate_can_create_topic_group_setting_for_protected_history_streams (FL 441): protected
  // history needs can_create_topic_group to be everyone, checked within the same request.
  it('protects history while resetting a hand-changed can_create_topic_group, in one request', async () => {
    await h.converge(org(ch('hist-protect', { private: true, historyPublicToSubscribers: true })));
    const c = await liveChannel('hist-protect');
    const members = (await readLiveState(h.client)).userGroups.find(
      (g) => g.name === 'role:members',
    )!.id;
    await h.client.updateStream(c!.id, { can_create_topic_group: { new: members } });
    const desired = org(ch('hist-protect', { private: true, historyPublicToSubscribers: false }));
    const first = await h.plan(desired);
    const applied = await h.apply(first);
    expect(applied.outcome).toBe('applied');
    const patches = h.z.requestLog.filter(
      (r) => r.method === 'PATCH' && r.path === `/streams/${c!.id}`,
    );
    expect(patches.at(-1)?.params).toEqual(
      expect.arrayContaining(['history_public_to_subscribers', 'can_create_topic_group']),
    );
    expect(summary(await h.plan(desired))).toEqual([]);
  });

  // create_channel (FL 442) takes can_create_topic_group and can_delete_*_message_group but
  // never applies them: one apply still leaves the channel as configured.
  it('creates a channel with the settings POST /channels/create ignores; the next plan is empty', async () => {
    const { first, result, after } = await h.converge(
      org(
        ch('create-ignored', {
          permissions: {
            canCreateTopicGroup: 'role:members',
            canDeleteOwnMessageGroup: 'role:members',
            canSendMessageGroup: 'role:members',
          },
        }),
      ),
    );
    expect(summary(first)).toEqual([
      'create channel["create-ignored"]',
      'membership channel["create-ignored"]',
    ]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const created = h.z.requestLog.map((r) => r.path).lastIndexOf('/channels/create');
    const create = h.z.requestLog[created]!;
    // Not a parameter of create_channel.
    expect(create.params).not.toContain('send_new_subscription_messages');
    expect(h.z.requestLog[created + 1]).toMatchObject({
      method: 'PATCH',
      status: 200,
      params: ['can_create_topic_group', 'can_delete_own_message_group'],
    });
  });

  // update_stream_backend writes each group setting in its own transaction: a mismatch on one
  // leaves those before it written. The journal says so; the next plan shows the truth.
  it('after a mismatch on PATCH /streams, says what may have landed; the next plan shows the rest', async () => {
    await h.converge(org(ch('half')));
    const base = (await readLiveState(h.client)).userGroups;
    const id = (name: string): number => base.find((g) => g.name === name)!.id;
    const desired = org(
      ch('half', {
        // Zulip's order puts can_resolve_topics_group after can_send_message_group.
        permissions: {
          canResolveTopicsGroup: 'role:administrators',
          canSendMessageGroup: 'role:members',
        },
      }),
    );
    const first = await h.plan(desired);
    const channel = h.z.org.channels.find((c) => c.name === 'half')!;
    // Someone changes the later setting after apply's own re-read, before its request.
    const result = await h.apply(first, {
      onEvent: (e) => {
        if (e.type === 'read') channel.settings.can_resolve_topics_group = id('role:moderators');
      },
    });
    const entry = result.journal.entries.find((e) => e.id === 'channel["half"]#update');
    expect(entry?.status).toBe('conflict');
    expect(entry?.message).toContain('may have been written: can_send_message_group;');
    const next = await h.plan(desired);
    const update = next.changes.find((c) => c.id === 'channel["half"]#update');
    expect(update?.action === 'update' && update.properties.map((p) => p.wire)).toEqual([
      'can_resolve_topics_group',
    ]);
  });
});

describe('real-Zulip rules on apply: groups and plans (FL 478)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: 478 });
  });
  afterAll(() => h.close());

  // zerver/lib/user_groups.py check_user_group_can_be_deactivated counts the group's own settings.
  it('deactivates a group that manages itself; the next plan is empty', async () => {
    const d = (deactivated: boolean): DesiredState => {
      const o = emptyDesiredState('real');
      o.userGroups.push({
        path: 'real/selfish',
        name: 'selfish',
        members: { mode: 'exact', users: ['alice@zulip-cdk.example'], groups: [] },
        permissions: { canManageGroup: 'selfish', canMentionGroup: 'selfish' },
        ...(deactivated ? { deactivated: true } : {}),
      });
      return o;
    };
    expect((await h.converge(d(false))).result.outcome).toBe('applied');
    const { first, result, after } = await h.converge(d(true));
    expect(summary(first)).toEqual([
      'update userGroup["selfish"]',
      'deactivate userGroup["selfish"]',
    ]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
  });

  // get_group_setting_value_for_api drops deactivated members; parse_group_setting_value reads
  // what is left ({[], [G]}) as G, which never equals the anonymous group: no `old` is sent.
  it('changes a setting whose anonymous group holds a deactivated user and one group', async () => {
    await h.converge(org(ch('anon')));
    const stored = h.z.org.channels.find((c) => c.name === 'anon')!;
    const former = h.z.org.users.find((u) => u.email.startsWith('former@'))!;
    const mods = h.z.org.groups.find((g) => g.name === 'role:moderators')!;
    stored.settings.can_send_message_group = {
      direct_members: [former.id],
      direct_subgroups: [mods.id],
    };
    const { first, result, after } = await h.converge(
      org(ch('anon', { permissions: { canSendMessageGroup: 'role:members' } })),
    );
    expect(summary(first)).toEqual(['update channel["anon"]']);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
  });
});

describe('real-Zulip rules on Zulip Cloud Free (ensure_not_on_limited_plan)', () => {
  it('reads the plan type and refuses, before any write, to create a group', async () => {
    const z = await startEmulator({
      featureLevel: 478,
      planType: PLAN_TYPES.limited,
      rateLimit: false,
    });
    const client = newClient(z);
    try {
      const live = await readLiveState(client);
      expect(live.server.planType).toBe(PLAN_TYPES.limited);
      const d = emptyDesiredState('real');
      d.userGroups.push({
        path: 'real/team',
        name: 'team',
        members: { mode: 'exact', users: [], groups: [] },
        permissions: {},
      });
      expect(() => plan(d, live)).toThrow(/userGroup\["team"\] \(real\/team\): Zulip Cloud Free/);
    } finally {
      await client.close();
      await z.close();
    }
  });
});
