/**
 * Conformance: the events of deactivating and reactivating a user, ported from Zulip's
 * zerver/tests/test_events.py `test_do_deactivate_user` and `test_do_reactivate_user` (the
 * parts where every user can access every other, as in the embedded server). Zulip's users
 * map to the seed's as in users.test.ts: iago → admin, hamlet → bob's view of alice,
 * polonius → guest, cordelia → alice, default_bot → deploy-bot (owned by the owner).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
afterEach(() => z.close());

async function start(featureLevel?: number): Promise<void> {
  z = await startEmulator({ rateLimit: false, ...(featureLevel ? { featureLevel } : {}) });
}

const id = (local: string): number => z.org.users.find((u) => u.email.startsWith(`${local}@`))!.id;
const channel = (name: string): number => z.org.channels.find((c) => c.name === name)!.id;
const group = (name: string): number => z.org.groups.find((g) => g.name === name)!.id;

/** A queue of every event type for `local`; the returned function reads its events (without `id`). */
async function listen(local: string): Promise<() => Promise<Record<string, unknown>[]>> {
  const c: TestClient = clientFor(z, local);
  const r = await c.post('/register', { fetch_event_types: ['realm'] });
  expectSuccess(r);
  const queue = r.body.queue_id as string;
  return async () => {
    const res = await c.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
    expectSuccess(res);
    return (res.body.events as Record<string, unknown>[])
      .filter((e) => e.type !== 'heartbeat')
      .map(({ id: _id, ...e }) => e);
  };
}

const peer = (op: string, channels: string[], users: number[]) => ({
  type: 'subscription',
  op,
  stream_ids: channels.map(channel),
  user_ids: users,
});
const isActive = (user: number, value: boolean) => ({
  type: 'realm_user',
  op: 'update',
  person: { user_id: user, is_active: value },
});
const addMembers = (groupName: string, user: number) => ({
  type: 'user_group',
  op: 'add_members',
  group_id: group(groupName),
  user_ids: [user],
});

describe('test_events.py test_do_deactivate_user', () => {
  it('peer_remove for each channel of the user (a channel with a guest subscriber alone, the others together, archived ones too), then realm_user update', async () => {
    await start();
    const bob = await listen('bob');
    const guest = await listen('guest');
    const alice = id('alice');
    expectSuccess(await clientFor(z, 'admin').delete(`/users/${alice}`));
    expect(await bob()).toEqual([
      peer('peer_remove', ['general'], [alice]),
      peer('peer_remove', ['announcements'], [alice]),
      peer('peer_remove', ['engineering', 'old-projects'], [alice]),
      isActive(alice, false),
    ]);
    // The guest sees the subscribers of the channels it is subscribed to only.
    expect(await guest()).toEqual([
      peer('peer_remove', ['general'], [alice]),
      peer('peer_remove', ['announcements'], [alice]),
      isActive(alice, false),
    ]);
  });

  it.each([
    [400, ['engineering']],
    [376, null],
  ])(
    'FL %d: peer_remove leaves archived channels out before FL 428 and is not sent before FL 377',
    async (level, grouped) => {
      await start(level);
      const bob = await listen('bob');
      const alice = id('alice');
      expectSuccess(await clientFor(z, 'admin').delete(`/users/${alice}`));
      expect(await bob()).toEqual([
        ...(grouped === null
          ? []
          : [
              peer('peer_remove', ['general'], [alice]),
              peer('peer_remove', ['announcements'], [alice]),
              peer('peer_remove', ['engineering'], [alice]),
            ]),
        isActive(alice, false),
      ]);
    },
  );

  it("the user's bots first (realm_bot update to administrators and the owner), a private channel's peer_remove only to who sees its subscribers", async () => {
    await start();
    const owner = id('owner');
    const bot = id('deploy-bot');
    expectSuccess(await clientFor(z, 'owner').patch(`/users/${id('admin')}`, { role: 100 }));
    const admin = await listen('admin');
    const bob = await listen('bob');
    expectSuccess(await clientFor(z, 'admin').delete(`/users/${owner}`));
    const botEvents = [
      peer('peer_remove', ['general'], [bot]),
      peer('peer_remove', ['announcements'], [bot]),
      peer('peer_remove', ['engineering'], [bot]),
      isActive(bot, false),
    ];
    const ownerPublic = [
      peer('peer_remove', ['general'], [owner]),
      peer('peer_remove', ['announcements'], [owner]),
      peer('peer_remove', ['engineering', 'design', 'old-projects'], [owner]),
      isActive(owner, false),
    ];
    expect(await admin()).toEqual([
      ...botEvents,
      { type: 'realm_bot', op: 'update', bot: { user_id: bot, is_active: false } },
      peer('peer_remove', ['leadership'], [owner]),
      ...ownerPublic,
    ]);
    expect(await bob()).toEqual([...botEvents, ...ownerPublic]);
  });
});

