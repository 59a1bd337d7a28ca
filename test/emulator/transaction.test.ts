/**
 * The emulator's transactions (src/emulator/transaction.ts): a failed atomic request leaves
 * the organization as it was, objects and arrays included (rolled back in place, not replaced
 * by a copy), through each route family that has one; and the check mode the test suite runs
 * in reports a write made without `beforeChange`.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { indexProblems, subscriptionOf } from '../../src/emulator/indexes';
import type { RequestContext } from '../../src/emulator/router';
import {
  atomic,
  beforeChange,
  checkTransactions,
  transactionProblems,
} from '../../src/emulator/transaction';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';

let z: Emulator;

beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
});
afterEach(async () => {
  await z.close();
});

const user = (local: string) => z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
const channel = (name: string) => z.org.channels.find((c) => c.name === name)!;

/** The organization as JSON, and the identity of its arrays and objects, before a request. */
function snapshot(): () => void {
  const json = JSON.stringify(z.org);
  const arrays = [z.org.users, z.org.groups, z.org.channels, z.org.subscriptions];
  const objects = [...z.org.users, ...z.org.groups, ...z.org.channels, ...z.org.subscriptions];
  return () => {
    expect(JSON.stringify(z.org)).toBe(json);
    expect([z.org.users, z.org.groups, z.org.channels, z.org.subscriptions]).toEqual(arrays);
    [z.org.users, z.org.groups, z.org.channels, z.org.subscriptions].forEach((a, i) =>
      expect(a).toBe(arrays[i]),
    );
    const now = [...z.org.users, ...z.org.groups, ...z.org.channels, ...z.org.subscriptions];
    expect(now.length).toBe(objects.length);
    expect(now.every((x, i) => x === objects[i])).toBe(true);
    expect(indexProblems(z.org)).toEqual([]);
  };
}

/** A queue of the owner's, to see that a rolled-back request delivers no event. */
async function ownerQueue(): Promise<() => Promise<unknown[]>> {
  const owner = clientFor(z, 'owner');
  const r = await owner.post('/register', {
    event_types: ['subscription', 'stream', 'user_group'],
  });
  expectSuccess(r);
  const queueId = r.body.queue_id as string;
  return async () => {
    const ev = await owner.get('/events', {
      queue_id: queueId,
      last_event_id: -1,
      dont_block: true,
    });
    expectSuccess(ev);
    return ev.body.events as unknown[];
  };
}

test('subscriptions: a failing delete undoes the add of the same request (a channel created, rows added and reactivated)', async () => {
  const owner = clientFor(z, 'owner');
  const bob = user('bob');
  // bob has an inactive row for "gone", which the add reactivates before the delete fails.
  expectSuccess(await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'gone' }] }));
  expectSuccess(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'gone' }],
      principals: [bob.id],
    }),
  );
  expectSuccess(
    await owner.delete('/users/me/subscriptions', {
      subscriptions: ['gone'],
      principals: [bob.id],
    }),
  );
  const events = await ownerQueue();
  const unchanged = snapshot();
  const row = subscriptionOf(z.org, bob.id, channel('gone').id)!;
  expect(row.active).toBe(false);
  expectError(
    await owner.patch('/users/me/subscriptions', {
      add: [{ name: 'gone' }, { name: 'tx-new' }],
      principals: [bob.id],
      delete: ['no_such_channel'],
    }),
    'Channel(s) (no_such_channel) do not exist',
  );
  unchanged();
  expect(row.active).toBe(false);
  expect(z.org.channels.some((c) => c.name === 'tx-new')).toBe(false);
  expect(await events()).toEqual([]);
  // The rows the rollback dropped can be added again.
  expectSuccess(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'tx-new' }],
      principals: [bob.id],
    }),
  );
  expect(subscriptionOf(z.org, bob.id, channel('tx-new').id)?.active).toBe(true);
  expect(indexProblems(z.org)).toEqual([]);
});

/** A group with alice as its member, made by the owner; its ID. */
async function createGroup(name: string): Promise<number> {
  const created = await clientFor(z, 'owner').post('/user_groups/create', {
    name,
    description: 'd',
    members: [user('alice').id],
  });
  expectSuccess(created);
  return created.body.group_id as number;
}

test('user groups: a failing delete undoes the add of members (and the notices) of the same request', async () => {
  const owner = clientFor(z, 'owner');
  const groupId = await createGroup('tx-team');
  const events = await ownerQueue();
  const unchanged = snapshot();
  expectError(
    await owner.post(`/user_groups/${groupId}/members`, {
      add: [user('bob').id],
      delete: [user('carol').id],
    }),
    `There is no member '${user('carol').id}' in this user group`,
  );
  unchanged();
  expect(await events()).toEqual([]);
});

test('user groups: a setting whose old value does not match undoes the rename of the same request', async () => {
  const owner = clientFor(z, 'owner');
  const groupId = await createGroup('tx-named');
  const unchanged = snapshot();
  const r = await owner.patch(`/user_groups/${groupId}`, {
    name: 'tx-renamed',
    can_manage_group: { new: user('alice').id, old: 999999 },
  });
  expect(r.status).toBe(400);
  unchanged();
});

/** A request context over the emulator's organization, for calling `atomic` directly. */
function context(): RequestContext {
  return { org: z.org, events: [] } as unknown as RequestContext;
}

test('a nested block is a savepoint: its failure undoes its own changes only', () => {
  const ctx = context();
  const alice = user('alice');
  const bob = user('bob');
  const names = { alice: alice.fullName, bob: bob.fullName };
  atomic(ctx, () => {
    beforeChange(ctx, alice).fullName = 'Outer';
    expect(() =>
      atomic(ctx, () => {
        beforeChange(ctx, bob).fullName = 'Inner';
        beforeChange(ctx, alice).fullName = 'Inner too';
        throw new Error('inner');
      }),
    ).toThrow('inner');
    expect(alice.fullName).toBe('Outer');
    expect(bob.fullName).toBe(names.bob);
  });
  expect(alice.fullName).toBe('Outer');
  // The outer block failing after a nested one succeeded undoes both.
  expect(() =>
    atomic(ctx, () => {
      atomic(ctx, () => {
        beforeChange(ctx, bob).fullName = 'Kept by the inner block';
      });
      throw new Error('outer');
    }),
  ).toThrow('outer');
  expect(bob.fullName).toBe(names.bob);
  expect(transactionProblems()).toEqual([]);
});

test('the check mode reports a write without beforeChange, and one made before it', () => {
  const ctx = context();
  const alice = user('alice');
  const before = alice.fullName;
  atomic(ctx, () => {
    alice.fullName = 'Changed unseen';
  });
  expect(transactionProblems()).toEqual([
    `users[${z.org.users.indexOf(alice)}] was changed without beforeChange`,
  ]);
  expect(() =>
    atomic(ctx, () => {
      alice.fullName = 'Changed too early';
      beforeChange(ctx, alice);
      throw new Error('refused');
    }),
  ).toThrow('refused');
  expect(transactionProblems()).toEqual([
    `users[${z.org.users.indexOf(alice)}] was changed before beforeChange`,
    'a rollback did not restore the organization',
  ]);
  // Off, nothing is compared (the emulator's normal mode): the same write goes unreported.
  checkTransactions(false);
  try {
    atomic(ctx, () => {
      alice.fullName = before;
    });
    expect(transactionProblems()).toEqual([]);
  } finally {
    checkTransactions(true);
  }
});
