import { z } from 'zod';
import { successListing, successWith } from './common';

/** A saved snippet of the caller (FL 297). */
export const WireSavedSnippetSchema = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  date_created: z.number().optional(),
});
/** A saved snippet as Zulip sends it, as parsed by {@link WireSavedSnippetSchema}. */
export type WireSavedSnippet = z.infer<typeof WireSavedSnippetSchema>;

/** The zod schema of the {@link ZulipClient.getSavedSnippets} response (`GET /saved_snippets`). */
export const GetSavedSnippetsResponseSchema = successListing(
  'saved_snippets',
  WireSavedSnippetSchema,
);
/** The {@link ZulipClient.getSavedSnippets} response (`GET /saved_snippets`), as parsed. */
export type GetSavedSnippetsResponse = z.infer<typeof GetSavedSnippetsResponseSchema>;

/** `POST /saved_snippets` parameters. */
export interface CreateSavedSnippetParams {
  readonly title: string;
  readonly content: string;
}

/** `PATCH /saved_snippets/{id}` parameters (FL 368). */
export interface UpdateSavedSnippetParams {
  readonly title?: string | undefined;
  readonly content?: string | undefined;
}

/** The zod schema of the {@link ZulipClient.createSavedSnippet} response (`POST /saved_snippets`). */
export const CreateSavedSnippetResponseSchema = successWith({
  saved_snippet_id: z.number().int(),
});
/** The {@link ZulipClient.createSavedSnippet} response (`POST /saved_snippets`), as parsed. */
export type CreateSavedSnippetResponse = z.infer<typeof CreateSavedSnippetResponseSchema>;
