import { z } from 'zod';
import { successWith } from './common';

/** A saved snippet of the caller (FL 297). */
export const WireSavedSnippetSchema = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  date_created: z.number().optional(),
});
export type WireSavedSnippet = z.infer<typeof WireSavedSnippetSchema>;

export const GetSavedSnippetsResponseSchema = successWith({
  saved_snippets: z.array(WireSavedSnippetSchema),
});
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

export const CreateSavedSnippetResponseSchema = successWith({
  saved_snippet_id: z.number().int(),
});
export type CreateSavedSnippetResponse = z.infer<typeof CreateSavedSnippetResponseSchema>;
