import { applyPlan, exitCodeFor, parsePlan, renderJson } from '../../src/engine';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { emptyDesiredState } from '../../src/model';
import { desiredStateDigest } from '../../src/engine/digest';
import type { DesiredState } from '../../src/model';
import { harness, newClient, resign, summary } from './helpers';
import type { Harness } from './helpers';

const e = (local: string): string => `${local}@zulip-cdk.example`;

function desired(version: 1 | 2): DesiredState {
  const d = emptyDesiredState('c');
  d.userGroups.push(
    {
      path: 'c/squad',
      name: 'squad',
      description: version === 1 ? 'Squad' : 'The squad',
      members: { mode: 'exact', users: [e('alice')], groups: [] },
      permissions: { canMentionGroup: version === 1 ? 'role:everyone' : 'role:members' },
    },
    {
      path: 'c/crew',
      name: 'crew',
      description: version === 1 ? 'Crew' : 'The crew',
      members: {
        mode: 'exact',
        users: version === 1 ? [e('bob')] : [e('bob'), e('carol')],
        groups: [],
      },
      permissions: {},
    },
  );
  for (const name of ['room', 'hall'])
    d.channels.push({
      path: `c/${name}`,
      name,
      description: version === 1 ? `The ${name}` : `The ${name}, v2`,
      permissions: { canSendMessageGroup: version === 1 ? 'role:everyone' : 'role:members' },
    });
  return d;
}

