import { z } from 'zod';
import { successListing, successWith } from './common';

/** A user as `GET /users`, `GET /users/me` and `/register` send it (loose). */
export const WireUserSchema = z.looseObject({
  user_id: z.number().int(),
  email: z.string(),
  /** The real address, when the caller may see it. */
  delivery_email: z.string().nullable().optional(),
  full_name: z.string(),
  role: z.number().int().optional(),
  is_active: z.boolean().optional(),
  is_bot: z.boolean(),
  is_admin: z.boolean().optional(),
  is_owner: z.boolean().optional(),
  is_guest: z.boolean().optional(),
  bot_type: z.number().int().nullable().optional(),
  bot_owner_id: z.number().int().nullable().optional(),
  date_joined: z.string().optional(),
  timezone: z.string().optional(),
  avatar_url: z.string().nullable().optional(),
  /**
   * Custom profile field values by field ID (`POST /register` always; `GET /users` with
   * `include_custom_profile_fields`): `value` as stored (a user field's IDs as a JSON list).
   */
  profile_data: z
    .record(z.string(), z.looseObject({ value: z.string().nullable().optional() }))
    .nullable()
    .optional(),
});
/** A user as Zulip sends it, as parsed by {@link WireUserSchema}. */
export type WireUser = z.infer<typeof WireUserSchema>;

/** The zod schema of the {@link ZulipClient.getUsers} response (`GET /users`). */
export const GetUsersResponseSchema = successListing('members', WireUserSchema);
/** The {@link ZulipClient.getUsers} response (`GET /users`), as parsed. */
export type GetUsersResponse = z.infer<typeof GetUsersResponseSchema>;

/** `GET /users/me` returns the user's fields at the top level (`is_bot` not always). */
export const GetOwnUserResponseSchema = successWith({
  ...WireUserSchema.pick({
    user_id: true,
    email: true,
    delivery_email: true,
    full_name: true,
    role: true,
  }).shape,
  is_bot: z.boolean().optional(),
  ...WireUserSchema.pick({ is_admin: true, is_owner: true }).shape,
});
/** The {@link ZulipClient.getOwnUser} response (`GET /users/me`), as parsed. */
export type GetOwnUserResponse = z.infer<typeof GetOwnUserResponseSchema>;

/** `GET /users` parameters. */
export interface GetUsersParams {
  readonly client_gravatar?: boolean | undefined;
  readonly include_custom_profile_fields?: boolean | undefined;
  /** FL 384. */
  readonly user_ids?: readonly number[] | undefined;
}

/** `PATCH /users/{user_id}` and `PATCH /users/{email}` parameters. */
export interface UpdateUserParams {
  readonly full_name?: string | undefined;
  /** 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
  readonly role?: number | undefined;
  /**
   * Custom profile field values to set: text, a user field's user IDs, or null (or `""`, `[]`)
   * to clear (zerver/views/users.py `update_user_backend`).
   */
  readonly profile_data?:
    | readonly { readonly id: number; readonly value: string | readonly number[] | null }[]
    | undefined;
  readonly new_email?: string | undefined;
}

/** `POST /users/{user_id}/status` parameters (administrators). */
export interface UpdateUserStatusParams {
  /** At most 60 characters; `""` clears the status. */
  readonly status_text?: string | undefined;
  readonly emoji_name?: string | undefined;
  readonly emoji_code?: string | undefined;
  readonly reaction_type?:
    'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji' | 'service_extra_emoji';
}

/** `POST /users/me/presence` parameters. */
export interface UpdatePresenceParams {
  readonly status: 'active' | 'idle';
  readonly last_update_id?: number | undefined;
  readonly history_limit_days?: number | undefined;
  readonly ping_only?: boolean | undefined;
  readonly new_user_input?: boolean | undefined;
  readonly slim_presence?: boolean | undefined;
}

/** The zod schema of the {@link ZulipClient.updatePresence} response (`POST /users/me/presence`). */
export const UpdatePresenceResponseSchema = successWith({
  presence_last_update_id: z.number().int().optional(),
  server_timestamp: z.number().optional(),
  presences: z.record(z.string(), z.unknown()).optional(),
});
/** The {@link ZulipClient.updatePresence} response (`POST /users/me/presence`), as parsed. */
export type UpdatePresenceResponse = z.infer<typeof UpdatePresenceResponseSchema>;
