import { GROUP_PERMISSION_NAMES } from '../permissions';
import type { DesiredUserGroup } from '../desired-state';
import type { LiveUserGroup } from '../live-state';
import type { KeyedFacts, KindSpec } from './spec';
import { BY_NAME } from './spec';
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
  events: ['user_group'],
  // Permissions and members are planned by the hooks in src/engine/plan/groups.ts: they name
  // other groups and users, as they are after the plan.
  keyed: {
    ...BY_NAME,
    desired: (d) => ({ name: d.name, description: d.description ?? '' }),
    live: (l) => ({ name: l.name, description: l.description }),
    updatable: ['name', 'description'],
    replaces: [],
    removedFlag: 'deactivated',
    followsRenames: true,
  } satisfies KeyedFacts<DesiredUserGroup, LiveUserGroup>,
} as const satisfies KindSpec;