describe('optimistic concurrency: objects changed since the plan are reported, not written', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.converge(desired(1));
  });
  afterEach(() => h.close());

  const ids = async () => {
    const live = await h.client.getUserGroups();
    const streams = await h.client.getStreams();
    return {
      squad: live.user_groups.find((g) => g.name === 'squad')!,
      room: streams.streams.find((s) => s.name === 'room')!,
      members: live.user_groups.find((g) => g.name === 'role:members')!.id,
      admins: live.user_groups.find((g) => g.name === 'role:administrators')!.id,
    };
  };

  it('a group setting and a channel description changed by hand after `plan --out`: exit 3, the rest applied', async () => {
    // plan --out, then read back as apply does.
    const saved = parsePlan(JSON.parse(renderJson(await h.plan(desired(2)))));
    const { squad, room, admins } = await ids();
    await h.client.updateUserGroup(squad.id, {
      can_mention_group: { new: admins, old: squad.can_mention_group },
    });
    await h.client.updateStream(room.stream_id, { description: 'Set by a person' });

    const r = await h.apply(saved);
    expect(r.outcome).toBe('partial');
    expect(exitCodeFor(r.outcome)).toBe(3);
    const conflicts = r.journal.entries.filter((x) => x.status === 'conflict');
    expect(conflicts.map((x) => x.id).sort()).toEqual([
      'channel["room"]#update',
      'userGroup["squad"]#update',
    ]);
    const roomEntry = conflicts.find((x) => x.address === 'channel["room"]')!;
    expect(roomEntry.message).toContain(
      'description is now "Set by a person" (was "The room" at plan time)',
    );
    const squadEntry = conflicts.find((x) => x.address === 'userGroup["squad"]')!;
    expect(squadEntry.message).toContain(
      'permissions.canMentionGroup is now "role:administrators"',
    );
    expect(r.events.filter((x) => x.type === 'conflict')).toHaveLength(2);
    // Everything else was applied.
    expect(
      r.journal.entries.filter((x) => x.status !== 'conflict').every((x) => x.status === 'applied'),
    ).toBe(true);
    expect(r.journal.counts.applied).toBe(saved.changes.length - 2);

    // The person's values stay.
    const after = await ids();
    expect(after.squad.can_mention_group).toBe(admins);
    expect(after.squad.description).toBe('Squad');
    expect(after.room.description).toBe('Set by a person');
    // The next plan lists exactly those two objects.
    expect(summary(await h.plan(desired(2)))).toEqual([
      'update userGroup["squad"]',
      'update channel["room"]',
    ]);
  });

  it("EXPECTATION_MISMATCH from the server (a change after apply's own check) is reported the same way", async () => {
    const saved = await h.plan(desired(2));
    const { squad, admins } = await ids();
    // Right after apply re-read the organization (too late for the fingerprints), a person
    // changes the group setting.
    const c = newClient(h.z);
    const target = new ZulipApplyTarget(c, saved);
    const read = target.readLive.bind(target);
    target.readLive = async () => {
      const live = await read();
      await h.client.updateUserGroup(squad.id, {
        can_mention_group: { new: admins, old: squad.can_mention_group },
      });
      return live;
    };
    const r = await applyPlan(saved, target);
    await c.close();
    const entry = r.journal.entries.find((x) => x.id === 'userGroup["squad"]#update')!;
    expect(entry.status).toBe('conflict');
    expect(entry.message).toContain('EXPECTATION_MISMATCH');
    expect(r.outcome).toBe('partial');
    expect((await ids()).squad.can_mention_group).toBe(admins);
  });

  it('an organization permission changed by hand after `plan --out`: reported, not clobbered; EXPECTATION_MISMATCH the same way', async () => {
    const withOrg = (version: 1 | 2): DesiredState => ({
      ...desired(2),
      organizationSettings: [
        {
          path: 'c/settings',
          properties: { waitingPeriodThreshold: version === 1 ? 0 : 4 },
          permissions: {
            canCreatePublicChannelGroup: version === 1 ? 'role:members' : 'role:moderators',
          },
        },
      ],
    });
    await h.converge(withOrg(1));
    const saved = parsePlan(JSON.parse(renderJson(await h.plan(withOrg(2)))));
    const change = saved.changes.find((c) => c.kind === 'organizationSettings');
    expect(change && 'properties' in change ? change.properties : []).toEqual([
      { property: 'waitingPeriodThreshold', before: 0, after: 4 },
      {
        property: 'permissions.canCreatePublicChannelGroup',
        before: 'role:members',
        after: 'role:moderators',
        wire: 'can_create_public_channel_group',
        old: (await ids()).members,
      },
    ]);
    const { admins, members } = await ids();
    await h.client.updateRealm({
      can_create_public_channel_group: { new: admins, old: members },
    });
    const r = await h.apply(saved);
    // The plan's only change was not written.
    expect(r.outcome).toBe('nothing');
    const entry = r.journal.entries.find(
      (x) => x.id === 'organizationSettings["organization"]#update',
    );
    expect(entry?.status).toBe('conflict');
    expect(entry?.message).toContain(
      'permissions.canCreatePublicChannelGroup is now "role:administrators" (was "role:members" at plan time)',
    );
    // The person's value stays, and so does the waiting period the same request would have set.
    const realm = h.z.org.realm;
    expect(realm.settings.can_create_public_channel_group).toBe(admins);
    expect(realm.waitingPeriodThreshold).toBe(0);

    // A hand change after apply's own re-read: the server's EXPECTATION_MISMATCH, reported alike.
    await h.client.updateRealm({ can_create_public_channel_group: { new: members, old: admins } });
    const again = await h.plan(withOrg(2));
    const c = newClient(h.z);
    const target = new ZulipApplyTarget(c, again);
    const read = target.readLive.bind(target);
    target.readLive = async () => {
      const live = await read();
      await h.client.updateRealm({
        can_create_public_channel_group: { new: admins, old: members },
      });
      return live;
    };
    const r2 = await applyPlan(again, target);
    await c.close();
    const e2 = r2.journal.entries.find(
      (x) => x.id === 'organizationSettings["organization"]#update',
    );
    expect(e2?.status).toBe('conflict');
    expect(e2?.message).toContain('EXPECTATION_MISMATCH');
    expect(h.z.org.realm.settings.can_create_public_channel_group).toBe(admins);
  });

  it("a group's members changed by hand: its membership change is reported, the rest applied", async () => {
    const saved = await h.plan(desired(2));
    const crew = (await h.client.getUserGroups()).user_groups.find((g) => g.name === 'crew')!;
    const dave = (await h.client.getUsers()).members.find((u) => u.email.startsWith('dave@'))!;
    await h.client.updateUserGroupMembers(crew.id, { add: [dave.user_id] });
    const r = await h.apply(saved);
    const entry = r.journal.entries.find((x) => x.id === 'userGroup["crew"]#membership')!;
    expect(entry.status).toBe('conflict');
    expect(entry.message).toContain('its members changed since the plan');
    expect(r.outcome).toBe('partial');
    const members = (await h.client.getUserGroups()).user_groups.find(
      (g) => g.name === 'crew',
    )!.members;
    expect(members).toContain(dave.user_id);
  });

  it('refuses a plan made for another server, or as another account', async () => {
    const saved = await h.plan(desired(2));
    await expect(
      h.apply(resign({ ...saved, server: { ...saved.server, site: 'https://other.example' } })),
    ).rejects.toMatchObject({ code: 'PLAN_WRONG_SERVER' });
    await expect(
      h.apply(resign({ ...saved, account: { userId: 9999, email: 'someone@else.example' } })),
    ).rejects.toMatchObject({ code: 'PLAN_WRONG_ACCOUNT' });
    // Edited without making the digest match: refused as such, whatever the edit.
    await expect(
      h.apply({ ...saved, account: { userId: 9999, email: 'someone@else.example' } }),
    ).rejects.toMatchObject({ code: 'PLAN_TAMPERED' });
    // Nothing was written.
    expect(summary(await h.plan(desired(2)))).toEqual(summary(saved));
  });

  it('destructive changes need allowDestroy; safety findings need force', async () => {
    const d = desired(1);
    d.userGroups[1]!.members.users = [];
    const p = await h.plan(d);
    await expect(h.apply(p)).rejects.toMatchObject({
      code: 'DESTROY_NOT_ALLOWED',
      message: expect.stringContaining('userGroup["crew"]: removes 1 member: '),
    });
    // A finding written into the plan by hand is not one the plan gives: refused.
    const unsafe = resign({
      ...p,
      findings: [{ code: 'TOO_MANY_REMOVALS' as const, message: 'too many' }],
    });
    await expect(h.apply(unsafe, { allowDestroy: true })).rejects.toMatchObject({
      code: 'PLAN_UNSAFE',
    });
    await expect(h.apply(unsafe, { allowDestroy: true, force: true })).rejects.toMatchObject({
      code: 'PLAN_TAMPERED',
    });
    // A finding taken out of the plan by hand is found again when apply plans again.
    const many = desired(1);
    many.organization.maxRemovals = 0;
    many.userGroups[1]!.members.users = [];
    many.channels[1]!.archived = true;
    const risky = await h.plan(many);
    expect(risky.findings.map((f) => f.code)).toEqual(['TOO_MANY_REMOVALS']);
    await expect(
      h.apply(resign({ ...risky, findings: [] }), { allowDestroy: true }),
    ).rejects.toMatchObject({ code: 'PLAN_TAMPERED' });
    const r = await h.apply(risky, { allowDestroy: true, force: true });
    expect(r.outcome).toBe('applied');
    // A hand-edited plan that removes a protected object is refused even with force.
    const d2 = desired(1);
    d2.channels[0]!.archived = true;
    d2.channels[0]!.lifecycle = { protect: true };
    const p2 = await h.plan(d2);
    expect(p2.findings.map((f) => f.code)).toEqual(['PROTECTED']);
    expect(p2.changes.filter((c) => c.address === 'channel["room"]')).toEqual([]);
    const room = (await ids()).room;
    const edited = resign({
      ...p2,
      changes: [
        {
          id: 'channel["room"]#archive',
          action: 'archive' as const,
          kind: 'channel' as const,
          address: 'channel["room"]',
          key: 'room',
          path: 'c/room',
          dependsOn: [],
          tags: [],
          liveId: room.stream_id,
          reason: 'declared' as const,
          before: {},
        },
      ],
    });
    await expect(h.apply(edited, { allowDestroy: true, force: true })).rejects.toMatchObject({
      code: 'PLAN_TOUCHES_PROTECTED',
    });
    expect((await ids()).room.is_archived).toBe(false);
  });
});

