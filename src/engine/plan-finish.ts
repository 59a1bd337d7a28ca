import { KIND_SPECS, ROLES } from '../model/kinds';
import type { ResourceKind, RoleName } from '../model/kinds';
import type { LiveChannel, LiveState, LiveUser, LiveUserGroup } from '../model/live-state';
import type { DesiredState } from '../model/desired-state';
import { changeTags } from './change-tags';
import { guardFindings } from './guards';
import type { EffectiveGuards } from './guards';
import { sha256Json } from './digest';
import { targetMatcher } from './targets';
import type { LiveIndex } from './live-index';
import type { Change, ChangeAction, PlanSummary, PlanWarning, SafetyFinding } from './plan-format';
import { REMOVAL_ACTIONS, SUMMARY_COUNTS, SUMMARY_COUNT_OF } from './plan-format';

/** What the planner records about a change for ordering (addresses, not change ids). */
export interface ChangeMeta {
  /** Objects the change needs to exist (under their new name) first. */
  refs?: string[];
  /** Objects the change stops referencing: their removal waits for it (detach before deactivate). */
  releases?: string[];
  /** Subscription settings wait for the account's subscription to the channel. */
  afterMembershipOf?: string;
  /** Change ids that must land first when they are in the plan (a channel that stops being default). */
  after?: string[];
}

const ACTION_RANK: Record<ChangeAction, number> = {
  unarchive: 0,
  reactivate: 0,
  rename: 1,
  create: 2,
  update: 3,
  replace: 4,
  membership: 5,
  reorder: 0,
  archive: 0,
  deactivate: 0,
  delete: 0,
};

/**
 * The order apply should prefer among changes that are ready: everything that adds or changes
 * first; then removals (groups are deactivated before folders are archived before channels);
 * then reorders (they need the final set of ids); role changes last, so the applying account
 * keeps its rights while it works.
 */
function rank(c: Change): number {
  const removal = (REMOVAL_ACTIONS as readonly string[]).includes(c.action);
  let phase = 0;
  if (removal) phase = 1;
  if (c.action === 'reorder') phase = 2;
  if (c.kind === 'user') phase = 3;
  return phase * 1000 + KIND_SPECS[c.kind].rank * 10 + ACTION_RANK[c.action];
}

/** Actions on the same address that must precede an action. */
const SAME_OBJECT: Record<ChangeAction, readonly ChangeAction[]> = {
  unarchive: [],
  reactivate: [],
  create: [],
  rename: ['unarchive', 'reactivate'],
  update: ['unarchive', 'reactivate', 'rename', 'create'],
  replace: [],
  membership: ['unarchive', 'reactivate', 'rename', 'create', 'update'],
  reorder: [],
  archive: ['rename', 'update', 'membership'],
  deactivate: ['rename', 'update', 'membership'],
  delete: ['rename', 'update'],
};

/** Changes that make an object exist under its desired name. */
const BRINGS_INTO_BEING: readonly ChangeAction[] = ['create', 'rename', 'unarchive', 'reactivate'];

function computeDependencies(changes: Change[], meta: Map<string, ChangeMeta>): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const releasedBy = new Map<string, string[]>();
  for (const c of changes)
    for (const r of meta.get(c.id)?.releases ?? []) {
      const list = releasedBy.get(r) ?? [];
      list.push(c.id);
      releasedBy.set(r, list);
    }
  for (const c of changes) {
    const deps = new Set<string>();
    const m = meta.get(c.id) ?? {};
    for (const r of m.refs ?? [])
      for (const a of BRINGS_INTO_BEING) if (r !== c.address) deps.add(`${r}#${a}`);
    if (m.afterMembershipOf) {
      deps.add(`${m.afterMembershipOf}#membership`);
      deps.add(`${m.afterMembershipOf}#create`);
    }
    for (const id of m.after ?? []) deps.add(id);
    for (const a of SAME_OBJECT[c.action]) deps.add(`${c.address}#${a}`);
    if ((REMOVAL_ACTIONS as readonly string[]).includes(c.action))
      for (const id of releasedBy.get(c.address) ?? []) deps.add(id);
    if (c.action === 'reorder')
      for (const o of changes)
        if (o.kind === c.kind && o.id !== c.id && o.action !== 'update') deps.add(o.id);
    deps.delete(c.id);
    c.dependsOn = [...deps].filter((id) => byId.has(id)).sort();
  }
}

