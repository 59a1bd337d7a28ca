import { z } from 'zod';
import { successListing, successWith } from './common';

/** A channel folder (FL 389; `order` FL 414). Not in the 10.2 yaml: NOTES 2.3. */
export const WireChannelFolderSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  rendered_description: z.string().optional(),
  order: z.number().int().optional(),
  date_created: z.number().nullable().optional(),
  creator_id: z.number().int().nullable().optional(),
  is_archived: z.boolean(),
});
/** A channel folder as Zulip sends it, as parsed by {@link WireChannelFolderSchema}. */
export type WireChannelFolder = z.infer<typeof WireChannelFolderSchema>;

/** The zod schema of the {@link ZulipClient.getChannelFolders} response (`GET /channel_folders`). */
export const GetChannelFoldersResponseSchema = successListing(
  'channel_folders',
  WireChannelFolderSchema,
);
/** The {@link ZulipClient.getChannelFolders} response (`GET /channel_folders`), as parsed. */
export type GetChannelFoldersResponse = z.infer<typeof GetChannelFoldersResponseSchema>;

/** `GET /channel_folders` parameters. */
export interface GetChannelFoldersParams {
  readonly include_archived?: boolean | undefined;
}

/** `POST /channel_folders/create` parameters; `description` is required but may be `""`. */
export interface CreateChannelFolderParams {
  readonly name: string;
  readonly description: string;
}

/** The zod schema of the {@link ZulipClient.createChannelFolder} response (`POST /channel_folders/create`). */
export const CreateChannelFolderResponseSchema = successWith({
  channel_folder_id: z.number().int(),
});
/** The {@link ZulipClient.createChannelFolder} response (`POST /channel_folders/create`), as parsed. */
export type CreateChannelFolderResponse = z.infer<typeof CreateChannelFolderResponseSchema>;

/** `PATCH /channel_folders/{id}` parameters. There is no DELETE: archive instead. */
export interface UpdateChannelFolderParams {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly is_archived?: boolean | undefined;
}
