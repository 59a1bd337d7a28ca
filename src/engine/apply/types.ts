import type { GuardOverrides } from '../guards';
import type { LiveSavedSnippet, LiveState } from '../../model/live-state';
import type { Change, ChangeAction, MembershipChange, UpdateChange } from '../plan-format';
import type { ResourceKind } from '../../model/kinds';
import type { ApplyContext } from './context';

/**
 * What became of one change: `applied` by this apply; `done` already (an earlier apply that was
 * interrupted, another apply at the same time, or by hand: nothing was sent for it);
 * `conflict` not written because its object changed since the plan; `failed`; `skipped` not run.
 */
export const CHANGE_STATUSES = ['applied', 'done', 'conflict', 'failed', 'skipped'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/**
 * How the apply as a whole went: `applied` (every change), `partial` (some), `nothing` (none,
 * or an error before any write), `no-changes` (the plan was empty).
 */
export const APPLY_OUTCOMES = ['applied', 'partial', 'nothing', 'no-changes'] as const;
export type ApplyOutcome = (typeof APPLY_OUTCOMES)[number];

/** One call that subscribes principals to channels (by name, after renames). */
export interface SubscribeCall {
  readonly channels: readonly string[];
  readonly principals: readonly number[];
  /** Whether the new subscribers are told (`send_new_subscription_messages`). */
  readonly notify: boolean;
}

/** One call that unsubscribes principals from channels (by name). */
export interface UnsubscribeCall {
  readonly channels: readonly string[];
  readonly principals: readonly number[];
}

/**
 * Where a plan is applied: the write side of the resource handlers (`src/provider`)
 * implements it for the Zulip API; tests implement it to inject failures. The engine decides
 * order, batching, concurrency checks and the failure contract; the target only translates.
 */
export interface ApplyTarget {
  /** The site the target writes to, to refuse a plan made for another server. */
  readonly site: string;
  /** HTTP requests made so far (for the journal and the batching tests). */
  requestCount(): number;
  /** Reads the whole live organization (fresh, never cached). */
  readLive(): Promise<LiveState>;
  /**
   * Applies one change. `fold` is the membership of an object this change creates: it is sent
   * in the same request (channel subscribers, group members and subgroups). Returns the ID of
   * a created object.
   */
  applyChange(change: Change, ctx: ApplyContext, fold?: MembershipChange): Promise<number | void>;
  /**
   * The applying account's saved snippets, fresh (to find a snippet another apply created at
   * the same time: Zulip does not keep titles unique).
   */
  readSavedSnippets?(): Promise<readonly LiveSavedSnippet[]>;
  /** Group membership: one request for all its member and subgroup changes. */
  subscribe(call: SubscribeCall, ctx: ApplyContext): Promise<void>;
  unsubscribe(call: UnsubscribeCall, ctx: ApplyContext): Promise<void>;
  /** The applying account's own subscription settings, all in one request. */
  updateSubscriptionSettings(changes: readonly UpdateChange[], ctx: ApplyContext): Promise<void>;
}

/** Options of {@link applyPlan}. */
export interface ApplyOptions {
  /** Archive, deactivate, delete, unsubscribe people, remove members, demote: refused without it. */
  readonly allowDestroy?: boolean;
  /** Apply although the plan has safety findings (not privileged changes: `allowPrivileged`). */
  readonly force?: boolean;
  /** Apply changes that give someone an administrator-level ability (`PRIVILEGED_CHANGE`). */
  readonly allowPrivileged?: boolean;
  /**
   * This run's guards, over the plan's own (`plan.guards`) and the organization's: the plan's
   * findings are checked again with them before anything is written.
   */
  readonly guards?: GuardOverrides;
  /** After a failure, go on with the changes that do not depend on it. */
  readonly keepGoing?: boolean;
  /** Progress; the engine never prints. */
  readonly onEvent?: (event: ApplyEvent) => void;
  /** Clock for the journal (tests pin it). */
  readonly now?: () => Date;
  /**
   * Stops the apply between two requests (Ctrl-C): what was sent is recorded, the rest is
   * skipped as not run, and the journal's error is `INTERRUPTED`.
   */
  readonly signal?: AbortSignal;
}

/** A failure, without secrets: the error's stable code and message. */
export interface ApplyError {
  readonly code: string;
  readonly message: string;
}

/** One change in the journal and in events. */
export interface JournalEntry {
  readonly id: string;
  readonly kind: ResourceKind;
  readonly address: string;
  readonly action: ChangeAction;
  readonly path: string | null;
  readonly status: ChangeStatus;
  /** Why it was skipped, what changed since the plan, or what went wrong. */
  readonly message?: string;
  readonly error?: ApplyError;
  /** The ID Zulip gave an object this change created. */
  readonly createdId?: number;
  /** When it went out with other changes: e.g. `POST /users/me/subscriptions (batch 1)`. */
  readonly via?: string;
}

/** The record of one apply (`--journal FILE`): plain JSON, no secrets. */
export interface ApplyJournal {
  readonly formatVersion: 1;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly server: { readonly site: string; readonly featureLevel: number };
  readonly account: { readonly userId: number; readonly email: string };
  /** The plan's digest (`planDigest`). */
  readonly planChecksum: string;
  readonly desiredDigest: string;
  readonly outcome: ApplyOutcome;
  readonly counts: Readonly<Record<ChangeStatus, number>>;
  /** HTTP requests the apply made, the two reads included. */
  readonly requestCount: number;
  /** In execution order; every change of the plan appears once. */
  readonly entries: readonly JournalEntry[];
  /** An error that stopped the apply, if any. */
  readonly error?: ApplyError;
}

/** The typed progress events of an apply (the CLI renders them; `--json` prints them). */
export type ApplyEvent =
  | {
      readonly type: 'start';
      readonly site: string;
      readonly account: string;
      readonly total: number;
      /** The plan's digest (`planDigest`), as `plan` prints it and `--expect-digest` takes it. */
      readonly digest: string;
      /** @deprecated the former name of `digest`. */
      readonly planChecksum: string;
    }
  | {
      readonly type: 'read';
      /** `verify`: before writing; `check-create`: whether a change that failed (or got no answer) landed. */
      readonly reason: 'verify' | 'check-create';
      readonly requests: number;
    }
  | {
      readonly type: 'conflict';
      readonly id: string;
      readonly address: string;
      readonly message: string;
    }
  | {
      readonly type: 'batch';
      readonly what: string;
      readonly changes: readonly string[];
    }
  | {
      readonly type: 'change';
      readonly entry: JournalEntry;
      /** Changes finished so far (this one included) and in all. */
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: 'finish';
      readonly outcome: ApplyOutcome;
      readonly counts: Readonly<Record<ChangeStatus, number>>;
      readonly requestCount: number;
    };

/** The result of {@link applyPlan}. */
export interface ApplyResult {
  readonly outcome: ApplyOutcome;
  readonly journal: ApplyJournal;
}
