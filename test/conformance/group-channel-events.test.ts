/**
 * The channel events of group membership changes (zerver/actions/user_groups.py
 * `bulk_add_members_to_user_groups`, `bulk_remove_members_from_user_groups`,
 * `add_subgroups_to_user_group`, `remove_subgroups_from_user_group` at feature level 442): users
 * who gain metadata access to a private channel through a group setting get `stream` `create`
 * and `subscription` `peer_add` after the `user_group` event, those who lose it `stream`
 * `delete`. Then the same events of a change to one channel (zerver/actions/streams.py): a
 * metadata-granting group setting of a private channel (`do_change_stream_group_based_setting`)
 * and its privacy (`do_change_stream_permission`). Ported from zerver/tests/test_events.py.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { CHANNEL_PERMISSIONS, CHANNEL_PERMISSION_NAMES } from '../../src/model/permissions';
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
const TYPES = ['realm_user', 'user_group', 'stream', 'subscription'];

/** `[type/op, group or channel IDs, user IDs]` of an event. */
const brief = (e: Ev): unknown[] => [
  `${e.type}/${e.op}`,
  e.group_id ?? e.stream_ids ?? (e.streams as { stream_id: number }[]).map((s) => s.stream_id),
  e.user_ids ?? e.direct_subgroup_ids,
];

const GRANTING = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
];

describe('test_events.py test_user_group_events_on_stream_metadata_access_change', () => {
  it.each(CHANNEL_PERMISSION_NAMES.map((n) => CHANNEL_PERMISSIONS[n].wire))(
    '%s of a private channel set to a group: members and subgroups added and removed',
    async (setting) => {
      // design (dave, erin) is the test group; frontend (carol) is the subgroup; carol is the
      // user listening, as hamlet in Zulip's test.
      const carol = user('carol').id;
      const design = group('design').id;
      const frontend = group('frontend').id;
      const leadership = channel('leadership');
      const subscribers = [user('owner').id, user('admin').id];
      // Protected history would refuse can_create_topic_group; Zulip's test sets the setting
      // through the action, below the view's check.
      expectSuccess(
        await owner.patch(`/streams/${leadership.id}`, { history_public_to_subscribers: true }),
      );
      expectSuccess(await owner.patch(`/streams/${leadership.id}`, { [setting]: { new: design } }));
      const mine = clientFor(z, 'carol');
      const drain = drainer(mine, await register(mine, { event_types: TYPES }));
      const drainOwner = drainer(owner, await register(owner, { event_types: TYPES }));
      const members = (body: Record<string, unknown>) =>
        owner.post(`/user_groups/${design}/members`, body);
      const subgroups = (body: Record<string, unknown>) =>
        owner.post(`/user_groups/${design}/subgroups`, body);
      const grants = GRANTING.includes(setting);
      const created = grants
        ? [
            ['stream/create', [leadership.id], undefined],
            ['subscription/peer_add', [leadership.id], subscribers],
          ]
        : [];
      const deleted = grants ? [['stream/delete', [leadership.id], undefined]] : [];

      expectSuccess(await members({ add: [carol] }));
      const added = await drain();
      expect(added.map(brief)).toEqual([['user_group/add_members', design, [carol]], ...created]);
      if (grants) {
        // stream_to_dict, without Tornado's for_unarchiving.
        expect(added[1]!.streams).toEqual([
          expect.objectContaining({
            stream_id: leadership.id,
            name: 'leadership',
            invite_only: true,
          }),
        ]);
        expect(Object.keys(added[1]!).sort()).toEqual(['id', 'op', 'streams', 'type']);
      }
      expectSuccess(await members({ delete: [carol] }));
      const removed = await drain();
      expect(removed.map(brief)).toEqual([
        ['user_group/remove_members', design, [carol]],
        ...deleted,
      ]);
      // send_stream_deletion_event, without Tornado's for_archiving.
      if (grants)
        expect(removed[1]).toEqual({
          id: removed[1]!.id,
          type: 'stream',
          op: 'delete',
          streams: [{ stream_id: leadership.id }],
          stream_ids: [leadership.id],
        });

      expectSuccess(await subgroups({ add: [frontend] }));
      expect((await drain()).map(brief)).toEqual([
        ['user_group/add_subgroups', design, [frontend]],
        ...created,
      ]);
      expectSuccess(await subgroups({ delete: [frontend] }));
      expect((await drain()).map(brief)).toEqual([
        ['user_group/remove_subgroups', design, [frontend]],
        ...deleted,
      ]);
      // The owner, an administrator, saw the channel throughout: group events only.
      expect((await drainOwner()).map((e) => e.type)).toEqual([
        'user_group',
        'user_group',
        'user_group',
        'user_group',
      ]);
    },
  );
});

