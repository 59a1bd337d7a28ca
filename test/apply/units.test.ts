import { changeLine, progressMode } from '../../src/cli/progress';
import { destructiveReason, executionOrder, groupPairs } from '../../src/engine';
import type { Change, MembershipChange } from '../../src/engine';

const membership = (address: string, over: Partial<MembershipChange> = {}): MembershipChange => ({
  id: `${address}#membership`,
  action: 'membership',
  kind: 'userGroup',
  address,
  key: address,
  path: null,
  dependsOn: [`${address}#create`],
  tags: [],
  liveId: null,
  collection: 'members',
  mode: 'exact',
  add: [],
  remove: [],
  addSubgroups: [],
  removeSubgroups: [],
  notify: false,
  ...over,
});
const create = (address: string, dependsOn: string[] = []): Change => ({
  id: `${address}#create`,
  action: 'create',
  kind: 'userGroup',
  address,
  key: address,
  path: null,
  dependsOn,
  tags: [],
  properties: {},
});

describe('groupPairs: the fewest subscribe calls', () => {
  const pairs = (m: Record<string, number[]>, notify = false) =>
    Object.entries(m).flatMap(([channel, users]) =>
      users.map((user) => ({ channel, user, changeId: `${channel}#m`, notify })),
    );

  it('identical principals on many channels: one call', () => {
    const calls = groupPairs(pairs({ a: [1, 2, 3], b: [1, 2, 3], c: [3, 2, 1] }));
    expect(calls.map((c) => c.call)).toEqual([
      { channels: ['a', 'b', 'c'], principals: [1, 2, 3], notify: false },
    ]);
    expect(calls[0]!.changeIds).toEqual(['a#m', 'b#m', 'c#m']);
  });

  it('different principal sets but the same channels per user: grouped by channel sets', () => {
    // Users 1-3 join a and b, user 4 joins only c: 2 calls by channel set (3 by principal set).
    const calls = groupPairs(pairs({ a: [1, 2, 3], b: [1, 2, 3, 4], c: [4] }));
    expect(calls).toHaveLength(2);
    const covered = calls.flatMap((c) =>
      c.call.channels.flatMap((ch) => c.call.principals.map((u) => `${ch}:${u}`)),
    );
    expect(covered.sort()).toEqual(['a:1', 'a:2', 'a:3', 'b:1', 'b:2', 'b:3', 'b:4', 'c:4'].sort());
  });

  it('announced and silent subscriptions never share a call', () => {
    const calls = groupPairs([...pairs({ a: [1] }), ...pairs({ b: [1] }, true)]);
    expect(calls.map((c) => [c.call.channels, c.call.notify])).toEqual([
      [['a'], false],
      [['b'], true],
    ]);
  });
});

describe('executionOrder: memberships of new objects go out with their create', () => {
  it("a new group's create waits for the subgroups its members need", () => {
    const changes: Change[] = [
      create('top'),
      create('sub'),
      membership('top', {
        dependsOn: ['top#create', 'sub#create'],
        addSubgroups: [{ name: 'sub', id: null }],
      }),
      membership('sub'),
    ];
    const o = executionOrder(changes);
    expect(o.order.map((c) => c.id)).toEqual(['sub#create', 'top#create']);
    expect(o.folds.get('top#create')?.id).toBe('top#membership');
    expect(o.foldedInto.get('sub#membership')).toBe('sub#create');
  });

  it('if folding would make a cycle, groups are created first and their members set after', () => {
    // sub's settings refer to top; top's members include sub.
    const changes: Change[] = [
      create('top'),
      create('sub', ['top#create']),
      membership('top', {
        dependsOn: ['top#create', 'sub#create'],
        addSubgroups: [{ name: 'sub', id: null }],
      }),
    ];
    const o = executionOrder(changes);
    expect(o.folds.size).toBe(0);
    expect(o.order.map((c) => c.id)).toEqual(['top#create', 'sub#create', 'top#membership']);
  });
});

