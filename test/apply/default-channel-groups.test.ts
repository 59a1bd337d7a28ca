/**
 * Default channel groups end to end against the embedded server: created with channels the
 * same plan creates, renamed with a channel renamed in the same plan, channels added and
 * removed, a description changed, then pruned; every stage re-plans empty. At Zulip 10.2's
 * feature level, Zulip 11's and the newest.
 */
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { FEATURE_LEVELS } from '../../src/model/features';
import { readLiveState } from '../../src/provider/read-live-state';
import { harness, summary } from './helpers';

function stage(n: 1 | 2 | 3): DesiredState {
  const d = emptyDesiredState('dcg');
  const ch = (name: string, renamedFrom?: string) => ({
    path: `dcg/${name}`,
    name,
    permissions: {},
    ...(renamedFrom ? { lifecycle: { renamedFrom: [renamedFrom] } } : {}),
  });
  d.channels.push(ch(n === 1 ? 'dcg-a' : 'dcg-a2', n === 1 ? undefined : 'dcg-a'));
  d.channels.push(ch('dcg-b'), ch('dcg-c'));
  if (n === 1)
    d.defaultChannelGroups.push({
      path: 'dcg/group',
      name: 'Group one',
      description: 'first',
      channels: ['dcg-a', 'dcg-b'],
    });
  if (n === 2)
    d.defaultChannelGroups.push({
      path: 'dcg/group',
      name: 'Group 1',
      description: 'second',
      channels: ['dcg-a2', 'dcg-c'],
      lifecycle: { renamedFrom: ['Group one'] },
    });
  if (n === 3) d.organization.prune.defaultChannelGroup = true;
  return d;
}

describe.each([FEATURE_LEVELS.zulip10, FEATURE_LEVELS.zulip11, FEATURE_LEVELS.newest])(
  'default channel groups at feature level %i',
  (fl) => {
    it('create, rename and change, prune: each stage converges', async () => {
      const h = await harness({ featureLevel: fl });
      try {
        const one = await h.converge(stage(1));
        expect(summary(one.first)).toContain('create defaultChannelGroup["Group one"]');
        expect(summary(one.after)).toEqual([]);
        let live = await readLiveState(h.client);
        const name = (id: number): string => live.channels.find((c) => c.id === id)!.name;
        expect(
          live.defaultChannelGroups.map((g) => [g.name, g.description, g.channelIds.map(name)]),
        ).toEqual([['Group one', 'first', ['dcg-a', 'dcg-b']]]);

        const two = await h.converge(stage(2));
        expect(summary(two.first)).toEqual(
          expect.arrayContaining([
            'rename defaultChannelGroup["Group 1"]',
            'update defaultChannelGroup["Group 1"]',
            'rename channel["dcg-a2"]',
          ]),
        );
        expect(two.result.outcome).toBe('applied');
        expect(summary(two.after)).toEqual([]);
        live = await readLiveState(h.client);
        expect(
          live.defaultChannelGroups.map((g) => [g.name, g.description, g.channelIds.map(name)]),
        ).toEqual([['Group 1', 'second', ['dcg-a2', 'dcg-c']]]);

        const three = await h.converge(stage(3));
        expect(summary(three.first)).toEqual(['delete defaultChannelGroup["Group 1"]']);
        expect(summary(three.after)).toEqual([]);
        expect((await readLiveState(h.client)).defaultChannelGroups).toEqual([]);
      } finally {
        await h.close();
      }
    });
  },
);

describe('default channel groups: a hand change after review', () => {
  it('is reported as a conflict, not overwritten', async () => {
    const h = await harness();
    try {
      await h.converge(stage(1));
      const saved = await h.plan({
        ...stage(1),
        defaultChannelGroups: [
          {
            path: 'dcg/group',
            name: 'Group one',
            description: 'reviewed',
            channels: ['dcg-a', 'dcg-b'],
          },
        ],
      });
      expect(summary(saved)).toEqual(['update defaultChannelGroup["Group one"]']);
      // Someone changes the group by hand after the plan was reviewed.
      const id = (await readLiveState(h.client)).defaultChannelGroups[0]!.id;
      await h.client.updateDefaultStreamGroupInfo(id, { new_description: 'by hand' });
      const r = await h.apply(saved);
      expect(r.journal.entries.find((x) => x.id === saved.changes[0]!.id)?.status).toBe('conflict');
      expect((await readLiveState(h.client)).defaultChannelGroups[0]!.description).toBe('by hand');
    } finally {
      await h.close();
    }
  });
});
