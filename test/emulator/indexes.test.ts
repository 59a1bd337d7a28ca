import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import {
  channelsByName,
  indexProblems,
  subscriptionOf,
  subscriptionsOfChannel,
  subscriptionsOfUser,
  userById,
} from '../../src/emulator/indexes';
import { isSubscribed, subscriberIds } from '../../src/emulator/permissions';
import type { OrgState } from '../../src/emulator/state';
import { clientFor, expectSuccess } from '../support/emulator-client';

let z: Emulator;
let dir: string;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-indexes-'));
});
afterEach(async () => {
  await z.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const channelId = (name: string) => z.org.channels.find((c) => c.name === name)!.id;

/** The index answers as scans of the saved arrays do, for every user and channel. */
function expectConsistent(org: OrgState): void {
  expect(indexProblems(org)).toEqual([]);
  for (const ch of org.channels) {
    const scanned = org.subscriptions
      .filter((s) => s.channelId === ch.id && s.active)
      .filter((s) => org.users.find((u) => u.id === s.userId)?.isActive)
      .map((s) => s.userId)
      .sort((a, b) => a - b);
    expect(subscriberIds(org, ch.id)).toEqual(scanned);
    for (const u of org.users)
      expect(isSubscribed(org, u.id, ch.id)).toBe(
        org.subscriptions.some((s) => s.userId === u.id && s.channelId === ch.id && s.active),
      );
    expect([...subscriptionsOfChannel(org, ch.id).values()]).toEqual(
      org.subscriptions.filter((s) => s.channelId === ch.id),
    );
  }
  for (const u of org.users)
    expect([...subscriptionsOfUser(org, u.id).values()]).toEqual(
      org.subscriptions.filter((s) => s.userId === u.id),
    );
}

test('the subscription index follows subscribe, unsubscribe, create, archive, rollback and load', async () => {
  const owner = clientFor(z, 'owner');
  const alice = clientFor(z, 'alice');
  expectConsistent(z.org);
  const bob = user('bob').id;
  const carol = user('carol').id;

  // Subscribing creates a channel and rows.
  expectSuccess(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'idx-one' }, { name: 'idx-two' }],
      principals: [bob, carol],
    }),
  );
  expectConsistent(z.org);
  expect(subscriptionOf(z.org, bob, channelId('idx-one'))?.active).toBe(true);

  // Unsubscribing keeps the row, inactive; subscribing again reuses it.
  const rows = z.org.subscriptions.length;
  expectSuccess(
    await owner.delete('/users/me/subscriptions', {
      subscriptions: ['idx-one'],
      principals: [bob],
    }),
  );
  expectConsistent(z.org);
  expect(isSubscribed(z.org, bob, channelId('idx-one'))).toBe(false);
  expectSuccess(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'idx-one' }],
      principals: [bob],
    }),
  );
  expect(z.org.subscriptions.length).toBe(rows);
  expectConsistent(z.org);

  // A refused request of an atomic endpoint (test/emulator/transaction.test.ts has the rollbacks).
  const r = await owner.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'idx-three' }],
    principals: [bob, 999999],
  });
  expect(r.status).toBe(400);
  expectConsistent(z.org);

  // Creating a channel with subscribers, then archiving one.
  expectSuccess(
    await owner.post('/channels/create', { name: 'idx-created', subscribers: [carol, bob] }),
  );
  expectConsistent(z.org);
  expectSuccess(await owner.delete(`/streams/${channelId('idx-two')}`));
  expectConsistent(z.org);
  expectSuccess(
    await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'idx-created' }] }),
  );
  expectConsistent(z.org);

  // Rows pushed around the helpers (a test arranging the state) are still found.
  z.org.subscriptions.push({
    ...z.org.subscriptions[0]!,
    userId: user('dave').id,
    channelId: channelId('idx-created'),
  });
  expectConsistent(z.org);

  // The saved file is the plain arrays; loading it builds fresh indexes.
  const file = path.join(dir, 'state.json');
  await z.save(file);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as OrgState;
  expect(saved.subscriptions).toEqual(JSON.parse(JSON.stringify(z.org.subscriptions)));
  expect(Object.keys(saved).sort()).toEqual(Object.keys(z.org).sort());
  const loaded = await startEmulator({ rateLimit: false, state: file });
  try {
    expectConsistent(loaded.org);
    expect(subscriptionOf(loaded.org, carol, channelId('idx-created'))?.active).toBe(true);
    expectSuccess(
      await clientFor(loaded, 'owner').delete('/users/me/subscriptions', {
        subscriptions: ['idx-created'],
        principals: [carol],
      }),
    );
    expectConsistent(loaded.org);
    expect(isSubscribed(loaded.org, carol, channelId('idx-created'))).toBe(false);
    // The first emulator's organization is unaffected.
    expect(isSubscribed(z.org, carol, channelId('idx-created'))).toBe(true);
  } finally {
    await loaded.close();
  }
});

