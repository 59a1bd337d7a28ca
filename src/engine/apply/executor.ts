import { ZulipCdkError, isZulipCdkError } from '../../model/errors';
import type { LiveState } from '../../model/live-state';
import type {
  Change,
  CreateChange,
  MembershipChange,
  Plan,
  RemoveChange,
  SafetyFinding,
  UpdateChange,
} from '../plan-format';
import { LiveIndex } from '../live-index';
import { REMOVAL_ACTIONS } from '../plan-format';
import { checkPlanIntegrity, planDigest } from '../plan-io';
import { destructiveReason } from '../change-tags';
import { executionOrder, isBarrier, subscriptionCalls } from './batching';
import type { PlannedCall } from './batching';
import { ApplyContext } from './context';
import { findCreated } from './landed';
import { reconcile } from './reconcile';
import { plan as makePlan } from '../plan';
import type {
  ApplyError,
  ApplyJournal,
  ApplyOptions,
  ApplyOutcome,
  ApplyResult,
  ApplyTarget,
  ChangeStatus,
  JournalEntry,
} from './types';

/** The process exit code for an outcome: 0 all applied, 1 nothing applied, 3 partly applied. */
export function exitCodeFor(outcome: ApplyOutcome): number {
  switch (outcome) {
    case 'applied':
    case 'no-changes':
      return 0;
    case 'nothing':
      return 1;
    case 'partial':
      return 3;
  }
}

function normaliseSite(site: string): string {
  return site.trim().replace(/\/+$/, '').toLowerCase();
}

/** The stable code and message of an error; the client has already redacted secrets. */
export function toApplyError(e: unknown): ApplyError {
  if (isZulipCdkError(e)) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'UNEXPECTED_ERROR', message: e.message };
  return { code: 'UNEXPECTED_ERROR', message: String(e) };
}

function outcomeUnknown(e: unknown): boolean {
  if (isZulipCdkError(e, 'REQUEST_OUTCOME_UNKNOWN')) return true;
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 500;
}

/**
 * What a refused request of a target may have written before it was refused: Zulip writes some
 * requests' parts one transaction each (`PATCH /streams/{id}`'s group settings).
 */
export interface PartialWrite {
  /** Written for certain (by an earlier request of the same change). */
  readonly landed: readonly string[];
  /** Perhaps written before the refusal. */
  readonly mayHaveLanded: readonly string[];
}

/** What the batched calls of one flush did to each change they carry, by change ID. */
interface BatchResults {
  /** Changes whose call failed (Zulip refused it, or did not answer it twice). */
  readonly failed: Map<string, ApplyError>;
  /** Changes whose call was not sent (apply was interrupted). */
  readonly unsent: Set<string>;
  /** The batches that carried each change, for its journal entry. */
  readonly via: Map<string, string>;
}

function partialWriteOf(e: unknown): PartialWrite | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { landed, mayHaveLanded } = e as Partial<PartialWrite>;
  if (!Array.isArray(landed) || !Array.isArray(mayHaveLanded)) return undefined;
  if (landed.length + mayHaveLanded.length === 0) return undefined;
  return { landed, mayHaveLanded };
}

function describePartialWrite(p: PartialWrite): string {
  const parts: string[] = [];
  if (p.landed.length > 0) parts.push(`written before the refusal: ${p.landed.join(', ')}`);
  if (p.mayHaveLanded.length > 0)
    parts.push(
      `Zulip writes group settings one at a time, so these may have been written: ${p.mayHaveLanded.join(', ')}`,
    );
  return parts.join('; ');
}

/** A delete of the duplicate snippet `id` that this apply made. */
function twinDeletion(c: CreateChange, id: number): RemoveChange {
  return {
    action: 'delete',
    id: `${c.address}#delete`,
    kind: c.kind,
    address: c.address,
    key: c.key,
    path: c.path,
    dependsOn: [],
    liveId: id,
    reason: 'declared',
    before: c.properties,
    tags: ['destructive', 'irreversible'],
  };
}

