import { z } from 'zod';
import { successListing, successWith } from './common';

/** A linkifier, in processing order (loose: FL 471/478 add fields). */
export const WireLinkifierSchema = z.looseObject({
  id: z.number().int(),
  pattern: z.string(),
  url_template: z.string(),
  example_input: z.string().nullable().optional(),
  reverse_template: z.string().nullable().optional(),
  alternative_url_templates: z.array(z.string()).optional(),
});
/** A linkifier as Zulip sends it, as parsed by {@link WireLinkifierSchema}. */
export type WireLinkifier = z.infer<typeof WireLinkifierSchema>;

/** The zod schema of the {@link ZulipClient.getLinkifiers} response (`GET /realm/linkifiers`). */
export const GetLinkifiersResponseSchema = successListing('linkifiers', WireLinkifierSchema);
/** The {@link ZulipClient.getLinkifiers} response (`GET /realm/linkifiers`), as parsed. */
export type GetLinkifiersResponse = z.infer<typeof GetLinkifiersResponseSchema>;

/** `POST /realm/filters` and `PATCH /realm/filters/{id}` parameters (both required on update too). */
export interface LinkifierParams {
  readonly pattern: string;
  readonly url_template: string;
}

/** The zod schema of the {@link ZulipClient.addLinkifier} response (`POST /realm/filters`). */
export const AddLinkifierResponseSchema = successWith({ id: z.number().int() });
/** The {@link ZulipClient.addLinkifier} response (`POST /realm/filters`), as parsed. */
export type AddLinkifierResponse = z.infer<typeof AddLinkifierResponseSchema>;
