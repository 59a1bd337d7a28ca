import type { KindSpec } from './spec';
import { exactKey } from './spec';

/**
 * The organization's settings and permissions (one per organization, keyed `organization`):
 * written with `PATCH /realm`, never created or removed. Only what the configuration declares
 * is managed, so `ignoreChanges` has nothing to add: leave a setting out to leave it alone.
 */
export const organizationSettings = {
  collection: 'organizationSettings',
  title: 'Organization settings',
  nouns: ['organization settings', 'organization settings'],
  listOrder: 8,
  rank: 3,
  compareKey: exactKey,
  removal: 'none',
  ordered: false,
  ignorable: [],
  actions: ['update'],
  // zerver/actions/realm_settings.py do_set_realm_property, do_change_realm_permission_group_setting.
  events: ['realm', 'user_group'],
} as const satisfies KindSpec;
