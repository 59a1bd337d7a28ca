import { plan, PlanSchema } from '../../src/engine';
import type { GuardOverrides, Plan } from '../../src/engine';
import type { DesiredState, LiveState } from '../../src/model';
import { Organization, Testing } from 'zulip-cdk';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';

/** Guards on the blast radius (issue 15, item 3): each one tripped, and each one not. */

function run(d: DesiredState, live: LiveState, guards?: GuardOverrides): Plan {
  const p = plan(d, live, guards ? { guards } : {});
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}
const codes = (p: Plan): string[] => p.findings.map((f) => f.code).sort();

const ALL = ['admin@example.com', 'alice@example.com', 'bob@example.com', 'carol@example.com'];

/** A live group `crew` with the four people of {@link ALL}, and a channel `town` with them subscribed. */
function crewLive(): LiveBuilder {
  const b = new LiveBuilder();
  b.group('crew', { members: [2, 3, 4, 5] });
  b.channel('town', { subscribers: [2, 3, 4, 5] });
  return b;
}
const keep = (emails: string[]) => (d: DesiredState) => {
  d.userGroups.push(
    dGroup('crew', {
      members: { mode: 'exact', users: emails, groups: [] },
      permissions: { canManageGroup: { users: ['owner@example.com'], groups: [] } },
    }),
  );
};

describe('guard: members removed from one group or channel', () => {
  it.each([
    // [kept, findings]: a quarter of four may go, more may not (the default).
    [ALL.slice(0, 3), []],
    [ALL.slice(0, 2), ['TOO_MANY_MEMBERS_REMOVED']],
  ])('group of 4 keeping %j: %j', (kept, expected) => {
    expect(codes(run(desired(keep(kept)), crewLive().build()))).toEqual(expected);
  });

  it('says how many of how many, on the construct path', () => {
    const p = run(desired(keep([])), crewLive().build());
    const f = p.findings.find((x) => x.code === 'TOO_MANY_MEMBERS_REMOVED')!;
    expect(f).toEqual({
      code: 'TOO_MANY_MEMBERS_REMOVED',
      message:
        'the plan removes 4 of the 4 members and subgroups, more than 25% (maxMembersRemovedPercent, for 4 or more)',
      address: 'userGroup["crew"]',
      path: 'acme/crew',
    });
  });

  it('leaves small groups to the count limit only', () => {
    const b = new LiveBuilder();
    b.group('trio', { members: [3, 4, 5] });
    const d = desired((x) =>
      x.userGroups.push(
        dGroup('trio', {
          permissions: { canManageGroup: { users: ['owner@example.com'], groups: [] } },
        }),
      ),
    );
    expect(codes(run(d, b.build()))).toEqual([]);
    expect(codes(run(d, b.build(), { maxMembersRemoved: 2 }))).toEqual([
      'TOO_MANY_MEMBERS_REMOVED',
    ]);
    d.organization.guards = { maxMembersRemoved: 1 };
    expect(codes(run(d, b.build()))).toEqual(['TOO_MANY_MEMBERS_REMOVED']);
    // A run's flag overrides the organization's guard, and is recorded in the plan.
    const p = run(d, b.build(), { maxMembersRemoved: 3 });
    expect(codes(p)).toEqual([]);
    expect(p.guards).toEqual({ maxMembersRemoved: 3 });
  });

  it('counts channel subscribers, and the percentage can be set', () => {
    const d = desired((x) =>
      x.channels.push(
        dChannel('town', {
          subscribers: { mode: 'exact', users: ALL.slice(0, 2), groups: [] },
        }),
      ),
    );
    const p = run(d, crewLive().build());
    expect(p.findings.map((f) => f.address)).toEqual(['channel["town"]']);
    expect(codes(run(d, crewLive().build(), { maxMembersRemovedPercent: 50 }))).toEqual([]);
  });
});

describe('guard: owners and administrators left', () => {
  const roles = (r: Record<string, string>) => (d: DesiredState) => {
    for (const [email, role] of Object.entries(r))
      d.users.push({ path: `acme/${email}`, email, role: role as 'member' });
  };

  it('keeps at least one owner, and minOwners more when asked', () => {
    const b = new LiveBuilder();
    b.state.users.find((u) => u.id === 2)!.role = 100; // two owners
    const d = desired(roles({ 'admin@example.com': 'administrator' }));
    expect(codes(run(d, b.build()))).toEqual([]);
    expect(codes(run(d, b.build(), { minOwners: 2 }))).toEqual(['TOO_FEW_OWNERS']);
    // Not lowering the number of owners is never flagged, whatever the floor.
    expect(codes(run(desired(), b.build(), { minOwners: 5 }))).toEqual([]);
  });

  it('keeps half of the administrators by default', () => {
    const b = new LiveBuilder();
    for (const id of [3, 4]) b.state.users.find((u) => u.id === id)!.role = 200;
    // Owner + 3 administrators = 4; demoting two leaves 2 (half: allowed), three leaves 1.
    const two = roles({ 'admin@example.com': 'member', 'alice@example.com': 'member' });
    expect(codes(run(desired(two), b.build()))).toEqual(['ADMIN_REMOVED', 'ADMIN_REMOVED']);
    const three = roles({
      'admin@example.com': 'member',
      'alice@example.com': 'member',
      'bob@example.com': 'member',
    });
    const p = run(desired(three), b.build());
    expect(codes(p)).toContain('TOO_FEW_ADMINISTRATORS');
    expect(p.findings.find((f) => f.code === 'TOO_FEW_ADMINISTRATORS')!.message).toBe(
      "the organization would be left with 1 administrator(s) (owners included), fewer than 50% of today's 4 (minAdministratorsPercent)",
    );
    expect(codes(run(desired(three), b.build(), { minAdministratorsPercent: 25 }))).not.toContain(
      'TOO_FEW_ADMINISTRATORS',
    );
  });
});

