import type { KindSpec } from './spec';

/**
 * A user's role, name and whether the account is active, keyed by e-mail address, compared
 * case-insensitively. zulip-cdk never creates users, and deactivates or reactivates one only
 * when its `active` is declared (never by pruning). Role changes are ranked last by the
 * planner whatever this rank says (the applying account keeps its rights while it works).
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
  ignorable: ['role', 'fullName', 'active', 'profile'],
  actions: ['update', 'deactivate', 'reactivate'],
  events: ['realm_user'],
} as const satisfies KindSpec;
