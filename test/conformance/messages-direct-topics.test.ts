/**
 * Who may send a direct message and who may start a topic, ported from
 * zerver/tests/test_message_send.py (MessagePOSTTest, InternalPrepTest, PersonalMessageSendTest)
 * against the rules of zerver/actions/message_send.py `check_message` at FL 442:
 * `check_sender_can_access_recipients`, zerver/lib/recipient_users.py
 * `validate_recipient_user_profiles`, `check_can_send_direct_message`, and
 * zerver/lib/streams.py `check_for_can_create_topic_group_violation` (also called by
 * zerver/actions/message_edit.py `check_update_message`). hamlet → alice, othello → bob,
 * cordelia → carol, iago → admin, polonius → guest.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

const START = Date.UTC(2026, 0, 1);
let z: Emulator;
let alice: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false, clock: { now: () => START } });
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const ch = (name: string) => z.org.channels.find((c) => c.name === name)!;
const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const group = (name: string) => z.org.groups.find((g) => g.name === name)!;
const count = () => z.org.messages?.length ?? 0;

const dm = (c: TestClient, ...to: string[]) =>
  c.post('/messages', { type: 'direct', to: to.map((l) => user(l).id), content: 'Test message' });
const toTopic = (c: TestClient, topic: string, channel = 'general') =>
  c.post('/messages', { type: 'channel', to: channel, topic, content: 'Test message' });

/** Asserts an error and that no message was stored. */
async function refused(res: Promise<TestResponse>, msg: string) {
  const before = count();
  expectError(await res, msg, 'BAD_REQUEST');
  expect(count()).toBe(before);
}

describe('direct messages: check_message', () => {
  const setRealm = (name: string, value: number | object) => {
    z.org.realm.settings[name] = value as number;
  };

  it('test_personal_message_to_inaccessible_users: a guest outside can_access_all_users_group reaches the users of their channels, direct message groups and personal conversations (get_inaccessible_user_ids), before the deactivated check', async () => {
    const guest = clientFor(z, 'guest');
    setRealm('can_access_all_users_group', group('role:members').id);
    const msg = 'You do not have permission to access some of the recipients.';
    // A deactivated user's subscriptions do not count (is_user_active=False): the access check
    // answers before validate_recipient_user_profiles.
    await refused(dm(guest, 'former'), msg);
    expectSuccess(await dm(guest, 'bob'));
    // Without a shared channel, bob stays reachable through the conversation just had.
    for (const name of ['general', 'announcements'])
      expectSuccess(await guest.delete('/users/me/subscriptions', { subscriptions: [name] }));
    expectSuccess(await dm(guest, 'bob'));
    await refused(dm(guest, 'carol'), msg);
    await refused(dm(guest, 'bob', 'carol'), msg);
    // Bots are always reachable.
    expectSuccess(await dm(guest, 'deploy-bot'));
    // A direct message group with carol makes her reachable.
    expectSuccess(await dm(clientFor(z, 'dave'), 'guest', 'carol'));
    expectSuccess(await dm(guest, 'bob', 'carol'));
    // Members are not restricted.
    setRealm('can_access_all_users_group', group('role:everyone').id);
    expectSuccess(await dm(guest, 'erin'));
  });

  it('InternalPrepTest.test_direct_message_to_self_and_bot_in_dm_disabled_org: role:nobody disables direct messages, but not to oneself, to bots, or from bots', async () => {
    setRealm('direct_message_permission_group', group('role:nobody').id);
    expectSuccess(await dm(alice, 'alice'));
    await refused(dm(alice, 'bob'), 'Direct messages are disabled in this organization.');
    expectSuccess(await dm(alice, 'deploy-bot'));
    expectSuccess(await dm(clientFor(z, 'deploy-bot'), 'alice'));
    // The owner cannot either: role:nobody has no holder.
    await refused(
      dm(clientFor(z, 'owner'), 'bob'),
      'Direct messages are disabled in this organization.',
    );
  });

  it('test_direct_message_permission_group_setting: one participant must hold direct_message_permission_group', async () => {
    const msg = 'This conversation does not include any users who can authorize it.';
    setRealm('direct_message_permission_group', group('role:administrators').id);
    await refused(dm(alice, 'bob'), msg);
    expectSuccess(await dm(alice, 'admin'));
    expectSuccess(await dm(clientFor(z, 'admin'), 'alice'));
    await refused(dm(alice, 'bob', 'carol'), msg);
    expectSuccess(await dm(alice, 'bob', 'admin'));
    expectSuccess(await dm(alice, 'alice'));
    // An anonymous group: its direct members and subgroups hold it (is_any_user_in_group).
    setRealm('direct_message_permission_group', {
      direct_members: [user('carol').id],
      direct_subgroups: [group('frontend').id],
    });
    expectSuccess(await dm(alice, 'carol'));
    await refused(dm(alice, 'bob'), msg);
    // The permission is checked before the initiator group.
    setRealm('direct_message_initiator_group', group('role:nobody').id);
    await refused(dm(alice, 'bob'), msg);
  });

  it('test_direct_message_initiator_group_setting: outside direct_message_initiator_group, only a conversation that has a message', async () => {
    const msg = 'You do not have permission to initiate direct message conversations.';
    setRealm('direct_message_initiator_group', group('role:administrators').id);
    await refused(dm(alice, 'bob'), msg);
    expectSuccess(await dm(clientFor(z, 'admin'), 'alice'));
    // A reply: the personal conversation has a message (either way).
    expectSuccess(await dm(alice, 'admin'));
    await refused(dm(alice, 'admin', 'bob'), msg);
    expectSuccess(await dm(clientFor(z, 'admin'), 'alice', 'bob'));
    expectSuccess(await dm(alice, 'bob', 'admin'));
    // Oneself and bots need nothing; the sender's own group DM with others does.
    expectSuccess(await dm(alice, 'alice'));
    expectSuccess(await dm(alice, 'deploy-bot'));
    await refused(dm(alice, 'bob', 'carol'), msg);
  });
});

