/**
 * Custom profile fields and users' values of them: zerver/views/custom_profile_fields.py
 * (`list_realm_custom_profile_fields`, `create_realm_custom_profile_field`,
 * `update_realm_custom_profile_field`, `delete_realm_custom_profile_field`,
 * `reorder_realm_custom_profile_fields`, `update_user_custom_profile_data`,
 * `remove_user_custom_profile_data`), zerver/actions/custom_profile_fields.py for what they
 * change and the events they send, zerver/lib/users.py `validate_user_custom_profile_data` for
 * values. The rules on a field's data and on values are the model's (src/model/custom-profile-fields.ts).
 */
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  PROFILE_FIELD_LIMITS,
  PROFILE_FIELD_TYPES,
  checkChoiceFieldData,
  checkExternalAccountFieldData,
  checkProfileFieldNameAndHint,
  checkProfileTextValue,
  choiceDataOf,
  isDefaultExternalAccount,
  parseFieldData,
  profileFieldTypeName,
} from '../../model/custom-profile-fields';
import { badRequest, missingArgument } from '../errors';
import { userById } from '../indexes';
import { expectDict, expectInt, expectIntList, expectList } from '../params';
import { isAdmin } from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredCustomProfileField, StoredUser } from '../state';
import { renderMarkdown } from '../views';
import { pathInt, requireAdmin, requireHuman } from './common';

/** The organization's fields (absent in older state files; reading does not add the list). */
export function profileFields(org: OrgState): readonly StoredCustomProfileField[] {
  return org.customProfileFields ?? [];
}

/** `custom_profile_fields_for_realm`: by `order`. */
function sortedFields(org: OrgState): StoredCustomProfileField[] {
  return [...profileFields(org)].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** `CustomProfileField.as_dict`: `display_in_profile_summary` only when true. */
export function profileFieldToApi(f: StoredCustomProfileField): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    name: f.name,
    type: f.fieldType,
    hint: f.hint,
    field_data: f.fieldData,
    order: f.order,
    required: f.required,
    editable_by_user: f.editableByUser,
  };
  if (f.displayInProfileSummary) out.display_in_profile_summary = true;
  return out;
}

/** The fields in display order, as the API lists them. */
export function profileFieldsToApi(org: OrgState): Record<string, unknown>[] {
  return sortedFields(org).map(profileFieldToApi);
}

/**
 * `custom_profile_field_types` of `POST /register` (`CustomProfileField.ALL_FIELD_TYPES`,
 * sorted by display name): keyword → `{id, name}`.
 */
export const PROFILE_FIELD_TYPES_FOR_REGISTER: Record<string, { id: number; name: string }> = {
  DATE: { id: 4, name: 'Date' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  URL: { id: 5, name: 'Link' },
  SELECT: { id: 3, name: 'List of options' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  USER: { id: 6, name: 'Users' },
};

/** `notify_realm_custom_profile_fields`: the whole list, to every active user. */
function fieldsEvent(ctx: RequestContext): void {
  ctx.events.push({
    users: 'all',
    event: { type: 'custom_profile_fields', fields: profileFieldsToApi(ctx.org) },
  });
}

/**
 * `field_data` as pydantic's `Json[ProfileFieldData]` (`dict[str, dict[str, str] | str]`)
 * parses it, with its messages.
 */
function readFieldData(ctx: RequestContext): Record<string, unknown> | undefined {
  const raw = ctx.params.json('field_data');
  if (raw === undefined) return undefined;
  const data = expectDict(raw, 'field_data');
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === 'string') continue;
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw badRequest(`field_data["${k}"]["dict[str,str]"] is not a dict`);
    for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
      if (typeof v2 !== 'string')
        throw badRequest(`field_data["${k}"]["dict[str,str]"]["${k2}"] is not a string`);
  }
  return data;
}

/** `Json[int]` for `field_type`, required. */
function readFieldType(ctx: RequestContext): number {
  const t = ctx.params.int('field_type');
  if (t === undefined) throw missingArgument('field_type');
  return t;
}

