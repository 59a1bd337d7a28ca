import { ZulipClientCore } from './client-core';
import type { ZulipClientOptions } from './client-core';
import { ZulipCredentials, loadCredentials } from './credentials';
import type { LoadCredentialsOptions } from './credentials';
import type { UpdateRealmParams } from './wire/realm';
import type { UpdateUserSettingsDefaultsParams } from './wire/user-settings-defaults';
import type { UploadFile } from './http-types';
import {
  CreateChannelResponseSchema,
  GetStreamMembersResponseSchema,
  GetStreamResponseSchema,
  GetStreamsResponseSchema,
} from './wire/channel';
import type {
  CreateChannelParams,
  CreateChannelResponse,
  GetStreamMembersResponse,
  GetStreamResponse,
  GetStreamsParams,
  GetStreamsResponse,
  UpdateStreamParams,
} from './wire/channel';
import {
  CreateChannelFolderResponseSchema,
  GetChannelFoldersResponseSchema,
} from './wire/channel-folder';
import type {
  CreateChannelFolderParams,
  CreateChannelFolderResponse,
  GetChannelFoldersParams,
  GetChannelFoldersResponse,
  UpdateChannelFolderParams,
} from './wire/channel-folder';
import { SuccessSchema } from './wire/common';
import type { Success } from './wire/common';

export type { ZulipClientOptions } from './client-core';
import type {
  CreateDefaultStreamGroupParams,
  UpdateDefaultStreamGroupInfoParams,
  UpdateDefaultStreamGroupStreamsParams,
} from './wire/default-stream-group';
import {
  CreateCustomProfileFieldResponseSchema,
  GetCustomProfileFieldsResponseSchema,
} from './wire/custom-profile-field';
import type {
  CreateCustomProfileFieldParams,
  CreateCustomProfileFieldResponse,
  GetCustomProfileFieldsResponse,
  UpdateCustomProfileFieldParams,
} from './wire/custom-profile-field';
import { AddLinkifierResponseSchema, GetLinkifiersResponseSchema } from './wire/linkifier';
import type {
  AddLinkifierResponse,
  GetLinkifiersResponse,
  LinkifierParams,
} from './wire/linkifier';
import {
  CreateDraftsResponseSchema,
  UpdateMessageFlagsForNarrowResponseSchema,
  UpdateMessageFlagsResponseSchema,
} from './wire/message';
import type {
  AddReactionParams,
  CreateDraftsResponse,
  Draft,
  UpdateMessageFlagsForNarrowParams,
  UpdateMessageFlagsForNarrowResponse,
  UpdateMessageFlagsParams,
  UpdateMessageFlagsResponse,
  UpdateScheduledMessageParams,
} from './wire/message';
import type { UpdateNavigationViewParams } from './wire/navigation-view';
import { AddPlaygroundResponseSchema } from './wire/playground';
import { AddRealmDomainResponseSchema } from './wire/realm-domain';
import { GetRealmEmojiResponseSchema } from './wire/realm-emoji';
import type { GetRealmEmojiResponse } from './wire/realm-emoji';
import type { AddPlaygroundParams, AddPlaygroundResponse } from './wire/playground';
import type {
  AddRealmDomainParams,
  AddRealmDomainResponse,
  UpdateRealmDomainParams,
} from './wire/realm-domain';
import type { E2eeTestNotificationParams } from './wire/push';
import { GetEventsResponseSchema, RegisterResponseSchema } from './wire/register';
import type {
  GetEventsParams,
  GetEventsResponse,
  RegisterParams,
  RegisterResponse,
} from './wire/register';
import {
  CreateSavedSnippetResponseSchema,
  GetSavedSnippetsResponseSchema,
} from './wire/saved-snippet';
import type {
  CreateSavedSnippetParams,
  CreateSavedSnippetResponse,
  GetSavedSnippetsResponse,
  UpdateSavedSnippetParams,
} from './wire/saved-snippet';
import {
  GetSubscriptionsResponseSchema,
  SubscribeResponseSchema,
  UnsubscribeResponseSchema,
  UpdateSubscriptionSettingsResponseSchema,
} from './wire/subscription';
import type {
  GetSubscriptionsResponse,
  SubscribeParams,
  SubscribeResponse,
  SubscriptionPropertyChange,
  UnsubscribeParams,
  UnsubscribeResponse,
  UpdateSubscriptionSettingsResponse,
} from './wire/subscription';
import {
  GetOwnUserResponseSchema,
  GetUsersResponseSchema,
  UpdatePresenceResponseSchema,
} from './wire/user';
import type {
  GetOwnUserResponse,
  GetUsersParams,
  GetUsersResponse,
  UpdatePresenceParams,
  UpdatePresenceResponse,
  UpdateUserParams,
  UpdateUserStatusParams,
} from './wire/user';
import { CreateUserGroupResponseSchema, GetUserGroupsResponseSchema } from './wire/user-group';
import type {
  CreateUserGroupParams,
  CreateUserGroupResponse,
  GetUserGroupsParams,
  GetUserGroupsResponse,
  UpdateUserGroupMembersParams,
  UpdateUserGroupParams,
  UpdateUserGroupSubgroupsParams,
} from './wire/user-group';

