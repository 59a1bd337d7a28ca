import { ZulipCdkError } from '../../model/errors';
import type { LiveState } from '../../model/live-state';
import { canonicalJson } from '../digest';
import { LiveIndex } from '../live-index';
import { plan as makePlan } from '../plan';
import type { Change, MembershipChange, Plan, PropertyChange, UpdateChange } from '../plan-format';
import { stripOrigins } from '../origins';
import { liveStateDigest } from '../plan-io';
import { formatValue } from '../render/describe';
import { currentValue, describeConflict } from './conflicts';

/**
 * What becomes of each change of a saved plan, decided at apply time by planning again from the
 * plan's own desired state against the organization as it is now (Terraform's "saved plan is
 * stale" check, made per change so that an interrupted apply can be finished):
 *
 * - `run`: the change as planned now. It is the saved change, or what is left of it (a
 *   membership or an update of which some parts already landed); never anything the saved plan
 *   does not say, and never anything the desired state does not imply now.
 * - `done`: it already landed (an earlier apply that was interrupted, another apply at the same
 *   time, or someone by hand): planning again gives nothing to do for it.
 * - `conflict`: the object changed since the plan in a way the plan did not foresee; not
 *   written, the next plan shows it.
 *
 * When the organization is exactly as it was read at plan time (`liveDigest`), planning again
 * must give exactly the saved changes: any difference means the plan file was edited, and the
 * plan is refused (`PLAN_TAMPERED`) before any request.
 */
export type Verdict =
  | { readonly status: 'run'; readonly change: Change; readonly note?: string }
  | { readonly status: 'done'; readonly message: string }
  | { readonly status: 'conflict'; readonly message: string };

export interface Reconciled {
  /** By saved change id. */
  readonly verdicts: ReadonlyMap<string, Verdict>;
  /** The plan made now from the saved plan's desired state (its findings are the true ones). */
  readonly replan: Plan;
  /** Whether the organization was exactly as at plan time. */
  readonly unchanged: boolean;
}

/** Plans again from `saved.desired` against `live` and decides each saved change. */
export function reconcile(saved: Plan, live: LiveState): Reconciled {
  const replan = makePlan(saved.desired, live, {
    ...(saved.targets ? { targets: saved.targets } : {}),
    ...(saved.guards ? { guards: saved.guards } : {}),
    ...(saved.base ? { base: saved.base } : {}),
    // The waiting periods as judged at plan time (a member may have passed one since).
    readAt: saved.server.readAt ?? null,
  });
  const unchanged = liveStateDigest(live) === saved.liveDigest;
  const now = new Map(replan.changes.map((c) => [c.id, c]));
  if (unchanged) checkUnchanged(saved, replan, now);

  const idx = new LiveIndex(live);
  const savedIds = new Set(saved.changes.map((c) => c.id));
  const verdicts = new Map<string, Verdict>();
  for (const s of saved.changes) {
    const r = now.get(s.id);
    verdicts.set(s.id, r ? compare(s, r, idx) : absent(s, replan, now, savedIds, idx));
  }
  return { verdicts, replan, unchanged };
}

function tampered(what: string): ZulipCdkError {
  return new ZulipCdkError(
    'PLAN_TAMPERED',
    `The plan does not follow from the desired state it records: ${what}. The organization is as it was when the plan was made, so the plan file was changed after it was made.`,
    {
      hint: 'Apply only a plan saved by `zulip-cdk plan --out` and not edited since; make it again from the configuration.',
    },
  );
}