describe('guard: privileged changes', () => {
  it('a role of administrator or owner', () => {
    const d = desired((x) =>
      x.users.push({ path: 'acme/alice', email: 'alice@example.com', role: 'administrator' }),
    );
    const p = run(d, new LiveBuilder().build());
    expect(p.findings).toEqual([
      {
        code: 'PRIVILEGED_CHANGE',
        message:
          'alice@example.com would become an organization administrator (is member); needs --allow-privileged',
        address: 'user["alice@example.com"]',
        path: 'acme/alice',
      },
    ]);
    expect(run(d, new LiveBuilder().build(), { allowPrivileged: true }).findings).toEqual([]);
    d.organization.guards = { allowPrivileged: true };
    expect(run(d, new LiveBuilder().build()).findings).toEqual([]);
    // A moderator is not an administrator-level role.
    const m = desired((x) =>
      x.users.push({ path: 'acme/alice', email: 'alice@example.com', role: 'moderator' }),
    );
    expect(run(m, new LiveBuilder().build()).findings).toEqual([]);
  });

  it('an administrator-level setting that lets more people through', () => {
    const b = new LiveBuilder();
    b.group('ops', { members: [3] });
    b.channel('town', { permissions: { can_administer_channel_group: b.groupId('role:owners') } });
    const widen = (value: string) =>
      desired((x) => {
        x.userGroups.push(
          dGroup('ops', {
            members: { mode: 'exact', users: ['alice@example.com'], groups: [] },
            permissions: { canManageGroup: { users: ['owner@example.com'], groups: [] } },
          }),
        );
        x.channels.push(dChannel('town', { permissions: { canAdministerChannelGroup: value } }));
      });
    const p = run(widen('ops'), b.build());
    expect(p.findings.map((f) => [f.code, f.address, f.message])).toEqual([
      [
        'PRIVILEGED_CHANGE',
        'channel["town"]',
        'can_administer_channel_group would let alice@example.com through (1 who could not before); needs --allow-privileged',
      ],
    ]);
    // Narrowing it, or widening it to administrators only, gives nobody a new ability.
    expect(run(widen('role:administrators'), b.build()).findings).toEqual([]);
    // Not administrator level: who may post.
    const post = desired((x) =>
      x.channels.push(dChannel('town', { permissions: { canSendMessageGroup: 'role:members' } })),
    );
    expect(codes(run(post, b.build()))).not.toContain('PRIVILEGED_CHANGE');
  });

  it('members added to a group that holds one, directly or through a supergroup', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [] });
    b.group('admins', { subgroups: [ops.id] });
    b.channel('town', { permissions: { can_administer_channel_group: b.groupId('admins') } });
    const d = desired((x) =>
      x.userGroups.push(
        dGroup('ops', {
          members: { mode: 'exact', users: ['bob@example.com', 'admin@example.com'], groups: [] },
          permissions: { canManageGroup: { users: ['owner@example.com'], groups: [] } },
        }),
      ),
    );
    const p = run(d, b.build());
    // The administrator already administers every channel: only bob gains.
    expect(p.findings.map((f) => [f.code, f.address, f.message])).toEqual([
      [
        'PRIVILEGED_CHANGE',
        'userGroup["ops"]',
        'bob@example.com would join a group that holds can_administer_channel_group of channel #town (through admins); needs --allow-privileged',
      ],
    ]);
  });
});

describe('Organization guards', () => {
  it('go into the desired state; a typo is a validation error', () => {
    const app = Testing.app();
    const org = new Organization(app, 'acme', {
      guards: { maxMembersRemoved: 20, minOwners: 2, allowPrivileged: false },
    });
    expect(Testing.synth(org).organization.guards).toEqual({
      maxMembersRemoved: 20,
      minOwners: 2,
      allowPrivileged: false,
    });
    const bad = new Organization(Testing.app(), 'bad', {
      guards: { maxMembersRemovedPercent: 150 },
    });
    expect(() => Testing.synth(bad)).toThrow(/maxMembersRemovedPercent/);
  });
});