describe('test_events.py test_do_reactivate_user', () => {
  it('a bot whose owner is deactivated: realm_user and realm_bot updates, the owner change, peer_add, add_members of its system groups', async () => {
    await start();
    const owner = id('owner');
    const bot = id('deploy-bot');
    const iago = id('admin');
    expectSuccess(await clientFor(z, 'owner').patch(`/users/${iago}`, { role: 100 }));
    expectSuccess(await clientFor(z, 'admin').delete(`/users/${owner}`));
    const admin = await listen('admin');
    const bob = await listen('bob');
    expectSuccess(await clientFor(z, 'admin').post(`/users/${bot}/reactivate`));
    const peerAdds = [
      peer('peer_add', ['general'], [bot]),
      peer('peer_add', ['announcements'], [bot]),
      peer('peer_add', ['engineering'], [bot]),
    ];
    const groups = ['role:members', 'role:fullmembers'].sort((a, b) => group(a) - group(b));
    const memberships = groups.map((g) => addMembers(g, bot));
    const ownerChange = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: bot, bot_owner_id: iago },
    };
    expect(await admin()).toEqual([
      isActive(bot, true),
      { type: 'realm_bot', op: 'update', bot: { user_id: bot, is_active: true } },
      { type: 'realm_bot', op: 'update', bot: { user_id: bot, owner_id: iago } },
      ownerChange,
      ...peerAdds,
      ...memberships,
    ]);
    expect(await bob()).toEqual([isActive(bot, true), ownerChange, ...peerAdds, ...memberships]);
  });

  it('a human: realm_export_consent to administrators, peer_add for channels that are not archived, add_members by group ID, the anonymous group settings that name the user', async () => {
    await start();
    const alice = id('alice');
    const admin = clientFor(z, 'admin');
    const owner = clientFor(z, 'owner');
    const members = group('role:members');
    const setting = { direct_members: [alice], direct_subgroups: [members] };
    expectSuccess(
      await owner.patch('/realm', {
        can_create_public_channel_group: JSON.stringify({ new: setting }),
      }),
    );
    expectSuccess(
      await owner.patch(`/user_groups/${group('design')}`, {
        can_mention_group: JSON.stringify({ new: setting }),
      }),
    );
    expectSuccess(await admin.delete(`/users/${alice}`));
    const iago = await listen('admin');
    const bob = await listen('bob');
    expectSuccess(await admin.post(`/users/${alice}/reactivate`));
    const memberships = ['role:members', 'role:fullmembers', 'backend']
      .sort((a, b) => group(a) - group(b))
      .map((g) => addMembers(g, alice));
    const rest = [
      peer('peer_add', ['general'], [alice]),
      peer('peer_add', ['announcements'], [alice]),
      peer('peer_add', ['engineering'], [alice]),
      ...memberships,
      {
        type: 'user_group',
        op: 'update',
        group_id: group('design'),
        data: { can_mention_group: setting },
      },
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_create_public_channel_group: setting },
      },
    ];
    expect(await bob()).toEqual([isActive(alice, true), ...rest]);
    expect(await iago()).toEqual([
      isActive(alice, true),
      { type: 'realm_export_consent', user_id: alice, consented: false },
      ...rest,
    ]);
  });
});