/**
 * A typed client for the Zulip REST API. Parameter objects use Zulip's wire names;
 * responses are parsed loosely with zod (new server fields pass through).
 *
 * Capabilities: the client learns the server's feature level from `register()` or
 * `fetchCapabilities()` (`GET /server_settings`, unauthenticated). Once known, endpoints
 * that need a newer server fail before sending with `UNSUPPORTED_FEATURE`; before that,
 * they are sent as they are.
 *
 * @example
 * const client = ZulipClient.fromEnvironment({ zuliprc: '~/.zuliprc' });
 * const caps = await client.fetchCapabilities();
 * if (caps.supports('channelFolders')) await client.createChannelFolder({ name: 'Eng', description: '' });
 * await client.close();
 */
export class ZulipClient extends ZulipClientCore {
  /**
   * A client acting as the owner of an embedded server (`startEmulator()`): for `--embedded`,
   * the demo and tests.
   */
  public static forEmbeddedOwner(
    server: {
      readonly site: string;
      readonly owner: { readonly email: string; readonly apiKey: string };
    },
    options: Omit<ZulipClientOptions, 'credentials' | 'site'> = {},
  ): ZulipClient {
    const { email, apiKey } = server.owner;
    return new ZulipClient({
      ...options,
      credentials: new ZulipCredentials({ email, apiKey, site: server.site }),
    });
  }

  /**
   * A client with credentials found the documented way (see {@link loadCredentials}):
   * `--zuliprc` > `ZULIP_EMAIL`/`ZULIP_API_KEY`/`ZULIP_SITE` > `ZULIP_CONFIG` > `~/.zuliprc`.
   */
  public static fromEnvironment(
    options: LoadCredentialsOptions & Omit<ZulipClientOptions, 'credentials' | 'site'> = {},
  ): ZulipClient {
    const { zuliprc, env, homeDir, readFile, ...rest } = options;
    const credentials = loadCredentials({
      ...(zuliprc === undefined ? {} : { zuliprc }),
      ...(env === undefined ? {} : { env }),
      ...(homeDir === undefined ? {} : { homeDir }),
      ...(readFile === undefined ? {} : { readFile }),
    });
    return new ZulipClient({ ...rest, credentials });
  }

  // ---------------------------------------------------------------- server and events

  /** `POST /register`: registers an event queue and returns the initial state; learns the capabilities. */
  public async register(params: RegisterParams = {}): Promise<RegisterResponse> {
    const res = await this.call('register', {}, params, RegisterResponseSchema);
    this.learn(res.zulip_feature_level, res.zulip_version);
    return res;
  }

  /** `DELETE /events`: deletes an event queue. */
  public deleteEventQueue(queueId: string): Promise<Success> {
    return this.send('deleteEventQueue', {}, { queue_id: queueId });
  }

  /**
   * `GET /events`: the events of a queue newer than `last_event_id`. Long-polls until an event
   * arrives or the server sends a heartbeat (Zulip: after about 45 s), unless `dont_block`.
   * A queue Zulip garbage-collected (10 minutes without a request) fails with a `ZulipApiError`
   * of code `BAD_EVENT_QUEUE_ID`: register a new one.
   */
  public getEvents(params: GetEventsParams): Promise<GetEventsResponse> {
    return this.call('getEvents', {}, params, GetEventsResponseSchema);
  }

  /** `GET /users/me`. */
  public getOwnUser(): Promise<GetOwnUserResponse> {
    return this.call('getOwnUser', {}, undefined, GetOwnUserResponseSchema);
  }

  // ---------------------------------------------------------------- channels

  /** `GET /streams`. */
  public getStreams(params: GetStreamsParams = {}): Promise<GetStreamsResponse> {
    return this.call('getStreams', {}, params, GetStreamsResponseSchema);
  }

