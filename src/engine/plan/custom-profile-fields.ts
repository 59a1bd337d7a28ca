/**
 * Custom profile fields (`/realm/profile_fields`), keyed by label and ordered as declared, are
 * planned by the generic keyed planner (`./keyed.ts`) from their spec's facts
 * (`src/model/kinds/custom-profile-field.ts`: the field's properties, what is a replace, what a
 * Twitter or GitHub field keeps). What only they have is here, and runs after `planUsers`:
 * - a Twitter or GitHub account field cannot be renamed (a plan error, not a rename);
 * - at most 2 fields are shown in the profile summary, checked at each request
 *   (`display_in_profile_summary_limit_reached`): a field that leaves the summary goes first;
 * - users' values of the fields (`PATCH /users/{id}` `profile_data`) go into the user's update
 *   change `planUsers` made, or a new one;
 * - fields and other users' values need an organization administrator.
 *
 * Zulip's rules followed here (zerver/views/custom_profile_fields.py,
 * zerver/actions/custom_profile_fields.py, zerver/views/users.py `update_user_backend`):
 * removing a choice deletes the values of the users who chose it
 * (`remove_custom_profile_field_value_if_required`); deleting a field deletes all its values;
 * new fields are appended (`order = id`); `PATCH /realm/profile_fields` takes every field's ID
 * ("Invalid order mapping.").
 */
import { resourceAddress } from '../../model/address';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  PROFILE_FIELD_LIMITS,
  checkProfileTextValue,
  choiceDataOf,
  externalAccountOf,
  isDefaultExternalAccount,
  profileFieldTypeName,
} from '../../model/custom-profile-fields';
import type { ProfileFieldType } from '../../model/custom-profile-fields';
import type { DesiredCustomProfileField, DesiredUser } from '../../model/desired-state';
import { ROLES } from '../../model/kinds';
import type { LiveCustomProfileField, LiveUser } from '../../model/live-state';
import type { Change, JsonValue, PropertyChange, UpdateChange } from '../plan-format';
import type { KeyedPlan } from './keyed';
import { planKeyed, trimRenames } from './keyed';
import type { Planner } from './planner';
import { isIgnored, jsonEqual } from './planner';

const fieldAddress = (name: string): string => resourceAddress('customProfileField', name);

export const customProfileFields: KeyedPlan<DesiredCustomProfileField, LiveCustomProfileField> = {
  kind: 'customProfileField',
  // Zulip strips labels: a `renamedFrom` label names what Zulip stored.
  declared: (p) => trimRenames(p.desired.customProfileFields),
  live: (p) => p.live.customProfileFields,
  rename: (p, d, l, base) => {
    const subtype = externalAccountOf(l.fieldData)?.subtype;
    if (!isDefaultExternalAccount(subtype)) return true;
    p.errors.push(
      `${base.address} (${d.path}): Zulip names a ${DEFAULT_EXTERNAL_ACCOUNTS[subtype].name.split(' ')[0]} account field itself and cannot rename it ("Default custom field cannot be updated."); declare it as '${l.name}', or use externalAccount { subtype: 'custom', urlPattern } under a name of your own`,
    );
    return false;
  },
  replaceIs: 'delete and create again, losing every value',
};

/** Plans the fields, then what follows from them: the summary limit, users' values, rights. */
export function planCustomProfileFields(p: Planner): void {
  const after = planKeyed(p, customProfileFields);
  const changes = p.changes.filter((c) => c.kind === 'customProfileField');
  checkSummary(p, changes);
  /** Desired label → the live field holding users' values after the plan (null: a new one). */
  const valuesOf = new Map<string, LiveCustomProfileField | null>();
  for (const [d, l] of after) valuesOf.set(d.name.trim(), l);
  const valuesTouched = planProfileValues(p, valuesOf);
  if ((changes.length > 0 || valuesTouched) && p.live.me.role > ROLES.administrator)
    p.errors.push(
      `${p.desired.organization.path}: custom profile fields and other users' values of them need an organization administrator; Zulip refuses them for ${p.live.me.email} ("Must be an organization administrator", "Insufficient permission"): apply with an administrator's account`,
    );
}

/**
 * The profile summary after the plan's `changes` to the fields: more than Zulip allows is a
 * plan error; a field entering it waits for the fields leaving it.
 */
