import { plan, PlanSchema } from '../../src/engine';
import type { Change, Plan, UpdateChange } from '../../src/engine';
import type { DesiredDefaultChannelGroup, DesiredState, LiveState } from '../../src/model';
import { renderText } from '../../src/engine/render/text';
import { LiveBuilder, dChannel, dGroup as dUserGroup, desired } from './fixtures';
import { thrownError } from '../support/errors';

function run(d: DesiredState, live: LiveState): Plan {
  const p = plan(d, live, {});
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}
const mine = (p: Plan): Change[] => p.changes.filter((c) => c.kind === 'defaultChannelGroup');
const find = (p: Plan, id: string): Change => {
  const c = p.changes.find((x) => x.id === id);
  if (!c) throw new Error(`no change ${id} in ${p.changes.map((x) => x.id).join(', ')}`);
  return c;
};
const dGroup = (
  name: string,
  channels: string[],
  o: Partial<DesiredDefaultChannelGroup> = {},
): DesiredDefaultChannelGroup => ({ path: `acme/${name}`, name, channels, ...o });

/** Live: public channels `backend` and `frontend`, and a group `Engineering` with backend. */
function org(): { b: LiveBuilder; backend: number; frontend: number; group: number } {
  const b = new LiveBuilder();
  const backend = b.channel('backend').id;
  const frontend = b.channel('frontend').id;
  const group = b.defaultChannelGroup('Engineering', [backend], 'For engineers');
  return { b, backend, frontend, group };
}

