import type { FeatureName } from '../model/features';
import type { HttpMethod } from './http-types';

/** One endpoint the client calls. */
export interface EndpointSpec {
  readonly method: HttpMethod;
  /** The path template under `/api/v1`, e.g. `/streams/{stream_id}`. */
  readonly path: string;
  /** Safe to repeat after a fault (defaults to GET only). */
  readonly idempotent?: boolean;
  /** Sent without credentials. */
  readonly unauthenticated?: boolean;
  /** String parameters sent JSON-encoded. */
  readonly jsonStrings?: readonly string[];
  /** Needs this feature when the server's feature level is known. */
  readonly feature?: FeatureName;
  /** Path parameters that may hold slashes. */
  readonly slashParams?: readonly string[];
}

/**
 * Every endpoint the client calls, by client method name. The contract tests walk this
 * table, so an endpoint added here without a test fails the suite.
 */
export const ENDPOINTS = {
  // Reading the organization and the server.
  register: {
    method: 'POST',
    path: '/register',
    // Read-only; a repeated register only leaves an extra queue that Zulip expires after 10 minutes.
    idempotent: true,
  },
  // Repeating it leaves the same end state (no queue); a repeat after a delete that landed
  // answers BAD_EVENT_QUEUE_ID, which readLiveState takes as done (Zulip's cleanup_event_queue,
  // zerver/tornado/views.py; zerver/openapi/python_examples.py deregister_queue).
  deleteEventQueue: { method: 'DELETE', path: '/events', idempotent: true },
  // A long-poll; repeating it with the same last_event_id returns the same events.
  getEvents: { method: 'GET', path: '/events' },
  getServerSettings: { method: 'GET', path: '/server_settings', unauthenticated: true },
  getOwnUser: { method: 'GET', path: '/users/me' },
  // Channels.
  getStreams: { method: 'GET', path: '/streams' },
  getStream: { method: 'GET', path: '/streams/{stream_id}' },
  getStreamMembers: { method: 'GET', path: '/streams/{stream_id}/members' },
  // `message_retention_days` is `Json[str] | Json[int]` upstream (zerver/views/streams.py), so
  // 'unlimited' travels as `"unlimited"`. `topics_policy` is JSON-encoded on creation
  // (add_subscriptions_backend, create_channel) but a plain string on PATCH /streams.
  createChannel: {
    method: 'POST',
    path: '/channels/create',
    feature: 'channelsCreate',
    jsonStrings: ['message_retention_days', 'topics_policy'],
  },
  updateStream: {
    method: 'PATCH',
    path: '/streams/{stream_id}',
    jsonStrings: ['message_retention_days'],
  },
  archiveStream: { method: 'DELETE', path: '/streams/{stream_id}' },
  addDefaultStream: { method: 'POST', path: '/default_streams' },
  removeDefaultStream: { method: 'DELETE', path: '/default_streams' },
  // Subscriptions.
  getSubscriptions: { method: 'GET', path: '/users/me/subscriptions' },
  subscribe: {
    method: 'POST',
    path: '/users/me/subscriptions',
    jsonStrings: ['message_retention_days', 'topics_policy'],
  },
  unsubscribe: { method: 'DELETE', path: '/users/me/subscriptions' },
  updateSubscriptionSettings: { method: 'POST', path: '/users/me/subscriptions/properties' },
  // Channel folders.
  getChannelFolders: { method: 'GET', path: '/channel_folders', feature: 'channelFolders' },
  createChannelFolder: {
    method: 'POST',
    path: '/channel_folders/create',
    feature: 'channelFolders',
  },
  updateChannelFolder: {
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    feature: 'channelFolders',
  },
  reorderChannelFolders: {
    method: 'PATCH',
    path: '/channel_folders',
    feature: 'channelFolderOrder',
  },
  // User groups.
  getUserGroups: { method: 'GET', path: '/user_groups' },
  createUserGroup: { method: 'POST', path: '/user_groups/create' },
  updateUserGroup: { method: 'PATCH', path: '/user_groups/{user_group_id}' },
  updateUserGroupMembers: { method: 'POST', path: '/user_groups/{user_group_id}/members' },
  updateUserGroupSubgroups: { method: 'POST', path: '/user_groups/{user_group_id}/subgroups' },
  deactivateUserGroup: {
    method: 'POST',
    path: '/user_groups/{user_group_id}/deactivate',
    feature: 'groupDeactivation',
  },
  // Linkifiers.
  getLinkifiers: { method: 'GET', path: '/realm/linkifiers' },
  addLinkifier: { method: 'POST', path: '/realm/filters' },
  updateLinkifier: { method: 'PATCH', path: '/realm/filters/{filter_id}' },
  removeLinkifier: { method: 'DELETE', path: '/realm/filters/{filter_id}' },
  reorderLinkifiers: { method: 'PATCH', path: '/realm/linkifiers' },
  // The organization's settings. `message_retention_days` and the time limits are
  // `Json[int | str]` in zerver/views/realm.py `update_realm`: 'unlimited' travels as `"unlimited"`.
  updateRealm: {
    method: 'PATCH',
    path: '/realm',
    jsonStrings: [
      'message_retention_days',
      'message_content_edit_limit_seconds',
      'message_content_delete_limit_seconds',
      'move_messages_within_stream_limit_seconds',
      'move_messages_between_streams_limit_seconds',
      // `Json[str]`, with "default" for the server's own.
      'jitsi_server_url',
    ],
  },
  // The default user settings (zerver/views/realm.py update_realm_user_settings_defaults).
  updateRealmUserSettingsDefaults: { method: 'PATCH', path: '/realm/user_settings_defaults' },
  // Default channel groups (zerver/views/streams.py).
  createDefaultStreamGroup: { method: 'POST', path: '/default_stream_groups/create' },
  updateDefaultStreamGroupInfo: { method: 'PATCH', path: '/default_stream_groups/{group_id}' },
  updateDefaultStreamGroupStreams: {
    method: 'PATCH',
    path: '/default_stream_groups/{group_id}/streams',
  },
  removeDefaultStreamGroup: { method: 'DELETE', path: '/default_stream_groups/{group_id}' },
  // Custom profile fields (zerver/views/custom_profile_fields.py).
  getCustomProfileFields: { method: 'GET', path: '/realm/profile_fields' },
  createCustomProfileField: { method: 'POST', path: '/realm/profile_fields' },
  reorderCustomProfileFields: { method: 'PATCH', path: '/realm/profile_fields' },
  updateCustomProfileField: { method: 'PATCH', path: '/realm/profile_fields/{field_id}' },
  removeCustomProfileField: { method: 'DELETE', path: '/realm/profile_fields/{field_id}' },
  // Allowed domains (zerver/views/realm_domains.py, every write `require_realm_owner`). The
  // domain is one path segment; Zulip looks it up as stored (lower case), without stripping.
  addRealmDomain: { method: 'POST', path: '/realm/domains' },
  updateRealmDomain: { method: 'PATCH', path: '/realm/domains/{domain}' },
  removeRealmDomain: { method: 'DELETE', path: '/realm/domains/{domain}' },
  // Playgrounds.
  addPlayground: { method: 'POST', path: '/realm/playgrounds' },
  removePlayground: { method: 'DELETE', path: '/realm/playgrounds/{playground_id}' },
  // Custom emoji (zerver/views/realm_emoji.py). The upload is multipart with one file; the
  // delete deactivates. The name is one path segment (valid names have no slash).
  getRealmEmoji: { method: 'GET', path: '/realm/emoji' },
  uploadEmoji: { method: 'POST', path: '/realm/emoji/{emoji_name}' },
  deactivateEmoji: { method: 'DELETE', path: '/realm/emoji/{emoji_name}' },
  // Saved snippets.
  getSavedSnippets: { method: 'GET', path: '/saved_snippets', feature: 'savedSnippets' },
  createSavedSnippet: { method: 'POST', path: '/saved_snippets', feature: 'savedSnippets' },
  updateSavedSnippet: {
    method: 'PATCH',
    path: '/saved_snippets/{saved_snippet_id}',
    feature: 'savedSnippets',
  },
  deleteSavedSnippet: {
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    feature: 'savedSnippets',
  },
  // Users.
  getUsers: { method: 'GET', path: '/users' },
  updateUser: { method: 'PATCH', path: '/users/{user_id}' },
  updateUserByEmail: { method: 'PATCH', path: '/users/{email}' },
  // zerver/views/users.py deactivate_user_backend, reactivate_user_backend.
  deactivateUser: { method: 'DELETE', path: '/users/{user_id}' },
  reactivateUser: { method: 'POST', path: '/users/{user_id}/reactivate' },
  updateUserStatus: {
    method: 'POST',
    path: '/users/{user_id}/status',
    feature: 'userStatusOfOthers',
  },
  updatePresence: { method: 'POST', path: '/users/me/presence' },
  // Messages.
  createDrafts: { method: 'POST', path: '/drafts' },
  updateMessageFlags: { method: 'POST', path: '/messages/flags' },
  updateMessageFlagsForNarrow: { method: 'POST', path: '/messages/flags/narrow' },
  addReaction: { method: 'POST', path: '/messages/{message_id}/reactions' },
  updateScheduledMessage: {
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
  },
  // Other organization settings.
  updateNavigationView: {
    method: 'PATCH',
    path: '/navigation_views/{fragment}',
    feature: 'navigationViews',
    slashParams: ['fragment'],
  },
  sendE2eeTestNotification: {
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    feature: 'e2eeTestNotification',
  },
} as const satisfies Record<string, EndpointSpec>;

/** The name of an endpoint of {@link ENDPOINTS}: the client method that calls it. */
export type EndpointName = keyof typeof ENDPOINTS;

/** `PATCH /users/{email}` and `PATCH /users/{user_id}` share a template shape; this says which is which. */
export function endpointLabel(name: EndpointName): string {
  const e: EndpointSpec = ENDPOINTS[name];
  return `${e.method} ${e.path}`;
}
