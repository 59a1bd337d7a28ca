import { ORGANIZATION_PROPERTIES } from '../../model/organization-settings';
import type { OrganizationPropertyName } from '../../model/organization-settings';
import { DEFAULT_USER_SETTINGS } from '../../model/default-user-settings';
import type { DefaultUserSettingName } from '../../model/default-user-settings';
import type { LiveState } from '../../model/live-state';
import { KIND_SPECS, SUBSCRIPTION_PROPERTIES, roleName } from '../../model/kinds';
import type { SubscriptionPropertyName } from '../../model/kinds';
import { canonicalJson } from '../digest';
import { LiveIndex, retentionToNatural } from '../live-index';
import { fingerprints } from '../plan-finish';
import type { Change, JsonValue, Plan } from '../plan-format';
import { formatValue } from '../render/describe';

/** A change whose object changed since the plan: not written, reported. */
export interface Conflict {
  readonly id: string;
  readonly address: string;
  readonly message: string;
}

/** The fingerprint key a change is checked against. */
export function fingerprintKey(c: Change): string {
  return c.action === 'membership' ? `${c.address}#membership` : c.address;
}

/**
 * Recomputes the fingerprints of the objects the plan touches on a fresh read and returns the
 * changes whose object changed since the plan, each saying what changed.
 */
export function findConflicts(plan: Plan, live: LiveState): Conflict[] {
  const idx = new LiveIndex(live);
  const now = fingerprints(plan.changes, live, idx);
  const out: Conflict[] = [];
  for (const c of plan.changes) {
    const key = fingerprintKey(c);
    const then = plan.fingerprints[key];
    if (then === undefined) continue;
    if (now[key] === then) continue;
    out.push({ id: c.id, address: c.address, message: describeConflict(c, idx) });
  }
  return out;
}

/** What changed since the plan on a change's object, for the journal. */
export function describeConflict(c: Change, idx: LiveIndex): string {
  if (c.action === 'membership')
    return `its ${c.collection} changed since the plan; not written (plan again to see the difference)`;
  if (c.action === 'reorder')
    return `the ${KIND_SPECS[c.kind].nouns[1]} changed since the plan; their order was not written`;
  if (!('liveId' in c) || c.liveId === null) return 'changed since the plan; not written';
  const obj = liveObject(c, idx);
  if (obj === undefined) return 'no longer exists; not written';
  if (c.action === 'update') {
    const diffs: string[] = [];
    for (const p of c.properties) {
      const current = currentValue(c.kind, p.property, p.wire, obj, idx);
      if (current !== undefined && canonicalJson(current) !== canonicalJson(p.before))
        diffs.push(
          `${p.property} is now ${formatValue(current)} (was ${formatValue(p.before)} at plan time)`,
        );
    }
    if (diffs.length > 0) return `changed since the plan: ${diffs.join('; ')}; not written`;
  }
  return 'changed since the plan (in fields this change does not set); not written';
}

type LiveObject = Record<string, unknown>;

function liveObject(c: Change, idx: LiveIndex): LiveObject | undefined {
  if (!('liveId' in c) || c.liveId === null) return undefined;
  return idx.byId(c.kind, c.liveId) as LiveObject | undefined;
}

/** A live property in the plan's natural-key terms; undefined when we cannot tell. */
export function currentValue(
  kind: Change['kind'],
  property: string,
  wire: string | undefined,
  obj: LiveObject,
  idx: LiveIndex,
): JsonValue | undefined {
  if (property.startsWith('permissions.') && wire !== undefined) {
    const perms = obj.permissions as Record<
      string,
      Parameters<LiveIndex['groupSettingToNatural']>[0]
    >;
    const v = perms[wire];
    return v === undefined ? undefined : idx.groupSettingToNatural(v);
  }
  if (kind === 'channel') {
    if (property === 'messageRetentionDays')
      return retentionToNatural(obj.messageRetentionDays as number | null);
    if (property === 'folder') {
      const id = obj.folderId as number | null;
      return id === null ? null : (idx.foldersById.get(id)?.name ?? `folder#${id}`);
    }
  }
  if (kind === 'organizationSettings' && property in ORGANIZATION_PROPERTIES)
    return idx.organizationProperty(property as OrganizationPropertyName);
  if (kind === 'defaultUserSettings' && Object.hasOwn(DEFAULT_USER_SETTINGS, property))
    return idx.defaultUserSetting(property as DefaultUserSettingName);
  if (kind === 'user' && property === 'role') {
    const role = obj.role as number;
    return roleName(role) ?? String(role);
  }
  if (kind === 'subscriptionSettings' && property in SUBSCRIPTION_PROPERTIES)
    return obj[property as SubscriptionPropertyName] as JsonValue;
  const v = obj[property];
  return v === undefined ? undefined : (v as JsonValue);
}