describe('plan: default channel groups', () => {
  it('a group that matches is no change', () => {
    const { b } = org();
    const p = run(
      desired((d) => {
        d.defaultChannelGroups.push(
          dGroup('Engineering', ['Backend'], { description: 'For engineers' }),
        );
      }),
      b.build(),
    );
    expect(mine(p)).toEqual([]);
  });

  it('creates a group with its channels, after the channel the plan creates', () => {
    const { b } = org();
    const p = run(
      desired((d) => {
        d.channels.push(dChannel('ops'));
        d.defaultChannelGroups.push(dGroup('Ops', ['ops', 'frontend']));
      }),
      b.build(),
    );
    const c = find(p, 'defaultChannelGroup["Ops"]#create');
    expect(c).toMatchObject({
      properties: { name: 'Ops', description: '', channels: ['frontend', 'ops'] },
      dependsOn: ['channel["ops"]#create'],
    });
  });

  it('updates description and channels; names are those after the plan (renames first)', () => {
    const { b, group } = org();
    const p = run(
      desired((d) => {
        d.channels.push(dChannel('server', { lifecycle: { renamedFrom: ['backend'] } }));
        d.defaultChannelGroups.push(
          dGroup('Engineering', ['frontend'], { description: 'Engineers' }),
        );
      }),
      b.build(),
    );
    const c = find(p, 'defaultChannelGroup["Engineering"]#update') as UpdateChange;
    expect(c.liveId).toBe(group);
    expect(c.properties).toEqual([
      { property: 'description', before: 'For engineers', after: 'Engineers' },
      { property: 'channels', before: ['server'], after: ['frontend'] },
    ]);
    expect(c.dependsOn).toContain('channel["server"]#rename');
    expect(renderText(p)).toContain('~ channels: ["server"] -> ["frontend"]');
  });

  it('cannot clear a description: a NOT_WRITABLE warning, no change', () => {
    const { b } = org();
    const p = run(
      desired((d) => d.defaultChannelGroups.push(dGroup('Engineering', ['backend']))),
      b.build(),
    );
    expect(mine(p)).toEqual([]);
    expect(p.warnings.filter((w) => w.code === 'NOT_WRITABLE')).toEqual([
      expect.objectContaining({
        address: 'defaultChannelGroup["Engineering"]',
        path: 'acme/Engineering',
      }),
    ]);
  });

  it('a channel that is default after the plan cannot be added (plan error on the construct)', () => {
    const b = new LiveBuilder();
    b.channel('general', { defaultChannel: true });
    const e = thrownError(() =>
      run(
        desired((d) => d.defaultChannelGroups.push(dGroup('Everyone', ['general']))),
        b.build(),
      ),
    );
    expect(e.message).toContain(
      `defaultChannelGroup["Everyone"] (acme/Everyone): channel 'general' is a default channel`,
    );
  });

  it('a channel that stops being default is added after it stops', () => {
    const b = new LiveBuilder();
    b.channel('general', { defaultChannel: true });
    const p = run(
      desired((d) => {
        d.channels.push(dChannel('general'));
        d.defaultChannelGroups.push(dGroup('Everyone', ['general']));
      }),
      b.build(),
    );
    expect(find(p, 'defaultChannelGroup["Everyone"]#create').dependsOn).toEqual([
      'channel["general"]#update',
    ]);
  });

  it('unknown and archived channels are plan errors', () => {
    const b = new LiveBuilder();
    b.channel('old', { archived: true });
    const e = thrownError(() =>
      run(
        desired((d) => d.defaultChannelGroups.push(dGroup('G', ['old', 'nope']))),
        b.build(),
      ),
    );
    expect(e.message).toContain("channel 'old' is archived");
    expect(e.message).toContain("channel 'nope' does not exist");
  });

  it('a private channel the account cannot read is left out with NO_CONTENT_ACCESS', () => {
    const { b } = org();
    b.channel('secret', { private: true, subscribers: [2] });
    const p = run(
      desired((d) =>
        d.defaultChannelGroups.push(
          dGroup('Engineering', ['backend', 'secret'], { description: 'For engineers' }),
        ),
      ),
      b.build(),
    );
    expect(mine(p)).toEqual([]);
    expect(p.warnings.find((w) => w.code === 'NO_CONTENT_ACCESS')?.message).toContain(
      'adding #secret to the group',
    );
  });

  it('a private channel the plan creates: readable when the account is subscribed or may subscribe', () => {
    const { b } = org();
    const members = (users: string[]) => ({ mode: 'exact' as const, users, groups: [] });
    const p = run(
      desired((d) => {
        d.channels.push(
          dChannel('hidden', { private: true, subscribers: members(['alice@example.com']) }),
          dChannel('mine', { private: true, subscribers: members(['owner@example.com']) }),
          dChannel('joinable', {
            private: true,
            permissions: { canSubscribeGroup: 'role:administrators' },
          }),
        );
        d.defaultChannelGroups.push(dGroup('Private', ['hidden', 'mine', 'joinable']));
      }),
      b.build(),
    );
    const c = find(p, 'defaultChannelGroup["Private"]#create');
    expect(c).toMatchObject({ properties: { channels: ['joinable', 'mine'] } });
    expect(c.dependsOn).toEqual(
      expect.arrayContaining(['channel["mine"]#create', 'channel["mine"]#membership']),
    );
    expect(p.warnings.find((w) => w.code === 'NO_CONTENT_ACCESS')?.message).toContain(
      'adding #hidden to the group',
    );
  });

  it('a private channel the plan creates, readable through a group the plan adds the account to', () => {
    const { b } = org();
    b.group('stewards', { members: [3] });
    const d = desired((d) => {
      d.userGroups.push(
        dUserGroup('stewards', {
          members: { mode: 'atLeast', users: ['owner@example.com'], groups: [] },
          lifecycle: { ignoreChanges: ['permissions'] },
        }),
      );
      d.channels.push(
        dChannel('vault', { private: true, permissions: { canSubscribeGroup: 'stewards' } }),
      );
      d.defaultChannelGroups.push(dGroup('Vault', ['vault']));
    });
    // The group's create waits for the membership, so a targeted plan keeps it.
    const p = plan(d, b.build(), { targets: ['defaultChannelGroup["Vault"]'] });
    expect(p.changes.map((c) => c.id)).toEqual([
      'userGroup["stewards"]#membership',
      'channel["vault"]#create',
      'defaultChannelGroup["Vault"]#create',
    ]);
  });

  it('renames through renamedFrom', () => {
    const { b, group } = org();
    const p = run(
      desired((d) =>
        d.defaultChannelGroups.push(
          dGroup('Engineers', ['backend'], {
            description: 'For engineers',
            lifecycle: { renamedFrom: ['Engineering'] },
          }),
        ),
      ),
      b.build(),
    );
    expect(mine(p)).toEqual([
      expect.objectContaining({
        action: 'rename',
        liveId: group,
        from: 'Engineering',
        to: 'Engineers',
      }),
    ]);
  });

  it('an undeclared group is reported; with pruning it is deleted, destructive and irreversible', () => {
    const { b } = org();
    const warnOnly = run(desired(), b.build());
    expect(mine(warnOnly)).toEqual([]);
    expect(warnOnly.warnings.map((w) => w.address)).toContain('defaultChannelGroup["Engineering"]');
    const p = run(
      desired((d) => {
        d.organization.prune.defaultChannelGroup = true;
        d.organization.maxRemovals = 0;
      }),
      b.build(),
    );
    expect(mine(p)).toEqual([
      expect.objectContaining({
        action: 'delete',
        tags: ['destructive', 'irreversible'],
        before: { name: 'Engineering', description: 'For engineers', channels: ['backend'] },
      }),
    ]);
    expect(p.findings.map((f) => f.code)).toContain('TOO_MANY_REMOVALS');
  });
});