/** A binary min-heap on [rank, index], for a deterministic topological order. */
class Heap {
  private readonly items: [number, number][] = [];
  public get size(): number {
    return this.items.length;
  }
  public push(item: [number, number]): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  public pop(): [number, number] | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l]!, a[m]!)) m = l;
        if (r < a.length && less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
function less(x: [number, number], y: [number, number]): boolean {
  return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
}

/**
 * Orders changes so that every change comes after its dependencies, preferring {@link rank}.
 * A cycle (which Zulip's own rules make unlikely) is broken at the lowest-ranked change and
 * reported, rather than failing the plan.
 */
function topoSort(changes: Change[]): { sorted: Change[]; cycle: boolean } {
  const index = new Map(changes.map((c, i) => [c.id, i]));
  const indegree = changes.map((c) => c.dependsOn.length);
  const dependents = changes.map(() => [] as number[]);
  changes.forEach((c, i) => {
    for (const d of c.dependsOn) dependents[index.get(d)!]!.push(i);
  });
  const heap = new Heap();
  const done = changes.map(() => false);
  changes.forEach((c, i) => {
    if (indegree[i] === 0) heap.push([rank(c), i]);
  });
  const sorted: Change[] = [];
  let cycle = false;
  while (sorted.length < changes.length) {
    let next = heap.pop();
    if (!next) {
      cycle = true;
      let best = -1;
      changes.forEach((c, i) => {
        if (!done[i] && (best < 0 || rank(c) < rank(changes[best]!))) best = i;
      });
      next = [0, best];
    }
    const i = next[1];
    if (done[i]) continue;
    done[i] = true;
    sorted.push(changes[i]!);
    for (const j of dependents[i]!) {
      indegree[j]! -= 1;
      if (indegree[j] === 0 && !done[j]) heap.push([rank(changes[j]!), j]);
    }
  }
  return { sorted, cycle };
}

function applyTargets(changes: Change[], inTargets: (address: string) => boolean): Change[] {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const keep = new Set<string>();
  const visit = (id: string): void => {
    if (keep.has(id)) return;
    keep.add(id);
    for (const d of byId.get(id)?.dependsOn ?? []) visit(d);
  };
  for (const c of changes) if (inTargets(c.address)) visit(c.id);
  return changes.filter((c) => keep.has(c.id));
}

export function summarise(changes: readonly Change[]): PlanSummary {
  const s = Object.fromEntries(SUMMARY_COUNTS.map((count) => [count, 0])) as PlanSummary;
  for (const c of changes) s[SUMMARY_COUNT_OF[c.action]] += 1;
  s.total = changes.length;
  return s;
}

function roleText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const ADMIN_ROLES: readonly number[] = [ROLES.owner, ROLES.administrator];

function safetyFindings(
  changes: readonly Change[],
  live: LiveState,
  idx: LiveIndex,
  maxRemovals: number,
): SafetyFinding[] {
  // Owners and administrators left (NO_OWNER, TOO_FEW_*) are guards: src/engine/guards.ts.
  const findings: SafetyFinding[] = [];
  const removals = changes.filter((c) => (REMOVAL_ACTIONS as readonly string[]).includes(c.action));
  if (removals.length > maxRemovals)
    findings.push({
      code: 'TOO_MANY_REMOVALS',
      message: `the plan removes ${removals.length} object(s) (archive, deactivate or delete), more than organization.maxRemovals (${maxRemovals})`,
    });

  for (const c of changes) {
    if (c.kind !== 'user' || c.action !== 'update' || c.liveId === null) continue;
    const role = c.properties.find((p) => p.property === 'role');
    if (!role || typeof role.after !== 'string') continue;
    const before = idx.usersById.get(c.liveId)?.role ?? 0;
    const after = ROLES[role.after as RoleName];
    if (ADMIN_ROLES.includes(before) && !ADMIN_ROLES.includes(after)) {
      const self = c.liveId === live.me.userId;
      findings.push({
        code: self ? 'SELF_ADMIN_LOSS' : 'ADMIN_REMOVED',
        message: self
          ? `the applying account (${live.me.email}) would lose its ${roleText(role.before)} rights; apply could not finish or undo this`
          : `${c.key} would stop being an organization ${roleText(role.before)} (becomes ${role.after})`,
        address: c.address,
        ...(c.path !== null ? { path: c.path } : {}),
      });
    }
  }
  // The applying account's content access to private channels it manages.
  const me = live.me.userId;
  const privateAfter = new Map<string, boolean>();
  for (const c of changes) {
    if (c.kind !== 'channel') continue;
    if (c.action === 'create') privateAfter.set(c.address, c.properties.private === true);
    if (c.action === 'update') {
      const p = c.properties.find((x) => x.property === 'private');
      if (p) privateAfter.set(c.address, p.after === true);
    }
  }
  for (const c of changes) {
    if (c.kind !== 'channel' || c.action !== 'membership') continue;
    const liveChannel = c.liveId === null ? undefined : idx.channelsById.get(c.liveId);
    const isPrivate = privateAfter.get(c.address) ?? liveChannel?.private ?? false;
    if (isPrivate && c.remove.some((u) => u.id === me))
      findings.push({
        code: 'SELF_CHANNEL_ACCESS_LOSS',
        message: `the applying account (${live.me.email}) would be unsubscribed from this private channel and lose access to its content; later changes to it may fail`,
        address: c.address,
      });
  }
  for (const [address, isPrivate] of privateAfter) {
    if (!isPrivate) continue;
    const update = changes.find((c) => c.address === address && c.action === 'update');
    const membership = changes.find((c) => c.address === address && c.action === 'membership');
    const adds = membership?.action === 'membership' && membership.add.some((u) => u.id === me);
    if (update?.action === 'update' && update.liveId !== null) {
      const lc = idx.channelsById.get(update.liveId);
      const subscribed = (lc?.subscribers ?? []).includes(me);
      if (lc && !lc.private && !subscribed && !adds)
        findings.push({
          code: 'SELF_CHANNEL_ACCESS_LOSS',
          message: `the channel becomes private and the applying account (${live.me.email}) is not subscribed: it keeps metadata access only`,
          address,
        });
    }
  }
  return findings;
}

/**
 * Stable fingerprints of every live object the changes touch (`<address>` and
 * `<address>#membership`). Apply recomputes them on a fresh read to tell what changed since review.
 */
export function fingerprints(
  changes: readonly Change[],
  live: LiveState,
  idx: LiveIndex,
): Record<string, string> {
  const out: Record<string, string> = {};
  const liveObject = (kind: ResourceKind, id: number): unknown => {
    const o = idx.byId(kind, id);
    // Memberships have fingerprints of their own (`#membership`).
    if (o && kind === 'channel') {
      const { subscribers: _s, ...rest } = o as LiveChannel;
      return rest;
    }
    if (o && kind === 'userGroup') {
      const { members: _m, subgroups: _g, ...rest } = o as LiveUserGroup;
      return rest;
    }
    // A join date never changes: left out, so plans saved before it was read still match.
    if (o && kind === 'user') {
      const { dateJoined: _j, ...rest } = o as LiveUser;
      return rest;
    }
    return o;
  };
  for (const c of changes) {
    if (c.action === 'reorder') {
      const ids =
        c.kind === 'linkifier'
          ? live.linkifiers.map((l) => l.id)
          : c.kind === 'customProfileField'
            ? live.customProfileFields.map((f) => f.id)
            : live.channelFolders.map((f) => f.id);
      out[c.address] = sha256Json(ids);
      continue;
    }
    if (!('liveId' in c) || c.liveId === null) continue;
    if (c.action === 'membership') {
      const m =
        c.kind === 'channel'
          ? { subscribers: idx.channelsById.get(c.liveId)?.subscribers ?? null }
          : {
              members: idx.groupsById.get(c.liveId)?.members ?? [],
              subgroups: idx.groupsById.get(c.liveId)?.subgroups ?? [],
            };
      out[`${c.address}#membership`] = sha256Json(m);
      continue;
    }
    const obj = liveObject(c.kind, c.liveId);
    if (obj !== undefined) out[c.address] = sha256Json(obj);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Dependencies, order, targets, safety, tags and fingerprints over the planner's raw changes. */
export function finishPlan(input: {
  changes: Change[];
  meta: Map<string, ChangeMeta>;
  warnings: PlanWarning[];
  findings: SafetyFinding[];
  idx: LiveIndex;
  live: LiveState;
  targets?: readonly string[];
  desired: DesiredState;
  guards: EffectiveGuards;
}): {
  changes: Change[];
  warnings: PlanWarning[];
  findings: SafetyFinding[];
  fingerprints: Record<string, string>;
  summary: PlanSummary;
} {
  computeDependencies(input.changes, input.meta);
  const { sorted, cycle } = topoSort(input.changes);
  const warnings = [...input.warnings];
  if (cycle)
    warnings.push({
      code: 'DEPENDENCY_CYCLE',
      message:
        'some changes depend on each other in a cycle; apply may need two runs to reach the desired state',
    });
  let changes = sorted;
  let protectedFindings = input.findings;
  if (input.targets && input.targets.length > 0) {
    const inTargets = targetMatcher(input.targets);
    changes = applyTargets(sorted, inTargets);
    const kept = new Set(changes.map((c) => c.address));
    const inScope = (a: string | undefined): boolean =>
      a === undefined || kept.has(a) || inTargets(a);
    protectedFindings = protectedFindings.filter((f) => inScope(f.address));
    const filtered = warnings.filter((w) => inScope(w.address));
    warnings.length = 0;
    warnings.push(...filtered);
  }
  const findings = [
    ...protectedFindings,
    ...safetyFindings(changes, input.live, input.idx, input.guards.maxRemovals),
    ...guardFindings(changes, input.live, input.idx, input.desired, input.guards),
  ];
  const context = {
    featureLevel: input.live.server.featureLevel,
    channelEventsMessages: input.live.server.channelEventsMessages,
    changes,
  };
  for (const c of changes) c.tags = changeTags(c, context);
  return {
    changes,
    warnings,
    findings,
    fingerprints: fingerprints(changes, input.live, input.idx),
    summary: summarise(changes),
  };
}