/** `validate_custom_field_data`: choices, or an external account. */
function validateFieldData(type: number, data: Record<string, unknown>): void {
  let problem: string | undefined;
  if (type === PROFILE_FIELD_TYPES.choice) problem = checkChoiceFieldData(data);
  else if (type === PROFILE_FIELD_TYPES['external-account'])
    problem = checkExternalAccountFieldData(data);
  if (problem !== undefined) throw badRequest(problem);
}

/** `is_default_external_field`. */
function isDefaultExternal(type: number, data: Record<string, unknown>): boolean {
  return (
    type === PROFILE_FIELD_TYPES['external-account'] &&
    isDefaultExternalAccount(typeof data.subtype === 'string' ? data.subtype : undefined)
  );
}

/** `validate_custom_profile_field`: data, then name and hint, then type, then the summary. */
function validateField(
  name: string,
  hint: string,
  type: number,
  data: Record<string, unknown>,
  summary: boolean,
): void {
  validateFieldData(type, data);
  if (!isDefaultExternal(type, data)) {
    const problem = checkProfileFieldNameAndHint(name, hint);
    if (problem !== undefined) throw badRequest(problem);
  }
  const word = profileFieldTypeName(type);
  if (word === undefined) throw badRequest('Invalid field type.');
  // validate_display_in_profile_summary_field
  if (summary && (word === 'long-text' || word === 'user'))
    throw badRequest('Field type not supported for display in profile summary.');
}

/** `display_in_profile_summary_limit_reached`. */
function summaryLimitReached(org: OrgState, exceptId?: number): boolean {
  return (
    profileFields(org).filter((f) => f.displayInProfileSummary && f.id !== exceptId).length >=
    PROFILE_FIELD_LIMITS.summaryFields
  );
}

const labelTaken = (): Error => badRequest('A field with that label already exists.');

function create(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  // typed_endpoint parses the parameters in the signature's order.
  const p = ctx.params;
  const summary = p.bool('display_in_profile_summary') ?? false;
  const editable = p.bool('editable_by_user') ?? true;
  const data = readFieldData(ctx) ?? {};
  const type = readFieldType(ctx);
  const hintIn = p.string('hint') ?? '';
  const nameIn = p.string('name', { strip: true }) ?? '';
  const required = p.bool('required') ?? false;
  if (summary && summaryLimitReached(ctx.org))
    throw badRequest('Only 2 custom profile fields can be displayed in the profile summary.');
  validateField(nameIn, hintIn, type, data, summary);
  // try_add_realm_default_custom_profile_field names the field itself.
  const subtype = typeof data.subtype === 'string' ? data.subtype : '';
  const fixed = isDefaultExternal(type, data)
    ? DEFAULT_EXTERNAL_ACCOUNTS[subtype as 'twitter' | 'github']
    : undefined;
  const name = fixed ? fixed.name : nameIn;
  const fields = (ctx.org.customProfileFields ??= []);
  // The (realm, name) unique constraint: an IntegrityError.
  if (fields.some((f) => f.name === name)) throw labelTaken();
  const id = nextId(ctx.org);
  fields.push({
    id,
    name,
    fieldType: type,
    hint: fixed ? fixed.hint : hintIn,
    fieldData:
      fixed !== undefined
        ? JSON.stringify({ subtype })
        : type === PROFILE_FIELD_TYPES.choice || type === PROFILE_FIELD_TYPES['external-account']
          ? JSON.stringify(data)
          : '',
    // `order = id` after the save: new fields come last.
    order: id,
    displayInProfileSummary: summary,
    required,
    editableByUser: editable,
  });
  fieldsEvent(ctx);
  return { id };
}

/** The realm's field by ID, else "Field id N not found." */
function accessField(ctx: RequestContext, id: number): StoredCustomProfileField {
  const f = profileFields(ctx.org).find((x) => x.id === id);
  if (!f) throw badRequest(`Field id ${id} not found.`);
  return f;
}

