/**
 * Conformance: role:fullmembers as Zulip keeps it (feature level 442): stored direct members,
 * recomputed by zerver/actions/user_groups.py `update_users_in_full_members_system_group`
 * when `waiting_period_threshold` changes (`do_set_realm_property`), when a member's role
 * changes (`do_change_user_role`) and by the daily `promote_new_full_members`
 * (`Emulator.promoteNewFullMembers`, on the emulator's clock). Zulip's users: hamlet → alice,
 * cordelia → bob, othello → carol, prospero → dave (members), shiva → moderator, polonius →
 * guest, iago → admin, desdemona → owner. A test's `date_joined = now - N days` followed by
 * `save()` is the stored date changed here without a request.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

const DAY = 86_400_000;
let now = Date.UTC(2026, 0, 1, 12);
let z: Emulator;
let owner: TestClient;
beforeEach(async () => {
  now = Date.UTC(2026, 0, 1, 12);
  z = await startEmulator({ rateLimit: false, clock: { now: () => now } });
  // As in Zulip's test database, everyone joined when it was populated (the demo's people
  // joined earlier).
  for (const u of z.org.users) u.dateJoined = new Date(now).toISOString();
  owner = clientFor(z, 'owner');
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const gid = (name: string): number => z.org.groups.find((g) => g.name === name)!.id;
const joined = (local: string, daysAgo: number): void => {
  user(local).dateJoined = new Date(now - daysAgo * DAY).toISOString();
};
const setThreshold = async (days: number): Promise<void> =>
  expectSuccess(await owner.patch('/realm', { waiting_period_threshold: days }));

/** The group's direct members, as `GET /user_groups/{id}/members` lists them. */
async function directMembers(name: string): Promise<number[]> {
  const r = await owner.get(`/user_groups/${gid(name)}/members`, { direct_member_only: true });
  expectSuccess(r);
  return r.body.members as number[];
}

async function isFullMember(local: string): Promise<boolean> {
  return (await directMembers('role:fullmembers')).includes(user(local).id);
}

interface Ev {
  id: number;
  type: string;
  [k: string]: unknown;
}

/** A queue of the owner's for these event types, and a reader of what arrived since. */
async function ownerQueue(types: string[]): Promise<() => Promise<Ev[]>> {
  const r = await owner.post('/register', { event_types: types, fetch_event_types: ['realm'] });
  expectSuccess(r);
  const queue = r.body.queue_id as string;
  let last = -1;
  return async () => {
    const e = await owner.get('/events', {
      queue_id: queue,
      last_event_id: last,
      dont_block: true,
    });
    expectSuccess(e);
    const events = (e.body.events as Ev[]).filter((x) => x.id > last && x.type !== 'heartbeat');
    for (const x of events) last = Math.max(last, x.id);
    return events;
  };
}

describe('test_user_groups.py', () => {
  it('test_promote_new_full_members: a threshold of 10 days keeps out who joined 8 days ago; three days later the daily run adds them', async () => {
    joined('bob', 11);
    joined('alice', 8);
    await setThreshold(10);
    expect(await isFullMember('bob')).toBe(true);
    expect(await isFullMember('alice')).toBe(false);

    now += 3 * DAY;
    await z.promoteNewFullMembers();
    expect(await isFullMember('bob')).toBe(true);
    expect(await isFullMember('alice')).toBe(true);
  });

  it('promote_new_full_members: user_group add_members of the members it promotes, by ID, to every user; nothing with a threshold of 0', async () => {
    await setThreshold(10);
    now += 10 * DAY;
    // Registered after the clock moved (an idle queue expires after 10 minutes).
    const drain = await ownerQueue(['user_group']);
    await z.promoteNewFullMembers();
    const members = z.org.users.filter((u) => u.role === 400).map((u) => u.id);
    expect(
      (await drain()).map(({ type, op, group_id, user_ids }) => [type, op, group_id, user_ids]),
    ).toEqual([
      ['user_group', 'add_members', gid('role:fullmembers'), members.sort((a, b) => a - b)],
    ]);

    // Every member promoted, then a threshold of 0: the daily run skips the organization
    // (Realm.objects.exclude(waiting_period_threshold=0)), even for a member it would remove.
    await setThreshold(0);
    await drain();
    const erin = user('erin');
    erin.dateJoined = new Date(now + 2 * DAY).toISOString();
    await z.promoteNewFullMembers();
    expect(await drain()).toEqual([]);
    expect(await isFullMember('erin')).toBe(true);
  });

  it('test_check_user_has_permission_by_role (full members): direct messages read the role and the date joined now, not the stored group', async () => {
    // check_can_send_direct_message reads a system-group value by role
    // (check_user_has_permission_by_role), here direct_message_initiator_group.
    expectSuccess(
      await owner.patch('/realm', {
        direct_message_initiator_group: { new: gid('role:fullmembers') },
      }),
    );
    await setThreshold(10);
    joined('alice', 9);
    joined('moderator', 9);
    joined('carol', 11);
    joined('guest', 11);
    // promote_new_full_members has not run: carol is not in the stored group yet.
    expect(await isFullMember('carol')).toBe(false);
    const dm = (from: string, to: string) =>
      clientFor(z, from).post('/messages', {
        type: 'private',
        to: [user(to).id],
        content: 'hello',
      });
    const refused = 'You do not have permission to initiate direct message conversations.';
    expectError(await dm('guest', 'erin'), refused);
    expectError(await dm('alice', 'erin'), refused);
    expectSuccess(await dm('carol', 'erin'));
    expectSuccess(await dm('moderator', 'erin'));
  });

  it('test_can_create_groups_for_creating_user_group (full members): 9 days of 10 are not enough; after 11 and the daily run they are', async () => {
    expectSuccess(
      await owner.patch('/realm', { can_create_groups: { new: gid('role:fullmembers') } }),
    );
    await setThreshold(10);
    joined('carol', 9);
    const create = () =>
      clientFor(z, 'carol').post('/user_groups/create', {
        name: 'support',
        description: 'Support team',
        members: [user('carol').id],
      });
    expectError(await create(), 'Insufficient permission');
    joined('carol', 11);
    await z.promoteNewFullMembers();
    expectSuccess(await create());
  });
});