describe('test_events.py test_user_group_events_on_stream_metadata_access_change, through supergroups and anonymous values', () => {
  it('a channel whose setting is an anonymous value naming a supergroup: get_recursive_supergroups_union_for_groups, then get_metadata_access_streams_via_group_ids', async () => {
    const dave = user('dave').id;
    const engineering = group('engineering').id;
    const backend = group('backend').id;
    const design = group('design').id;
    const leadership = channel('leadership');
    // engineering has the subgroups backend and frontend.
    expectSuccess(
      await owner.patch(`/streams/${leadership.id}`, {
        can_subscribe_group: { new: { direct_members: [], direct_subgroups: [engineering] } },
      }),
    );
    const mine = clientFor(z, 'dave');
    const drain = drainer(mine, await register(mine, { event_types: TYPES }));
    const peers = [user('owner').id, user('admin').id];
    expectSuccess(await owner.post(`/user_groups/${backend}/members`, { add: [dave] }));
    expect((await drain()).map(brief)).toEqual([
      ['user_group/add_members', backend, [dave]],
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], peers],
    ]);
    expectSuccess(await owner.post(`/user_groups/${backend}/members`, { delete: [dave] }));
    expect((await drain()).map(brief)).toEqual([
      ['user_group/remove_members', backend, [dave]],
      ['stream/delete', [leadership.id], undefined],
    ]);
    // design (dave, erin) as a subgroup of engineering: both gain the channel.
    const erinQueue = drainer(
      clientFor(z, 'erin'),
      await register(clientFor(z, 'erin'), { event_types: TYPES }),
    );
    expectSuccess(await owner.post(`/user_groups/${engineering}/subgroups`, { add: [design] }));
    expect((await drain()).map(brief)).toEqual([
      ['user_group/add_subgroups', engineering, [design]],
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], peers],
    ]);
    expect((await erinQueue()).map(brief)).toEqual([
      ['user_group/add_subgroups', engineering, [design]],
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], peers],
    ]);
  });
});

describe('test_events.py test_change_is_admin (do_test_change_role), with a private channel whose can_subscribe_group is role:fullmembers', () => {
  it('administrator → member: role:fullmembers joined (bulk_add_members_to_user_groups) sends the channel, which the role update then leaves alone', async () => {
    const carol = user('carol').id;
    const leadership = channel('leadership');
    const fullMembers = group('role:fullmembers').id;
    expectSuccess(
      await owner.patch(`/streams/${leadership.id}`, { can_subscribe_group: { new: fullMembers } }),
    );
    const mine = clientFor(z, 'carol');
    const drain = drainer(mine, await register(mine, { event_types: TYPES }));
    const role = (e: Ev): unknown[] =>
      e.type === 'realm_user' ? ['realm_user/update', e.person.role] : brief(e);
    // member → administrator: carol saw the channel as a full member and sees it as an
    // administrator; leaving role:fullmembers hides nothing.
    expectSuccess(await owner.patch(`/users/${carol}`, { role: 200 }));
    expect((await drain()).map(role)).toEqual([
      ['realm_user/update', 200],
      ['user_group/remove_members', group('role:members').id, [carol]],
      ['user_group/add_members', group('role:administrators').id, [carol]],
      ['user_group/remove_members', fullMembers, [carol]],
    ]);
    // administrator → member: when role:fullmembers is joined, carol (a member, not yet a full
    // member) gains the channel through the setting.
    expectSuccess(await owner.patch(`/users/${carol}`, { role: 400 }));
    expect((await drain()).map(role)).toEqual([
      ['realm_user/update', 400],
      ['user_group/remove_members', group('role:administrators').id, [carol]],
      ['user_group/add_members', group('role:members').id, [carol]],
      ['user_group/add_members', fullMembers, [carol]],
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], [user('owner').id, user('admin').id]],
    ]);
  });
});

