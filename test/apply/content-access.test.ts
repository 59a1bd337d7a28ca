/**
 * Content access the plan itself would take away in the middle of an apply
 * (src/engine/plan/content-access.ts). On a private channel the applying account is not
 * subscribed to, Zulip checks its content access for `can_add_subscribers_group`, then for
 * `can_subscribe_group` in the same request, each against the channel as changed so far
 * (zerver/views/streams.py `update_stream_backend`: "Channel content access is required."), and
 * again when subscribers are added (`add_subscriptions_backend`). A plan that takes the account
 * out of the setting giving it access leaves that change for the next plan, and two applies
 * converge where one would fail half-way.
 */
import { Channel, Organization, UserGroup } from 'zulip-cdk';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { Testing } from '../../src/testing';
import { clientFor, expectSuccess } from '../support/emulator-client';

const email = (local: string): string => `${local}@zulip-cdk.example`;

/**
 * The demo organization with #vault: private, alice its only subscriber, the owner (the
 * applying account) not subscribed but in its can_add_subscribers_group, which is its only
 * content access.
 */
async function vault(): Promise<Emulator> {
  const z = await startEmulator({ rateLimit: false });
  const owner = clientFor(z, 'owner');
  const id = (local: string): number => z.org.users.find((u) => u.email === email(local))!.id;
  expectSuccess(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'vault' }],
      invite_only: true,
      principals: [id('owner'), id('alice')],
    }),
  );
  const channelId = z.org.channels.find((c) => c.name === 'vault')!.id;
  expectSuccess(
    await owner.patch(`/streams/${channelId}`, {
      can_add_subscribers_group: { new: { direct_members: [id('owner')], direct_subgroups: [] } },
    }),
  );
  expectSuccess(await owner.delete('/users/me/subscriptions', { subscriptions: ['vault'] }));
  return z;
}

/** #vault as declared: `design` may add subscribers, `frontend` may subscribe. */
function declared(subscribers: string[]): Organization {
  const o = new Organization(Testing.app(), 'acme');
  const design = new UserGroup(o, 'design', {
    name: 'design',
    members: ['dave', 'erin'].map(email),
  });
  const frontend = new UserGroup(o, 'frontend', {
    name: 'frontend',
    members: [email('carol')],
  });
  new Channel(o, 'vault', {
    name: 'vault',
    private: true,
    subscribers: { users: subscribers.map(email) },
    canAddSubscribersGroup: design,
    canSubscribeGroup: frontend,
    ignoreChanges: ['description', 'canAdministerChannelGroup'],
  });
  return o;
}

describe("a plan that would take the applying account's content access away half-way", () => {
  it('leaves can_add_subscribers_group for the next plan: the later setting and the new subscriber go first, and two applies converge', async () => {
    const z = await vault();
    try {
      const first = await Testing.planAndApply(declared(['alice', 'bob']), { emulator: z });
      const update = first.plan.changes.find((c) => c.id === 'channel["vault"]#update');
      expect(update?.action === 'update' && update.properties.map((p) => p.property)).toEqual([
        'permissions.canSubscribeGroup',
      ]);
      expect(first.plan.changes.some((c) => c.id === 'channel["vault"]#membership')).toBe(true);
      const warning = first.plan.warnings.find((w) => w.code === 'NO_CONTENT_ACCESS');
      expect(warning?.message).toContain(
        'left out of this plan, for the next one: changing who may add subscribers (can_add_subscribers_group)',
      );
      expect(warning?.message).toContain(
        'Zulip checks that access again for what follows in the same apply: changing who may subscribe (can_subscribe_group).',
      );
      expect(first.result.outcome).toBe('applied');
      // The next plan makes the change left out; then nothing is left.
      const second = await Testing.planAndApply(declared(['alice', 'bob']), { emulator: z });
      expect(second.plan.changes.map((c) => c.id)).toEqual(['channel["vault"]#update']);
      expect(second.plan.warnings.filter((w) => w.code === 'NO_CONTENT_ACCESS')).toEqual([]);
      expect(second.result.outcome).toBe('applied');
      expect(second.converged).toBe(true);
    } finally {
      await z.close();
    }
  });

  it('only new subscribers after it: the update that would take the access away waits, whole', async () => {
    const z = await vault();
    try {
      await Testing.planAndApply(declared(['alice', 'bob']), { emulator: z });
      // Back to the owner as the only holder, then a plan that changes only that setting and
      // adds a subscriber.
      const owner = clientFor(z, 'owner');
      const vaultId = z.org.channels.find((c) => c.name === 'vault')!.id;
      const ownerId = z.org.users.find((u) => u.email === email('owner'))!.id;
      const frontend = z.org.groups.find((g) => g.name === 'frontend')!.id;
      expectSuccess(
        await owner.patch(`/streams/${vaultId}`, {
          can_add_subscribers_group: { new: { direct_members: [ownerId], direct_subgroups: [] } },
        }),
      );
      expect(z.org.channels.find((c) => c.id === vaultId)?.settings.can_subscribe_group).toBe(
        frontend,
      );
      const next = await Testing.planAndApply(declared(['alice', 'bob', 'dave']), { emulator: z });
      expect(next.plan.changes.map((c) => c.id)).toEqual(['channel["vault"]#membership']);
      expect(next.result.outcome).toBe('applied');
      const last = await Testing.planAndApply(declared(['alice', 'bob', 'dave']), { emulator: z });
      expect(last.plan.changes.map((c) => c.id)).toEqual(['channel["vault"]#update']);
      expect(last.converged).toBe(true);
    } finally {
      await z.close();
    }
  });
});
