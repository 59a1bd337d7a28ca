/**
 * Custom profile fields (`/realm/profile_fields`), keyed by label and ordered as declared, and
 * the users' values of them (`PATCH /users/{id}` `profile_data`). Self-contained: it reads the
 * desired state, the live state and the live index, and runs after `planUsers` (users' values
 * go into the user's update change that phase made, or a new one).
 *
 * Zulip's rules followed here (zerver/views/custom_profile_fields.py,
 * zerver/actions/custom_profile_fields.py, zerver/views/users.py `update_user_backend`):
 * - a field's type cannot change (`update_realm_custom_profile_field` takes no `field_type`):
 *   a new type is a `replace`, which deletes every user's value;
 * - Twitter and GitHub account fields (`is_default_external_field`) keep the name and hint
 *   Zulip gave them: only `display_in_profile_summary`, `required` and `editable_by_user` of
 *   them change ("Default custom field cannot be updated.");
 * - at most 2 fields are shown in the profile summary, checked at each request
 *   (`display_in_profile_summary_limit_reached`): a field that leaves the summary goes first;
 * - removing a choice deletes the values of the users who chose it
 *   (`remove_custom_profile_field_value_if_required`); deleting a field deletes all its values;
 * - new fields are appended (`order = id`); `PATCH /realm/profile_fields` takes every field's
 *   ID ("Invalid order mapping.").
 */
import { resourceAddress } from '../../model/address';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  PROFILE_FIELD_LIMITS,
  checkProfileTextValue,
  choiceDataOf,
  choiceTexts,
  externalAccountOf,
  isDefaultExternalAccount,
  profileFieldTypeName,
} from '../../model/custom-profile-fields';
import type { ProfileFieldType } from '../../model/custom-profile-fields';
import type { DesiredCustomProfileField } from '../../model/desired-state';
import { ROLES } from '../../model/kinds';
import type { LiveCustomProfileField, LiveUser } from '../../model/live-state';
import type { JsonValue, PropertyChange, UpdateChange } from '../plan-format';
import { SlotOrder, matchLive } from './keyed';
import type { Planner, Props } from './planner';
import { isIgnored, jsonEqual } from './planner';

const fieldAddress = (name: string): string => resourceAddress('customProfileField', name);

/** A field's properties in the plan's terms (what a create sends, what an update compares). */
export function desiredFieldProps(d: DesiredCustomProfileField): Props {
  const out: Props = { name: d.name.trim(), type: d.type, hint: d.hint ?? '' };
  if (d.type === 'choice') out.choices = [...(d.choices ?? [])];
  if (d.type === 'external-account' && d.externalAccount)
    out.externalAccount =
      d.externalAccount.urlPattern !== undefined
        ? { subtype: d.externalAccount.subtype, urlPattern: d.externalAccount.urlPattern }
        : { subtype: d.externalAccount.subtype };
  out.displayInProfileSummary = d.displayInProfileSummary ?? false;
  out.required = d.required ?? false;
  out.editableByUser = d.editableByUser ?? true;
  return out;
}