/** With the organization as at plan time, planning again must give the saved plan exactly. */
function checkUnchanged(saved: Plan, replan: Plan, now: ReadonlyMap<string, Change>): void {
  for (const s of saved.changes) {
    const r = now.get(s.id);
    if (!r) throw tampered(`${s.id} is not a change the desired state implies`);
    if (canonicalJson(s) !== canonicalJson(r))
      throw tampered(`${s.id} differs from what the desired state implies`);
  }
  const savedIds = new Set(saved.changes.map((c) => c.id));
  const missing = replan.changes.filter((c) => !savedIds.has(c.id));
  if (missing.length > 0) throw tampered(`it leaves out ${missing.map((c) => c.id).join(', ')}`);
  if (canonicalJson(saved.findings) !== canonicalJson(replan.findings))
    throw tampered('its safety findings are not the ones the desired state gives');
  if (canonicalJson(saved.warnings) !== canonicalJson(replan.warnings))
    throw tampered('its warnings are not the ones the desired state gives');
  if (canonicalJson(saved.ignoredDrift ?? null) !== canonicalJson(replan.ignoredDrift ?? null))
    throw tampered('its ignored drift is not the one the desired state gives');
  if (canonicalJson(saved.permissions ?? null) !== canonicalJson(replan.permissions ?? null))
    throw tampered('who gains and who loses each permission is not what the desired state gives');
  if (canonicalJson(saved.fingerprints) !== canonicalJson(replan.fingerprints))
    throw tampered('its fingerprints are not those of the organization');
}

/**
 * The saved change with what only apply can know filled in from the one planned now (IDs of
 * objects created since, dependencies that landed): what must be equal for `r` to be `s`.
 */
function comparable(c: Change): unknown {
  // Origins (`--base`) describe the change for the reviewer; they are not what is written.
  const { dependsOn: _d, ...rest } = stripOrigins(c);
  const out = { ...rest } as Record<string, unknown>;
  if ('liveId' in out) out.liveId = null;
  if (c.action === 'membership') {
    out.addSubgroups = c.addSubgroups.map((g) => g.name);
    out.removeSubgroups = c.removeSubgroups.map((g) => g.name);
    // Who Zulip messages follows from who is added now.
    delete out.notify;
    delete out.messaged;
  }
  if (c.action === 'reorder') out.after = c.after.map((a) => a.key);
  return out;
}

function compare(s: Change, r: Change, idx: LiveIndex): Verdict {
  if (canonicalJson(comparable(s)) === canonicalJson(comparable(r)))
    return { status: 'run', change: r };
  if (s.action === 'update' && r.action === 'update') return remainderOfUpdate(s, r, idx);
  if (s.action === 'membership' && r.action === 'membership')
    return remainderOfMembership(s, r, idx);
  if (s.action === 'reorder' && r.action === 'reorder') {
    // Objects this plan created since are in the order now; the others must be as they were.
    const known = new Set(s.before);
    const target = (c: Change): string => canonicalJson(comparable({ ...c, before: [] } as Change));
    if (
      target(s) === target(r) &&
      canonicalJson(r.before.filter((k) => known.has(k))) === canonicalJson(s.before)
    )
      return { status: 'run', change: r };
  }
  return { status: 'conflict', message: describeConflict(s, idx) };
}

/** What is left of an update: the properties planned now, each exactly as saved. */
function remainderOfUpdate(s: UpdateChange, r: UpdateChange, idx: LiveIndex): Verdict {
  const bare = ({ origin: _o, ...p }: PropertyChange): string => canonicalJson(p);
  const saved = new Map(s.properties.map((p) => [p.property, bare(p)]));
  const foreign = r.properties.filter((p) => saved.get(p.property) !== bare(p));
  if (foreign.length > 0) return { status: 'conflict', message: describeConflict(s, idx) };
  // What the saved change sets that is not planned now must be there already; otherwise the
  // saved change says something the desired state does not imply.
  const planned = new Set(r.properties.map((p) => p.property));
  const obj =
    s.liveId === null
      ? undefined
      : (idx.byId(s.kind, s.liveId) as Record<string, unknown> | undefined);
  for (const p of s.properties) {
    if (planned.has(p.property) || obj === undefined) continue;
    const current = currentValue(s.kind, p.property, p.wire, obj, idx);
    if (current !== undefined && canonicalJson(current) !== canonicalJson(p.after))
      return {
        status: 'conflict',
        message: `it would set ${p.property} to ${formatValue(p.after)}, which the plan's configuration does not say (is ${formatValue(current)}); not written`,
      };
  }
  const landed = s.properties.length - r.properties.length;
  return {
    status: 'run',
    change: r,
    note: `${landed} of its ${s.properties.length} properties had already been set`,
  };
}