describe('test_events.py do_set_realm_property_test (waiting_period_threshold), with a private channel whose can_subscribe_group is role:fullmembers', () => {
  it('a longer waiting period: role:fullmembers left (bulk_remove_members_from_user_groups) takes the channel away; a shorter one gives it back', async () => {
    const erin = user('erin');
    const leadership = channel('leadership');
    const fullMembers = group('role:fullmembers').id;
    expectSuccess(
      await owner.patch(`/streams/${leadership.id}`, { can_subscribe_group: { new: fullMembers } }),
    );
    // The demo's Erin joined a day before the server started.
    const mine = clientFor(z, 'erin');
    const drain = drainer(mine, await register(mine, { event_types: TYPES }));
    expectSuccess(await owner.patch('/realm', { waiting_period_threshold: '3' }));
    expect((await drain()).map(brief)).toEqual([
      ['user_group/remove_members', fullMembers, [erin.id]],
      ['stream/delete', [leadership.id], undefined],
    ]);
    expectSuccess(await owner.patch('/realm', { waiting_period_threshold: '0' }));
    expect((await drain()).map(brief)).toEqual([
      ['user_group/add_members', fullMembers, [erin.id]],
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], [user('owner').id, user('admin').id]],
    ]);
  });
});

/** `[type/op, channel IDs, property or user IDs]` of an event. */
const channelBrief = (e: Ev): unknown[] => [
  `${e.type}/${e.op}`,
  e.stream_ids ?? [e.stream_id ?? (e.streams as { stream_id: number }[])[0]!.stream_id],
  e.property ?? e.user_ids,
];

/** A queue of `who` for the channel events; its drain. */
async function listen(who: string): Promise<() => Promise<Ev[]>> {
  const c = clientFor(z, who);
  const types = ['stream', 'subscription'];
  return drainer(c, await register(c, { event_types: types, include_subscribers: 'true' }));
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
      expect(gained.map(channelBrief)).toEqual([
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
      expect((await ownerQueue()).map(channelBrief)).toEqual([
        ['stream/update', [leadership.id], setting],
      ]);

      // A group carol is not in: she loses the channel, and gets no update of it.
      expectSuccess(await set(group('design').id));
      expect((await carolQueue()).map(channelBrief)).toEqual([
        ['stream/delete', [leadership.id], undefined],
      ]);
      expect((await ownerQueue()).map(channelBrief)).toEqual([
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
    expect((await carolQueue()).map(channelBrief)).toEqual([
      ['stream/create', [design.id], undefined],
      ['subscription/peer_add', [design.id], [user('owner').id, user('dave').id, user('erin').id]],
    ]);
    // A setting that gives no metadata access: the update to who sees the channel, carol now.
    expectSuccess(
      await owner.patch(`/streams/${design.id}`, {
        can_remove_subscribers_group: { new: group('frontend').id },
      }),
    );
    expect((await carolQueue()).map(channelBrief)).toEqual([
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
    expect(created.map(channelBrief)).toEqual([
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], peers],
    ]);
    expect(created[0]!.streams).toEqual([
      expect.objectContaining({ stream_id: leadership.id, invite_only: false }),
    ]);
    // A subscriber saw it: the update. A guest not subscribed sees neither.
    expect((await ownerQueue()).map(channelBrief)).toEqual([
      ['stream/update', [leadership.id], 'invite_only'],
    ]);
    expect(await guestQueue()).toEqual([]);

    // do_change_stream_permission sends no stream delete to those who lose the channel.
    expectSuccess(await privacy(true));
    expect(await carolQueue()).toEqual([]);
    expect((await ownerQueue()).map(channelBrief)).toEqual([
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
    expect((await carolQueue()).map(channelBrief)).toEqual([
      ['stream/update', [leadership.id], 'invite_only'],
    ]);
    expect((await daveQueue()).map(channelBrief)).toEqual([
      ['stream/create', [leadership.id], undefined],
      ['subscription/peer_add', [leadership.id], [user('owner').id, user('admin').id]],
    ]);
  });
});
