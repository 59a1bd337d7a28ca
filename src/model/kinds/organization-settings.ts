import { z } from 'zod';
import { ORGANIZATION_PERMISSION_NAMES } from '../permissions';
import type { OrganizationPermissionName } from '../permissions';
import { ORGANIZATION_PROPERTY_NAMES } from '../organization-settings';
import type { OrganizationPropertyName } from '../organization-settings';
import { livePermissions, permissionsSchema } from './schemas';
import type { KindSpec } from './spec';
import { exactKey } from './spec';

const organizationPropertyValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * The organization's settings and permissions (one entry at most). Only what is present is
 * managed: a property or permission left out is left as it is live (unlike the other kinds,
 * where an absent property is held at Zulip's default). Channel-valued settings hold the
 * channel's name, or null for none. The shapes of the values are checked per property
 * (`organizationPropertyProblem`) by the construct and again by the planner.
 */
export const OrganizationSettingsSchema = z.strictObject({
  path: z.string(),
  properties: z.strictObject(
    Object.fromEntries(
      ORGANIZATION_PROPERTY_NAMES.map((n) => [n, organizationPropertyValue.optional()]),
    ) as Record<OrganizationPropertyName, z.ZodOptional<typeof organizationPropertyValue>>,
  ),
  permissions: permissionsSchema<OrganizationPermissionName>(ORGANIZATION_PERMISSION_NAMES),
});
export type DesiredOrganizationSettings = z.infer<typeof OrganizationSettingsSchema>;

/**
 * The organization's settings as `POST /register` reports them (`realm_<wire>`), by wire name:
 * `properties` as sent (channels by ID, -1 for none; `null` seconds for unlimited) for the
 * properties of `ORGANIZATION_PROPERTIES`, `permissions` for `ORGANIZATION_PERMISSIONS`. A
 * setting the server does not have (an older feature level) is absent.
 */
export const LiveOrganizationSettingsSchema = z.strictObject({
  properties: z.record(z.string(), organizationPropertyValue),
  permissions: livePermissions,
});
export type LiveOrganizationSettings = z.infer<typeof LiveOrganizationSettingsSchema>;

/**
 * The organization's settings and permissions (one per organization, keyed `organization`):
 * written with `PATCH /realm`, never created or removed. Only what the configuration declares
 * is managed, so `ignoreChanges` has nothing to add: leave a setting out to leave it alone.
 */
export const organizationSettings = {
  collection: 'organizationSettings',
  construct: 'OrganizationSettings',
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
  // 'stream': the channels its settings name, by name (a rename sends only a stream event).
  events: ['realm', 'user_group', 'stream'],
  /** At most one: the organization's settings and permissions (absent in older files). */
  desiredSchema: z.array(OrganizationSettingsSchema).max(1).default([]),
  /** The organization's settings; null in snapshots made before they were read. */
  liveSchema: LiveOrganizationSettingsSchema.nullable().default(null),
} as const satisfies KindSpec;