/** Whether the membership folded into a create is there on an object someone else made. */
function foldLanded(fold: MembershipChange, live: LiveState, id: number): boolean {
  const idx = new LiveIndex(live);
  const userIds = fold.add.map((u) => idx.user(u.email)?.id);
  if (fold.kind === 'channel') {
    const subs = idx.channelsById.get(id)?.subscribers;
    return subs != null && userIds.every((u) => u !== undefined && subs.includes(u));
  }
  const g = idx.groupsById.get(id);
  if (!g) return false;
  return (
    userIds.every((u) => u !== undefined && g.members.includes(u)) &&
    fold.addSubgroups.every((s) => {
      const sub = idx.groupsByName.get(s.name);
      return sub !== undefined && g.subgroups.includes(sub.id);
    })
  );
}

function isMismatch(e: unknown): boolean {
  return isZulipCdkError(e, 'EXPECTATION_MISMATCH');
}

/**
 * Checks that a plan may be applied here and now, before anything is read or written: the
 * server it was made for, its safety findings (`force`) and its destructive changes
 * (`allowDestroy`). Throws a {@link ZulipCdkError} naming every reason.
 */
export function checkApplicable(plan: Plan, site: string, options: ApplyOptions = {}): void {
  if (normaliseSite(site) !== normaliseSite(plan.server.site))
    throw new ZulipCdkError(
      'PLAN_WRONG_SERVER',
      `The plan was made for ${plan.server.site}, not for ${site}.`,
      { hint: 'Apply it with the credentials of the server it was made for, or plan again here.' },
    );
  // Protected objects are never removed or replaced, not even with --force (a plan file can be
  // edited by hand; the planner itself never emits such a change).
  const protectedAddresses = new Set(
    plan.findings.filter((f) => f.code === 'PROTECTED').map((f) => f.address),
  );
  const touching = plan.changes.filter(
    (c) =>
      protectedAddresses.has(c.address) &&
      ((REMOVAL_ACTIONS as readonly string[]).includes(c.action) || c.action === 'replace'),
  );
  if (touching.length > 0)
    throw new ZulipCdkError(
      'PLAN_TOUCHES_PROTECTED',
      `The plan would ${touching.map((c) => `${c.action} ${c.address}`).join(', ')}, which the configuration protects.`,
      { hint: 'Plan again: zulip-cdk never removes or replaces a protected resource.' },
    );
  const line = (f: SafetyFinding): string =>
    `  - ${f.address ? `${f.address}: ` : ''}${f.message} [${f.code}]${f.path ? ` (at ${f.path})` : ''}`;
  const unsafe = plan.findings.filter((f) => f.code !== 'PRIVILEGED_CHANGE');
  if (unsafe.length > 0 && options.force !== true)
    throw new ZulipCdkError(
      'PLAN_UNSAFE',
      `The plan has ${unsafe.length} safety finding(s):\n${unsafe.map(line).join('\n')}`,
      { hint: 'Change the configuration, or pass --force if this is really intended.' },
    );
  const privileged = plan.findings.filter((f) => f.code === 'PRIVILEGED_CHANGE');
  if (privileged.length > 0 && options.allowPrivileged !== true)
    throw new ZulipCdkError(
      'PRIVILEGED_NOT_ALLOWED',
      `The plan has ${privileged.length} privileged change(s), giving someone an administrator-level ability:\n${privileged.map(line).join('\n')}`,
      {
        hint: 'Review who gains what, then pass --allow-privileged to apply them (--force does not).',
      },
    );
  if (options.allowDestroy !== true) {
    // Recomputed from each change, not read from its `tags` (the same function made them): a
    // plan edited by hand to drop the tag is refused all the same.
    const destructive = plan.changes
      .map((c) => ({ c, why: destructiveReason(c) }))
      .filter((x): x is { c: Change; why: string } => x.why !== undefined);
    if (destructive.length > 0)
      throw new ZulipCdkError(
        'DESTROY_NOT_ALLOWED',
        `The plan has ${destructive.length} destructive change(s):\n${destructive
          .map((x) => `  - ${x.c.address}: ${x.why}`)
          .join('\n')}`,
        { hint: 'Review them, then pass --allow-destroy to apply them.' },
      );
  }
}

