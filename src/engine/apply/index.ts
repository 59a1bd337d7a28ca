/**
 * Apply: run a saved plan against a target (the Zulip API through `src/provider`), in the
 * plan's order, batched, with optimistic concurrency and a journal. Pure of printing.
 */
export { applyPlan, checkApplicable, exitCodeFor, toApplyError } from './executor';
export { ApplyContext } from './context';
export { findConflicts, fingerprintKey } from './conflicts';
export type { Conflict } from './conflicts';
export { executionOrder, groupPairs, isBarrier, subscriptionCalls } from './batching';
export type { ExecutionOrder, PlannedCall } from './batching';
export { findCreated } from './landed';
export * from './types';