  /** `GET /streams/{stream_id}`. */
  public getStream(streamId: number): Promise<GetStreamResponse> {
    return this.call('getStream', { stream_id: streamId }, undefined, GetStreamResponseSchema);
  }

  /** `GET /streams/{stream_id}/members`: subscribed user IDs. */
  public getStreamMembers(streamId: number): Promise<GetStreamMembersResponse> {
    return this.call(
      'getStreamMembers',
      { stream_id: streamId },
      undefined,
      GetStreamMembersResponseSchema,
    );
  }

  /** `POST /channels/create` (FL 417). Name taken: `CHANNEL_ALREADY_EXISTS`. */
  public createChannel(params: CreateChannelParams): Promise<CreateChannelResponse> {
    return this.call('createChannel', {}, params, CreateChannelResponseSchema);
  }

  /** `PATCH /streams/{stream_id}`. Not atomic: re-read after an error. */
  public updateStream(streamId: number, params: UpdateStreamParams): Promise<Success> {
    return this.send('updateStream', { stream_id: streamId }, params);
  }

  /** `DELETE /streams/{stream_id}`: archives the channel (its name stays reserved). */
  public archiveStream(streamId: number): Promise<Success> {
    return this.send('archiveStream', { stream_id: streamId });
  }

  /** `POST /default_streams`. */
  public addDefaultStream(streamId: number): Promise<Success> {
    return this.send('addDefaultStream', {}, { stream_id: streamId });
  }

  /** `DELETE /default_streams`. */
  public removeDefaultStream(streamId: number): Promise<Success> {
    return this.send('removeDefaultStream', {}, { stream_id: streamId });
  }

  // ---------------------------------------------------------------- subscriptions

  /** `GET /users/me/subscriptions`: the caller's subscriptions. */
  public getSubscriptions(
    params: { readonly include_subscribers?: boolean } = {},
  ): Promise<GetSubscriptionsResponse> {
    return this.call('getSubscriptions', {}, params, GetSubscriptionsResponseSchema);
  }

  /** `POST /users/me/subscriptions`: subscribes principals to channels by name (creating missing ones). Atomic. */
  public subscribe(params: SubscribeParams): Promise<SubscribeResponse> {
    return this.call('subscribe', {}, params, SubscribeResponseSchema);
  }

  /** `DELETE /users/me/subscriptions`: unsubscribes principals from channels by name. */
  public unsubscribe(params: UnsubscribeParams): Promise<UnsubscribeResponse> {
    return this.call('unsubscribe', {}, params, UnsubscribeResponseSchema);
  }

  /** `POST /users/me/subscriptions/properties`: the caller's own settings. Not atomic. */
  public updateSubscriptionSettings(
    subscriptionData: readonly SubscriptionPropertyChange[],
  ): Promise<UpdateSubscriptionSettingsResponse> {
    return this.call(
      'updateSubscriptionSettings',
      {},
      { subscription_data: subscriptionData },
      UpdateSubscriptionSettingsResponseSchema,
    );
  }

  // ---------------------------------------------------------------- channel folders

  /** `GET /channel_folders` (FL 389). */
  public getChannelFolders(
    params: GetChannelFoldersParams = {},
  ): Promise<GetChannelFoldersResponse> {
    return this.call('getChannelFolders', {}, params, GetChannelFoldersResponseSchema);
  }

  /** `POST /channel_folders/create` (FL 389). */
  public createChannelFolder(
    params: CreateChannelFolderParams,
  ): Promise<CreateChannelFolderResponse> {
    return this.call('createChannelFolder', {}, params, CreateChannelFolderResponseSchema);
  }

  /** `PATCH /channel_folders/{channel_folder_id}` (FL 389). */
  public updateChannelFolder(
    folderId: number,
    params: UpdateChannelFolderParams,
  ): Promise<Success> {
    return this.send('updateChannelFolder', { channel_folder_id: folderId }, params);
  }

  /** `PATCH /channel_folders` (FL 414): the full order, archived folders included. */
  public reorderChannelFolders(order: readonly number[]): Promise<Success> {
    return this.send('reorderChannelFolders', {}, { order });
  }

  // ---------------------------------------------------------------- user groups

  /** `GET /user_groups`. Rejects bots and guests. */
  public getUserGroups(params: GetUserGroupsParams = {}): Promise<GetUserGroupsResponse> {
    return this.call('getUserGroups', {}, params, GetUserGroupsResponseSchema);
  }

