import type { KindSpec } from './spec';
import { exactKey } from './spec';

/**
 * A custom profile field (`/realm/profile_fields`), keyed by its label. Zulip keeps labels
 * unique per organization as stored (zerver/models/custom_profile_fields.py
 * `CustomProfileField`, `unique_together` on realm and name: case-sensitive), so comparison is
 * exact. The fields are shown in `order`: the declaration order is Zulip's order. A field's
 * type cannot change (`update_realm_custom_profile_field` takes no `field_type`): a new type
 * is a `replace` (delete, then create), which loses every user's value. Deleting a field
 * deletes every user's value of it (`do_remove_realm_custom_profile_field`).
 */
export const customProfileField = {
  collection: 'customProfileFields',
  title: 'Custom profile fields',
  nouns: ['custom profile field', 'custom profile fields'],
  listOrder: 9,
  rank: 5,
  compareKey: exactKey,
  removal: 'delete',
  ordered: true,
  ignorable: [
    'hint',
    'choices',
    'externalAccount',
    'displayInProfileSummary',
    'required',
    'editableByUser',
    'order',
  ],
  actions: ['create', 'update', 'rename', 'replace', 'delete', 'reorder'],
  // zerver/actions/custom_profile_fields.py notify_realm_custom_profile_fields; users' values
  // arrive as `realm_user` `update` events (notify_user_update_custom_profile_data).
  events: ['custom_profile_fields', 'realm_user'],
} as const satisfies KindSpec;