function checkSummary(p: Planner, changes: readonly Change[]): void {
  const entering: string[] = [];
  const leaving: string[] = [];
  /** Live field ID → whether it is in the summary after the plan (deleted, replaced: not). */
  const liveAfter = new Map(
    p.live.customProfileFields.map((l) => [l.id, l.displayInProfileSummary]),
  );
  let created = 0;
  for (const c of changes) {
    const props =
      c.action === 'create' ? c.properties : c.action === 'replace' ? c.after : undefined;
    if (props?.displayInProfileSummary === true) {
      entering.push(c.id);
      created++;
    }
    if (c.action === 'replace' || c.action === 'delete') liveAfter.set(c.liveId, false);
    if (c.action === 'delete' && c.before.displayInProfileSummary === true) leaving.push(c.id);
    if (c.action !== 'update' || c.liveId === null) continue;
    const summary = c.properties.find((x) => x.property === 'displayInProfileSummary');
    if (summary === undefined) continue;
    liveAfter.set(c.liveId, summary.after === true);
    (summary.after === true ? entering : leaving).push(c.id);
  }
  const shown = created + [...liveAfter.values()].filter(Boolean).length;
  const limit = PROFILE_FIELD_LIMITS.summaryFields;
  if (shown > limit)
    p.errors.push(
      `${p.desired.organization.path}: ${shown} custom profile fields would be shown in the profile summary after this plan; Zulip allows at most ${limit} ("Only 2 custom profile fields can be displayed in the profile summary."). Set displayInProfileSummary: false on the others (undeclared fields count too)`,
    );
  for (const id of entering) p.waitFor(id, leaving);
}

/** A live value in the plan's terms: text, a choice's text, a user field's e-mails (sorted). */
function liveValue(p: Planner, field: LiveCustomProfileField, raw: string | undefined): JsonValue {
  if (raw === undefined || raw === '') return null;
  const type = profileFieldTypeName(field.type);
  if (type === 'choice') return choiceDataOf(field.fieldData)[raw]?.text ?? raw;
  if (type === 'user') {
    let ids: unknown;
    try {
      ids = JSON.parse(raw);
    } catch {
      return raw;
    }
    if (!Array.isArray(ids)) return raw;
    const emails = ids.map((id) => p.idx.emailOf(Number(id))).sort();
    return emails.length === 0 ? null : emails;
  }
  return raw;
}

/**
 * Users' values: one `profile.<label>` property per field whose value differs, in the user's
 * update change. A field the user does not declare is left alone. Returns whether any changed.
 */
function planProfileValues(
  p: Planner,
  valuesOf: ReadonlyMap<string, LiveCustomProfileField | null>,
): boolean {
  const fields = new Map(p.desired.customProfileFields.map((d) => [d.name.trim(), d]));
  const updates = new Map<string, UpdateChange>();
  for (const c of p.changes) if (c.kind === 'user' && c.action === 'update') updates.set(c.id, c);
  let any = false;
  let activations: Map<number, Change> | undefined;
  const users = p.desired.users;
  const liveUsers = p.liveUsers();
  for (let i = 0; i < users.length; i++) {
    const d = users[i] as DesiredUser;
    if (!d.profile || isIgnored(d.lifecycle, 'profile')) continue;
    const l = liveUsers[i];
    if (!l) continue; // An unknown user is a plan error already (checkUsers).
    // Nothing changes on an account that is, or becomes, deactivated (as in planUsers).
    if (d.active === false || (!l.isActive && d.active !== true)) continue;
    const address = resourceAddress('user', d.email);
    const where = `${address} (${d.path})`;
    const props: PropertyChange[] = [];
    const refs = new Set<string>();
    const after = new Set<string>();
    for (const [label, value] of Object.entries(d.profile)) {
      const name = label.trim();
      const field = fields.get(name);
      if (!field) {
        p.errors.push(
          `${where}: profile names the custom profile field '${label}', which the configuration does not declare; declare it (CustomProfileField) or fix the name`,
        );
        continue;
      }
      const wanted = desiredValue(p, field, value, where);
      if (wanted === undefined) continue;
      const liveField = valuesOf.get(name);
      const before = liveField
        ? liveValue(p, liveField, l.profileData?.[String(liveField.id)])
        : null;
      if (jsonEqual(before, wanted)) continue;
      if (field.type === 'user' && Array.isArray(wanted)) {
        const ok = checkUserValue(
          p,
          name,
          wanted as string[],
          where,
          (activations ??= userActivations(p)),
        );
        if (ok === undefined) continue;
        for (const id of ok) after.add(id);
      }
      props.push({ property: `profile.${name}`, before, after: wanted });
      const fa = fieldAddress(name);
      refs.add(fa);
      after.add(`${fa}#update`);
      after.add(`${fa}#replace`);
    }
    if (props.length === 0) continue;
    any = true;
    const id = `${address}#update`;
    const existing = updates.get(id);
    if (existing) {
      existing.properties.push(...props);
      const meta = p.meta.get(id) ?? {};
      meta.refs = [...(meta.refs ?? []), ...refs];
      meta.after = [...(meta.after ?? []), ...after];
      p.meta.set(id, meta);
    } else
      p.addUpdate({ kind: 'user', address, key: l.email, path: d.path }, l.id, props, {
        refs: [...refs],
        after: [...after],
      });
  }
  return any;
}