describe('a plan saved by an older zulip-cdk', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('without the collections of kinds added since: read and applied, not taken for tampered', async () => {
    const made = await h.plan(desired(1));
    // As a zulip-cdk without allowed domains and default user settings wrote it: its desired
    // state lacks their collections, and its digests are of that state.
    const { allowedDomains: _a, defaultUserSettings: _d, ...older } = made.desired;
    const file = resign({
      ...made,
      desired: older as DesiredState,
      desiredDigest: desiredStateDigest(older),
    });
    const saved = parsePlan(JSON.parse(renderJson(file)));
    expect(saved.desired.allowedDomains).toEqual([]);
    const result = await h.apply(saved);
    expect(result.outcome).toBe('applied');
    expect(summary(await h.plan(desired(1)))).toEqual([]);
    // A warning code no longer given (NEEDS_OWNER is a plan error now) still reads.
    const withRetired = resign({
      ...file,
      warnings: [{ code: 'NEEDS_OWNER', message: 'needs an owner', address: 'channel["room"]' }],
    });
    expect(parsePlan(JSON.parse(renderJson(withRetired))).warnings[0]?.code).toBe('NEEDS_OWNER');
    // Still refused when the file's own desired state was edited.
    const edited = JSON.parse(renderJson(file)) as { desired: { channels: { name: string }[] } };
    edited.desired.channels[0]!.name = 'renamed';
    expect(() => parsePlan(edited)).toThrow(/desired state does not have the digest it records/);
  });
});
