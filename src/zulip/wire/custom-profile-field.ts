import { z } from 'zod';
import { successWith } from './common';

/**
 * A custom profile field as Zulip sends it (`custom_profile_fields` of `POST /register`,
 * `GET /realm/profile_fields`; zerver/models/custom_profile_fields.py `CustomProfileField.as_dict`):
 * `display_in_profile_summary` only when true, `field_data` a JSON string (`""` when none).
 */
export const WireCustomProfileFieldSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.number().int(),
  hint: z.string(),
  /** Absent in some of zulip.yaml's examples; `""` for types without data. */
  field_data: z.string().optional(),
  order: z.number().int(),
  required: z.boolean().optional(),
  editable_by_user: z.boolean().optional(),
  display_in_profile_summary: z.boolean().optional(),
});
/** A custom profile field as Zulip sends it. */
export type WireCustomProfileField = z.infer<typeof WireCustomProfileFieldSchema>;

/** The zod schema of the {@link ZulipClient.getCustomProfileFields} response. */
export const GetCustomProfileFieldsResponseSchema = successWith({
  custom_fields: z.array(WireCustomProfileFieldSchema),
});
/** The `GET /realm/profile_fields` response, as parsed. */
export type GetCustomProfileFieldsResponse = z.infer<typeof GetCustomProfileFieldsResponseSchema>;

/**
 * `POST /realm/profile_fields` (zerver/views/custom_profile_fields.py
 * `create_realm_custom_profile_field`): `field_type` required; `field_data` a JSON object
 * (choices, or an external account's `subtype` and `url_pattern`).
 */
export interface CreateCustomProfileFieldParams {
  readonly name?: string | undefined;
  readonly hint?: string | undefined;
  readonly field_type: number;
  readonly field_data?: Readonly<Record<string, unknown>> | undefined;
  readonly display_in_profile_summary?: boolean | undefined;
  readonly required?: boolean | undefined;
  readonly editable_by_user?: boolean | undefined;
}

/** The zod schema of the {@link ZulipClient.createCustomProfileField} response. */
export const CreateCustomProfileFieldResponseSchema = successWith({ id: z.number().int() });
/** The `POST /realm/profile_fields` response, as parsed. */
export type CreateCustomProfileFieldResponse = z.infer<
  typeof CreateCustomProfileFieldResponseSchema
>;

/**
 * `PATCH /realm/profile_fields/{field_id}` (`update_realm_custom_profile_field`): every
 * parameter optional; no `field_type` (a field's type cannot change).
 */
export type UpdateCustomProfileFieldParams = Partial<
  Omit<CreateCustomProfileFieldParams, 'field_type'>
>;
