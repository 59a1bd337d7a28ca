import { z } from 'zod';
import { intListSchema } from '../int-list';
import { GROUP_PERMISSION_NAMES } from '../permissions';
import type { GroupPermissionName } from '../permissions';
import {
  MembershipSchema,
  describedEntrySchema,
  livePermissions,
  describedLiveSchema,
  permissionsSchema,
} from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { NAMED_AND_DESCRIBED } from './spec';
import { exactKey } from './spec';

export const UserGroupSchema = describedEntrySchema({
  /** Direct members and subgroups. */
  members: MembershipSchema,
  permissions: permissionsSchema<GroupPermissionName>(GROUP_PERMISSION_NAMES),
  /** A deactivated group keeps its name reserved. */
  deactivated: z.boolean().optional(),
});
export type DesiredUserGroup = z.infer<typeof UserGroupSchema>;

export const LiveUserGroupSchema = describedLiveSchema({
  isSystemGroup: z.boolean(),
  deactivated: z.boolean(),
  creatorId: z.number().int().nullable(),
  /** Direct members, user IDs, sorted. */
  members: intListSchema(),
  /** Direct subgroups, group IDs, sorted. */
  subgroups: intListSchema(),
  /** By wire name, e.g. `can_manage_group`. */
  permissions: livePermissions,
});
export type LiveUserGroup = z.infer<typeof LiveUserGroupSchema>;

/** A user group. Group names are unique exactly, case included (zerver/models/groups.py `NamedUserGroup.Meta.unique_together`). */
export const userGroup = {
  collection: 'userGroups',
  construct: 'UserGroup',
  title: 'User groups',
  nouns: ['user group', 'user groups'],
  listOrder: 2,
  rank: 1,
  compareKey: exactKey,
  removal: 'deactivate',
  ordered: false,
  ignorable: ['description', 'members', 'deactivated', ...GROUP_PERMISSION_NAMES],
  actions: ['create', 'update', 'rename', 'deactivate', 'reactivate', 'membership'],
  events: ['user_group'],
  sortedBy: (d: DesiredUserGroup) => [d.name],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Deactivate undeclared user groups (Zulip keeps their names reserved). @default false */
    userGroup: false,
  },
  /** Sorted by name. */
  desiredSchema: z.array(UserGroupSchema),
  /** System groups, named groups, deactivated groups. */
  liveSchema: z.array(LiveUserGroupSchema),
  // Permissions and members are planned by the hooks in src/engine/plan/groups.ts: they name
  // other groups and users, as they are after the plan.
  keyed: {
    ...NAMED_AND_DESCRIBED,
    desired: (d) => ({ name: d.name, description: d.description ?? '' }),
    replaces: [],
    removedFlag: 'deactivated',
    followsRenames: true,
  } satisfies KeyedFacts<DesiredUserGroup, LiveUserGroup>,
} as const satisfies KindSpec;
