import { addUser } from '../../src/emulator/state';
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { predictRequests } from '../../src/engine/apply/batching';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

const READ = ['POST /register', 'DELETE /events'];

describe('batching: requests per kind of change (FL 478)', () => {
  let h: Harness;
  const emails: string[] = [];
  const channels = Array.from({ length: 10 }, (_, i) => `batch-${i}`);
  beforeAll(async () => {
    h = await harness();
    for (let i = 0; i < 20; i++) {
      const email = `user${i}@zulip-cdk.example`;
      addUser(h.z.org, Date.now(), { email, fullName: `User ${i}`, role: 400 });
      emails.push(email);
    }
    const me = (await h.client.getOwnUser()).user_id;
    for (const name of channels) await h.client.createChannel({ name, subscribers: [me] });
  });
  afterAll(() => h.close());

  const declare = (d: DesiredState, users: string[], mode: 'exact' | 'atLeast' = 'atLeast') => {
    for (const name of channels)
      d.channels.push({
        path: `b/${name}`,
        name,
        permissions: {},
        subscribers: { mode, users, groups: [] },
      });
  };

  it('subscribing 20 users to 10 existing channels takes 1 call', async () => {
    const d = emptyDesiredState('b');
    declare(d, emails);
    const p = await h.plan(d);
    expect(p.changes.filter((c) => c.action === 'membership')).toHaveLength(10);
    const r = await h.apply(p);
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([...READ, 'POST /users/me/subscriptions']);
    expect(summary(await h.plan(d))).toEqual([]);
    // Nobody was messaged about it.
    expect(h.z.requestLog.at(-3)?.params).toEqual(
      expect.arrayContaining(['send_new_subscription_messages']),
    );
  });

  it('unsubscribing 10 of them from every channel takes 1 call', async () => {
    const d = emptyDesiredState('b');
    declare(d, [h.z.owner.email, ...emails.slice(10)], 'exact');
    const p = await h.plan(d);
    // Removing this many is beyond the default guard on members removed: reviewed here.
    const r = await h.apply(p, { allowDestroy: true, force: true });
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([...READ, 'DELETE /users/me/subscriptions']);
    expect(summary(await h.plan(d))).toEqual([]);
  });

  it('membership of a group (members and subgroups, added and removed) takes 1 call per group', async () => {
    const d = emptyDesiredState('b');
    const g = (name: string, users: string[], groups: string[] = []) => ({
      path: `b/${name}`,
      name,
      members: { mode: 'exact' as const, users, groups },
      permissions: { canManageGroup: 'role:administrators' },
    });
    d.userGroups.push(g('g-sub', emails.slice(0, 2)), g('g-top', emails.slice(2, 6), ['g-sub']));
    const created = await h.apply(await h.plan(d));
    // A new group with members, subgroups and settings: one create each, nothing else.
    expect(created.requests).toEqual([
      ...READ,
      'POST /user_groups/create',
      'POST /user_groups/create',
    ]);
    d.userGroups = [g('g-sub', emails.slice(0, 2)), g('g-top', emails.slice(4, 9), [])];
    const p = await h.plan(d);
    // Removing this many is beyond the default guard on members removed: reviewed here.
    const r = await h.apply(p, { allowDestroy: true, force: true });
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([...READ, 'POST /user_groups/{id}/members']);
    expect(summary(await h.plan(d))).toEqual([]);
  });

  it("the account's settings on many channels take 1 call; a new channel with subscribers and settings, 1 call", async () => {
    const d = emptyDesiredState('b');
    for (const name of channels.slice(0, 5))
      d.subscriptionSettings.push({
        path: `b/s/${name}`,
        channel: name,
        pinToTop: true,
        color: '#123456',
      });
    d.channels.push({
      path: 'b/new',
      name: 'brand-new',
      private: true,
      description: 'New',
      permissions: {
        canSendMessageGroup: 'role:members',
        canAdministerChannelGroup: 'role:administrators',
      },
      subscribers: { mode: 'exact', users: emails.slice(0, 15), groups: [] },
    });
    const p = await h.plan(d);
    const r = await h.apply(p);
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([
      ...READ,
      'POST /channels/create',
      'POST /users/me/subscriptions/properties',
    ]);
    expect(summary(await h.plan(d))).toEqual([]);
  });

  it('a new channel whose subscribers are not managed but whose settings are: the account is among its first subscribers', async () => {
    const d = emptyDesiredState('b');
    d.channels.push({ path: 'b/solo', name: 'solo', permissions: {} });
    d.subscriptionSettings.push({ path: 'b/s/solo', channel: 'Solo', isMuted: true });
    const p = await h.plan(d);
    const r = await h.apply(p);
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([
      ...READ,
      'POST /channels/create',
      'POST /users/me/subscriptions/properties',
    ]);
    expect(summary(await h.plan(d))).toEqual([]);
  });

  it('a saved snippet takes its create and one read of the snippets (the twin check)', async () => {
    const d = emptyDesiredState('b');
    d.savedSnippets.push({ path: 'b/snip', title: 'Batch snippet', content: 'Hello' });
    const p = await h.plan(d);
    const r = await h.apply(p);
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([...READ, 'POST /saved_snippets', 'GET /saved_snippets']);
    expect(summary(await h.plan(d))).toEqual([]);
  });

  it('a channel update with plain fields and group settings: 2 PATCHes (settings kept apart)', async () => {
    const d = emptyDesiredState('b');
    d.channels.push({
      path: 'b/c0',
      name: channels[0]!,
      description: 'Changed',
      permissions: {
        canSendMessageGroup: 'role:members',
        canResolveTopicsGroup: 'role:moderators',
      },
    });
    const p = await h.plan(d);
    const r = await h.apply(p);
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([...READ, 'PATCH /streams/{id}', 'PATCH /streams/{id}']);
  });
});

describe('before POST /channels/create (FL 372): channels are created by the subscribe call', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: 372 });
  });
  afterAll(() => h.close());

  it('with their subscribers and settings; the account only where the configuration says', async () => {
    const d = emptyDesiredState('b');
    d.channels.push(
      {
        path: 'b/team',
        name: 'team-room',
        private: true,
        permissions: { canSendMessageGroup: 'role:members' },
        subscribers: {
          mode: 'exact',
          users: ['alice@zulip-cdk.example', 'bob@zulip-cdk.example'],
          groups: [],
        },
      },
      { path: 'b/mine', name: 'my-room', description: 'Mine', permissions: {} },
    );
    d.subscriptionSettings.push({ path: 'b/s', channel: 'my-room', color: '#abcdef' });
    const p = await h.plan(d);
    const r = await h.apply(p);
    expect(r.outcome).toBe('applied');
    // The plan's apply-cost line predicts exactly what apply sends.
    expect(predictRequests(p.changes, p.server.featureLevel)).toBe(r.requests.length);
    expect(r.requests).toEqual([
      ...READ,
      'POST /users/me/subscriptions',
      'GET /streams',
      'POST /users/me/subscriptions',
      'GET /streams',
      'POST /users/me/subscriptions/properties',
    ]);
    // The applying account is not in team-room (exact members), and is in my-room.
    expect(summary(await h.plan(d))).toEqual([]);
  });
});
