import { z } from 'zod';

/**
 * A default channel group as `POST /register` lists it (`realm_default_stream_groups`,
 * zerver/models/streams.py `DefaultStreamGroup.to_dict`): channel IDs since FL 330, sorted by
 * channel name. There is no `GET /default_stream_groups`.
 */
export const WireDefaultStreamGroupSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  streams: z.array(z.number().int()),
});
/** A default channel group as `POST /register` sends it (`realm_default_stream_groups`). */
export type WireDefaultStreamGroup = z.infer<typeof WireDefaultStreamGroupSchema>;

/** `POST /default_stream_groups/create` (zerver/views/streams.py `create_default_stream_group`). */
export interface CreateDefaultStreamGroupParams {
  readonly group_name: string;
  readonly description: string;
  /** Channel names (`Json[list[str]]`). */
  readonly stream_names: readonly string[];
}

/**
 * `PATCH /default_stream_groups/{group_id}` (`update_default_stream_group_info`): at least one
 * of them, and not both empty (Zulip refuses `new_description: ''` alone).
 */
export interface UpdateDefaultStreamGroupInfoParams {
  readonly new_group_name?: string;
  readonly new_description?: string;
}

/** `PATCH /default_stream_groups/{group_id}/streams` (`update_default_stream_group_streams`). */
export interface UpdateDefaultStreamGroupStreamsParams {
  readonly op: 'add' | 'remove';
  /** Channel names (`Json[list[str]]`). */
  readonly stream_names: readonly string[];
}