/**
 * Applies a plan: refuses a plan made for another server or account, re-reads the live state
 * once and skips (and reports) every object that changed since the plan, then runs the
 * changes in the plan's order, batched (subscriptions, subscription settings; memberships of
 * new objects inside their create). Stops at the first unexpected error unless `keepGoing`;
 * a create whose outcome is unknown is repeated only after a re-read shows it did not land.
 * Never prints: progress goes to `onEvent`, the record to the returned journal.
 */
export async function applyPlan(
  plan: Plan,
  target: ApplyTarget,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const now = options.now ?? ((): Date => new Date());
  const emit = options.onEvent ?? ((): void => {});
  const startedAt = now().toISOString();
  const requestsBefore = target.requestCount();
  checkPlanIntegrity(plan);
  // With this run's own guards, the findings that count are found after the re-read below.
  const overridesGuards = options.guards !== undefined && Object.keys(options.guards).length > 0;
  checkApplicable(
    overridesGuards
      ? { ...plan, findings: plan.findings.filter((f) => f.code === 'PROTECTED') }
      : plan,
    target.site,
    options,
  );
  const checksum = planDigest(plan);
  const total = plan.changes.length;
  emit({
    type: 'start',
    site: plan.server.site,
    account: plan.account.email,
    total,
    digest: checksum,
    planChecksum: checksum,
  });

  const entries: JournalEntry[] = [];
  const byId = new Map<string, JournalEntry>();
  const journal = (outcome: ApplyOutcome, error?: ApplyError): ApplyJournal => {
    const counts: Record<ChangeStatus, number> = {
      applied: 0,
      done: 0,
      conflict: 0,
      failed: 0,
      skipped: 0,
    };
    for (const e of entries) counts[e.status] += 1;
    return {
      formatVersion: 1,
      startedAt,
      finishedAt: now().toISOString(),
      server: { site: plan.server.site, featureLevel: plan.server.featureLevel },
      account: plan.account,
      planChecksum: checksum,
      desiredDigest: plan.desiredDigest,
      outcome,
      counts,
      requestCount: target.requestCount() - requestsBefore,
      entries: [...entries],
      ...(error ? { error } : {}),
    };
  };
  const finishWith = (outcome: ApplyOutcome, error?: ApplyError): ApplyResult => {
    const j = journal(outcome, error);
    emit({ type: 'finish', outcome, counts: j.counts, requestCount: j.requestCount });
    return { outcome, journal: j };
  };
  if (total === 0) return finishWith('no-changes');

  const before = target.requestCount();
  const live = await target.readLive();
  emit({ type: 'read', reason: 'verify', requests: target.requestCount() - before });
  if (live.me.userId !== plan.account.userId)
    throw new ZulipCdkError(
      'PLAN_WRONG_ACCOUNT',
      `The plan was made as ${plan.account.email} (user ${plan.account.userId}); these credentials are ${live.me.email} (user ${live.me.userId}).`,
      { hint: 'Apply with the account that made the plan, or plan again with this one.' },
    );

  // Plan again from the plan's desired state: what already landed is done, what changed since
  // the plan is a conflict, and a plan that does not follow from its desired state is refused.
  const { verdicts, replan } = reconcile(plan, live);
  const toRun: Change[] = [];
  const notes = new Map<string, string>();
  for (const s of plan.changes) {
    const v = verdicts.get(s.id);
    if (v?.status !== 'run') continue;
    toRun.push({ ...v.change, dependsOn: s.dependsOn });
    if (v.note) notes.set(s.id, v.note);
  }
  // Safety findings and destructive changes as they are now, not as the file says; with this
  // run's guards when it gives any.
  const findings = overridesGuards
    ? makePlan(plan.desired, live, {
        ...(plan.targets ? { targets: plan.targets } : {}),
        guards: { ...plan.guards, ...options.guards },
      }).findings
    : replan.findings;
  checkApplicable({ ...plan, changes: toRun, findings }, target.site, options);

  const ctx = new ApplyContext(live, toRun);
  const exec = executionOrder(toRun);
  let stopped: ApplyError | undefined;
  const keepGoing = options.keepGoing === true;
  const interrupted = (): boolean => {
    if (options.signal?.aborted === true)
      stopped ??= { code: 'INTERRUPTED', message: 'apply was interrupted' };
    return stopped !== undefined;
  };

  const finish = (
    c: Change,
    status: ChangeStatus,
    extra: { message?: string; error?: ApplyError; createdId?: number; via?: string } = {},
  ): void => {
    if (byId.has(c.id)) return;
    const entry: JournalEntry = {
      id: c.id,
      kind: c.kind,
      address: c.address,
      action: c.action,
      path: c.path,
      status,
      ...extra,
    };
    entries.push(entry);
    byId.set(c.id, entry);
    emit({ type: 'change', entry, done: entries.length, total });
  };
  const fail = (c: Change, e: unknown): void => {
    const error = toApplyError(e);
    finish(c, 'failed', { error, message: error.message });
    const fold = exec.folds.get(c.id);
    if (fold) finish(fold, 'skipped', { message: `not run: ${c.id} failed` });
    if (!keepGoing) stopped ??= error;
  };
  const notRunWhy = (): string =>
    stopped?.code === 'INTERRUPTED'
      ? 'not run: apply was interrupted'
      : `not run: apply stopped after a failure (${stopped?.code ?? 'error'})`;
  const notRun = (c: Change): void => {
    const why = notRunWhy();
    finish(c, 'skipped', { message: why });
    const fold = exec.folds.get(c.id);
    if (fold) finish(fold, 'skipped', { message: why });
  };

  /** A fresh read after a change failed or got no answer; the context follows it. */
  const reread = async (): Promise<LiveState> => {
    const n = target.requestCount();
    const fresh = await target.readLive();
    emit({ type: 'read', reason: 'check-create', requests: target.requestCount() - n });
    ctx.setLive(fresh);
    return fresh;
  };

  const runSingle = async (c: Change): Promise<void> => {
    const fold = exec.folds.get(c.id);
    const note = notes.get(c.id);
    const applied = (id: number | void, message?: string): void => {
      if (typeof id === 'number') ctx.record(c.address, id);
      const text = [note, message].filter(Boolean).join('; ');
      finish(c, 'applied', {
        ...(typeof id === 'number' ? { createdId: id } : {}),
        ...(text ? { message: text } : {}),
      });
      if (fold) finish(fold, 'applied', { via: `sent with ${c.id}` });
    };
    /** Made by someone else meanwhile: another apply of the same plan, or by hand. */
    const madeMeanwhile = (id: number, fresh: LiveState, message: string): void => {
      ctx.record(c.address, id);
      finish(c, 'done', { message });
      if (!fold) return;
      if (foldLanded(fold, fresh, id))
        finish(fold, 'done', { message: `already made with ${c.id}` });
      else
        finish(fold, 'skipped', {
          message: `not run: ${c.id} was made meanwhile by someone else; plan again to see its members`,
        });
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const id = await target.applyChange(c, ctx, fold);
        if (c.action === 'create' && c.kind === 'savedSnippet' && typeof id === 'number') {
          const first = await earlierTwin(c.key, id);
          if (first !== undefined) {
            // Zulip does not keep snippet titles unique: two applies at once both create it.
            // The one Zulip created first stays; every later one is deleted by its creator.
            await target.applyChange(twinDeletion(c, id), ctx);
            ctx.record(c.address, first);
            finish(c, 'done', {
              message: `another apply created it at the same time (snippet ${first}); the copy this apply made was deleted`,
            });
            return;
          }
        }
        applied(id);
        return;
      } catch (e) {
        if (c.action !== 'create') {
          // Refused, or no answer: another apply of the same plan (or someone by hand) may have
          // made it meanwhile. Plan again from the plan's configuration on a fresh read: if
          // nothing is left of this change, it is done; otherwise report it as it was.
          if (await landedMeanwhile(c, e)) return;
          if (isMismatch(e)) {
            const partly = partialWriteOf(e);
            finish(c, 'conflict', {
              message:
                partly === undefined
                  ? "Zulip refused it: a setting's value changed since the plan (EXPECTATION_MISMATCH); not written"
                  : `Zulip refused it: a setting's value changed since the plan (EXPECTATION_MISMATCH); ${describePartialWrite(partly)}; plan again to see what is left`,
            });
            if (fold)
              finish(fold, 'skipped', { message: `not run: ${c.id} changed since the plan` });
            return;
          }
          fail(c, e);
          return;
        }
        if (attempt >= 2) {
          fail(c, e);
          return;
        }
        // A create may have landed (no answer), or been refused because someone else made the
        // object meanwhile (another apply of the same plan): look before anything else.
        const unknown = outcomeUnknown(e);
        let fresh: LiveState;
        try {
          fresh = await reread();
        } catch (readError) {
          fail(c, unknown ? readError : e);
          return;
        }
        const id = findCreated(c, fresh, live);
        if (id !== undefined) {
          if (unknown)
            applied(id, 'the request failed without an answer, but a re-read shows it landed');
          else
            madeMeanwhile(
              id,
              fresh,
              `made meanwhile by someone else (another apply at the same time, or by hand), so Zulip refused to make it again (${toApplyError(e).message}); plan again to check it`,
            );
          return;
        }
        if (!unknown) {
          fail(c, e);
          return;
        }
        // Not there: safe to send once more.
      }
    }
  };

  /**
   * After a change other than a create failed: true (and the change finished as done) when a
   * fresh read shows it landed, by this request or by someone else meanwhile.
   */
  const landedMeanwhile = async (c: Change, e: unknown): Promise<boolean> => {
    try {
      const fresh = await reread();
      if (reconcile(plan, fresh).verdicts.get(c.id)?.status !== 'done') return false;
    } catch {
      return false;
    }
    finish(c, 'done', {
      message: `${outcomeUnknown(e) ? 'the request failed without an answer, but' : `Zulip refused it (${toApplyError(e).message}), but`} a re-read shows it made (by this request, or meanwhile by another apply or by hand)`,
    });
    const fold = exec.folds.get(c.id);
    if (fold) finish(fold, 'skipped', { message: `not run: ${c.id} was made meanwhile` });
    return true;
  };

  const snippetsAtStart = new Set(live.savedSnippets.map((s) => s.id));
  /** A snippet with the same title that another apply created before `id`, if any. */
  const earlierTwin = async (title: string, id: number): Promise<number | undefined> => {
    if (!target.readSavedSnippets) return undefined;
    const all = await target.readSavedSnippets();
    return all
      .filter((s) => s.title === title && s.id < id && !snippetsAtStart.has(s.id))
      .map((s) => s.id)
      .sort((a, b) => a - b)[0];
  };

  for (const c of plan.changes) {
    const v = verdicts.get(c.id);
    if (v?.status === 'done') finish(c, 'done', { message: v.message });
    else if (v?.status === 'conflict') {
      emit({ type: 'conflict', id: c.id, address: c.address, message: v.message });
      finish(c, 'conflict', { message: v.message });
    }
  }
  /** Dependencies as the saved plan has them (those that landed or changed included). */
  const savedDeps = new Map(plan.changes.map((c) => [c.id, c.dependsOn]));

  const pendingMembership: MembershipChange[] = [];
  const pendingSettings: UpdateChange[] = [];
  let batchNo = 0;

  const runCalls = async <T>(
    calls: readonly PlannedCall<T>[],
    what: string,
    send: (call: T) => Promise<void>,
    { failed, unsent, via }: BatchResults,
  ): Promise<void> => {
    for (const planned of calls) {
      if (interrupted()) {
        for (const id of planned.changeIds) unsent.add(id);
        continue;
      }
      batchNo += 1;
      const label = `batch ${batchNo}: ${what}`;
      emit({ type: 'batch', what: label, changes: planned.changeIds });
      for (const id of planned.changeIds)
        via.set(id, via.has(id) ? `${via.get(id)}; ${label}` : label);
      // Subscribing and unsubscribing are idempotent in effect (already subscribed is not an
      // error), so a call whose outcome is unknown is safe to send once more.
      try {
        try {
          await send(planned.call);
        } catch (e) {
          if (!outcomeUnknown(e)) throw e;
          await send(planned.call);
        }
      } catch (e) {
        const error = toApplyError(e);
        for (const id of planned.changeIds) failed.set(id, error);
        if (!keepGoing) stopped ??= error;
      }
    }
  };

  const flush = async (): Promise<void> => {
    const memberships = pendingMembership.splice(0);
    const settings = pendingSettings.splice(0);
    const results: BatchResults = { failed: new Map(), unsent: new Set(), via: new Map() };
    const { failed, unsent, via } = results;
    if (memberships.length > 0) {
      const calls = subscriptionCalls(memberships);
      await runCalls(
        calls.subscribe,
        'POST /users/me/subscriptions',
        (call) => target.subscribe(call, ctx),
        results,
      );
      await runCalls(
        calls.unsubscribe,
        'DELETE /users/me/subscriptions',
        (call) => target.unsubscribe(call, ctx),
        results,
      );
    }
    if (settings.length > 0)
      await runCalls(
        [{ call: settings, changeIds: settings.map((s) => s.id) }],
        'POST /users/me/subscriptions/properties',
        (call) => target.updateSubscriptionSettings(call, ctx),
        results,
      );
    for (const c of [...memberships, ...settings]) {
      const error = failed.get(c.id);
      const v = via.get(c.id);
      if (error) finish(c, 'failed', { error, message: error.message, ...(v ? { via: v } : {}) });
      else if (unsent.has(c.id)) finish(c, 'skipped', { message: notRunWhy() });
      else finish(c, 'applied', v ? { via: v } : {});
    }
  };

  const pending = new Set<string>();
  for (const c of exec.order) {
    if (interrupted()) {
      notRun(c);
      continue;
    }
    const deps = exec.deps.get(c.id) ?? [];
    if (
      (pendingMembership.length > 0 || pendingSettings.length > 0) &&
      (isBarrier(c) || deps.some((d) => pending.has(d)))
    ) {
      await flush();
      pending.clear();
      if (stopped) {
        notRun(c);
        continue;
      }
    }
    const allDeps = [...deps, ...(savedDeps.get(c.id) ?? [])];
    const fold = exec.folds.get(c.id);
    if (fold) allDeps.push(...(savedDeps.get(fold.id) ?? []));
    const blocked = allDeps
      .filter((d) => d !== c.id && d !== fold?.id)
      .map((d) => byId.get(d))
      .find((e) => e && e.status !== 'applied' && e.status !== 'done');
    if (blocked) {
      const why =
        blocked.status === 'conflict'
          ? 'changed since the plan'
          : blocked.status === 'failed'
            ? 'failed'
            : 'was not applied';
      finish(c, 'skipped', { message: `not run: it depends on ${blocked.id}, which ${why}` });
      if (fold) finish(fold, 'skipped', { message: `not run: ${c.id} was not run` });
      continue;
    }
    if (c.action === 'membership' && c.kind === 'channel') {
      pendingMembership.push(c);
      pending.add(c.id);
      continue;
    }
    if (c.action === 'update' && c.kind === 'subscriptionSettings') {
      pendingSettings.push(c);
      pending.add(c.id);
      continue;
    }
    await runSingle(c);
  }
  if (pendingMembership.length > 0 || pendingSettings.length > 0) await flush();

  const applied = entries.filter((e) => e.status === 'applied').length;
  const done = entries.filter((e) => e.status === 'done').length;
  const outcome: ApplyOutcome =
    applied + done === total ? 'applied' : applied === 0 ? 'nothing' : 'partial';
  return finishWith(outcome, stopped);
}