function namesOf(xs: readonly { name?: string; email?: string }[]): string[] {
  return xs.map((x) => x.email ?? x.name ?? '');
}

/** What is left of a membership change: additions and removals planned now, all saved ones. */
function remainderOfMembership(s: MembershipChange, r: MembershipChange, idx: LiveIndex): Verdict {
  const within = (
    now: readonly { name?: string; email?: string }[],
    then: readonly { name?: string; email?: string }[],
  ): boolean => {
    const t = new Set(namesOf(then));
    return namesOf(now).every((n) => t.has(n));
  };
  if (
    s.mode !== r.mode ||
    !within(r.add, s.add) ||
    !within(r.remove, s.remove) ||
    !within(r.addSubgroups, s.addSubgroups) ||
    !within(r.removeSubgroups, s.removeSubgroups)
  )
    return { status: 'conflict', message: describeConflict(s, idx) };
  // Additions and removals not planned now must have been made already.
  const now = membersNow(s, idx);
  if (now !== undefined) {
    const planned = new Set(namesOf([...r.add, ...r.remove]));
    const wrong = [
      ...s.add.filter((u) => !planned.has(u.email) && !now.has(idx.user(u.email)?.id ?? -1)),
      ...s.remove.filter((u) => !planned.has(u.email) && now.has(idx.user(u.email)?.id ?? -1)),
    ];
    if (wrong.length > 0)
      return {
        status: 'conflict',
        message: `it would ${s.add.includes(wrong[0]!) ? 'add' : 'remove'} ${wrong.map((u) => u.email).join(', ')}, which the plan's configuration does not say; not written`,
      };
  }
  const total = s.add.length + s.remove.length + s.addSubgroups.length + s.removeSubgroups.length;
  const left = r.add.length + r.remove.length + r.addSubgroups.length + r.removeSubgroups.length;
  return {
    status: 'run',
    change: r,
    note: `${total - left} of its ${total} additions and removals had already been made`,
  };
}

/** The user IDs of the members or subscribers now; undefined when Zulip does not show them. */
function membersNow(c: MembershipChange, idx: LiveIndex): Set<number> | undefined {
  if (c.liveId === null) return undefined;
  if (c.kind === 'channel') {
    const subs = idx.channelsById.get(c.liveId)?.subscribers;
    return subs ? new Set(subs) : undefined;
  }
  const g = idx.groupsById.get(c.liveId);
  return g ? new Set(g.members) : undefined;
}

/** Planning again gives nothing for the saved change. */
function absent(
  s: Change,
  replan: Plan,
  now: ReadonlyMap<string, Change>,
  savedIds: ReadonlySet<string>,
  idx: LiveIndex,
): Verdict {
  // A replace interrupted between its delete and its create: what is left is the create.
  if (s.action === 'replace') {
    const create = now.get(`${s.address}#create`);
    if (create?.action === 'create' && canonicalJson(create.properties) === canonicalJson(s.after))
      return {
        status: 'run',
        change: { ...create, id: s.id, action: 'create' },
        note: 'the old one had already been deleted',
      };
  }
  // Anything else planned now for the same object that the saved plan does not have: the
  // object is there, but not as the plan would leave it.
  const other = replan.changes.find((c) => c.address === s.address && !savedIds.has(c.id));
  if (other)
    return {
      status: 'conflict',
      message: `${other.action === 'create' ? 'it no longer exists' : `it changed since the plan (the next plan has ${other.id})`}; not written`,
    };
  const left = replan.warnings.find(
    (w) => w.address === s.address && w.code === 'NO_CONTENT_ACCESS',
  );
  if (left) return { status: 'conflict', message: `not written: ${left.message}` };
  if (
    'liveId' in s &&
    s.liveId !== null &&
    s.action !== 'delete' &&
    idx.byId(s.kind, s.liveId) === undefined
  )
    return { status: 'conflict', message: 'it no longer exists; not written' };
  return {
    status: 'done',
    message: 'already done (by an earlier apply, another apply, or by hand)',
  };
}
