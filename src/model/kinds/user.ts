import type { KindSpec } from './spec';

/**
 * A user's role (and name), keyed by e-mail address, compared case-insensitively. zulip-cdk
 * never creates or removes users. Role changes are ranked last by the planner whatever this
 * rank says (the applying account keeps its rights while it works).
 */
export const user = {
  collection: 'users',
  title: 'Users',
  nouns: ['user', 'users'],
  listOrder: 6,
  rank: 7,
  compareKey: (key: string): string => key.toLowerCase(),
  removal: 'none',
  ordered: false,
  ignorable: ['role', 'fullName'],
  actions: ['update'],
} as const satisfies KindSpec;
