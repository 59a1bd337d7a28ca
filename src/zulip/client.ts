import { inspect } from 'node:util';
import type { z } from 'zod';
import { ZulipCdkError } from '../model/errors';
import type { FeatureName } from '../model/features';
import { ServerCapabilities } from './capabilities';
import { ZulipCredentials, loadCredentials } from './credentials';
import type { LoadCredentialsOptions } from './credentials';
import { pathSegment, pathWithSlashes } from './encode';
import { ENDPOINTS } from './endpoints';
import type { UpdateRealmParams } from './wire/realm';
import type { EndpointName, EndpointSpec } from './endpoints';
import { ZulipHttp } from './http';
import type {
  ClientEvent,
  ClientWarning,
  HttpStats,
  RateLimitBudget,
  UploadFile,
  ZulipHttpOptions,
} from './http';
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
import { GetRealmEmojiResponseSchema } from './wire/realm-emoji';
import type { GetRealmEmojiResponse } from './wire/realm-emoji';
import type { AddPlaygroundParams, AddPlaygroundResponse } from './wire/playground';
import type { E2eeTestNotificationParams } from './wire/push';
import {
  GetEventsResponseSchema,
  RegisterResponseSchema,
  ServerSettingsSchema,
} from './wire/register';
import type {
  GetEventsParams,
  GetEventsResponse,
  RegisterParams,
  RegisterResponse,
  ServerSettings,
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

/** Options of {@link ZulipClient}. */
export interface ZulipClientOptions extends Omit<ZulipHttpOptions, 'credentials' | 'site'> {
  /** Who to act as. Without credentials only `getServerSettings()` works. */
  readonly credentials?: ZulipCredentials;
  /** The site when there are no credentials. */
  readonly site?: string;
  /** Capabilities already known (e.g. from a snapshot); skips the lookup. */
  readonly capabilities?: ServerCapabilities;
}

type PathParams = Readonly<Record<string, string | number>>;

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
export class ZulipClient {
  /** The HTTP layer (pool, retries, budget, events). */
  public readonly http: ZulipHttp;
  #capabilities: ServerCapabilities | undefined;
  #capabilitiesPending: Promise<ServerCapabilities> | undefined;

  public constructor(options: ZulipClientOptions) {
    const { capabilities, ...httpOptions } = options;
    this.http = new ZulipHttp(httpOptions);
    this.#capabilities = capabilities;
  }

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

  /** The normalised site. */
  public get site(): string {
    return this.http.site;
  }

  /** The email requests are authenticated as. */
  public get email(): string | undefined {
    return this.http.email;
  }

  /** Requests attempted, retries, 429s. */
  public get stats(): HttpStats {
    return this.http.stats;
  }

  /** HTTP requests attempted so far, retries included. */
  public get requestCount(): number {
    return this.http.stats.requestCount;
  }

  /** The rate-limit budget from the last `X-RateLimit-*` headers. */
  public get rateLimit(): RateLimitBudget {
    return this.http.rateLimit;
  }

  /** Warnings so far, e.g. parameters the server ignored. */
  public get warnings(): readonly ClientWarning[] {
    return this.http.warnings;
  }

  /** Subscribes to warnings, retries and responses; returns the unsubscribe function. */
  public onEvent(listener: (event: ClientEvent) => void): () => void {
    return this.http.onEvent(listener);
  }

  /** Closes the connection pool. */
  public close(): Promise<void> {
    return this.http.close();
  }

  // ---------------------------------------------------------------- capabilities

  /** The server's capabilities, once learned (`register()` or `fetchCapabilities()`). */
  public get capabilities(): ServerCapabilities | undefined {
    return this.#capabilities;
  }

  /** Learns the capabilities with `GET /server_settings` unless already known; cached. */
  public fetchCapabilities(): Promise<ServerCapabilities> {
    if (this.#capabilities !== undefined) return Promise.resolve(this.#capabilities);
    this.#capabilitiesPending ??= this.getServerSettings()
      .then(() => this.#known())
      .finally(() => {
        this.#capabilitiesPending = undefined;
      });
    return this.#capabilitiesPending;
  }

  /** Whether the server has `feature`. Throws `CAPABILITIES_UNKNOWN` before they are learned. */
  public supports(feature: FeatureName): boolean {
    return this.#known().supports(feature);
  }

  /** Throws `UNSUPPORTED_FEATURE` unless the server has `feature` (`CAPABILITIES_UNKNOWN` before they are learned). */
  public requireFeature(feature: FeatureName, where?: string): void {
    this.#known().require(feature, where);
  }

  #known(): ServerCapabilities {
    if (this.#capabilities === undefined) {
      throw new ZulipCdkError(
        'CAPABILITIES_UNKNOWN',
        "The server's feature level is not known yet.",
        { hint: 'Call fetchCapabilities() or register() first.' },
      );
    }
    return this.#capabilities;
  }

  #learn(featureLevel: number, version: string): void {
    this.#capabilities = new ServerCapabilities(featureLevel, version);
  }

  // ---------------------------------------------------------------- core

  async #call<S extends z.ZodType>(
    name: EndpointName,
    pathParams: PathParams,
    params: object | undefined,
    schema: S,
    files?: readonly UploadFile[],
  ): Promise<z.infer<S>> {
    const spec: EndpointSpec = ENDPOINTS[name];
    const endpoint = `${spec.method} ${spec.path}`;
    if (spec.feature !== undefined && this.#capabilities !== undefined) {
      this.#capabilities.require(spec.feature, endpoint);
    }
    const path = spec.path.replace(/\{(\w+)\}/g, (_m, key: string) => {
      const v = pathParams[key];
      if (v === undefined) {
        throw new ZulipCdkError('INVALID_ARGUMENT', `${endpoint}: missing path parameter ${key}.`, {
          where: endpoint,
        });
      }
      return spec.slashParams?.includes(key) === true ? pathWithSlashes(String(v)) : pathSegment(v);
    });
    const body = await this.http.request({
      method: spec.method,
      path,
      endpoint,
      params,
      ...(spec.jsonStrings === undefined ? {} : { jsonStrings: spec.jsonStrings }),
      ...(spec.idempotent === undefined ? {} : { idempotent: spec.idempotent }),
      authenticated: spec.unauthenticated !== true,
      ...(files === undefined ? {} : { files }),
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const where = [
        ...new Set(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)),
      ].slice(0, 5);
      throw new ZulipCdkError(
        'UNEXPECTED_RESPONSE',
        `${endpoint} returned a response of an unexpected shape (${where.join('; ')}).`,
        {
          where: endpoint,
          hint: 'The server may be too old or too new for this zulip-cdk version.',
        },
      );
    }
    return parsed.data;
  }

  // ---------------------------------------------------------------- server and events

  /** `POST /register`: registers an event queue and returns the initial state; learns the capabilities. */
  public async register(params: RegisterParams = {}): Promise<RegisterResponse> {
    const res = await this.#call('register', {}, params, RegisterResponseSchema);
    this.#learn(res.zulip_feature_level, res.zulip_version);
    return res;
  }

  /** `DELETE /events`: deletes an event queue. */
  public deleteEventQueue(queueId: string): Promise<Success> {
    return this.#call('deleteEventQueue', {}, { queue_id: queueId }, SuccessSchema);
  }

  /**
   * `GET /events`: the events of a queue newer than `last_event_id`. Long-polls until an event
   * arrives or the server sends a heartbeat (Zulip: after about 45 s), unless `dont_block`.
   * A queue Zulip garbage-collected (10 minutes without a request) fails with a `ZulipApiError`
   * of code `BAD_EVENT_QUEUE_ID`: register a new one.
   */
  public getEvents(params: GetEventsParams): Promise<GetEventsResponse> {
    return this.#call('getEvents', {}, params, GetEventsResponseSchema);
  }

  /** `GET /server_settings` (unauthenticated, cheap); learns the capabilities. */
  public async getServerSettings(): Promise<ServerSettings> {
    const res = await this.#call('getServerSettings', {}, undefined, ServerSettingsSchema);
    this.#learn(res.zulip_feature_level, res.zulip_version);
    return res;
  }

  /** `GET /users/me`. */
  public getOwnUser(): Promise<GetOwnUserResponse> {
    return this.#call('getOwnUser', {}, undefined, GetOwnUserResponseSchema);
  }

  // ---------------------------------------------------------------- channels

  /** `GET /streams`. */
  public getStreams(params: GetStreamsParams = {}): Promise<GetStreamsResponse> {
    return this.#call('getStreams', {}, params, GetStreamsResponseSchema);
  }

  /** `GET /streams/{stream_id}`. */
  public getStream(streamId: number): Promise<GetStreamResponse> {
    return this.#call('getStream', { stream_id: streamId }, undefined, GetStreamResponseSchema);
  }

  /** `GET /streams/{stream_id}/members`: subscribed user IDs. */
  public getStreamMembers(streamId: number): Promise<GetStreamMembersResponse> {
    return this.#call(
      'getStreamMembers',
      { stream_id: streamId },
      undefined,
      GetStreamMembersResponseSchema,
    );
  }

  /** `POST /channels/create` (FL 417). Name taken: `CHANNEL_ALREADY_EXISTS`. */
  public createChannel(params: CreateChannelParams): Promise<CreateChannelResponse> {
    return this.#call('createChannel', {}, params, CreateChannelResponseSchema);
  }

  /** `PATCH /streams/{stream_id}`. Not atomic: re-read after an error. */
  public updateStream(streamId: number, params: UpdateStreamParams): Promise<Success> {
    return this.#call('updateStream', { stream_id: streamId }, params, SuccessSchema);
  }

  /** `DELETE /streams/{stream_id}`: archives the channel (its name stays reserved). */
  public archiveStream(streamId: number): Promise<Success> {
    return this.#call('archiveStream', { stream_id: streamId }, undefined, SuccessSchema);
  }

  /** `POST /default_streams`. */
  public addDefaultStream(streamId: number): Promise<Success> {
    return this.#call('addDefaultStream', {}, { stream_id: streamId }, SuccessSchema);
  }

  /** `DELETE /default_streams`. */
  public removeDefaultStream(streamId: number): Promise<Success> {
    return this.#call('removeDefaultStream', {}, { stream_id: streamId }, SuccessSchema);
  }

  // ---------------------------------------------------------------- subscriptions

  /** `GET /users/me/subscriptions`: the caller's subscriptions. */
  public getSubscriptions(
    params: { readonly include_subscribers?: boolean } = {},
  ): Promise<GetSubscriptionsResponse> {
    return this.#call('getSubscriptions', {}, params, GetSubscriptionsResponseSchema);
  }

  /** `POST /users/me/subscriptions`: subscribes principals to channels by name (creating missing ones). Atomic. */
  public subscribe(params: SubscribeParams): Promise<SubscribeResponse> {
    return this.#call('subscribe', {}, params, SubscribeResponseSchema);
  }

  /** `DELETE /users/me/subscriptions`: unsubscribes principals from channels by name. */
  public unsubscribe(params: UnsubscribeParams): Promise<UnsubscribeResponse> {
    return this.#call('unsubscribe', {}, params, UnsubscribeResponseSchema);
  }

  /** `POST /users/me/subscriptions/properties`: the caller's own settings. Not atomic. */
  public updateSubscriptionSettings(
    subscriptionData: readonly SubscriptionPropertyChange[],
  ): Promise<UpdateSubscriptionSettingsResponse> {
    return this.#call(
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
    return this.#call('getChannelFolders', {}, params, GetChannelFoldersResponseSchema);
  }

  /** `POST /channel_folders/create` (FL 389). */
  public createChannelFolder(
    params: CreateChannelFolderParams,
  ): Promise<CreateChannelFolderResponse> {
    return this.#call('createChannelFolder', {}, params, CreateChannelFolderResponseSchema);
  }

  /** `PATCH /channel_folders/{channel_folder_id}` (FL 389). */
  public updateChannelFolder(
    folderId: number,
    params: UpdateChannelFolderParams,
  ): Promise<Success> {
    return this.#call(
      'updateChannelFolder',
      { channel_folder_id: folderId },
      params,
      SuccessSchema,
    );
  }

  /** `PATCH /channel_folders` (FL 414): the full order, archived folders included. */
  public reorderChannelFolders(order: readonly number[]): Promise<Success> {
    return this.#call('reorderChannelFolders', {}, { order }, SuccessSchema);
  }

  // ---------------------------------------------------------------- user groups

  /** `GET /user_groups`. Rejects bots and guests. */
  public getUserGroups(params: GetUserGroupsParams = {}): Promise<GetUserGroupsResponse> {
    return this.#call('getUserGroups', {}, params, GetUserGroupsResponseSchema);
  }

  /** `POST /user_groups/create`. */
  public createUserGroup(params: CreateUserGroupParams): Promise<CreateUserGroupResponse> {
    return this.#call('createUserGroup', {}, params, CreateUserGroupResponseSchema);
  }

  /** `PATCH /user_groups/{user_group_id}`: settings as `{new, old?}`. Atomic. */
  public updateUserGroup(groupId: number, params: UpdateUserGroupParams): Promise<Success> {
    return this.#call('updateUserGroup', { user_group_id: groupId }, params, SuccessSchema);
  }

  /** `POST /user_groups/{user_group_id}/members`: members and (FL 311) subgroups. */
  public updateUserGroupMembers(
    groupId: number,
    params: UpdateUserGroupMembersParams,
  ): Promise<Success> {
    return this.#call('updateUserGroupMembers', { user_group_id: groupId }, params, SuccessSchema);
  }

  /** `POST /user_groups/{user_group_id}/subgroups`. */
  public updateUserGroupSubgroups(
    groupId: number,
    params: UpdateUserGroupSubgroupsParams,
  ): Promise<Success> {
    return this.#call(
      'updateUserGroupSubgroups',
      { user_group_id: groupId },
      params,
      SuccessSchema,
    );
  }

  /** `POST /user_groups/{user_group_id}/deactivate`. In use: `CANNOT_DEACTIVATE_GROUP_IN_USE` with `objections`. */
  public deactivateUserGroup(groupId: number): Promise<Success> {
    return this.#call('deactivateUserGroup', { user_group_id: groupId }, undefined, SuccessSchema);
  }

  // ---------------------------------------------------------------- linkifiers

  /** `GET /realm/linkifiers`, in processing order. */
  public getLinkifiers(): Promise<GetLinkifiersResponse> {
    return this.#call('getLinkifiers', {}, undefined, GetLinkifiersResponseSchema);
  }

  /** `POST /realm/filters`: appended last. */
  public addLinkifier(params: LinkifierParams): Promise<AddLinkifierResponse> {
    return this.#call('addLinkifier', {}, params, AddLinkifierResponseSchema);
  }

  /** `PATCH /realm/filters/{filter_id}`: both fields required. */
  public updateLinkifier(filterId: number, params: LinkifierParams): Promise<Success> {
    return this.#call('updateLinkifier', { filter_id: filterId }, params, SuccessSchema);
  }

  /** `DELETE /realm/filters/{filter_id}`. */
  public removeLinkifier(filterId: number): Promise<Success> {
    return this.#call('removeLinkifier', { filter_id: filterId }, undefined, SuccessSchema);
  }

  /** `PATCH /realm/linkifiers`: the full order. */
  public reorderLinkifiers(orderedLinkifierIds: readonly number[]): Promise<Success> {
    return this.#call(
      'reorderLinkifiers',
      {},
      { ordered_linkifier_ids: orderedLinkifierIds },
      SuccessSchema,
    );
  }

  // ---------------------------------------------------------------- the organization

  /** `PATCH /realm`: the organization's settings and permissions; only what changes. */
  public updateRealm(params: UpdateRealmParams): Promise<Success> {
    return this.#call('updateRealm', {}, params, SuccessSchema);
  }

  // ---------------------------------------------------------------- default channel groups

  /** `POST /default_stream_groups/create`: answers nothing but success (no ID). */
  public createDefaultStreamGroup(params: CreateDefaultStreamGroupParams): Promise<Success> {
    return this.#call('createDefaultStreamGroup', {}, params, SuccessSchema);
  }

  /** `PATCH /default_stream_groups/{group_id}`: a new name, a new description, or both. */
  public updateDefaultStreamGroupInfo(
    groupId: number,
    params: UpdateDefaultStreamGroupInfoParams,
  ): Promise<Success> {
    return this.#call('updateDefaultStreamGroupInfo', { group_id: groupId }, params, SuccessSchema);
  }

  /** `PATCH /default_stream_groups/{group_id}/streams`: adds or removes channels by name. */
  public updateDefaultStreamGroupStreams(
    groupId: number,
    params: UpdateDefaultStreamGroupStreamsParams,
  ): Promise<Success> {
    return this.#call(
      'updateDefaultStreamGroupStreams',
      { group_id: groupId },
      params,
      SuccessSchema,
    );
  }

  /** `DELETE /default_stream_groups/{group_id}`. */
  public removeDefaultStreamGroup(groupId: number): Promise<Success> {
    return this.#call('removeDefaultStreamGroup', { group_id: groupId }, undefined, SuccessSchema);
  }

  // ---------------------------------------------------------------- custom profile fields

  /** `GET /realm/profile_fields`: the organization's fields, in display order. */
  public getCustomProfileFields(): Promise<GetCustomProfileFieldsResponse> {
    return this.#call(
      'getCustomProfileFields',
      {},
      undefined,
      GetCustomProfileFieldsResponseSchema,
    );
  }

  /** `POST /realm/profile_fields` (administrators): answers the new field's ID. */
  public createCustomProfileField(
    params: CreateCustomProfileFieldParams,
  ): Promise<CreateCustomProfileFieldResponse> {
    return this.#call(
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
    return this.#call('updateCustomProfileField', { field_id: fieldId }, params, SuccessSchema);
  }

  /** `DELETE /realm/profile_fields/{field_id}`: every user's value of it goes with it. */
  public removeCustomProfileField(fieldId: number): Promise<Success> {
    return this.#call('removeCustomProfileField', { field_id: fieldId }, undefined, SuccessSchema);
  }

  /** `PATCH /realm/profile_fields`: the full order (every field's ID). */
  public reorderCustomProfileFields(order: readonly number[]): Promise<Success> {
    return this.#call('reorderCustomProfileFields', {}, { order }, SuccessSchema);
  }

  // ---------------------------------------------------------------- playgrounds

  /** `POST /realm/playgrounds`. */
  public addPlayground(params: AddPlaygroundParams): Promise<AddPlaygroundResponse> {
    return this.#call('addPlayground', {}, params, AddPlaygroundResponseSchema);
  }

  /** `DELETE /realm/playgrounds/{playground_id}`. */
  public removePlayground(playgroundId: number): Promise<Success> {
    return this.#call(
      'removePlayground',
      { playground_id: playgroundId },
      undefined,
      SuccessSchema,
    );
  }

  // ---------------------------------------------------------------- custom emoji

  /** `GET /realm/emoji`: every custom emoji by ID, deactivated ones included. */
  public getRealmEmoji(): Promise<GetRealmEmojiResponse> {
    return this.#call('getRealmEmoji', {}, undefined, GetRealmEmojiResponseSchema);
  }

  /** `POST /realm/emoji/{emoji_name}`: uploads the image (multipart, one file). */
  public uploadEmoji(name: string, image: UploadFile): Promise<Success> {
    return this.#call('uploadEmoji', { emoji_name: name }, undefined, SuccessSchema, [image]);
  }

  /** `DELETE /realm/emoji/{emoji_name}`: Zulip deactivates the active emoji of that name. */
  public deactivateEmoji(name: string): Promise<Success> {
    return this.#call('deactivateEmoji', { emoji_name: name }, undefined, SuccessSchema);
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
    return this.#call('getSavedSnippets', {}, undefined, GetSavedSnippetsResponseSchema);
  }

  /** `POST /saved_snippets`. */
  public createSavedSnippet(params: CreateSavedSnippetParams): Promise<CreateSavedSnippetResponse> {
    return this.#call('createSavedSnippet', {}, params, CreateSavedSnippetResponseSchema);
  }

  /** `PATCH /saved_snippets/{saved_snippet_id}` (FL 368). */
  public updateSavedSnippet(snippetId: number, params: UpdateSavedSnippetParams): Promise<Success> {
    return this.#call('updateSavedSnippet', { saved_snippet_id: snippetId }, params, SuccessSchema);
  }

  /** `DELETE /saved_snippets/{saved_snippet_id}`. Unknown: 404. */
  public deleteSavedSnippet(snippetId: number): Promise<Success> {
    return this.#call(
      'deleteSavedSnippet',
      { saved_snippet_id: snippetId },
      undefined,
      SuccessSchema,
    );
  }

  // ---------------------------------------------------------------- users

  /** `GET /users` (deactivated users included). */
  public getUsers(params: GetUsersParams = {}): Promise<GetUsersResponse> {
    return this.#call('getUsers', {}, params, GetUsersResponseSchema);
  }

  /** `PATCH /users/{user_id}`. */
  public updateUser(userId: number, params: UpdateUserParams): Promise<Success> {
    return this.#call('updateUser', { user_id: userId }, params, SuccessSchema);
  }

  /**
   * `DELETE /users/{user_id}`: deactivates the user (and the bots they own).
   * `deactivation_notification_comment`, when given, makes Zulip e-mail the user with it.
   */
  public deactivateUser(
    userId: number,
    params: { deactivation_notification_comment?: string } = {},
  ): Promise<Success> {
    return this.#call('deactivateUser', { user_id: userId }, params, SuccessSchema);
  }

  /** `POST /users/{user_id}/reactivate`. */
  public reactivateUser(userId: number): Promise<Success> {
    return this.#call('reactivateUser', { user_id: userId }, undefined, SuccessSchema);
  }

  /** `PATCH /users/{email}` (FL 313). */
  public updateUserByEmail(email: string, params: UpdateUserParams): Promise<Success> {
    return this.#call('updateUserByEmail', { email }, params, SuccessSchema);
  }

  /** `POST /users/{user_id}/status` (administrators). */
  public updateUserStatus(userId: number, params: UpdateUserStatusParams): Promise<Success> {
    return this.#call('updateUserStatus', { user_id: userId }, params, SuccessSchema);
  }

  /** `POST /users/me/presence`. */
  public updatePresence(params: UpdatePresenceParams): Promise<UpdatePresenceResponse> {
    return this.#call('updatePresence', {}, params, UpdatePresenceResponseSchema);
  }

  // ---------------------------------------------------------------- messages

  /** `POST /drafts`. */
  public createDrafts(drafts: readonly Draft[]): Promise<CreateDraftsResponse> {
    return this.#call('createDrafts', {}, { drafts }, CreateDraftsResponseSchema);
  }

  /** `POST /messages/flags`. */
  public updateMessageFlags(params: UpdateMessageFlagsParams): Promise<UpdateMessageFlagsResponse> {
    return this.#call('updateMessageFlags', {}, params, UpdateMessageFlagsResponseSchema);
  }

  /** `POST /messages/flags/narrow`. */
  public updateMessageFlagsForNarrow(
    params: UpdateMessageFlagsForNarrowParams,
  ): Promise<UpdateMessageFlagsForNarrowResponse> {
    return this.#call(
      'updateMessageFlagsForNarrow',
      {},
      params,
      UpdateMessageFlagsForNarrowResponseSchema,
    );
  }

  /** `POST /messages/{message_id}/reactions`. Exists: `REACTION_ALREADY_EXISTS`. */
  public addReaction(messageId: number, params: AddReactionParams): Promise<Success> {
    return this.#call('addReaction', { message_id: messageId }, params, SuccessSchema);
  }

  /** `PATCH /scheduled_messages/{scheduled_message_id}`. */
  public updateScheduledMessage(
    scheduledMessageId: number,
    params: UpdateScheduledMessageParams,
  ): Promise<Success> {
    return this.#call(
      'updateScheduledMessage',
      { scheduled_message_id: scheduledMessageId },
      params,
      SuccessSchema,
    );
  }

  // ---------------------------------------------------------------- other

  /** `PATCH /navigation_views/{fragment}` (FL 390); the fragment may hold slashes. */
  public updateNavigationView(
    fragment: string,
    params: UpdateNavigationViewParams,
  ): Promise<Success> {
    return this.#call('updateNavigationView', { fragment }, params, SuccessSchema);
  }

  /** `POST /mobile_push/e2ee/test_notification`. */
  public sendE2eeTestNotification(params: E2eeTestNotificationParams = {}): Promise<Success> {
    return this.#call('sendE2eeTestNotification', {}, params, SuccessSchema);
  }

  public toJSON(): Record<string, unknown> {
    return {
      site: this.site,
      email: this.email,
      capabilities: this.#capabilities?.toJSON(),
      stats: this.stats,
    };
  }

  public [inspect.custom](): string {
    return `ZulipClient { site: ${JSON.stringify(this.site)}, email: ${JSON.stringify(this.email)} }`;
  }
}
