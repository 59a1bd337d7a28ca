/** The engine: plan (diff, ordering, safety), render, and apply (through an `ApplyTarget`). Never prints. */
export * from './plan-format';
export { plan, isIgnored } from './plan';
export {
  changeTags,
  destructiveReason,
  irreversibleReason,
  archiveOnly,
  messagedUsers,
  channelNotices,
  announcesCreation,
} from './change-tags';
export type { ChangeContext } from './change-tags';
export type { PlanOptions } from './plan';
export { DEFAULT_GUARDS, effectiveGuards, guardFindings } from './guards';
export { ORIGIN_SECTIONS, changesByOrigin, stripOrigins } from './origins';
export type { ChangesByOrigin } from './origins';
export type { EffectiveGuards, GuardOverrides } from './guards';
export { checkFeatures, findUnsupportedFeatures } from './feature-check';
export { checkTargetForms, checkTargets } from './targets';
export type { FeatureProblem } from './feature-check';
export { canonicalJson, sha256Json, desiredStateDigest } from './digest';
export { planDigest, planChecksum, hasChanges, hasDifferences, parsePlan } from './plan-io';
export { LiveIndex, normaliseChannelDescription, retentionToNatural } from './live-index';
export * from './render';
export * from './apply';
