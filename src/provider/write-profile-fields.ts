/**
 * Custom profile fields (zerver/views/custom_profile_fields.py) and users' values of them
 * (zerver/views/users.py `update_user_backend`, `profile_data`). One request per change; a
 * replace is two (delete, then create).
 */
import { resourceAddress } from '../model/address';
import {
  PROFILE_FIELD_TYPES,
  choiceDataOf,
  choiceFieldData,
  choiceKeyAddress,
  isDefaultExternalAccount,
} from '../model/custom-profile-fields';
import type { ChoiceFieldData } from '../model/custom-profile-fields';
import { ZulipCdkError } from '../model/errors';
import type { ApplyContext } from '../engine/apply';
import type { CreateChange, JsonValue, ReplaceChange, UpdateChange } from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';
import type {
  CreateCustomProfileFieldParams,
  UpdateCustomProfileFieldParams,
} from '../zulip/wire/custom-profile-field';
import { setFlag } from './write-values';

const texts = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function planInvalid(what: string): ZulipCdkError {
  return new ZulipCdkError('PLAN_INVALID', `The plan has ${what} for a custom profile field.`);
}

/** An external account's `field_data` from the plan's `{subtype, urlPattern}`. */
function externalData(v: JsonValue | undefined): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v) || typeof v.subtype !== 'string')
    throw planInvalid(`externalAccount ${JSON.stringify(v)}`);
  return typeof v.urlPattern === 'string'
    ? { subtype: v.subtype, url_pattern: v.urlPattern }
    : { subtype: v.subtype };
}

/** Records the key each choice got, for users' values set later in the same apply. */
function recordChoices(ctx: ApplyContext, field: string, data: ChoiceFieldData): void {
  for (const [key, c] of Object.entries(data))
    if (/^\d+$/.test(key)) ctx.record(choiceKeyAddress(field, c.text), Number(key));
}

/**
 * `POST /realm/profile_fields` (`create_realm_custom_profile_field`): every property of the
 * field. A Twitter or GitHub account field gets Zulip's own name and hint, so none is sent.
 */
export async function createField(
  client: ZulipClient,
  properties: Record<string, JsonValue>,
  name: string,
  ctx: ApplyContext,
): Promise<number> {
  const type = typeof properties.type === 'string' ? properties.type : '';
  const fieldType = (PROFILE_FIELD_TYPES as Record<string, number | undefined>)[type];
  if (fieldType === undefined) throw planInvalid(`type ${JSON.stringify(properties.type)}`);
  const params: {
    -readonly [K in keyof CreateCustomProfileFieldParams]: CreateCustomProfileFieldParams[K];
  } = { field_type: fieldType };
  let choices: ChoiceFieldData | undefined;
  if (type === 'choice') {
    choices = choiceFieldData(undefined, texts(properties.choices));
    params.field_data = choices;
  }
  const external =
    type === 'external-account' ? externalData(properties.externalAccount) : undefined;
  if (external) params.field_data = external;
  if (!isDefaultExternalAccount(external?.subtype)) {
    params.name = name;
    params.hint = typeof properties.hint === 'string' ? properties.hint : '';
  }
  params.display_in_profile_summary = properties.displayInProfileSummary === true;
  params.required = properties.required === true;
  params.editable_by_user = properties.editableByUser !== false;
  const res = await client.createCustomProfileField(params);
  if (choices) recordChoices(ctx, name, choices);
  return res.id;
}

/** A field's yes/no properties, by the `PATCH /realm/profile_fields/{id}` parameter of each. */
const FIELD_FLAGS = {
  displayInProfileSummary: 'display_in_profile_summary',
  required: 'required',
  editableByUser: 'editable_by_user',
} as const satisfies Record<string, keyof UpdateCustomProfileFieldParams>;

/**
 * One `PATCH /realm/profile_fields/{id}` with only what changes. New choices keep the keys of
 * the texts the live field has (Zulip deletes the values of keys that disappear).
 */
export async function updateField(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  const id = change.liveId ?? -1;
  const params: {
    -readonly [K in keyof UpdateCustomProfileFieldParams]: UpdateCustomProfileFieldParams[K];
  } = {};
  let choices: ChoiceFieldData | undefined;
  for (const p of change.properties) {
    if (setFlag(params, FIELD_FLAGS, p)) continue;
    switch (p.property) {
      case 'hint':
        params.hint = typeof p.after === 'string' ? p.after : '';
        break;
      case 'choices': {
        const live = ctx.live.customProfileFields.find((f) => f.id === id);
        choices = choiceFieldData(live ? choiceDataOf(live.fieldData) : undefined, texts(p.after));
        params.field_data = choices;
        break;
      }
      case 'externalAccount':
        params.field_data = externalData(p.after);
        break;
      default:
        throw planInvalid(`a change of ${p.property}`);
    }
  }
  await client.updateCustomProfileField(id, params);
  if (choices) recordChoices(ctx, change.key, choices);
}

/** Zulip cannot change a field's type: delete it (and every value), then create it again. */
export async function replaceField(
  client: ZulipClient,
  change: ReplaceChange,
  ctx: ApplyContext,
): Promise<number> {
  await client.removeCustomProfileField(change.liveId);
  return createField(client, change.after, change.key, ctx);
}

/** The `profile_data` entries of a user's update (`profile.<label>` properties). */
export function profileData(
  change: UpdateChange | CreateChange,
  ctx: ApplyContext,
): { id: number; value: string | number[] | null }[] {
  if (change.action !== 'update') return [];
  const out: { id: number; value: string | number[] | null }[] = [];
  for (const p of change.properties) {
    if (!p.property.startsWith('profile.')) continue;
    const label = p.property.slice('profile.'.length);
    const address = resourceAddress('customProfileField', label);
    const field = ctx.live.customProfileFields.find((f) => f.name === label);
    const id = ctx.idOf(address) ?? field?.id;
    if (id === undefined)
      throw new ZulipCdkError(
        'UNRESOLVED_REFERENCE',
        `The plan sets ${change.key}'s ${address}, which does not exist in the organization (any more).`,
        { hint: 'Plan again: the organization changed since the plan was made.' },
      );
    out.push({
      id,
      value: wireValue(
        ctx,
        label,
        field?.id === id ? field.fieldData : undefined,
        field?.type,
        p.after,
      ),
    });
  }
  return out;
}

/** A value on the wire: users by ID, a choice by its key, text as is, null to clear. */
function wireValue(
  ctx: ApplyContext,
  label: string,
  liveFieldData: string | undefined,
  liveType: number | undefined,
  value: JsonValue,
): string | number[] | null {
  if (value === null) return null;
  if (Array.isArray(value))
    return value.map((e) => ctx.userId(typeof e === 'string' ? e : JSON.stringify(e)));
  if (typeof value !== 'string') throw planInvalid(`the value ${JSON.stringify(value)}`);
  const recorded = ctx.idOf(choiceKeyAddress(label, value));
  if (recorded !== undefined) return String(recorded);
  if (liveType === PROFILE_FIELD_TYPES.choice && liveFieldData !== undefined) {
    const key = Object.entries(choiceDataOf(liveFieldData)).find(([, c]) => c.text === value)?.[0];
    if (key === undefined)
      throw new ZulipCdkError(
        'UNRESOLVED_REFERENCE',
        `The custom profile field '${label}' has no choice '${value}' (any more).`,
        { hint: 'Plan again: the organization changed since the plan was made.' },
      );
    return key;
  }
  return value;
}