  /** `POST /user_groups/create`. */
  public createUserGroup(params: CreateUserGroupParams): Promise<CreateUserGroupResponse> {
    return this.call('createUserGroup', {}, params, CreateUserGroupResponseSchema);
  }

  /** `PATCH /user_groups/{user_group_id}`: settings as `{new, old?}`. Atomic. */
  public updateUserGroup(groupId: number, params: UpdateUserGroupParams): Promise<Success> {
    return this.send('updateUserGroup', { user_group_id: groupId }, params);
  }

  /** `POST /user_groups/{user_group_id}/members`: members and (FL 311) subgroups. */
  public updateUserGroupMembers(
    groupId: number,
    params: UpdateUserGroupMembersParams,
  ): Promise<Success> {
    return this.send('updateUserGroupMembers', { user_group_id: groupId }, params);
  }

  /** `POST /user_groups/{user_group_id}/subgroups`. */
  public updateUserGroupSubgroups(
    groupId: number,
    params: UpdateUserGroupSubgroupsParams,
  ): Promise<Success> {
    return this.send('updateUserGroupSubgroups', { user_group_id: groupId }, params);
  }

  /** `POST /user_groups/{user_group_id}/deactivate`. In use: `CANNOT_DEACTIVATE_GROUP_IN_USE` with `objections`. */
  public deactivateUserGroup(groupId: number): Promise<Success> {
    return this.send('deactivateUserGroup', { user_group_id: groupId });
  }

  // ---------------------------------------------------------------- linkifiers

  /** `GET /realm/linkifiers`, in processing order. */
  public getLinkifiers(): Promise<GetLinkifiersResponse> {
    return this.call('getLinkifiers', {}, undefined, GetLinkifiersResponseSchema);
  }

  /** `POST /realm/filters`: appended last. */
  public addLinkifier(params: LinkifierParams): Promise<AddLinkifierResponse> {
    return this.call('addLinkifier', {}, params, AddLinkifierResponseSchema);
  }

  /** `PATCH /realm/filters/{filter_id}`: both fields required. */
  public updateLinkifier(filterId: number, params: LinkifierParams): Promise<Success> {
    return this.send('updateLinkifier', { filter_id: filterId }, params);
  }

  /** `DELETE /realm/filters/{filter_id}`. */
  public removeLinkifier(filterId: number): Promise<Success> {
    return this.send('removeLinkifier', { filter_id: filterId });
  }

  /** `PATCH /realm/linkifiers`: the full order. */
  public reorderLinkifiers(orderedLinkifierIds: readonly number[]): Promise<Success> {
    return this.send('reorderLinkifiers', {}, { ordered_linkifier_ids: orderedLinkifierIds });
  }

  // ---------------------------------------------------------------- the organization

  /** `PATCH /realm`: the organization's settings and permissions; only what changes. */
  public updateRealm(params: UpdateRealmParams): Promise<Success> {
    return this.send('updateRealm', {}, params);
  }

  /** `PATCH /realm/user_settings_defaults`: the settings new users start with; only what changes. */
  public updateRealmUserSettingsDefaults(
    params: UpdateUserSettingsDefaultsParams,
  ): Promise<Success> {
    return this.send('updateRealmUserSettingsDefaults', {}, params);
  }

  // ---------------------------------------------------------------- default channel groups

  /** `POST /default_stream_groups/create`: answers nothing but success (no ID). */
  public createDefaultStreamGroup(params: CreateDefaultStreamGroupParams): Promise<Success> {
    return this.send('createDefaultStreamGroup', {}, params);
  }

  /** `PATCH /default_stream_groups/{group_id}`: a new name, a new description, or both. */
  public updateDefaultStreamGroupInfo(
    groupId: number,
    params: UpdateDefaultStreamGroupInfoParams,
  ): Promise<Success> {
    return this.send('updateDefaultStreamGroupInfo', { group_id: groupId }, params);
  }

  /** `PATCH /default_stream_groups/{group_id}/streams`: adds or removes channels by name. */
  public updateDefaultStreamGroupStreams(
    groupId: number,
    params: UpdateDefaultStreamGroupStreamsParams,
  ): Promise<Success> {
    return this.send('updateDefaultStreamGroupStreams', { group_id: groupId }, params);
  }

  /** `DELETE /default_stream_groups/{group_id}`. */
  public removeDefaultStreamGroup(groupId: number): Promise<Success> {
    return this.send('removeDefaultStreamGroup', { group_id: groupId });
  }

