/** Import: a live organization as zulip-cdk TypeScript. Pure: no I/O, never prints. */
export { generateApp } from './generate';
export { IMPORT_KINDS, IMPORT_LAYOUTS, SPLIT_THRESHOLD, SUBSCRIBER_POLICIES } from './options';
export type {
  GenerateAppOptions,
  GeneratedApp,
  ImportKind,
  ImportLayout,
  SkippedObject,
  SubscriberPolicy,
} from './options';
