import { z } from 'zod';
import { successWith } from './common';

/** A code playground; only `/register` (`realm_playgrounds`) reads them. */
export const WirePlaygroundSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  pygments_language: z.string(),
  url_template: z.string(),
});
/** A playground as Zulip sends it, as parsed by {@link WirePlaygroundSchema}. */
export type WirePlayground = z.infer<typeof WirePlaygroundSchema>;

/** `POST /realm/playgrounds` parameters. There is no update: delete and recreate. */
export interface AddPlaygroundParams {
  readonly name: string;
  readonly pygments_language: string;
  readonly url_template: string;
}

/** The zod schema of the {@link ZulipClient.addPlayground} response (`POST /realm/playgrounds`). */
export const AddPlaygroundResponseSchema = successWith({ id: z.number().int() });
/** The {@link ZulipClient.addPlayground} response (`POST /realm/playgrounds`), as parsed. */
export type AddPlaygroundResponse = z.infer<typeof AddPlaygroundResponseSchema>;
