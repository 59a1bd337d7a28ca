import { GROUP_PERMISSION_NAMES } from '../permissions';
import type { KindSpec } from './spec';
import { exactKey } from './spec';

/** A user group. Group names are unique exactly, case included (zerver/models/groups.py `NamedUserGroup.Meta.unique_together`). */
export const userGroup = {
  collection: 'userGroups',
  title: 'User groups',
  nouns: ['user group', 'user groups'],
  listOrder: 2,
  rank: 1,
  compareKey: exactKey,
  removal: 'deactivate',
  ordered: false,
  ignorable: ['description', 'members', 'deactivated', ...GROUP_PERMISSION_NAMES],
  actions: ['create', 'update', 'rename', 'deactivate', 'reactivate', 'membership'],
} as const satisfies KindSpec;
