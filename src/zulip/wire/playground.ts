import { z } from 'zod';
import { successWith } from './common';

/** A code playground; only `/register` (`realm_playgrounds`) reads them. */
export const WirePlaygroundSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  pygments_language: z.string(),
  url_template: z.string(),
});
export type WirePlayground = z.infer<typeof WirePlaygroundSchema>;

/** `POST /realm/playgrounds` parameters. There is no update: delete and recreate. */
export interface AddPlaygroundParams {
  readonly name: string;
  readonly pygments_language: string;
  readonly url_template: string;
}

export const AddPlaygroundResponseSchema = successWith({ id: z.number().int() });
export type AddPlaygroundResponse = z.infer<typeof AddPlaygroundResponseSchema>;