describe('progress lines', () => {
  const base = { id: 'x', kind: 'channel', address: 'channel["eng"]', path: 'a/eng' } as const;

  it('say what happened to each change, in one line', () => {
    expect(changeLine({ ...base, action: 'create', status: 'applied' })).toBe(
      '✓ create channel["eng"]',
    );
    expect(
      changeLine({
        ...base,
        action: 'update',
        status: 'conflict',
        message:
          'changed since the plan: description is now "x" (was "y" at plan time); not written',
      }),
    ).toBe(
      '! update channel["eng"]: changed since the plan: description is now "x" (was "y" at plan time); not written',
    );
    expect(
      changeLine({
        ...base,
        action: 'archive',
        status: 'failed',
        error: { code: 'BAD_REQUEST', message: 'boom' },
      }),
    ).toBe('✗ archive channel["eng"]: failed: [BAD_REQUEST] boom');
    // A message that names its code already (a ZulipApiError's) is not prefixed with it again.
    expect(
      changeLine({
        ...base,
        action: 'archive',
        status: 'failed',
        error: {
          code: 'BAD_REQUEST',
          message: 'DELETE /api/v1/streams/3 failed: no (BAD_REQUEST, HTTP 400)',
        },
      }),
    ).toBe(
      '✗ archive channel["eng"]: failed: DELETE /api/v1/streams/3 failed: no (BAD_REQUEST, HTTP 400)',
    );
    expect(
      changeLine({
        ...base,
        action: 'membership',
        status: 'skipped',
        message: 'not run: apply was interrupted',
      }),
    ).toBe('- membership channel["eng"]: not run: apply was interrupted');
    expect(
      changeLine({
        id: 'channelFolder["*"]#reorder',
        kind: 'channelFolder',
        address: 'channelFolder["*"]',
        path: null,
        action: 'reorder',
        status: 'applied',
      }),
    ).toBe('✓ reorder channel folders');
    expect(
      changeLine({
        id: 'linkifier["*"]#reorder',
        kind: 'linkifier',
        address: 'linkifier["*"]',
        path: null,
        action: 'reorder',
        status: 'applied',
      }),
    ).toBe('✓ reorder linkifiers');
  });

  it('a terminal outside CI gets the bar; CI=true, pipes and --json do not', () => {
    const io = (tty: boolean, env: NodeJS.ProcessEnv) =>
      ({ stdout: { isTTY: tty }, stderr: {}, stdin: {}, env, cwd: '/' }) as never;
    expect(progressMode(io(true, {}), false)).toBe('tty');
    expect(progressMode(io(true, { CI: 'true' }), false)).toBe('plain');
    expect(progressMode(io(false, {}), false)).toBe('plain');
    expect(progressMode(io(true, {}), true)).toBe('json');
  });
});

describe('destructiveReason: what needs --allow-destroy', () => {
  const update = (before: string, after: string): Change => ({
    id: 'user["a@x"]#update',
    action: 'update',
    kind: 'user',
    address: 'user["a@x"]',
    key: 'a@x',
    path: null,
    dependsOn: [],
    tags: [],
    liveId: 1,
    properties: [{ property: 'role', before, after }],
  });
  it('demotions do, promotions do not', () => {
    expect(destructiveReason(update('administrator', 'member'))).toBe(
      'demotes a@x from administrator to member',
    );
    expect(destructiveReason(update('member', 'moderator'))).toBeUndefined();
  });
  it('removing members or subscribers does, adding does not', () => {
    const m = membership('g', { liveId: 5 });
    expect(destructiveReason({ ...m, add: [{ email: 'a@x', id: 1 }] })).toBeUndefined();
    // Counted as what they are, and named (before: "removes 1 member(s) or subgroup(s)").
    expect(destructiveReason({ ...m, removeSubgroups: [{ name: 's', id: 2 }] })).toBe(
      'removes 1 subgroup: group s',
    );
    expect(destructiveReason({ ...m, kind: 'channel', remove: [{ email: 'a@x', id: 1 }] })).toBe(
      'unsubscribes 1 user: a@x',
    );
    const people = ['a@x', 'b@x', 'c@x', 'd@x'].map((email, id) => ({ email, id }));
    expect(
      destructiveReason({ ...m, remove: people, removeSubgroups: [{ name: 's', id: 9 }] }),
    ).toBe('removes 4 members and 1 subgroup: a@x, b@x, c@x and 2 more');
    expect(destructiveReason({ ...m, remove: people.slice(0, 2) })).toBe(
      'removes 2 members: a@x and b@x',
    );
  });
});