describe('new topics: check_for_can_create_topic_group_violation (FL 441)', () => {
  const restrict = (value: string, channel = 'general') => {
    ch(channel).settings.can_create_topic_group = group(value).id;
  };
  const msg = 'You do not have permission to create new topics in this channel.';

  it('a topic without messages needs can_create_topic_group; an existing one (any case) does not; no exemption for moderators', async () => {
    expectSuccess(await toTopic(alice, 'old topic'));
    restrict('role:administrators');
    await refused(toTopic(alice, 'brand new'), msg);
    await refused(toTopic(clientFor(z, 'moderator'), 'brand new'), msg);
    expectSuccess(await toTopic(alice, 'OLD TOPIC'));
    expectSuccess(await toTopic(clientFor(z, 'admin'), 'brand new'));
    expectSuccess(await toTopic(alice, 'Brand New'));
  });

  it("check_for_can_create_topic_group_violation: a bot may use its owner's permission", async () => {
    // deploy-bot is a member; its owner is the organization owner.
    restrict('role:administrators');
    expectSuccess(await toTopic(clientFor(z, 'deploy-bot'), 'deploys'));
    restrict('role:nobody');
    await refused(toTopic(clientFor(z, 'deploy-bot'), 'releases'), msg);
    await refused(toTopic(clientFor(z, 'owner'), 'releases'), msg);
  });

  it('check_message: after the channel access, before the topics policy', async () => {
    restrict('role:nobody', 'announcements');
    await refused(
      toTopic(alice, 'news', 'announcements'),
      'You do not have permission to post in this channel.',
    );
    restrict('role:nobody');
    ch('general').topicsPolicy = 'empty_topic_only';
    await refused(toTopic(alice, 'lunch'), msg);
  });

  it('Zulip before FL 441 has no such rule', async () => {
    const old = await startEmulator({ rateLimit: false, featureLevel: 440 });
    try {
      const g = old.org.groups.find((x) => x.name === 'role:nobody')!;
      old.org.channels.find((c) => c.name === 'general')!.settings.can_create_topic_group = g.id;
      expectSuccess(await toTopic(clientFor(old, 'alice'), 'brand new'));
    } finally {
      await old.close();
    }
  });

  it('check_update_message: moving into a new topic needs it too; resolving does not', async () => {
    const sent = await toTopic(alice, 'first');
    expectSuccess(sent);
    const id = sent.body.id as number;
    expectSuccess(await toTopic(alice, 'second'));
    restrict('role:administrators');
    expectError(await alice.patch(`/messages/${id}`, { topic: 'third' }), msg);
    expectSuccess(await alice.patch(`/messages/${id}`, { topic: 'SECOND' }));
    expectSuccess(await alice.patch(`/messages/${id}`, { topic: '✔ SECOND' }));
    expect(z.org.messages!.find((m) => m.id === id)!.topic).toBe('✔ SECOND');
  });
});