  // ---------------------------------------------------------------- custom profile fields

  /** `GET /realm/profile_fields`: the organization's fields, in display order. */
  public getCustomProfileFields(): Promise<GetCustomProfileFieldsResponse> {
    return this.call('getCustomProfileFields', {}, undefined, GetCustomProfileFieldsResponseSchema);
  }

  /** `POST /realm/profile_fields` (administrators): answers the new field's ID. */
  public createCustomProfileField(
    params: CreateCustomProfileFieldParams,
  ): Promise<CreateCustomProfileFieldResponse> {
    return this.call(
      'createCustomProfileField',
      {},
      params,
      CreateCustomProfileFieldResponseSchema,
    );
  }

  /** `PATCH /realm/profile_fields/{field_id}`: only what changes; never the type. */
  public updateCustomProfileField(
    fieldId: number,
    params: UpdateCustomProfileFieldParams,
  ): Promise<Success> {
    return this.call('updateCustomProfileField', { field_id: fieldId }, params, SuccessSchema);
  }

  /** `DELETE /realm/profile_fields/{field_id}`: every user's value of it goes with it. */
  public removeCustomProfileField(fieldId: number): Promise<Success> {
    return this.call('removeCustomProfileField', { field_id: fieldId }, undefined, SuccessSchema);
  }

  /** `PATCH /realm/profile_fields`: the full order (every field's ID). */
  public reorderCustomProfileFields(order: readonly number[]): Promise<Success> {
    return this.call('reorderCustomProfileFields', {}, { order }, SuccessSchema);
  }

  // ---------------------------------------------------------------- allowed domains

  /** `POST /realm/domains`: Zulip strips and lower-cases the domain (`new_domain` says how it stored it). */
  public addRealmDomain(params: AddRealmDomainParams): Promise<AddRealmDomainResponse> {
    return this.call('addRealmDomain', {}, params, AddRealmDomainResponseSchema);
  }

  /** `PATCH /realm/domains/{domain}`: the domain as stored. */
  public updateRealmDomain(domain: string, params: UpdateRealmDomainParams): Promise<Success> {
    return this.send('updateRealmDomain', { domain }, params);
  }

  /** `DELETE /realm/domains/{domain}`: the domain as stored. */
  public removeRealmDomain(domain: string): Promise<Success> {
    return this.send('removeRealmDomain', { domain });
  }

  // ---------------------------------------------------------------- playgrounds

  /** `POST /realm/playgrounds`. */
  public addPlayground(params: AddPlaygroundParams): Promise<AddPlaygroundResponse> {
    return this.call('addPlayground', {}, params, AddPlaygroundResponseSchema);
  }

  /** `DELETE /realm/playgrounds/{playground_id}`. */
  public removePlayground(playgroundId: number): Promise<Success> {
    return this.send('removePlayground', { playground_id: playgroundId });
  }

  // ---------------------------------------------------------------- custom emoji

  /** `GET /realm/emoji`: every custom emoji by ID, deactivated ones included. */
  public getRealmEmoji(): Promise<GetRealmEmojiResponse> {
    return this.call('getRealmEmoji', {}, undefined, GetRealmEmojiResponseSchema);
  }

  /** `POST /realm/emoji/{emoji_name}`: uploads the image (multipart, one file). */
  public uploadEmoji(name: string, image: UploadFile): Promise<Success> {
    return this.call('uploadEmoji', { emoji_name: name }, undefined, SuccessSchema, [image]);
  }

  /** `DELETE /realm/emoji/{emoji_name}`: Zulip deactivates the active emoji of that name. */
  public deactivateEmoji(name: string): Promise<Success> {
    return this.send('deactivateEmoji', { emoji_name: name });
  }

  /**
   * Downloads an image the server links to (an emoji's `source_url`, relative or absolute),
   * without credentials; see {@link ZulipHttp.download}.
   */
  public downloadFile(url: string, maxBytes: number): Promise<Buffer> {
    return this.http.download(url, maxBytes);
  }

  // ---------------------------------------------------------------- saved snippets

  /** `GET /saved_snippets` (the caller's own). */
  public getSavedSnippets(): Promise<GetSavedSnippetsResponse> {
    return this.call('getSavedSnippets', {}, undefined, GetSavedSnippetsResponseSchema);
  }

  /** `POST /saved_snippets`. */
  public createSavedSnippet(params: CreateSavedSnippetParams): Promise<CreateSavedSnippetResponse> {
    return this.call('createSavedSnippet', {}, params, CreateSavedSnippetResponseSchema);
  }