/**
 * A declared value in the plan's terms (null clears), or undefined after a plan error: Zulip's
 * checks of `validate_user_custom_profile_field`, with the construct's path (a user field's
 * people are checked by {@link checkUserValue}, when the value changes).
 */
function desiredValue(
  p: Planner,
  field: DesiredCustomProfileField,
  value: string | readonly string[] | null,
  where: string,
): JsonValue | undefined {
  const name = field.name.trim();
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  if (field.type === 'user') {
    if (!Array.isArray(value)) {
      p.errors.push(
        `${where}: profile['${name}'] is a user field: give a list of e-mail addresses, not ${JSON.stringify(value)}`,
      );
      return undefined;
    }
    const emails: string[] = [];
    for (const e of value as readonly string[]) {
      const u: LiveUser | undefined = p.idx.user(e);
      if (!u) {
        p.errors.push(`${where}: profile['${name}']: ${e} is not a user of this organization`);
        return undefined;
      }
      emails.push(u.email);
    }
    // Who may be named is checked only when the value changes (checkUserValue): Zulip checks
    // the list it is sent, and keeps a value naming a user deactivated since.
    return [...new Set(emails)].sort();
  }
  if (typeof value !== 'string') {
    p.errors.push(`${where}: profile['${name}'] is a ${field.type} field: give text, not a list`);
    return undefined;
  }
  const type: ProfileFieldType = field.type;
  const problem =
    type === 'choice'
      ? (field.choices ?? []).includes(value)
        ? undefined
        : `'${value}' is not a valid choice for '${name}'.`
      : checkProfileTextValue(type, name, value);
  if (problem !== undefined) {
    p.errors.push(
      `${where}: profile['${name}'] = ${JSON.stringify(value)}: Zulip refuses it ("${problem}")${type === 'choice' ? `; the choices are ${(field.choices ?? []).map((c) => `'${c}'`).join(', ')}` : ''}`,
    );
    return undefined;
  }
  return value;
}

/** The plan's reactivations and deactivations of users, by live user ID. */
function userActivations(p: Planner): Map<number, Change> {
  const out = new Map<number, Change>();
  for (const c of p.changes)
    if (c.kind === 'user' && (c.action === 'reactivate' || c.action === 'deactivate'))
      out.set(c.liveId, c);
  return out;
}

/**
 * A user field's new value as zerver/lib/users.py `check_valid_user_ids` checks it when the
 * request is made (`validate_user_custom_profile_field`, test_users.py
 * `UserProfileTest.test_valid_user_id`): every user named is an active human ("User with ID N
 * is deactivated", "User with ID N is a bot"). A user this plan reactivates passes, and the
 * update waits for the reactivation (the ids returned); one it deactivates is refused (Zulip
 * would refuse the value once the deactivation is made). Undefined after a plan error.
 */
function checkUserValue(
  p: Planner,
  name: string,
  emails: readonly string[],
  where: string,
  activations: ReadonlyMap<number, Change>,
): string[] | undefined {
  const waits: string[] = [];
  for (const e of emails) {
    const u = p.idx.user(e);
    if (!u) continue; // An error already (desiredValue).
    const change = activations.get(u.id);
    const byPlan = change?.action === 'deactivate';
    const inactive = byPlan || (!u.isActive && change?.action !== 'reactivate');
    if (inactive || u.isBot) {
      const why = u.isBot
        ? `is a ${inactive ? 'deactivated ' : ''}bot`
        : `is deactivated${byPlan ? ' by this plan' : ''}`;
      // Zulip looks at deactivation before the bot flag.
      p.errors.push(
        `${where}: profile['${name}']: ${e} ${why}; Zulip refuses it ("User with ID ${u.id} is ${inactive ? 'deactivated' : 'a bot'}"): remove it`,
      );
      return undefined;
    }
    if (change) waits.push(change.id);
  }
  return waits;
}