function update(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const p = ctx.params;
  const summary = p.bool('display_in_profile_summary');
  const editable = p.bool('editable_by_user');
  const data = readFieldData(ctx);
  const hint = p.string('hint');
  const name = p.string('name', { strip: true });
  const required = p.bool('required');
  const field = accessField(ctx, pathInt(ctx, 'field_id'));
  if (summary === true && summaryLimitReached(ctx.org, field.id))
    throw badRequest('Only 2 custom profile fields can be displayed in the profile summary.');
  const stored = parseFieldData(field.fieldData) ?? {};
  // update_only_display_in_profile_summary: a Twitter or GitHub field keeps name, hint, data.
  if (
    isDefaultExternal(field.fieldType, stored) &&
    ((name !== undefined && name !== field.name) ||
      (hint !== undefined && hint !== field.hint) ||
      (data !== undefined && JSON.stringify(sortKeys(data)) !== JSON.stringify(sortKeys(stored))))
  )
    throw badRequest('Default custom field cannot be updated.');
  // validate_custom_profile_field_update: what is not sent is the field's own.
  validateField(
    name ?? field.name,
    hint ?? field.hint,
    field.fieldType,
    data ?? stored,
    summary ?? field.displayInProfileSummary,
  );
  if (
    name !== undefined &&
    name !== field.name &&
    profileFields(ctx.org).some((f) => f.name === name)
  )
    throw labelTaken();
  // try_update_realm_custom_profile_field
  if (name !== undefined) field.name = name;
  if (hint !== undefined) field.hint = hint;
  if (required !== undefined) field.required = required;
  if (editable !== undefined) field.editableByUser = editable;
  if (summary !== undefined) field.displayInProfileSummary = summary;
  if (
    field.fieldType === PROFILE_FIELD_TYPES.choice ||
    field.fieldType === PROFILE_FIELD_TYPES['external-account']
  ) {
    if (data !== undefined && field.fieldType === PROFILE_FIELD_TYPES.choice) {
      // remove_custom_profile_field_value_if_required: values of removed choices go.
      const kept = new Set(Object.keys(data));
      for (const u of ctx.org.users) {
        const v = u.profileData?.[String(field.id)];
        if (v !== undefined && !kept.has(v.value)) deleteValue(u, field.id);
      }
    }
    if (data !== undefined || field.fieldData === '') field.fieldData = JSON.stringify(data ?? {});
  }
  fieldsEvent(ctx);
  return {};
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function deleteValue(u: StoredUser, fieldId: number): void {
  if (!u.profileData) return;
  delete u.profileData[String(fieldId)];
  if (Object.keys(u.profileData).length === 0) delete u.profileData;
}

function remove(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const field = accessField(ctx, pathInt(ctx, 'field_id'));
  // do_remove_realm_custom_profile_field: the values go with the field (CASCADE).
  ctx.org.customProfileFields = profileFields(ctx.org).filter((f) => f !== field);
  for (const u of ctx.org.users) deleteValue(u, field.id);
  fieldsEvent(ctx);
  return {};
}

function reorder(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const raw = ctx.params.json('order');
  if (raw === undefined) throw missingArgument('order');
  const order = expectIntList(raw, 'order');
  // try_reorder_realm_custom_profile_fields: every field's ID; a repeated ID takes its last place.
  const place = new Map<number, number>();
  order.forEach((id, i) => place.set(id, i));
  const fields = profileFields(ctx.org);
  if (fields.some((f) => !place.has(f.id))) throw badRequest('Invalid order mapping.');
  for (const f of fields) f.order = place.get(f.id) ?? f.order;
  fieldsEvent(ctx);
  return {};
}

/**
 * `notify_user_update_custom_profile_data`: a `realm_user` update with the field's new value
 * (`rendered_value` only when there is one).
 */
function valueEvent(ctx: RequestContext, u: StoredUser, fieldId: number): void {
  const v = u.profileData?.[String(fieldId)];
  const data: Record<string, unknown> = { id: fieldId, value: v?.value ?? null };
  if (v?.renderedValue) data.rendered_value = v.renderedValue;
  ctx.events.push({
    users: 'all',
    event: {
      type: 'realm_user',
      op: 'update',
      person: { user_id: u.id, custom_profile_field: data },
    },
  });
}

/** A value from a request: text, or a user field's IDs. */
export type ProfileValueIn = string | number[];

/**
 * zerver/lib/users.py `validate_user_custom_profile_field`: the field's type decides; a user
 * field takes active human users of the realm (`check_valid_user_ids`).
 */
function validateValue(ctx: RequestContext, field: StoredCustomProfileField, value: unknown): void {
  const type = profileFieldTypeName(field.fieldType);
  if (type === undefined) throw badRequest('Invalid field type.');
  if (type === 'user') {
    if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
    const ids = value.map((x, i) => expectInt(x, `User IDs[${i}]`));
    const invalid = ids.filter((id) => userById(ctx.org, id) === undefined);
    if (invalid.length > 0) throw badRequest(`Invalid user IDs: ${invalid.join(', ')}`);
    for (const id of ids) {
      const u = userById(ctx.org, id);
      if (u && !u.isActive) throw badRequest(`User with ID ${id} is deactivated`);
      if (u?.isBot) throw badRequest(`User with ID ${id} is a bot`);
    }
    return;
  }
  if (typeof value !== 'string') throw badRequest(`${field.name} is not a string`);
  const problem = checkProfileTextValue(
    type,
    field.name,
    value,
    Object.keys(choiceDataOf(field.fieldData)),
  );
  if (problem !== undefined) throw badRequest(problem);
}

/** `validate_user_custom_profile_data`: each field exists, may be edited, takes the value. */
function validateValues(
  ctx: RequestContext,
  items: readonly { id: number; value: unknown }[],
): void {
  for (const item of items) {
    const field = accessField(ctx, item.id);
    if (!isAdmin(ctx.user) && !field.editableByUser)
      throw badRequest(
        'You are not allowed to change this field. Contact an administrator to update it.',
      );
    validateValue(ctx, field, item.value);
  }
}

/** `do_update_user_custom_profile_data_if_changed`: only values that change, each with its event. */
function setValues(
  ctx: RequestContext,
  target: StoredUser,
  items: readonly { id: number; value: unknown }[],
): void {
  for (const item of items) {
    const field = accessField(ctx, item.id);
    const text = typeof item.value === 'string' ? item.value : JSON.stringify(item.value);
    const old = target.profileData?.[String(field.id)];
    if (old !== undefined && old.value === text) continue;
    // CustomProfileField.is_renderable: short and long text are rendered as Markdown.
    const renderable =
      field.fieldType === PROFILE_FIELD_TYPES['short-text'] ||
      field.fieldType === PROFILE_FIELD_TYPES['long-text'];
    target.profileData = {
      ...target.profileData,
      [String(field.id)]: renderable
        ? { value: text, renderedValue: renderMarkdown(text) }
        : { value: text },
    };
    valueEvent(ctx, target, field.id);
  }
}

/** `check_remove_custom_profile_field_value`: a value that is not there is no error. */
function removeValue(ctx: RequestContext, target: StoredUser, fieldId: number): void {
  const field = accessField(ctx, fieldId);
  if (!isAdmin(ctx.user) && !field.editableByUser)
    throw badRequest(
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
  if (target.profileData?.[String(fieldId)] === undefined) return;
  deleteValue(target, fieldId);
  valueEvent(ctx, target, fieldId);
}

/** A value of a custom profile field as the API takes it (`ProfileDataElementValue`). */
type ProfileValue = string | number[];

/** One `{id, value}` of a request; a null `value` (only in `profile_data`) removes the value. */
export interface ProfileItem {
  id: number;
  value: ProfileValue | null;
}

/**
 * A list of `{id, value}` as pydantic parses it, both keys required. `profile_data` of
 * `PATCH /users/{id}` is a list of the model `ProfileDataElement` (zerver/views/users.py: a
 * non-object item is a `model_type` error; `value` may be null); `data` of
 * `PATCH /users/me/profile_data` a list of the TypedDict `ProfileDataElementUpdateDict`
 * (zerver/lib/types.py: `dict_type`; no null). `value` is the union `str | list[int]`: a value
 * of neither type is reported as its first member's error (`["value"]["str"]`).
 */
function readProfileItems(raw: unknown, name: 'profile_data' | 'data'): ProfileItem[] {
  return expectList(raw, name).map((x, i) => {
    const at = `${name}[${i}]`;
    if (name === 'profile_data' && (typeof x !== 'object' || x === null || Array.isArray(x)))
      throw badRequest(
        `Invalid ${at}: Input should be a valid dictionary or instance of ProfileDataElement`,
      );
    const d = expectDict(x, at);
    if (!('id' in d)) throw badRequest(`${at}["id"] field is missing: Field required`);
    const id = expectInt(d.id, `${at}["id"]`);
    if (!('value' in d)) throw badRequest(`${at}["value"] field is missing: Field required`);
    const v = d.value;
    if (v === null && name === 'profile_data') return { id, value: null };
    if (typeof v === 'string') return { id, value: v };
    if (Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isInteger(n)))
      return { id, value: v as number[] };
    throw badRequest(`${at}["value"]["str"] is not a string`);
  });
}

/**
 * `profile_data` of `PATCH /users/{id}`, parsed with the view's other parameters (typed_endpoint),
 * before the user is looked up.
 */
export function readProfileData(raw: unknown): ProfileItem[] {
  return readProfileItems(raw, 'profile_data');
}

/**
 * `profile_data` of `PATCH /users/{id}` (zerver/views/users.py `update_user_backend`): empty
 * values (null, `""`, `[]`) are removed one by one, then the others validated and set.
 */
export function updateProfileData(
  ctx: RequestContext,
  target: StoredUser,
  items: readonly ProfileItem[],
): void {
  const set: { id: number; value: ProfileValue }[] = [];
  for (const { id, value } of items) {
    if (value === null || value.length === 0) removeValue(ctx, target, id);
    else set.push({ id, value });
  }
  validateValues(ctx, set);
  setValues(ctx, target, set);
}

/** A snapshot of the values of one user, for a transaction that fails. */
export function atomicValues<T>(ctx: RequestContext, u: StoredUser, fn: () => T): T {
  const before = u.profileData ? structuredClone(u.profileData) : undefined;
  const events = ctx.events.length;
  try {
    return fn();
  } catch (e) {
    if (before) u.profileData = before;
    else delete u.profileData;
    ctx.events.length = events;
    throw e;
  }
}

/**
 * The `data` of `PATCH`/`DELETE /users/me/profile_data` (zerver/views/custom_profile_fields.py
 * `update_user_custom_profile_data`, `remove_user_custom_profile_data`): bots are refused,
 * and `data` is required.
 */
function ownData(ctx: RequestContext): unknown {
  requireHuman(ctx);
  const raw = ctx.params.json('data');
  if (raw === undefined) throw missingArgument('data');
  return raw;
}

/** Custom profile field routes. Every write needs an administrator (`require_realm_admin`). */
export const customProfileFieldRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/profile_fields',
    handler: (ctx) => ({ custom_fields: profileFieldsToApi(ctx.org) }),
  },
  { method: 'POST', path: '/realm/profile_fields', handler: create },
  { method: 'PATCH', path: '/realm/profile_fields', handler: reorder },
  { method: 'PATCH', path: '/realm/profile_fields/{field_id}', handler: update },
  { method: 'DELETE', path: '/realm/profile_fields/{field_id}', handler: remove },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    handler: (ctx) => {
      const items = readProfileItems(ownData(ctx), 'data');
      validateValues(ctx, items);
      return atomicValues(ctx, ctx.user, () => {
        setValues(ctx, ctx.user, items);
        return {};
      });
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/profile_data',
    handler: (ctx) => {
      const ids = expectIntList(ownData(ctx), 'data');
      return atomicValues(ctx, ctx.user, () => {
        for (const id of ids) removeValue(ctx, ctx.user, id);
        return {};
      });
    },
  },
];