  /** `PATCH /saved_snippets/{saved_snippet_id}` (FL 368). */
  public updateSavedSnippet(snippetId: number, params: UpdateSavedSnippetParams): Promise<Success> {
    return this.send('updateSavedSnippet', { saved_snippet_id: snippetId }, params);
  }

  /** `DELETE /saved_snippets/{saved_snippet_id}`. Unknown: 404. */
  public deleteSavedSnippet(snippetId: number): Promise<Success> {
    return this.send('deleteSavedSnippet', { saved_snippet_id: snippetId });
  }

  // ---------------------------------------------------------------- users

  /** `GET /users` (deactivated users included). */
  public getUsers(params: GetUsersParams = {}): Promise<GetUsersResponse> {
    return this.call('getUsers', {}, params, GetUsersResponseSchema);
  }

  /** `PATCH /users/{user_id}`. */
  public updateUser(userId: number, params: UpdateUserParams): Promise<Success> {
    return this.send('updateUser', { user_id: userId }, params);
  }

  /**
   * `DELETE /users/{user_id}`: deactivates the user (and the bots they own).
   * `deactivation_notification_comment`, when given, makes Zulip e-mail the user with it.
   */
  public deactivateUser(
    userId: number,
    params: { deactivation_notification_comment?: string } = {},
  ): Promise<Success> {
    return this.send('deactivateUser', { user_id: userId }, params);
  }

  /** `POST /users/{user_id}/reactivate`. */
  public reactivateUser(userId: number): Promise<Success> {
    return this.send('reactivateUser', { user_id: userId });
  }

  /** `PATCH /users/{email}` (FL 313). */
  public updateUserByEmail(email: string, params: UpdateUserParams): Promise<Success> {
    return this.send('updateUserByEmail', { email }, params);
  }

  /** `POST /users/{user_id}/status` (administrators). */
  public updateUserStatus(userId: number, params: UpdateUserStatusParams): Promise<Success> {
    return this.send('updateUserStatus', { user_id: userId }, params);
  }

  /** `POST /users/me/presence`. */
  public updatePresence(params: UpdatePresenceParams): Promise<UpdatePresenceResponse> {
    return this.call('updatePresence', {}, params, UpdatePresenceResponseSchema);
  }

  // ---------------------------------------------------------------- messages

  /** `POST /drafts`. */
  public createDrafts(drafts: readonly Draft[]): Promise<CreateDraftsResponse> {
    return this.call('createDrafts', {}, { drafts }, CreateDraftsResponseSchema);
  }

  /** `POST /messages/flags`. */
  public updateMessageFlags(params: UpdateMessageFlagsParams): Promise<UpdateMessageFlagsResponse> {
    return this.call('updateMessageFlags', {}, params, UpdateMessageFlagsResponseSchema);
  }

  /** `POST /messages/flags/narrow`. */
  public updateMessageFlagsForNarrow(
    params: UpdateMessageFlagsForNarrowParams,
  ): Promise<UpdateMessageFlagsForNarrowResponse> {
    return this.call(
      'updateMessageFlagsForNarrow',
      {},
      params,
      UpdateMessageFlagsForNarrowResponseSchema,
    );
  }

  /** `POST /messages/{message_id}/reactions`. Exists: `REACTION_ALREADY_EXISTS`. */
  public addReaction(messageId: number, params: AddReactionParams): Promise<Success> {
    return this.send('addReaction', { message_id: messageId }, params);
  }

  /** `PATCH /scheduled_messages/{scheduled_message_id}`. */
  public updateScheduledMessage(
    scheduledMessageId: number,
    params: UpdateScheduledMessageParams,
  ): Promise<Success> {
    return this.send(
      'updateScheduledMessage',
      { scheduled_message_id: scheduledMessageId },
      params,
    );
  }

  // ---------------------------------------------------------------- other

  /** `PATCH /navigation_views/{fragment}` (FL 390); the fragment may hold slashes. */
  public updateNavigationView(
    fragment: string,
    params: UpdateNavigationViewParams,
  ): Promise<Success> {
    return this.send('updateNavigationView', { fragment }, params);
  }

  /** `POST /mobile_push/e2ee/test_notification`. */
  public sendE2eeTestNotification(params: E2eeTestNotificationParams = {}): Promise<Success> {
    return this.send('sendE2eeTestNotification', {}, params);
  }
}