describe('test_realm.py', () => {
  it('test_changing_waiting_period_updates_system_groups: 100 days keep only who joined 150 days ago, 70 also who joined 75 days ago; role:members keeps everyone', async () => {
    const members = await directMembers('role:members');
    expect(await directMembers('role:fullmembers')).toEqual(members);
    for (const who of ['alice', 'bob', 'carol']) expect(members.includes(user(who).id)).toBe(true);

    joined('alice', 50);
    joined('bob', 75);
    joined('carol', 150);
    await setThreshold(100);
    expect(await directMembers('role:members')).toEqual(members);
    expect([
      await isFullMember('alice'),
      await isFullMember('bob'),
      await isFullMember('carol'),
    ]).toEqual([false, false, true]);

    await setThreshold(70);
    expect(await directMembers('role:members')).toEqual(members);
    // register's realm_user_groups lists the same direct members.
    const r = await owner.post('/register', { fetch_event_types: ['realm_user_groups'] });
    expectSuccess(r);
    const listed = (r.body.realm_user_groups as { id: number; members: number[] }[]).find(
      (g) => g.id === gid('role:fullmembers'),
    );
    expect(listed?.members).toEqual(await directMembers('role:fullmembers'));
    expect(listed?.members).not.toContain(user('alice').id);
    expect([
      await isFullMember('alice'),
      await isFullMember('bob'),
      await isFullMember('carol'),
    ]).toEqual([false, true, true]);
  });
});

describe('test_events.py', () => {
  it('RealmPropertyActionTest waiting_period_threshold [1000, 2000]: realm update, then user_group remove_members of the members (deactivated too) now provisional; the second change sends the realm update only', async () => {
    const drain = await ownerQueue(['realm', 'user_group']);
    const brief = (e: Ev) => [e.type, e.op, e.property ?? e.group_id, e.value ?? e.user_ids];
    const members = z.org.users
      .filter((u) => u.role === 400)
      .map((u) => u.id)
      .sort((a, b) => a - b);
    expect(members).toContain(user('former').id);
    await setThreshold(1000);
    expect((await drain()).map(brief)).toEqual([
      ['realm', 'update', 'waiting_period_threshold', 1000],
      ['user_group', 'remove_members', gid('role:fullmembers'), members],
    ]);
    await setThreshold(2000);
    expect((await drain()).map(brief)).toEqual([
      ['realm', 'update', 'waiting_period_threshold', 2000],
    ]);
  });

  it('do_change_user_role: a provisional guest made a member joins role:members, not role:fullmembers; made a moderator, it stays out', async () => {
    await setThreshold(10);
    const drain = await ownerQueue(['user_group']);
    const guest = user('guest').id;
    expectSuccess(await owner.patch(`/users/${guest}`, { role: 400 }));
    const brief = (e: Ev) => [e.op, e.group_id, e.user_ids];
    expect((await drain()).map(brief)).toEqual([
      ['remove_members', gid('role:everyone'), [guest]],
      ['add_members', gid('role:members'), [guest]],
    ]);
    expect(await isFullMember('guest')).toBe(false);

    // Settled (11 days), made a moderator then a member again: out, then in.
    joined('guest', 11);
    expectSuccess(await owner.patch(`/users/${guest}`, { role: 300 }));
    expectSuccess(await owner.patch(`/users/${guest}`, { role: 400 }));
    expect((await drain()).map(brief)).toEqual([
      ['remove_members', gid('role:members'), [guest]],
      ['add_members', gid('role:moderators'), [guest]],
      ['remove_members', gid('role:moderators'), [guest]],
      ['add_members', gid('role:members'), [guest]],
      ['add_members', gid('role:fullmembers'), [guest]],
    ]);
  });

  it('update_user_backend in one transaction: a role change refused by a later check leaves role:fullmembers as it was', async () => {
    const carol = user('carol').id;
    expectSuccess(await owner.patch('/realm', { require_unique_names: true }));
    const r = await owner.patch(`/users/${carol}`, { role: 300, full_name: 'Bob Member' });
    expectError(r, 'Unique names required in this organization.');
    expect(user('carol').role).toBe(400);
    expect(await isFullMember('carol')).toBe(true);
  });
});
