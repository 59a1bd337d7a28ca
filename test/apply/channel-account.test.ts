/**
 * What Zulip refuses the applying account on the channel side, against the embedded server: the
 * plan of a member (or a guest) fails before any request, and the server refuses the very
 * request apply would have sent, with the words the plan quotes (src/engine/plan/account-channels.ts).
 */
import type { DesiredState } from '../../src/model';
import { DEMO_DOMAIN } from '../../src/emulator/seed';
import { dChannel, dFolder, desired } from '../engine/fixtures';
import { clientFor, expectError } from '../support/emulator-client';
import { harness, planErrorAs } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

/** The plan error of `who`'s plan, with no request sent but the read. */
const planError = (who: string, d: DesiredState): Promise<string> =>
  planErrorAs(h, d, `${who}@${DEMO_DOMAIN}`);

const groupId = (name: string): number => h.z.org.groups.find((g) => g.name === name)!.id;

test('a member creating a channel folder: refused by the plan, as by the server', async () => {
  const d = desired((x) => x.channelFolders.push(dFolder('Ops')));
  expect(await planError('alice', d)).toContain(
    'channelFolder["Ops"] (acme/folders/Ops): Zulip lets only organization administrators change channel folders ("Must be an organization administrator")',
  );
  expectError(
    await clientFor(h.z, 'alice').post('/channel_folders/create', { name: 'Ops', description: '' }),
    'Must be an organization administrator',
    'UNAUTHORIZED_PRINCIPAL',
  );
  expect((await h.plan(d)).changes.map((c) => c.id)).toContain('channelFolder["Ops"]#create');
});

test('a guest creating a channel: refused by the plan, as by the server', async () => {
  const d = desired((x) => x.channels.push(dChannel('news')));
  expect(await planError('guest', d)).toContain(
    'channel["news"] (acme/news): Zulip refuses creating channels to a guest ("Not allowed for guest users")',
  );
  expectError(
    await clientFor(h.z, 'guest').post('/channels/create', { name: 'news', subscribers: '[]' }),
    'Not allowed for guest users',
  );
});

test('a member without the organization setting creating a private channel', async () => {
  h.z.org.realm.settings.can_create_private_channel_group = groupId('role:administrators');
  const d = desired((x) => x.channels.push(dChannel('secret', { private: true })));
  expect(await planError('alice', d)).toContain(
    'the organization\'s canCreatePrivateChannelGroup, which gives organization administrators no exception) create private channels ("Insufficient permission")',
  );
  expectError(
    await clientFor(h.z, 'alice').post('/channels/create', {
      name: 'secret',
      subscribers: '[]',
      invite_only: 'true',
    }),
    'Insufficient permission',
  );
});

test('a member subscribing others to an existing channel', async () => {
  h.z.org.realm.settings.can_add_subscribers_group = groupId('role:administrators');
  const engineering = h.z.org.channels.find((c) => c.name === 'engineering')!;
  const d = desired((x) =>
    x.channels.push(
      dChannel('engineering', {
        lifecycle: { ignoreChanges: ['description', 'folder', 'permissions'] },
        subscribers: { mode: 'atLeast', users: [`dave@${DEMO_DOMAIN}`], groups: [] },
      }),
    ),
  );
  expect(await planError('alice', d)).toContain(
    'channel["engineering"] (acme/engineering): Zulip lets only organization administrators, the organization\'s canAddSubscribersGroup and the channel\'s canAddSubscribersGroup or canAdministerChannelGroup subscribe others to an existing channel ("Insufficient permission"',
  );
  const dave = h.z.org.users.find((u) => u.email === `dave@${DEMO_DOMAIN}`)!;
  expectError(
    await clientFor(h.z, 'alice').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: engineering.name }]),
      principals: JSON.stringify([dave.id]),
    }),
    'Insufficient permission',
  );
  expect((await h.plan(d)).changes.map((c) => c.id)).toEqual(['channel["engineering"]#membership']);
});

test('unarchiving a private channel nobody is subscribed to: refused by the plan, as by the server', async () => {
  const old = h.z.org.channels.find((c) => c.name === 'old-projects')!;
  old.inviteOnly = true;
  old.historyPublicToSubscribers = false;
  for (const s of h.z.org.subscriptions) if (s.channelId === old.id) s.active = false;
  // With a deactivated user in the organization the plan cannot tell (Zulip counts them).
  const former = h.z.org.users.find((u) => !u.isActive)!;
  h.z.org.users.splice(h.z.org.users.indexOf(former), 1);
  const d = desired((x) =>
    x.channels.push(
      dChannel('old-projects', {
        private: true,
        historyPublicToSubscribers: false,
        lifecycle: { ignoreChanges: ['description', 'permissions'] },
      }),
    ),
  );
  expect(await planError('owner', d)).toContain(
    'channel["old-projects"] (acme/old-projects): it is a private channel nobody is subscribed to, and Zulip unarchives a private channel only if someone still is ("Channel is private and have no subscribers")',
  );
  expectError(
    await clientFor(h.z, 'owner').patch(`/streams/${old.id}`, { is_archived: 'false' }),
    'Channel is private and have no subscribers',
  );
});

test('protected history with canCreateTopicGroup ignored and not everyone: refused by the plan, as by the server', async () => {
  const leadership = h.z.org.channels.find((c) => c.name === 'leadership')!;
  leadership.historyPublicToSubscribers = true;
  leadership.settings.can_create_topic_group = groupId('role:members');
  const d = desired((x) =>
    x.channels.push(
      dChannel('leadership', {
        private: true,
        historyPublicToSubscribers: false,
        lifecycle: { ignoreChanges: ['description', 'permissions'] },
      }),
    ),
  );
  expect(await planError('owner', d)).toContain(
    'channel["leadership"] (acme/leadership): Zulip gives a channel protected history only if canCreateTopicGroup is SystemGroup.EVERYONE ("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")',
  );
  expectError(
    await clientFor(h.z, 'owner').patch(`/streams/${leadership.id}`, {
      history_public_to_subscribers: 'false',
    }),
    'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
  );
});
