/**
 * Who gets a channel's events, and the legacy posting-policy fields, at feature level 442.
 *
 * The audience of a channel's `stream` events is zerver/lib/streams.py
 * `can_access_stream_metadata_user_ids` (`bulk_can_access_stream_metadata_user_ids`): for a
 * public channel, web-public included, the active non-guests and its guest subscribers; a
 * guest who is not subscribed to a web-public channel is not told of its changes, though it
 * sees the channel. Its creation (`create_stream_if_needed`) and its subscribers' changes
 * (`send_peer_subscriber_events`) go to every active user, guests included.
 *
 * `stream_post_policy` and `is_announcement_only`, deprecated at FL 333 and still sent, follow
 * `can_send_message_group` (`get_stream_post_policy_value_based_on_group_setting`), and a
 * change of the setting that changes them sends an `update` of each
 * (`do_change_stream_group_based_setting`). Zulip's users: hamlet/cordelia/othello are
 * alice/bob/carol, iago is admin, polonius is guest.
 */
import { clientFor, expectSuccess } from '../support/emulator-client';
import { drainer, register } from '../support/event-queue';
import type { Ev } from '../support/event-queue';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

/** `type/op` of an event, with the property of a `stream` `update`. */
const brief = (e: Ev): string =>
  e.op === 'update' && e.type === 'stream'
    ? `stream/update ${String(e.property)}`
    : `${e.type}/${String(e.op)}`;

/** A queue of `types` for each user; drains them all as `{user: [brief]}`. */
async function listen(
  locals: string[],
  types: string[],
): Promise<() => Promise<Record<string, string[]>>> {
  const drains = new Map<string, () => Promise<Ev[]>>();
  for (const l of locals)
    drains.set(l, drainer(w.as(l), await register(w.as(l), { event_types: types })));
  return async () => {
    const out: Record<string, string[]> = {};
    for (const [l, drain] of drains) out[l] = (await drain()).map(brief);
    return out;
  };
}

describe('test_channel_access.py test_can_access_stream_metadata_user_ids, on the events of a web-public channel (test_subs.py test_rename_stream, test_events.py test_subscribe_events)', () => {
  it('a rename, privacy change and archiving: the non-guests and the guest subscribers, not the other guests', async () => {
    const id = await w.create('web_public_stream', {
      subscribers: ['owner', 'carol'],
      extra: { is_web_public: true },
    });
    const drain = await listen(['guest', 'bob', 'carol'], ['stream']);
    const owner = w.as('owner');
    expectSuccess(await owner.patch(`/streams/${id}`, { new_name: 'renamed' }));
    expectSuccess(await owner.patch(`/streams/${id}`, { description: 'about' }));
    expect(await drain()).toEqual({
      guest: [],
      bob: ['stream/update name', 'stream/update description'],
      carol: ['stream/update name', 'stream/update description'],
    });

    await w.subscribe(id, 'guest');
    expectSuccess(await owner.patch(`/streams/${id}`, { new_name: 'renamed again' }));
    expect((await drain()).guest).toEqual(['stream/update name']);

    await w.unsubscribe(id, 'guest');
    expectSuccess(await owner.patch(`/streams/${id}`, { is_web_public: false }));
    expectSuccess(await owner.patch(`/streams/${id}`, { is_web_public: true }));
    expectSuccess(await owner.delete(`/streams/${id}`));
    expect(await drain()).toEqual({
      guest: [],
      bob: ['stream/update invite_only', 'stream/update invite_only', 'stream/delete'],
      carol: ['stream/update invite_only', 'stream/update invite_only', 'stream/delete'],
    });
  });

  it('a private channel made web-public: an unsubscribed guest is told nothing (do_change_stream_permission)', async () => {
    const id = await w.create('private_stream', { private: true, subscribers: ['owner'] });
    const drain = await listen(['guest', 'bob'], ['stream', 'subscription']);
    expectSuccess(
      await w.as('owner').patch(`/streams/${id}`, {
        is_private: false,
        is_web_public: true,
        history_public_to_subscribers: true,
      }),
    );
    expect(await drain()).toEqual({
      guest: [],
      bob: ['stream/create', 'subscription/peer_add'],
    });
  });

  it("the guest's part of test_subscribe_events: created, peers and its own subscription reach the guest; updates only while it is subscribed", async () => {
    const drain = await listen(['guest'], ['stream', 'subscription']);
    const id = await w.create('web-public-stream', {
      subscribers: [],
      extra: { is_web_public: true },
    });
    // Guest user receives peer_add/peer_remove events for unsubscribed web-public streams.
    await w.subscribe(id, 'carol');
    await w.unsubscribe(id, 'carol');
    expect((await drain()).guest).toEqual([
      'stream/create',
      'subscription/peer_add',
      'subscription/peer_remove',
    ]);
    // Subscribed: no stream creation event; the channel's updates.
    await w.subscribe(id, 'guest');
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { description: 'new' }));
    // Unsubscribed: no stream deletion event; no more updates.
    await w.unsubscribe(id, 'guest');
    expectSuccess(await w.as('owner').patch(`/streams/${id}`, { description: 'newer' }));
    expect((await drain()).guest).toEqual([
      'subscription/add',
      'stream/update description',
      'subscription/remove',
    ]);
  });
});