/** A live field in the plan's terms. */
export function liveFieldProps(l: LiveCustomProfileField): Props {
  const type = profileFieldTypeName(l.type) ?? `type ${l.type}`;
  const out: Props = { name: l.name, type, hint: l.hint };
  if (type === 'choice') out.choices = choiceTexts(choiceDataOf(l.fieldData));
  if (type === 'external-account') {
    const e = externalAccountOf(l.fieldData);
    if (e) out.externalAccount = e;
  }
  out.displayInProfileSummary = l.displayInProfileSummary;
  out.required = l.required;
  out.editableByUser = l.editableByUser;
  return out;
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

/** Summary changes: fields entering the summary wait for the ones leaving it. */
interface SummaryMoves {
  readonly leaving: string[];
  readonly entering: string[];
}

export function planCustomProfileFields(p: Planner): void {
  const live = p.live.customProfileFields;
  const byName = new Map<string, LiveCustomProfileField>();
  for (const l of live) if (!byName.has(l.name)) byName.set(l.name, l);
  const declared = new Set(p.desired.customProfileFields.map((d) => d.name.trim()));
  const claimed = new Set<number>();
  const order = new SlotOrder('customProfileField');
  /** Desired name → the live field holding users' values after the plan (undefined: none yet). */
  const valuesOf = new Map<string, LiveCustomProfileField | undefined>();
  const moves: SummaryMoves = { leaving: [], entering: [] };
  let summaryAfter = 0;
  let touched = false;
  const orgPath = p.desired.organization.path;

  for (const d of p.desired.customProfileFields) {
    const name = d.name.trim();
    const address = fieldAddress(name);
    const base = { kind: 'customProfileField' as const, address, key: name, path: d.path };
    const where = `${address} (${d.path})`;
    const after = desiredFieldProps(d);
    const { live: l, renamed } = matchLive(
      'customProfileField',
      name,
      d.lifecycle?.renamedFrom?.map((f) => f.trim()),
      byName,
      declared,
      (c) => claimed.has(c.id),
    );
    if (!l) {
      if (after.displayInProfileSummary === true) {
        summaryAfter++;
        moves.entering.push(`${address}#create`);
      }
      p.addCreate(base, after);
      order.declare(name, null, d.lifecycle);
      valuesOf.set(name, undefined);
      touched = true;
      continue;
    }
    claimed.add(l.id);
    const before = liveFieldProps(l);
    const liveExternal = externalAccountOf(l.fieldData)?.subtype;
    const wantedExternal = d.externalAccount?.subtype;
    // A type Zulip cannot change in place: delete, then create (users' values are lost).
    const replace =
      before.type !== after.type ||
      (d.type === 'external-account' &&
        liveExternal !== wantedExternal &&
        (isDefaultExternalAccount(liveExternal) || isDefaultExternalAccount(wantedExternal)));
    if (replace) {
      if (d.lifecycle?.protect) {
        p.protectedFinding(
          address,
          d.path,
          'replace (delete and create again, losing every value)',
        );
        order.declare(name, l.id, d.lifecycle);
        valuesOf.set(name, l);
        if (l.displayInProfileSummary) summaryAfter++;
        continue;
      }
      if (after.displayInProfileSummary === true) {
        summaryAfter++;
        moves.entering.push(`${address}#replace`);
      }
      p.add({
        ...base,
        id: `${address}#replace`,
        action: 'replace',
        dependsOn: [],
        liveId: l.id,
        before,
        after,
      });
      // The new field is appended, like a created one.
      order.declare(name, null, d.lifecycle);
      valuesOf.set(name, undefined);
      touched = true;
      continue;
    }
    order.declare(name, l.id, d.lifecycle);
    valuesOf.set(name, l);
    const fixed = isDefaultExternalAccount(liveExternal);
    if (renamed) {
      if (fixed)
        p.errors.push(
          `${where}: Zulip names a ${DEFAULT_EXTERNAL_ACCOUNTS[liveExternal].name.split(' ')[0]} account field itself and cannot rename it ("Default custom field cannot be updated."); declare it as '${l.name}', or use externalAccount { subtype: 'custom', urlPattern } under a name of your own`,
        );
      else {
        p.addRename(base, l.id, l.name, name);
        touched = true;
      }
    }
    const props: PropertyChange[] = [];
    if (!fixed) {
      p.prop(props, d.lifecycle, 'hint', before.hint ?? '', after.hint ?? '');
      if (d.type === 'choice')
        p.prop(props, d.lifecycle, 'choices', before.choices ?? [], after.choices ?? []);
      if (d.type === 'external-account')
        p.prop(
          props,
          d.lifecycle,
          'externalAccount',
          before.externalAccount ?? null,
          after.externalAccount ?? null,
        );
    }
    for (const prop of ['displayInProfileSummary', 'required', 'editableByUser'] as const)
      p.prop(props, d.lifecycle, prop, before[prop] ?? null, after[prop] ?? null);
    const summary = props.find((x) => x.property === 'displayInProfileSummary');
    if (summary?.after === true) moves.entering.push(`${address}#update`);
    if (summary?.after === false) moves.leaving.push(`${address}#update`);
    if ((summary ? summary.after : l.displayInProfileSummary) === true) summaryAfter++;
    if (props.length > 0) touched = true;
    p.addUpdate(base, l.id, props);
  }
  for (const l of live) {
    if (claimed.has(l.id)) continue;
    const deleted = p.undeclared('customProfileField', l.name, l.id, liveFieldProps(l));
    if (deleted) {
      touched = true;
      if (l.displayInProfileSummary) moves.leaving.push(`${fieldAddress(l.name)}#delete`);
    } else {
      order.keep(l.name, l.id);
      if (l.displayInProfileSummary) summaryAfter++;
    }
  }
  if (summaryAfter > PROFILE_FIELD_LIMITS.summaryFields)
    p.errors.push(
      `${orgPath}: ${summaryAfter} custom profile fields would be shown in the profile summary after this plan; Zulip allows at most ${PROFILE_FIELD_LIMITS.summaryFields} ("Only 2 custom profile fields can be displayed in the profile summary."). Set displayInProfileSummary: false on the others (undeclared fields count too)`,
    );
  for (const id of moves.entering) {
    const meta = p.meta.get(id);
    if (meta) meta.after = [...(meta.after ?? []), ...moves.leaving];
  }
  const reorder = order.reorder(
    live,
    live.map((l) => l.name),
    orgPath,
  );
  if (reorder) {
    p.add(reorder);
    touched = true;
  }
  const valuesTouched = planProfileValues(p, valuesOf);
  if ((touched || valuesTouched) && p.live.me.role > ROLES.administrator)
    p.errors.push(
      `${orgPath}: custom profile fields and other users' values of them need an organization administrator; Zulip refuses them for ${p.live.me.email} ("Must be an organization administrator", "Insufficient permission"): apply with an administrator's account`,
    );
}

/**
 * Users' values: one `profile.<label>` property per field whose value differs, in the user's
 * update change. A field the user does not declare is left alone. Returns whether any changed.
 */
function planProfileValues(
  p: Planner,
  valuesOf: ReadonlyMap<string, LiveCustomProfileField | undefined>,
): boolean {
  const fields = new Map(p.desired.customProfileFields.map((d) => [d.name.trim(), d]));
  const updates = new Map<string, UpdateChange>();
  for (const c of p.changes) if (c.kind === 'user' && c.action === 'update') updates.set(c.id, c);
  let any = false;
  for (const d of p.desired.users) {
    if (!d.profile || isIgnored(d.lifecycle, 'profile')) continue;
    const l = p.idx.user(d.email);
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
 * checks of `validate_user_custom_profile_field` (a user field's users must be active people,
 * `check_valid_user_ids`), with the construct's path.
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
      if (!u.isActive || u.isBot) {
        p.errors.push(
          `${where}: profile['${name}']: ${e} is ${u.isBot ? 'a bot' : 'deactivated'}; Zulip refuses it ("User with ID ${u.id} is ${u.isBot ? 'a bot' : 'deactivated'}"): remove it`,
        );
        return undefined;
      }
      emails.push(u.email);
    }
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
