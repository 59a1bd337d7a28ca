import { z } from 'zod';
import { successWith } from './common';

/** A linkifier, in processing order (loose: FL 471/478 add fields). */
export const WireLinkifierSchema = z.looseObject({
  id: z.number().int(),
  pattern: z.string(),
  url_template: z.string(),
  example_input: z.string().nullable().optional(),
  reverse_template: z.string().nullable().optional(),
  alternative_url_templates: z.array(z.string()).optional(),
});
export type WireLinkifier = z.infer<typeof WireLinkifierSchema>;

export const GetLinkifiersResponseSchema = successWith({
  linkifiers: z.array(WireLinkifierSchema),
});
export type GetLinkifiersResponse = z.infer<typeof GetLinkifiersResponseSchema>;

/** `POST /realm/filters` and `PATCH /realm/filters/{id}` parameters (both required on update too). */
export interface LinkifierParams {
  readonly pattern: string;
  readonly url_template: string;
}

export const AddLinkifierResponseSchema = successWith({ id: z.number().int() });
export type AddLinkifierResponse = z.infer<typeof AddLinkifierResponseSchema>;