describe('test_channel_fetch.py test_stream_post_policy_values_in_subscription_objects (stream_to_dict: get_stream_post_policy_value_based_on_group_setting)', () => {
  /** Each channel's `can_send_message_group` and what the legacy fields say of it. */
  const cases = (): Array<[string, unknown, number]> => [
    ['stream_0', w.group('role:everyone').id, 1],
    ['stream_1', w.group('role:administrators').id, 2],
    ['stream_2', w.group('role:members').id, 1],
    ['stream_3', w.group('role:fullmembers').id, 3],
    ['stream_4', w.group('backend').id, 1],
    [
      'stream_5',
      { direct_members: [w.user('bob').id], direct_subgroups: [w.group('role:administrators').id] },
      1,
    ],
    ['stream_6', w.group('role:moderators').id, 4],
    ['stream_7', w.group('role:owners').id, 1],
  ];

  it.each([442, 372])(
    'FL %i: subscriptions, register streams and GET /streams/{id}',
    async (level) => {
      await w.close();
      w = await World.start(level);
      for (const [name, value] of cases()) {
        // POST /users/me/subscriptions: POST /channels/create is FL 417.
        expectSuccess(
          await w.as('owner').post('/users/me/subscriptions', {
            subscriptions: [{ name }],
            principals: [w.user('alice').id, w.user('bob').id],
          }),
        );
        const id = w.ch(name).id;
        expectSuccess(
          await w.as('owner').patch(`/streams/${id}`, { can_send_message_group: { new: value } }),
        );
      }
      const alice = w.as('alice');
      const subs = (await alice.get('/users/me/subscriptions')).body.subscriptions as Ev[];
      const reg = await alice.post('/register', { fetch_event_types: ['stream'] });
      expectSuccess(reg);
      const streams = reg.body.streams as Ev[];
      for (const [name, value, policy] of cases()) {
        const legacy = { stream_post_policy: policy, is_announcement_only: policy === 2 };
        expect(subs.find((s) => s.name === name)).toMatchObject({
          can_send_message_group: value,
          ...legacy,
        });
        expect(streams.find((s) => s.name === name)).toMatchObject(legacy);
        const one = await alice.get(`/streams/${w.ch(name).id}`);
        expect(one.body.stream).toMatchObject(legacy);
      }
    },
  );
});

describe('test_events.py test_subscribe_events (do_test_subscribe_events_for_stream_permission_group_setting)', () => {
  it('can_send_message_group: its update, stream_post_policy and is_announcement_only when the policy changes, then the notice (its message)', async () => {
    const general = w.ch('general');
    const alice = clientFor(w.z, 'alice');
    const drain = drainer(alice, await register(alice, { event_types: ['stream', 'message'] }));
    const set = async (value: unknown): Promise<Ev[]> => {
      expectSuccess(
        await w
          .as('admin')
          .patch(`/streams/${general.id}`, { can_send_message_group: { new: value } }),
      );
      const events = await drain();
      // The fourth event of Zulip's test is the notice's message: the embedded server sends no
      // message events; the notice is posted.
      expect(w.notices(general.id)).toHaveLength(++notices);
      return events;
    };
    let notices = w.notices(general.id).length;
    const moderators = w.group('role:moderators').id;
    const admins = w.group('role:administrators').id;

    let events = await set(moderators);
    expect(events.map(brief)).toEqual([
      'stream/update can_send_message_group',
      'stream/update stream_post_policy',
      'stream/update is_announcement_only',
    ]);
    expect(events[0]).toMatchObject({ value: moderators, stream_id: general.id });
    expect(events[1]).toMatchObject({ value: 4, stream_id: general.id, name: 'general' });
    expect(events[2]).toMatchObject({ value: false, stream_id: general.id, name: 'general' });

    const anonymous = { direct_members: [w.user('alice').id], direct_subgroups: [moderators] };
    events = await set(anonymous);
    expect(events.map(brief)).toEqual([
      'stream/update can_send_message_group',
      'stream/update stream_post_policy',
      'stream/update is_announcement_only',
    ]);
    expect(events[0]!.value).toEqual(anonymous);
    expect(events[1]!.value).toBe(1);
    expect(events[2]!.value).toBe(false);

    events = await set(admins);
    expect(events.slice(1, 3).map((e): unknown[] => [e.property, e.value])).toEqual([
      ['stream_post_policy', 2],
      ['is_announcement_only', true],
    ]);

    // role:members has the policy of an anonymous value (everyone): the two are not sent.
    await set(anonymous);
    events = await set(w.group('role:members').id);
    expect(events.map(brief)).toEqual(['stream/update can_send_message_group']);
  });
});
