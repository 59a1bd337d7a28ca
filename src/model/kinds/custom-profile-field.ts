import { z } from 'zod';
import {
  EXTERNAL_ACCOUNT_SUBTYPES,
  PROFILE_FIELD_TYPE_NAMES,
  choiceDataOf,
  choiceTexts,
  externalAccountOf,
  isDefaultExternalAccount,
  profileFieldTypeName,
} from '../custom-profile-fields';
import type { ProfileFieldType } from '../custom-profile-fields';
import { entrySchema, liveSchema } from './schemas';
import type { KeyedFacts, KindSpec, PlanObject } from './spec';
import { exactKey } from './spec';

/** A custom profile field (`/realm/profile_fields`), keyed by its label. */
export const CustomProfileFieldSchema = entrySchema({
  /** The label, as Zulip stores it (stripped). */
  name: z.string(),
  type: z.enum(PROFILE_FIELD_TYPE_NAMES as [ProfileFieldType, ...ProfileFieldType[]]),
  hint: z.string().optional(),
  /** A choice field's choices, by text, in display order. */
  choices: z.array(z.string()).optional(),
  /** An external account field's kind of account; `urlPattern` for `custom`. */
  externalAccount: z
    .strictObject({ subtype: z.enum(EXTERNAL_ACCOUNT_SUBTYPES), urlPattern: z.string().optional() })
    .optional(),
  displayInProfileSummary: z.boolean().optional(),
  required: z.boolean().optional(),
  editableByUser: z.boolean().optional(),
});
export type DesiredCustomProfileField = z.infer<typeof CustomProfileFieldSchema>;

/** A custom profile field (`custom_profile_fields` of `POST /register`). */
export const LiveCustomProfileFieldSchema = liveSchema({
  name: z.string(),
  /** Zulip's field type (1 short text ... 8 pronouns). */
  type: z.number().int(),
  hint: z.string(),
  /** As Zulip sends it: a JSON string (`""` for types without data). */
  fieldData: z.string(),
  order: z.number().int(),
  displayInProfileSummary: z.boolean(),
  required: z.boolean(),
  editableByUser: z.boolean(),
});
export type LiveCustomProfileField = z.infer<typeof LiveCustomProfileFieldSchema>;

/** A field's properties an update changes (the label by a rename; the type never). */
const PROPERTIES = [
  'hint',
  'choices',
  'externalAccount',
  'displayInProfileSummary',
  'required',
  'editableByUser',
] as const;

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
  construct: 'CustomProfileField',
  title: 'Custom profile fields',
  nouns: ['custom profile field', 'custom profile fields'],
  listOrder: 9,
  rank: 5,
  compareKey: exactKey,
  removal: 'delete',
  ordered: true,
  ignorable: [...PROPERTIES, 'order'],
  actions: ['create', 'update', 'rename', 'replace', 'delete', 'reorder'],
  // zerver/actions/custom_profile_fields.py notify_realm_custom_profile_fields; users' values
  // arrive as `realm_user` `update` events (notify_user_update_custom_profile_data).
  events: ['custom_profile_fields', 'realm_user'],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /**
     * Delete undeclared custom profile fields, and with them every user's value of them (Zulip
     * has no undelete). @default false
     */
    customProfileField: false,
  },
  /**
   * In declaration order: the order Zulip shows them in. Absent in desired states written
   * before custom profile fields existed.
   */
  desiredSchema: z.array(CustomProfileFieldSchema).default([]),
  /** Sorted by order (Zulip's display order); absent in snapshots made before they were read. */
  liveSchema: z.array(LiveCustomProfileFieldSchema).default([]),
  // Zulip strips the label (zerver/views/custom_profile_fields.py). Twitter and GitHub account
  // fields (`is_default_external_field`) keep the name, hint and data Zulip gave them ("Default
  // custom field cannot be updated."): a field that becomes one, or stops being one, is a
  // replace, and only their summary, required and editable flags change in place.
  keyed: {
    key: (d) => d.name.trim(),
    keyProperty: 'name',
    liveKey: (l) => l.name,
    desired: desiredField,
    live: liveField,
    updatable: PROPERTIES,
    replaces: ['type'],
    replacedWhen: (d, l) => {
      const live = externalAccountOf(l.fieldData)?.subtype;
      const wanted = d.externalAccount?.subtype;
      return (
        d.type === 'external-account' &&
        live !== wanted &&
        (isDefaultExternalAccount(live) || isDefaultExternalAccount(wanted))
      );
    },
    fixed: (l) =>
      isDefaultExternalAccount(externalAccountOf(l.fieldData)?.subtype)
        ? ['hint', 'choices', 'externalAccount']
        : [],
    followsRenames: true,
  } satisfies KeyedFacts<DesiredCustomProfileField, LiveCustomProfileField>,
} as const satisfies KindSpec;

/** A declared field with Zulip's defaults: what a create sends, what an update compares. */
function desiredField(d: DesiredCustomProfileField): PlanObject {
  const out: Record<string, PlanObject[string]> = {
    name: d.name.trim(),
    type: d.type,
    hint: d.hint ?? '',
  };
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

/** A live field in the terms of {@link desiredField} (an unknown type as `type <number>`). */
function liveField(l: LiveCustomProfileField): PlanObject {
  const type = profileFieldTypeName(l.type) ?? `type ${l.type}`;
  const out: Record<string, PlanObject[string]> = { name: l.name, type, hint: l.hint };
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
