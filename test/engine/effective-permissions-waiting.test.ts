import { plan, renderJson, parsePlan } from '../../src/engine';
import type { Plan } from '../../src/engine';
import { reconcile } from '../../src/engine/apply/reconcile';
import { liveStateDigest } from '../../src/engine/plan-io';
import { pastWaitingPeriod } from '../../src/engine/effective-permissions/worlds';
import { startEmulator } from '../../src/emulator';
import type { DesiredState, LiveState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipClient } from '../../src/zulip';
import { LiveBuilder, dChannel, desired } from './fixtures';

/**
 * Who is a full member after a plan, judged as Zulip judges it
 * (zerver/actions/user_groups.py `update_users_in_full_members_system_group`): a member whose
 * `(now - date_joined).days` is at least the organization's waiting period, when the plan
 * changes the member's role or the waiting period. `now` is when the organization was read.
 */
const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * alice (3) joined yesterday, bob (4) a year ago, both members and in role:fullmembers (as the
 * organization was before its waiting period); carol (5) is a moderator who joined yesterday.
 * #news: only full members may post.
 */
function live(threshold: number, readAt: string | null = iso(NOW)): LiveState {
  const b = new LiveBuilder();
  b.channel('news', { permissions: { can_send_message_group: b.groupId('role:fullmembers') } });
  const state = b.build();
  const joined: Record<number, number> = { 1: NOW - 900 * DAY, 2: NOW - 900 * DAY };
  Object.assign(joined, { 3: NOW - DAY, 4: NOW - 365 * DAY, 5: NOW - DAY, 6: NOW - DAY });
  for (const u of state.users) u.dateJoined = iso(joined[u.id]!);
  state.organizationSettings = {
    properties: { waiting_period_threshold: threshold },
    permissions: {},
  };
  return {
    ...state,
    server: { ...state.server, ...(readAt !== null ? { readAt } : {}) },
  };
}

function declared(o: { threshold?: number; carol?: 'member' } = {}): DesiredState {
  return desired((d) => {
    d.channels.push(dChannel('news', { permissions: { canSendMessageGroup: 'role:fullmembers' } }));
    if (o.threshold !== undefined)
      d.organizationSettings.push({
        path: 'acme/settings',
        properties: { waitingPeriodThreshold: o.threshold },
        permissions: {},
      });
    if (o.carol) d.users.push({ path: 'acme/carol', email: 'carol@example.com', role: o.carol });
  });
}

const posting = (p: Plan) =>
  p.permissions?.effects.find(
    (e) => e.address === 'channel["news"]' && e.permission === 'permissions.canSendMessageGroup',
  );

describe("the waiting period for full members in the plan's effective permissions", () => {
  it('a new waiting period takes those who joined within it out of role:fullmembers', () => {
    const p = plan(declared({ threshold: 3 }), live(0));
    expect(posting(p)).toMatchObject({
      changes: ['organizationSettings["organization"]#update'],
      lost: { count: 1, users: ['alice@example.com'] },
      gained: { count: 0 },
    });
    expect(p.server.readAt).toBe(iso(NOW));
  });

  it('no waiting period any more: provisional members become full members', () => {
    const before = live(3);
    before.userGroups.find((g) => g.name === 'role:fullmembers')!.members = [4];
    const p = plan(declared({ threshold: 0 }), before);
    expect(posting(p)).toMatchObject({ gained: { users: ['alice@example.com'] }, lost: {} });
  });

  it('a waiting period passed since: a longer one than her days still takes her out, a shorter one does not', () => {
    expect(posting(plan(declared({ threshold: 2 }), live(0)))?.lost.users).toEqual([
      'alice@example.com',
    ]);
    // alice's one whole day is past a one-day waiting period: nobody moves.
    expect(posting(plan(declared({ threshold: 1 }), live(0)))).toBeUndefined();
  });

  it('a moderator made a member within the waiting period loses what only full members may do', () => {
    const p = plan(declared({ carol: 'member' }), live(3));
    expect(posting(p)).toMatchObject({
      changes: ['user["carol@example.com"]#update'],
      lost: { users: ['carol@example.com'] },
    });
  });

  it('without the time of the read (an older snapshot), every member counts as a full member', () => {
    const p = plan(declared({ carol: 'member' }), live(3, null));
    expect(posting(p)).toBeUndefined();
    expect(p.server.readAt).toBeUndefined();
    // And the plan may be told to judge no waiting period.
    expect(posting(plan(declared({ threshold: 3 }), live(0), { readAt: null }))).toBeUndefined();
  });

  it('whole days, floored, as Python counts them; no join date or no time: past it', () => {
    expect(pastWaitingPeriod({ dateJoined: iso(NOW - 3 * DAY + 60_000) }, 3, NOW)).toBe(false);
    expect(pastWaitingPeriod({ dateJoined: iso(NOW - 3 * DAY) }, 3, NOW)).toBe(true);
    // Zulip sends it to the minute (`isoformat(timespec="minutes")`).
    expect(pastWaitingPeriod({ dateJoined: '2026-05-29T12:00+00:00' }, 3, NOW)).toBe(true);
    expect(pastWaitingPeriod({}, 3, NOW)).toBe(true);
    expect(pastWaitingPeriod({ dateJoined: iso(NOW) }, 3, undefined)).toBe(true);
    expect(pastWaitingPeriod({ dateJoined: iso(NOW) }, 0, NOW)).toBe(true);
  });

  it("apply judges it at the plan's time: a member past it since is no tampering", () => {
    const saved = parsePlan(JSON.parse(renderJson(plan(declared({ threshold: 2 }), live(0)))));
    expect(posting(saved)?.lost.users).toEqual(['alice@example.com']);
    // Read again two days later: the same organization, alice now past two days.
    const later = live(0, iso(NOW + 2 * DAY));
    expect(liveStateDigest(later)).toBe(saved.liveDigest);
    const r = reconcile(saved, later);
    expect(r.unchanged).toBe(true);
    expect(posting(r.replan)?.lost.users).toEqual(['alice@example.com']);
    // Planned afresh at that time, nobody loses anything.
    expect(posting(plan(declared({ threshold: 2 }), later))).toBeUndefined();
  });
});

describe('reading the time and the join dates', () => {
  it("records the server's time of the register (its Date) and each user's date_joined", async () => {
    const z = await startEmulator({ rateLimit: false, clock: { now: () => NOW } });
    const client = ZulipClient.forEmbeddedOwner(z);
    try {
      const state = await readLiveState(client);
      expect(state.server.readAt).toBe(iso(NOW));
      const erin = state.users.find((u) => u.email.startsWith('erin@'));
      // Zulip's `isoformat(timespec="minutes")`: the demo's Erin joined the day before.
      expect(erin?.dateJoined).toBe('2026-05-31T12:00+00:00');
      expect(Date.parse(erin!.dateJoined!)).toBe(NOW - DAY);
    } finally {
      await client.close();
      await z.close();
    }
  });
});
