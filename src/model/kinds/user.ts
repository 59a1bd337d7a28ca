import { z } from 'zod';
import { entrySchema, liveSchema } from './schemas';
import type { KindSpec } from './spec';
import { ROLE_NAMES } from './vocabulary';
import type { RoleName } from './vocabulary';

export const UserSchema = entrySchema({
  email: z.string(),
  role: z.enum(ROLE_NAMES as [RoleName, ...RoleName[]]).optional(),
  fullName: z.string().optional(),
  /** false: deactivated (offboarded); true: active (reactivated if need be); absent: not managed. */
  active: z.boolean().optional(),
  /**
   * Values of custom profile fields, by field label: text (a choice field's choice by its text,
   * a date as `YYYY-MM-DD`), users by e-mail for a user field, null to clear. A field left out
   * is not managed.
   */
  profile: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.null()])).optional(),
});
export type DesiredUser = z.infer<typeof UserSchema>;

export const LiveUserSchema = liveSchema({
  /** The real address (`delivery_email` where visible, else `email`). */
  email: z.string(),
  fullName: z.string(),
  role: z.number().int(),
  isActive: z.boolean(),
  isBot: z.boolean(),
  /** A bot's owner (Zulip deactivates a user's bots with the user). */
  botOwnerId: z.number().int().optional(),
  /**
   * A bot's type (`bot_type`: 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded);
   * absent for humans (and in older snapshots).
   */
  botType: z.number().int().optional(),
  /**
   * Custom profile field values by field ID, as Zulip stores them (text; a user field's user
   * IDs as a JSON list); absent when the user has none (and in older snapshots).
   */
  profileData: z.record(z.string(), z.string()).optional(),
  /**
   * When the account was made (`date_joined`, ISO, to the minute): what Zulip's waiting period
   * for full members counts from. Absent in older snapshots.
   */
  dateJoined: z.string().optional(),
});
export type LiveUser = z.infer<typeof LiveUserSchema>;

/**
 * A user's role, name and whether the account is active, keyed by e-mail address, compared
 * case-insensitively. zulip-cdk never creates users, and deactivates or reactivates one only
 * when its `active` is declared (never by pruning). Role changes are ranked last by the
 * planner whatever this rank says (the applying account keeps its rights while it works).
 */
export const user = {
  collection: 'users',
  construct: 'User',
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
  sortedBy: (d: DesiredUser) => [d.email],
  /** Sorted by email. */
  desiredSchema: z.array(UserSchema),
  /** Active and deactivated users, bots included. */
  liveSchema: z.array(LiveUserSchema),
} as const satisfies KindSpec;