test('duplicate rows for a pair (a hand-edited file) are answered as by a scan', () => {
  const org = z.org;
  const first = org.subscriptions[0]!;
  org.subscriptions.push({ ...first, active: !first.active });
  expect(isSubscribed(org, first.userId, first.channelId)).toBe(true);
  expect(subscriberIds(org, first.channelId)).toEqual(
    org.subscriptions
      .filter((s) => s.channelId === first.channelId && s.active)
      .map((s) => s.userId)
      .sort((a, b) => a - b),
  );
  expect(indexProblems(org)).toEqual([]);
});

test('users by ID follow users added and replaced in place', () => {
  const org = z.org;
  const alice = user('alice');
  expect(userById(org, alice.id)).toBe(alice);
  const copy = { ...alice };
  org.users[org.users.indexOf(alice)] = copy;
  expect(userById(org, alice.id)).toBe(copy);
  org.users.push({ ...alice, id: 424242, email: 'new@zulip-cdk.example' });
  expect(userById(org, 424242)?.email).toBe('new@zulip-cdk.example');
  expect(userById(org, 777777)).toBeUndefined();
  expect(indexProblems(org)).toEqual([]);
});

test('channels by name follow creations, renames through the API and edits of the state', async () => {
  const owner = clientFor(z, 'owner');
  const org = z.org;
  const byName = (name: string) => channelsByName(org)(name)?.id;
  expect(byName(' GENERAL ')).toBe(channelId('general'));
  expectSuccess(await owner.post('/channels/create', { name: 'By-Name', subscribers: [] }));
  expect(byName('by-name')).toBe(channelId('By-Name'));
  // A rename frees the old name and takes the new one.
  expectSuccess(await owner.patch(`/streams/${channelId('By-Name')}`, { new_name: 'renamed' }));
  expect(byName('by-name')).toBeUndefined();
  expect(byName('Renamed')).toBe(channelId('renamed'));
  // A test editing names in place, replacing a channel or adding one around the routes.
  const general = org.channels.find((c) => c.name === 'general')!;
  general.name = 'edited';
  expect(byName('general')).toBeUndefined();
  expect(byName('edited')).toBe(general.id);
  org.channels[org.channels.indexOf(general)] = { ...general, name: 'replaced' };
  expect(byName('edited')).toBeUndefined();
  expect(byName('replaced')).toBe(general.id);
  org.channels.push({ ...general, id: 515151, name: 'Pushed' });
  expect(byName('pushed')).toBe(515151);
  // The first channel of a name wins, as a scan finds it.
  org.channels.push({ ...general, id: 525252, name: 'PUSHED' });
  expect(byName('pushed')).toBe(515151);
  org.channels.splice(org.channels.length - 2, 1);
  expect(byName('pushed')).toBe(525252);
  expect(indexProblems(org)).toEqual([]);
});

test('subscribing 5,000 channels in one call: repeats, existing channels and colors as for one', async () => {
  // The subscribe path looks names up in one map and sets, not by scans (issue 12; its speed
  // is measured by the bench, `npm run bench -- --only subscribe`). The answer must be what
  // the per-name scans gave: a name repeated in another case or with spaces is one channel,
  // existing channels come first in the answer, created ones after in request order.
  const owner = clientFor(z, 'owner');
  const ownerId = user('owner').id;
  const bob = user('bob').id;
  const channelsBefore = z.org.channels.length;
  const requests: { name: string; color?: string }[] = [];
  const created: string[] = [];
  for (let i = 0; requests.length < 5000; i++) {
    const name = `bulk-${i}`;
    created.push(name);
    requests.push(
      i % 7 === 0 ? { name, color: `#${(i % 4096).toString(16).padStart(6, '0')}` } : { name },
    );
    if (i % 10 === 3) requests.push({ name: ` BULK-${i} ` });
    if (i === 2500) requests.push({ name: 'Design' }, { name: 'design ' });
  }
  const r = await owner.post('/users/me/subscriptions', {
    subscriptions: requests,
    principals: [ownerId, bob],
  });
  expectSuccess(r);
  expect(r.body.subscribed).toEqual({ [ownerId]: created, [bob]: ['design', ...created] });
  expect(r.body.already_subscribed).toEqual({ [ownerId]: ['design'] });
  expect(z.org.channels.length).toBe(channelsBefore + created.length);
  expect(new Set(z.org.channels.map((c) => c.name.toLowerCase())).size).toBe(z.org.channels.length);
  for (const req of requests)
    if (req.color !== undefined)
      expect(subscriptionOf(z.org, ownerId, channelId(req.name))?.color).toBe(req.color);
  for (const name of created) expect(isSubscribed(z.org, bob, channelId(name))).toBe(true);
  expect(indexProblems(z.org)).toEqual([]);
});
