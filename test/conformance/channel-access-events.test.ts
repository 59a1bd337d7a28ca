/**
 * The channel events of a change to one channel that shows it to users or hides it from them
 * (zerver/actions/streams.py at feature level 442): a metadata-granting group setting of a
 * private channel (`do_change_stream_group_based_setting`) and its privacy
 * (`do_change_stream_permission`). Ported from zerver/tests/test_events.py.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';
import { drainer, register } from '../support/event-queue';
import type { Ev } from '../support/event-queue';

let z: Emulator;
let owner: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  owner = clientFor(z, 'owner');
});
afterEach(() => z.close());

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;
const channel = (name: string) => z.org.channels.find((c) => c.name === name)!;
const TYPES = ['stream', 'subscription'];

/** `[type/op, channel IDs, property or user IDs]` of an event. */
const brief = (e: Ev): unknown[] => [
  `${e.type}/${e.op}`,
  e.stream_ids ?? [e.stream_id ?? (e.streams as { stream_id: number }[])[0]!.stream_id],
  e.property ?? e.user_ids,
];

/** A queue of `who` for the channel events; its drain. */
async function listen(who: string): Promise<() => Promise<Ev[]>> {
  const c = clientFor(z, who);
  return drainer(c, await register(c, { event_types: TYPES, include_subscribers: 'true' }));
}

describe('test_events.py test_gain_access_through_metadata_groups', () => {
  it.each(['can_add_subscribers_group', 'can_administer_channel_group', 'can_subscribe_group'])(
    '%s of a private channel: who gains metadata access gets stream create and peer_add instead of the update; who loses it, stream delete',
    async (setting) => {
      const leadership = channel('leadership');
      const carol = user('carol').id;
      const peers = [user('owner').id, user('admin').id];
      const carolQueue = await listen('carol');
      const ownerQueue = await listen('owner');
      const set = (value: unknown) =>
        owner.patch(`/streams/${leadership.id}`, { [setting]: { new: value } });

      expectSuccess(await set({ direct_members: [carol], direct_subgroups: [] }));
      const gained = await carolQueue();
      expect(gained.map(brief)).toEqual([
        ['stream/create', [leadership.id], undefined],
        ['subscription/peer_add', [leadership.id], peers],
      ]);
      // stream_to_dict after the change: the new value is in the channel carol gets.
      expect(gained[0]!.streams).toEqual([
        expect.objectContaining({
          stream_id: leadership.id,
          invite_only: true,
          [setting]: { direct_members: [carol], direct_subgroups: [] },
        }),
      ]);
      // The owner saw the channel before and after: the update only.
      expect((await ownerQueue()).map(brief)).toEqual([
        ['stream/update', [leadership.id], setting],
      ]);

      // A group carol is not in: she loses the channel, and gets no update of it.
      expectSuccess(await set(group('design').id));
      expect((await carolQueue()).map(brief)).toEqual([
        ['stream/delete', [leadership.id], undefined],
      ]);
      expect((await ownerQueue()).map(brief)).toEqual([
        ['stream/update', [leadership.id], setting],
      ]);
    },
  );

  it('a user who was subscribed and left gains the channel the same way (private_stream_2)', async () => {
    const design = channel('design');
    const carol = user('carol').id;
    expectSuccess(await owner.patch(`/streams/${design.id}`, { is_private: true }));
    expectSuccess(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [carol],
      }),
    );
    expectSuccess(
      await owner.delete('/users/me/subscriptions', {
        subscriptions: ['design'],
        principals: [carol],
      }),
    );
    const carolQueue = await listen('carol');
    expectSuccess(
      await owner.patch(`/streams/${design.id}`, {
        can_administer_channel_group: { new: { direct_members: [carol], direct_subgroups: [] } },
      }),
    );
    expect((await carolQueue()).map(brief)).toEqual([
      ['stream/create', [design.id], undefined],
      ['subscription/peer_add', [design.id], [user('owner').id, user('dave').id, user('erin').id]],
    ]);
    // A setting that gives no metadata access: the update to who sees the channel, carol now.
    expectSuccess(
      await owner.patch(`/streams/${design.id}`, {
        can_remove_subscribers_group: { new: group('frontend').id },
      }),
    );
    expect((await carolQueue()).map(brief)).toEqual([
      ['stream/update', [design.id], 'can_remove_subscribers_group'],
    ]);
  });
});

describe('test_events.py test_subscribe_events (do_test_subscribe_events): stream privacy', () => {
  it('private → public: who did not see it gets stream create and peer_add instead of the update; public → private: who loses it gets nothing', async () => {
    const leadership = channel('leadership');
    const peers = [user('owner').id, user('admin').id];
    const carolQueue = await listen('carol');
    const ownerQueue = await listen('owner');
    const guestQueue = await listen('guest');
    const privacy = (isPrivate: boolean) =>
      owner.patch(`/streams/${leadership.id}`, {
        is_private: isPrivate,
        history_public_to_subscribers: true,
      });

    expectSuccess(await privacy(false));
    const created = await carolQueue();
    expect(created.map(brief)).toEqual([
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], peers],
    ]);
    expect(created[0]!.streams).toEqual([
      expect.objectContaining({ stream_id: leadership.id, invite_only: false }),
    ]);
    // A subscriber saw it: the update. A guest not subscribed sees neither.
    expect((await ownerQueue()).map(brief)).toEqual([
      ['stream/update', [leadership.id], 'invite_only'],
    ]);
    expect(await guestQueue()).toEqual([]);

    // do_change_stream_permission sends no stream delete to those who lose the channel.
    expectSuccess(await privacy(true));
    expect(await carolQueue()).toEqual([]);
    expect((await ownerQueue()).map(brief)).toEqual([
      ['stream/update', [leadership.id], 'invite_only'],
    ]);
  });

  it('private → public: a member of a metadata-granting setting saw it, and gets the update', async () => {
    const leadership = channel('leadership');
    expectSuccess(
      await owner.patch(`/streams/${leadership.id}`, {
        can_add_subscribers_group: { new: group('frontend').id },
      }),
    );
    const carolQueue = await listen('carol');
    const daveQueue = await listen('dave');
    expectSuccess(await owner.patch(`/streams/${leadership.id}`, { is_private: false }));
    expect((await carolQueue()).map(brief)).toEqual([
      ['stream/update', [leadership.id], 'invite_only'],
    ]);
    expect((await daveQueue()).map(brief)).toEqual([
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], [user('owner').id, user('admin').id]],
    ]);
  });
});
