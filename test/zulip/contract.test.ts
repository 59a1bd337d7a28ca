/**
 * Contract tests: every request the client builds is checked against Zulip's own OpenAPI
 * description (zulip.yaml, Zulip 10.2) — method, path, every parameter name, required ones,
 * JSON-encoded ones valid JSON of the right type — and the yaml's example responses are parsed
 * with the client's schemas. Endpoints and parameters newer than the yaml are checked against
 * the seed (seed/org-api-spec.md) and NOTES.md instead.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { FEATURE_LEVELS } from '../../src/model/features';
import {
  ServerCapabilities,
  ENDPOINTS,
  ORG_READ_REGISTER_PARAMS,
  ZulipClient,
  ZulipCredentials,
} from '../../src/zulip';
import type { EndpointName } from '../../src/zulip';
import {
  exampleResponses,
  findOperation,
  loadOpenApi,
  operationParams,
  resolveSchema,
} from '../support/openapi';
import type { OperationParam } from '../support/openapi';
import { CaptureServer } from './capture-server';
import type { Captured } from './capture-server';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** A parameter described by the seed or NOTES rather than the yaml. */
interface ParamSpec {
  readonly json: boolean;
  readonly required?: boolean;
  readonly schema: object;
}

const INT = { type: 'integer' };
const INT_LIST = { type: 'array', items: INT };
const BOOL = { type: 'boolean' };
const STR = { type: 'string' };
const GSV = {
  oneOf: [
    INT,
    {
      type: 'object',
      additionalProperties: false,
      required: ['direct_members', 'direct_subgroups'],
      properties: { direct_members: INT_LIST, direct_subgroups: INT_LIST },
    },
  ],
};
const GSV_UPDATE = {
  type: 'object',
  additionalProperties: false,
  required: ['new'],
  properties: { new: GSV, old: GSV },
};
const TOPICS_POLICY = {
  type: 'string',
  enum: ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'],
};
/**
 * `message_retention_days`: `Json[str] | Json[int]` upstream (zerver/views/streams.py), so the
 * keywords travel JSON-quoted. The 10.2 yaml gives it no `contentType`, which is wrong.
 */
const RETENTION = { oneOf: [{ type: 'string', enum: ['realm_default', 'unlimited'] }, INT] };
/** Channel settings newer than FL 372 (NOTES 3.4, 6). */
const NEWER_CHANNEL_GROUP_SETTINGS = [
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
];

interface Case {
  readonly name: EndpointName;
  readonly call: (c: ZulipClient) => Promise<unknown>;
  /** The concrete path under /api/v1. */
  readonly path: string;
  /** The yaml operation whose parameters apply, when not the endpoint's own. */
  readonly yamlOp?: readonly [string, string];
  /** Parameters of an endpoint the yaml does not describe (seed / NOTES). */
  readonly spec?: Readonly<Record<string, ParamSpec>>;
  /** Parameters newer than the yaml, on an endpoint it describes. */
  readonly newer?: Readonly<Record<string, ParamSpec>>;
  /** yaml parameters whose encoding the yaml gets wrong, as upstream's code parses them. */
  readonly corrected?: Readonly<Record<string, ParamSpec>>;
  /** yaml parameters the call deliberately does not send, with the reason. */
  readonly omit?: Readonly<Record<string, string>>;
  /** Responses for endpoints without yaml examples. */
  readonly responses?: readonly unknown[];
}

const ok = (extra: object = {}) => ({ result: 'success', msg: '', ...extra });

const channelCreationGroupSettings = {
  can_add_subscribers_group: { direct_members: [1], direct_subgroups: [2] },
  can_remove_subscribers_group: 11,
  can_administer_channel_group: { direct_members: [10], direct_subgroups: [] },
  can_send_message_group: 12,
  can_subscribe_group: 13,
};

/** `update_realm`'s group settings (`Realm.REALM_PERMISSION_GROUP_SETTINGS`, FL 442). */
const REALM_GROUP_SETTINGS = [
  'create_multiuse_invite_group',
  'can_access_all_users_group',
  'can_add_subscribers_group',
  'can_add_custom_emoji_group',
  'can_create_bots_group',
  'can_create_groups',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_create_write_only_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'can_mention_many_users_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_set_delete_message_policy_group',
  'can_set_topics_policy_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
];

const CASES: readonly Case[] = [
  {
    name: 'register',
    path: '/register',
    call: (c) =>
      c.register({
        ...ORG_READ_REGISTER_PARAMS,
        apply_markdown: false,
        client_gravatar: false,
        slim_presence: true,
        presence_history_limit_days: 7,
        event_types: ['realm_user', 'subscription'],
        all_public_streams: false,
        narrow: [['channel', 'engineering']],
      }),
  },
  {
    name: 'deleteEventQueue',
    path: '/events',
    call: (c) => c.deleteEventQueue('fb67bf8a-c031-47cc-84cf-ed80accacda8'),
  },
  {
    name: 'getEvents',
    path: '/events',
    call: (c) =>
      c.getEvents({
        queue_id: 'fb67bf8a-c031-47cc-84cf-ed80accacda8',
        last_event_id: 4,
        dont_block: true,
      }),
  },
  { name: 'getServerSettings', path: '/server_settings', call: (c) => c.getServerSettings() },
  { name: 'getOwnUser', path: '/users/me', call: (c) => c.getOwnUser() },
  {
    name: 'getStreams',
    path: '/streams',
    call: (c) =>
      c.getStreams({
        include_public: true,
        include_web_public: false,
        include_subscribed: true,
        exclude_archived: false,
        include_all: true,
        include_default: true,
        include_owner_subscribed: false,
        include_can_access_content: true,
      }),
    omit: { include_all_active: 'deprecated at FL 356 in favour of include_all' },
  },
  { name: 'getStream', path: '/streams/12', call: (c) => c.getStream(12) },
  { name: 'getStreamMembers', path: '/streams/12/members', call: (c) => c.getStreamMembers(12) },
  {
    name: 'createChannel',
    path: '/channels/create',
    call: (c) =>
      c.createChannel({
        name: 'engineering',
        description: 'Where we build',
        subscribers: [1, 2],
        announce: false,
        invite_only: true,
        is_web_public: false,
        is_default_stream: false,
        history_public_to_subscribers: true,
        message_retention_days: 30,
        topics_policy: 'inherit',
        folder_id: 3,
        send_new_subscription_messages: false,
        ...channelCreationGroupSettings,
        can_delete_own_message_group: 14,
        can_create_topic_group: 15,
        can_delete_any_message_group: 16,
        can_move_messages_out_of_channel_group: 17,
        can_move_messages_within_channel_group: { direct_members: [1], direct_subgroups: [2] },
        can_resolve_topics_group: 18,
      }),
    spec: {
      name: { json: false, required: true, schema: STR },
      description: { json: false, schema: STR },
      subscribers: { json: true, required: true, schema: INT_LIST },
      announce: { json: true, schema: BOOL },
      invite_only: { json: true, schema: BOOL },
      is_web_public: { json: true, schema: BOOL },
      is_default_stream: { json: true, schema: BOOL },
      history_public_to_subscribers: { json: true, schema: BOOL },
      message_retention_days: { json: true, schema: RETENTION },
      // Json[...] on creation (test_channel_creation sends orjson.dumps(name)).
      topics_policy: { json: true, schema: TOPICS_POLICY },
      folder_id: { json: true, schema: INT },
      send_new_subscription_messages: { json: true, schema: BOOL },
      ...Object.fromEntries(
        [...Object.keys(channelCreationGroupSettings), ...NEWER_CHANNEL_GROUP_SETTINGS].map((n) => [
          n,
          { json: true, schema: GSV },
        ]),
      ),
    },
    responses: [ok({ id: 42 })],
  },
  {
    name: 'updateStream',
    path: '/streams/12',
    call: (c) =>
      c.updateStream(12, {
        description: 'New description',
        new_name: 'eng',
        is_private: true,
        is_web_public: false,
        history_public_to_subscribers: true,
        is_default_stream: false,
        message_retention_days: 'realm_default',
        is_archived: false,
        folder_id: null,
        topics_policy: 'disable_empty_topic',
        can_add_subscribers_group: { new: 10, old: { direct_members: [1], direct_subgroups: [] } },
        can_remove_subscribers_group: { new: 11 },
        can_administer_channel_group: { new: { direct_members: [3], direct_subgroups: [4] } },
        can_send_message_group: { new: 12, old: 13 },
        can_subscribe_group: { new: 14, old: 15 },
        can_resolve_topics_group: { new: 16, old: 17 },
        can_create_topic_group: { new: 18 },
        can_delete_any_message_group: { new: 19, old: 20 },
        can_delete_own_message_group: { new: { direct_members: [], direct_subgroups: [21] } },
        can_move_messages_out_of_channel_group: { new: 22 },
        can_move_messages_within_channel_group: { new: 23, old: 24 },
      }),
    corrected: { message_retention_days: { json: true, schema: RETENTION } },
    newer: {
      is_archived: { json: true, schema: BOOL },
      folder_id: { json: true, schema: { type: ['integer', 'null'] } },
      // A plain str on PATCH (update_stream_backend), unlike creation.
      topics_policy: { json: false, schema: TOPICS_POLICY },
      ...Object.fromEntries(
        NEWER_CHANNEL_GROUP_SETTINGS.map((n) => [n, { json: true, schema: GSV_UPDATE }]),
      ),
    },
  },
  { name: 'archiveStream', path: '/streams/12', call: (c) => c.archiveStream(12) },
  { name: 'addDefaultStream', path: '/default_streams', call: (c) => c.addDefaultStream(12) },
  {
    name: 'removeDefaultStream',
    path: '/default_streams',
    call: (c) => c.removeDefaultStream(12),
  },
  {
    name: 'getSubscriptions',
    path: '/users/me/subscriptions',
    call: (c) => c.getSubscriptions({ include_subscribers: true }),
  },
  {
    name: 'subscribe',
    path: '/users/me/subscriptions',
    call: (c) =>
      c.subscribe({
        subscriptions: [{ name: 'Verona', description: 'Italian city' }, { name: 'Rome' }],
        principals: [5, 6],
        authorization_errors_fatal: false,
        announce: false,
        invite_only: true,
        is_web_public: false,
        is_default_stream: false,
        history_public_to_subscribers: true,
        message_retention_days: 'unlimited',
        send_new_subscription_messages: false,
        topics_policy: 'allow_empty_topic',
        folder_id: 2,
        ...channelCreationGroupSettings,
        can_move_messages_out_of_channel_group: 20,
        can_move_messages_within_channel_group: 21,
        can_create_topic_group: 22,
        can_delete_any_message_group: 23,
        can_delete_own_message_group: { direct_members: [4], direct_subgroups: [] },
        can_resolve_topics_group: 24,
      }),
    corrected: { message_retention_days: { json: true, schema: RETENTION } },
    newer: {
      send_new_subscription_messages: { json: true, schema: BOOL },
      // Json[...] in add_subscriptions_backend.
      topics_policy: { json: true, schema: TOPICS_POLICY },
      folder_id: { json: true, schema: INT },
      ...Object.fromEntries(
        NEWER_CHANNEL_GROUP_SETTINGS.map((n) => [n, { json: true, schema: GSV }]),
      ),
    },
  },
  {
    name: 'unsubscribe',
    path: '/users/me/subscriptions',
    call: (c) => c.unsubscribe({ subscriptions: ['Verona'], principals: ['a@example.com'] }),
  },
  {
    name: 'updateSubscriptionSettings',
    path: '/users/me/subscriptions/properties',
    call: (c) =>
      c.updateSubscriptionSettings([
        { stream_id: 1, property: 'color', value: '#c2c2c2' },
        { stream_id: 1, property: 'is_muted', value: true },
        { stream_id: 2, property: 'desktop_notifications', value: false },
      ]),
  },
  {
    name: 'getChannelFolders',
    path: '/channel_folders',
    call: (c) => c.getChannelFolders({ include_archived: true }),
    spec: { include_archived: { json: true, schema: BOOL } },
    responses: [
      ok({
        channel_folders: [
          {
            id: 1,
            name: 'Frontend',
            description: 'Channels for **frontend** discussions',
            rendered_description: '<p>Channels for <strong>frontend</strong> discussions</p>',
            order: 1,
            date_created: 1717484400,
            creator_id: 9,
            is_archived: false,
          },
        ],
      }),
      // Before FL 414: no order.
      ok({
        channel_folders: [
          {
            id: 2,
            name: 'B',
            description: '',
            rendered_description: '',
            date_created: 1,
            creator_id: null,
            is_archived: true,
          },
        ],
      }),
    ],
  },
  {
    name: 'createChannelFolder',
    path: '/channel_folders/create',
    call: (c) => c.createChannelFolder({ name: 'Frontend', description: '' }),
    spec: {
      name: { json: false, required: true, schema: STR },
      description: { json: false, required: true, schema: STR },
    },
    responses: [ok({ channel_folder_id: 1 })],
  },
  {
    name: 'updateChannelFolder',
    path: '/channel_folders/7',
    call: (c) => c.updateChannelFolder(7, { name: 'Backend', description: 'x', is_archived: true }),
    spec: {
      name: { json: false, schema: STR },
      description: { json: false, schema: STR },
      is_archived: { json: true, schema: BOOL },
    },
    responses: [ok()],
  },
  {
    name: 'reorderChannelFolders',
    path: '/channel_folders',
    call: (c) => c.reorderChannelFolders([3, 1, 2]),
    spec: { order: { json: true, required: true, schema: INT_LIST } },
    responses: [ok()],
  },
  {
    name: 'getUserGroups',
    path: '/user_groups',
    call: (c) => c.getUserGroups({ include_deactivated_groups: true }),
  },
  {
    name: 'createUserGroup',
    path: '/user_groups/create',
    call: (c) =>
      c.createUserGroup({
        name: 'marketing',
        description: 'The marketing team.',
        members: [1, 2, 3],
        subgroups: [4],
        can_add_members_group: { direct_members: [1], direct_subgroups: [] },
        can_join_group: 5,
        can_leave_group: 6,
        can_manage_group: { direct_members: [1], direct_subgroups: [7] },
        can_mention_group: 8,
        can_remove_members_group: 9,
      }),
  },
  {
    name: 'updateUserGroup',
    path: '/user_groups/9',
    call: (c) =>
      c.updateUserGroup(9, {
        name: 'marketing team',
        description: 'The marketing team.',
        deactivated: false,
        can_add_members_group: { new: 1, old: 2 },
        can_join_group: { new: { direct_members: [1], direct_subgroups: [] } },
        can_leave_group: { new: 3, old: { direct_members: [], direct_subgroups: [4] } },
        can_manage_group: { new: 5 },
        can_mention_group: { new: 6, old: 7 },
        can_remove_members_group: { new: 8, old: 9 },
      }),
    newer: { deactivated: { json: true, schema: BOOL } },
  },
  {
    name: 'updateUserGroupMembers',
    path: '/user_groups/9/members',
    call: (c) =>
      c.updateUserGroupMembers(9, {
        add: [1],
        delete: [2],
        add_subgroups: [3],
        delete_subgroups: [4],
      }),
  },
  {
    name: 'updateUserGroupSubgroups',
    path: '/user_groups/9/subgroups',
    call: (c) => c.updateUserGroupSubgroups(9, { add: [3], delete: [4] }),
  },
  {
    name: 'deactivateUserGroup',
    path: '/user_groups/9/deactivate',
    call: (c) => c.deactivateUserGroup(9),
  },
  { name: 'getLinkifiers', path: '/realm/linkifiers', call: (c) => c.getLinkifiers() },
  {
    name: 'addLinkifier',
    path: '/realm/filters',
    call: (c) =>
      c.addLinkifier({
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://github.com/zulip/zulip/issues/{id}',
      }),
  },
  {
    name: 'updateLinkifier',
    path: '/realm/filters/4',
    call: (c) =>
      c.updateLinkifier(4, { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' }),
  },
  { name: 'removeLinkifier', path: '/realm/filters/4', call: (c) => c.removeLinkifier(4) },
  {
    name: 'reorderLinkifiers',
    path: '/realm/linkifiers',
    call: (c) => c.reorderLinkifiers([3, 1, 2]),
  },
  {
    name: 'getCustomProfileFields',
    path: '/realm/profile_fields',
    call: (c) => c.getCustomProfileFields(),
  },
  {
    name: 'createCustomProfileField',
    path: '/realm/profile_fields',
    call: (c) =>
      c.createCustomProfileField({
        name: 'Favorite programming language',
        hint: 'Your favorite programming language.',
        field_type: 3,
        field_data: { python: { text: 'Python', order: '1' }, java: { text: 'Java', order: '2' } },
        display_in_profile_summary: true,
        required: true,
        editable_by_user: false,
      }),
  },
  {
    name: 'reorderCustomProfileFields',
    path: '/realm/profile_fields',
    call: (c) => c.reorderCustomProfileFields([11, 10, 9]),
  },
  // zerver/views/custom_profile_fields.py update_realm_custom_profile_field and
  // delete_realm_custom_profile_field; the yaml does not describe these endpoints.
  {
    name: 'updateCustomProfileField',
    path: '/realm/profile_fields/9',
    call: (c) =>
      c.updateCustomProfileField(9, {
        name: 'Phone',
        hint: 'Work phone',
        field_data: { '0': { text: 'A', order: '1' } },
        display_in_profile_summary: false,
        required: true,
        editable_by_user: true,
      }),
    spec: {
      display_in_profile_summary: { json: true, schema: BOOL },
      editable_by_user: { json: true, schema: BOOL },
      field_data: { json: true, schema: { type: 'object' } },
      hint: { json: false, schema: STR },
      name: { json: false, schema: STR },
      required: { json: true, schema: BOOL },
    },
    responses: [ok()],
  },
  {
    name: 'removeCustomProfileField',
    path: '/realm/profile_fields/9',
    call: (c) => c.removeCustomProfileField(9),
    spec: {},
    responses: [ok()],
  },
  // zerver/views/streams.py; the yaml does not describe these endpoints.
  {
    name: 'createDefaultStreamGroup',
    path: '/default_stream_groups/create',
    call: (c) =>
      c.createDefaultStreamGroup({
        group_name: 'group1',
        description: 'This is group1',
        stream_names: ['stream1', 'stream2'],
      }),
    spec: {
      description: { json: false, required: true, schema: STR },
      group_name: { json: false, required: true, schema: STR },
      stream_names: { json: true, required: true, schema: { type: 'array', items: STR } },
    },
    responses: [ok()],
  },
  {
    name: 'updateDefaultStreamGroupInfo',
    path: '/default_stream_groups/3',
    call: (c) =>
      c.updateDefaultStreamGroupInfo(3, { new_group_name: 'group2', new_description: 'x' }),
    spec: {
      new_description: { json: false, schema: STR },
      new_group_name: { json: false, schema: STR },
    },
    responses: [ok()],
  },
  {
    name: 'updateDefaultStreamGroupStreams',
    path: '/default_stream_groups/3/streams',
    call: (c) => c.updateDefaultStreamGroupStreams(3, { op: 'add', stream_names: ['stream4'] }),
    spec: {
      op: { json: false, required: true, schema: { type: 'string', enum: ['add', 'remove'] } },
      stream_names: { json: true, required: true, schema: { type: 'array', items: STR } },
    },
    responses: [ok()],
  },
  {
    name: 'removeDefaultStreamGroup',
    path: '/default_stream_groups/3',
    call: (c) => c.removeDefaultStreamGroup(3),
    spec: {},
    responses: [ok()],
  },
  {
    // Not in the 10.2 yaml: the parameters of zerver/views/realm.py `update_realm` (FL 442),
    // written out here by hand from its signature, independently of the model's tables.
    name: 'updateRealm',
    path: '/realm',
    call: (c) =>
      c.updateRealm({
        name: 'Acme',
        description: 'Where Acme talks',
        default_language: 'de',
        default_code_block_language: 'python',
        welcome_message_custom_text: 'Hi',
        message_retention_days: 'unlimited',
        new_stream_announcements_stream_id: 4,
        signup_announcements_stream_id: -1,
        zulip_update_announcements_stream_id: 5,
        moderation_request_channel_id: 6,
        waiting_period_threshold: 3,
        topics_policy: 'disable_empty_topic',
        enable_spectator_access: false,
        allow_message_editing: true,
        message_content_edit_limit_seconds: 'unlimited',
        message_content_delete_limit_seconds: 600,
        move_messages_within_stream_limit_seconds: 3600,
        move_messages_between_streams_limit_seconds: 'unlimited',
        message_edit_history_visibility_policy: 'moves',
        invite_required: true,
        emails_restricted_to_domains: false,
        disallow_disposable_email_addresses: true,
        email_changes_disabled: false,
        name_changes_disabled: false,
        avatar_changes_disabled: false,
        require_unique_names: true,
        enable_read_receipts: true,
        enable_guest_user_indicator: true,
        enable_guest_user_dm_warning: true,
        message_content_allowed_in_email_notifications: true,
        send_welcome_emails: false,
        send_channel_events_messages: true,
        digest_emails_enabled: true,
        digest_weekday: 2,
        inline_image_preview: true,
        inline_url_embed_preview: false,
        want_advertise_in_communities_directory: false,
        ...Object.fromEntries(REALM_GROUP_SETTINGS.map((k, i) => [k, { new: i + 1 }])),
        can_create_public_channel_group: { new: 1, old: 2 },
        can_access_all_users_group: { new: 3 },
        direct_message_permission_group: {
          new: { direct_members: [1], direct_subgroups: [2] },
          old: { direct_members: [], direct_subgroups: [2, 3] },
        },
      }),
    spec: {
      ...Object.fromEntries(
        [
          'name',
          'description',
          'default_language',
          'default_code_block_language',
          'welcome_message_custom_text',
        ].map((k) => [k, { json: false, schema: STR }]),
      ),
      topics_policy: {
        json: false,
        schema: { type: 'string', enum: ['allow_empty_topic', 'disable_empty_topic'] },
      },
      message_edit_history_visibility_policy: {
        json: false,
        schema: { type: 'string', enum: ['all', 'moves', 'none'] },
      },
      ...Object.fromEntries(
        [
          'message_retention_days',
          'message_content_edit_limit_seconds',
          'message_content_delete_limit_seconds',
          'move_messages_within_stream_limit_seconds',
          'move_messages_between_streams_limit_seconds',
        ].map((k) => [
          k,
          { json: true, schema: { oneOf: [{ type: 'string', enum: ['unlimited'] }, INT] } },
        ]),
      ),
      ...Object.fromEntries(
        [
          'new_stream_announcements_stream_id',
          'signup_announcements_stream_id',
          'zulip_update_announcements_stream_id',
          'moderation_request_channel_id',
          'waiting_period_threshold',
          'digest_weekday',
        ].map((k) => [k, { json: true, schema: INT }]),
      ),
      ...Object.fromEntries(
        [
          'enable_spectator_access',
          'allow_message_editing',
          'invite_required',
          'emails_restricted_to_domains',
          'disallow_disposable_email_addresses',
          'email_changes_disabled',
          'name_changes_disabled',
          'avatar_changes_disabled',
          'require_unique_names',
          'enable_read_receipts',
          'enable_guest_user_indicator',
          'enable_guest_user_dm_warning',
          'message_content_allowed_in_email_notifications',
          'send_welcome_emails',
          'send_channel_events_messages',
          'digest_emails_enabled',
          'inline_image_preview',
          'inline_url_embed_preview',
          'want_advertise_in_communities_directory',
        ].map((k) => [k, { json: true, schema: BOOL }]),
      ),
      ...Object.fromEntries(
        REALM_GROUP_SETTINGS.map((k) => [k, { json: true, schema: GSV_UPDATE }]),
      ),
    },
    responses: [ok({ name: 'updated', waiting_period_threshold: 3 })],
  },
  // Allowed domains: Zulip's yaml does not describe /realm/domains; the parameters are those of
  // zerver/views/realm_domains.py (FL 442): `domain: str` (plain), `allow_subdomains: Json[bool]`.
  {
    name: 'addRealmDomain',
    path: '/realm/domains',
    call: (c) => c.addRealmDomain({ domain: 'acme.example', allow_subdomains: true }),
    spec: {
      domain: { json: false, required: true, schema: STR },
      allow_subdomains: { json: true, required: true, schema: BOOL },
    },
    responses: [ok({ new_domain: [7, 'acme.example'] })],
  },
  {
    name: 'updateRealmDomain',
    path: '/realm/domains/acme.example',
    call: (c) => c.updateRealmDomain('acme.example', { allow_subdomains: false }),
    spec: { allow_subdomains: { json: true, required: true, schema: BOOL } },
    responses: [ok()],
  },
  {
    name: 'removeRealmDomain',
    path: '/realm/domains/acme.example',
    call: (c) => c.removeRealmDomain('acme.example'),
    spec: {},
    responses: [ok()],
  },
  {
    // zerver/views/realm.py `update_realm_user_settings_defaults` (FL 442): every parameter,
    // written out by hand; the yaml (FL 372) lacks four and the newer channel views.
    name: 'updateRealmUserSettingsDefaults',
    path: '/realm/user_settings_defaults',
    call: (c) =>
      c.updateRealmUserSettingsDefaults({
        automatically_follow_topics_policy: 1,
        automatically_follow_topics_where_mentioned: false,
        automatically_unmute_topics_in_muted_streams_policy: 4,
        color_scheme: 2,
        demote_inactive_streams: 3,
        desktop_icon_count_display: 2,
        display_emoji_reaction_users: true,
        email_address_visibility: 5,
        email_notifications_batching_period_seconds: 300,
        emojiset: 'text',
        enable_desktop_notifications: true,
        enable_digest_emails: false,
        enable_drafts_synchronization: true,
        enable_followed_topic_audible_notifications: false,
        enable_followed_topic_desktop_notifications: true,
        enable_followed_topic_email_notifications: false,
        enable_followed_topic_push_notifications: true,
        enable_followed_topic_wildcard_mentions_notify: false,
        enable_offline_email_notifications: true,
        enable_offline_push_notifications: false,
        enable_online_push_notifications: true,
        enable_sounds: false,
        enable_stream_audible_notifications: true,
        enable_stream_desktop_notifications: false,
        enable_stream_email_notifications: true,
        enable_stream_push_notifications: false,
        enter_sends: true,
        fluid_layout_width: false,
        hide_ai_features: true,
        high_contrast_mode: false,
        left_side_userlist: true,
        message_content_in_email_notifications: false,
        notification_sound: 'ding',
        pm_content_in_desktop_notifications: true,
        presence_enabled: false,
        realm_name_in_email_notifications_policy: 2,
        receives_typing_notifications: true,
        resolved_topic_notice_auto_read_policy: 'never',
        send_private_typing_notifications: false,
        send_read_receipts: true,
        send_stream_typing_notifications: false,
        starred_message_counts: true,
        translate_emoticons: false,
        twenty_four_hour_time: true,
        user_list_style: 1,
        web_animate_image_previews: 'never',
        web_channel_default_view: 4,
        web_escape_navigates_to_home_view: false,
        web_font_size_px: 14,
        web_home_view: 'recent_topics',
        web_inbox_show_channel_folders: false,
        web_left_sidebar_show_channel_folders: true,
        web_left_sidebar_unreads_count_summary: false,
        web_line_height_percent: 122,
        web_mark_read_on_scroll_policy: 2,
        web_navigate_to_sent_message: true,
        web_stream_unreads_count_display_policy: 3,
        web_suggest_update_timezone: false,
        wildcard_mentions_notify: true,
      }),
    corrected: {
      // 'topic_list' (3) at FL 383, 'top_unread' (4) at FL 401 (api_docs/changelog.md).
      web_channel_default_view: { json: true, schema: { type: 'integer', enum: [1, 2, 3, 4] } },
    },
    newer: {
      // FL 385: `parse_enum_from_string_value`, a plain string.
      resolved_topic_notice_auto_read_policy: {
        json: false,
        schema: { type: 'string', enum: ['always', 'except_followed', 'never'] },
      },
      ...Object.fromEntries(
        [
          'web_inbox_show_channel_folders',
          'web_left_sidebar_show_channel_folders',
          'web_left_sidebar_unreads_count_summary',
        ].map((k) => [k, { json: true, schema: BOOL }]),
      ),
    },
  },
  {
    name: 'addPlayground',
    path: '/realm/playgrounds',
    call: (c) =>
      c.addPlayground({
        name: 'Python playground',
        pygments_language: 'Python',
        url_template: 'https://python.example.com?code={code}',
      }),
  },
  {
    name: 'removePlayground',
    path: '/realm/playgrounds/3',
    call: (c) => c.removePlayground(3),
  },
  { name: 'getRealmEmoji', path: '/realm/emoji', call: (c) => c.getRealmEmoji() },
  {
    name: 'uploadEmoji',
    path: '/realm/emoji/party_parrot',
    call: (c) =>
      c.uploadEmoji('party_parrot', {
        field: 'file',
        filename: 'party_parrot.png',
        contentType: 'image/png',
        bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      }),
  },
  {
    name: 'deactivateEmoji',
    path: '/realm/emoji/party_parrot',
    call: (c) => c.deactivateEmoji('party_parrot'),
  },
  { name: 'getSavedSnippets', path: '/saved_snippets', call: (c) => c.getSavedSnippets() },
  {
    name: 'createSavedSnippet',
    path: '/saved_snippets',
    call: (c) => c.createSavedSnippet({ title: 'Welcome', content: 'Welcome to the team!' }),
  },
  {
    name: 'updateSavedSnippet',
    path: '/saved_snippets/2',
    call: (c) => c.updateSavedSnippet(2, { title: 'Hi', content: 'Hello' }),
  },
  {
    name: 'deleteSavedSnippet',
    path: '/saved_snippets/2',
    call: (c) => c.deleteSavedSnippet(2),
  },
  {
    name: 'getUsers',
    path: '/users',
    call: (c) =>
      c.getUsers({ client_gravatar: false, include_custom_profile_fields: true, user_ids: [1, 2] }),
    newer: { user_ids: { json: true, schema: INT_LIST } },
  },
  {
    name: 'deactivateUser',
    path: '/users/25',
    call: (c) =>
      c.deactivateUser(25, { deactivation_notification_comment: 'Thanks for everything.' }),
  },
  { name: 'reactivateUser', path: '/users/25/reactivate', call: (c) => c.reactivateUser(25) },
  {
    name: 'updateUser',
    path: '/users/25',
    call: (c) =>
      c.updateUser(25, {
        full_name: 'NewName',
        role: 400,
        profile_data: [{ id: 4, value: '0' }],
        new_email: 'new@example.com',
      }),
  },
  {
    name: 'updateUserByEmail',
    path: '/users/hamlet%40example.com',
    call: (c) =>
      c.updateUserByEmail('hamlet@example.com', {
        full_name: 'Hamlet',
        role: 200,
        profile_data: [{ id: 4, value: 'x' }],
        new_email: 'h@example.com',
      }),
  },
  {
    name: 'updateUserStatus',
    path: '/users/25/status',
    // The admin variant takes the parameters of POST /users/me/status (seed 4.8).
    yamlOp: ['POST', '/users/me/status'],
    call: (c) =>
      c.updateUserStatus(25, {
        status_text: 'on vacation',
        emoji_name: 'car',
        emoji_code: '1f697',
        reaction_type: 'unicode_emoji',
      }),
    omit: { away: 'deprecated; not part of the admin endpoint (seed 4.8)' },
  },
  {
    name: 'updatePresence',
    path: '/users/me/presence',
    call: (c) =>
      c.updatePresence({
        status: 'active',
        last_update_id: -1,
        history_limit_days: 14,
        ping_only: false,
        new_user_input: true,
        slim_presence: true,
      }),
  },
  {
    name: 'createDrafts',
    path: '/drafts',
    call: (c) =>
      c.createDrafts([
        {
          type: 'stream',
          to: [1],
          topic: 'sync up',
          content: 'Let us sync',
          timestamp: 1595479019,
        },
        { type: 'private', to: [2, 3], topic: '', content: 'hi' },
      ]),
  },
  {
    name: 'updateMessageFlags',
    path: '/messages/flags',
    call: (c) => c.updateMessageFlags({ messages: [4, 8, 15], op: 'add', flag: 'read' }),
  },
  {
    name: 'updateMessageFlagsForNarrow',
    path: '/messages/flags/narrow',
    call: (c) =>
      c.updateMessageFlagsForNarrow({
        anchor: 'first_unread',
        include_anchor: true,
        num_before: 0,
        num_after: 50,
        narrow: [
          { operator: 'channel', operand: 'Denmark' },
          { operator: 'is', operand: 'unread', negated: false },
        ],
        op: 'add',
        flag: 'read',
      }),
  },
  {
    name: 'addReaction',
    path: '/messages/42/reactions',
    call: (c) =>
      c.addReaction(42, {
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
      }),
  },
  {
    name: 'updateScheduledMessage',
    path: '/scheduled_messages/7',
    call: (c) =>
      c.updateScheduledMessage(7, {
        type: 'stream',
        to: 8,
        content: 'Hi',
        topic: 'Castle',
        scheduled_delivery_timestamp: 3165826990,
      }),
  },
  {
    name: 'updateNavigationView',
    path: '/navigation_views/narrow/is/alerted',
    call: (c) => c.updateNavigationView('narrow/is/alerted', { is_pinned: true, name: 'Alerts' }),
    spec: { is_pinned: { json: true, schema: BOOL }, name: { json: false, schema: STR } },
    responses: [ok()],
  },
  {
    name: 'sendE2eeTestNotification',
    path: '/mobile_push/e2ee/test_notification',
    call: (c) => c.sendE2eeTestNotification({ push_account_id: 2408 }),
    spec: { push_account_id: { json: true, schema: INT } },
    responses: [ok()],
  },
];

/** The sent parameters: query string for GET, form body otherwise. */
function sentParams(req: Captured): Map<string, string> {
  const src = req.method === 'GET' ? req.query : req.form;
  const out = new Map<string, string>();
  for (const [k, v] of src) {
    if (out.has(k)) throw new Error(`parameter ${k} sent twice`);
    out.set(k, v);
  }
  return out;
}

/** Checks one sent value against its schema: JSON-decoded when JSON, else as the plain text Zulip parses. */
function checkValue(name: string, raw: string, json: boolean, schema: object): string[] {
  let value: unknown;
  if (json) {
    try {
      value = JSON.parse(raw);
    } catch {
      return [`${name}: ${JSON.stringify(raw)} is not valid JSON`];
    }
  } else {
    const types = new Set<string>(
      [
        (schema as { type?: string | string[] }).type,
        ...((schema as { oneOf?: { type?: string }[] }).oneOf ?? []).map((s) => s.type),
      ]
        .flat()
        .filter((t): t is string => typeof t === 'string'),
    );
    if (types.has('string')) value = raw;
    else if (types.has('integer') || types.has('number')) value = Number(raw);
    else if (types.has('boolean')) value = raw === 'true' ? true : raw === 'false' ? false : raw;
    else value = raw;
    // A plain string must not be JSON-quoted.
    if (types.has('string') && !types.has('integer') && /^".*"$/.test(raw)) {
      return [`${name}: plain string sent JSON-encoded (${raw})`];
    }
    if (types.has('string') && types.has('integer') && /^-?\d+$/.test(raw)) value = Number(raw);
  }
  const validate = ajv.compile(schema);
  if (!validate(value)) {
    return [`${name}: ${JSON.stringify(value)} does not match: ${ajv.errorsText(validate.errors)}`];
  }
  return [];
}

interface Expected {
  readonly params: Map<string, ParamSpec & { readonly in?: string }>;
  readonly examples: unknown[];
}

function expectedFor(c: Case): Expected {
  const ep = ENDPOINTS[c.name];
  const params = new Map<string, ParamSpec & { in?: string }>();
  let examples: unknown[] = [];
  if (c.spec === undefined) {
    const [m, p] = c.yamlOp ?? [ep.method, ep.path];
    const op = findOperation(m, p);
    if (op === undefined) throw new Error(`${m} ${p} is not in zulip.yaml; give the case a spec`);
    for (const prm of operationParams(op)) {
      if (prm.in === 'path') continue;
      params.set(prm.name, toSpec(prm));
    }
    examples = exampleResponses(op, '200');
  } else {
    for (const [k, v] of Object.entries(c.spec)) params.set(k, v);
  }
  for (const [k, v] of Object.entries(c.newer ?? {})) {
    if (params.has(k)) throw new Error(`${c.name}: ${k} is in the yaml; drop it from newer`);
    params.set(k, v);
  }
  for (const [k, v] of Object.entries(c.corrected ?? {})) {
    const yaml = params.get(k);
    if (yaml === undefined)
      throw new Error(`${c.name}: ${k} is not in the yaml; nothing to correct`);
    params.set(k, { ...yaml, ...v });
  }
  return { params, examples: [...examples, ...(c.responses ?? [])] };
}

function toSpec(p: OperationParam): ParamSpec & { in: string } {
  return { json: p.json, required: p.required, schema: p.schema, in: p.in };
}

let server: CaptureServer;
let client: ZulipClient;

beforeAll(async () => {
  loadOpenApi();
  server = await CaptureServer.start();
});

function newClient(): ZulipClient {
  // The newest server, so no endpoint is refused before sending.
  return new ZulipClient({
    credentials: new ZulipCredentials({
      email: 'iago@zulip.com',
      apiKey: 'k'.repeat(32),
      site: server.site,
    }),
    retry: { maxAttempts: 1 },
    capabilities: new ServerCapabilities(FEATURE_LEVELS.newest, '12.0-dev'),
  });
}

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.replies.length = 0;
  client = newClient();
});

afterEach(async () => {
  await client.close();
});

describe('every endpoint of the client has a contract case', () => {
  it('covers ENDPOINTS exactly', () => {
    expect(CASES.map((c) => c.name).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it('uses the yaml for every endpoint it describes, and a spec only for newer ones', () => {
    for (const c of CASES) {
      const ep = ENDPOINTS[c.name];
      const inYaml = findOperation(ep.method, ep.path) !== undefined;
      if (c.spec !== undefined) expect([c.name, inYaml]).toEqual([c.name, false]);
    }
  });
});

describe.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
  const ep = ENDPOINTS[c.name];

  it('builds a request that matches the contract', async () => {
    const { params, examples } = expectedFor(c);
    server.replies.push({ body: examples[0] ?? ok() });
    await c.call(client);
    const req = server.only();
    expect(req.method).toBe(ep.method);
    expect(req.path).toBe(`/api/v1${c.path}`);
    if (c.name === 'uploadEmoji') {
      // An upload is multipart with exactly one file (zerver/views/realm_emoji.py upload_emoji
      // reads request.FILES) and no other parameter.
      const type = String(req.headers['content-type']);
      expect(type).toMatch(/^multipart\/form-data; boundary=/);
      const boundary = type.replace(/^.*boundary=/, '');
      const parts = req.body.split(`--${boundary}`).slice(1, -1);
      expect(parts).toHaveLength(1);
      expect(parts[0]).toContain(
        'Content-Disposition: form-data; name="file"; filename="party_parrot.png"\r\nContent-Type: image/png\r\n\r\n',
      );
      expect(req.body.endsWith(`--${boundary}--\r\n`)).toBe(true);
      return;
    }
    if (ep.method !== 'GET') {
      expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(req.url).not.toContain('?');
    }

    const sent = sentParams(req);
    const problems: string[] = [];
    for (const [name, raw] of sent) {
      const spec = params.get(name);
      if (spec === undefined) {
        problems.push(`${name}: not a parameter of ${ep.method} ${ep.path}`);
        continue;
      }
      problems.push(...checkValue(name, raw, spec.json, spec.schema));
    }
    for (const [name, spec] of params) {
      if (spec.required === true && !sent.has(name)) problems.push(`${name}: required, not sent`);
      if (!sent.has(name) && c.omit?.[name] === undefined) {
        problems.push(`${name}: known parameter the contract case does not exercise`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('parses the example responses', async () => {
    const { examples } = expectedFor(c);
    expect(examples.length).toBeGreaterThan(0);
    for (const ex of examples) {
      server.replies.push({ body: ex });
      const c2 = newClient();
      try {
        await expect(c.call(c2)).resolves.toBeDefined();
      } finally {
        await c2.close();
      }
    }
  });
});

describe('encoding details the yaml cannot show', () => {
  // zerver/views/events_register.py: `include_subscribers: Literal["true", "false", "partial"]`,
  // a plain string: '"partial"' is "Invalid include_subscribers".
  it("sends include_subscribers='partial' as a plain string (FL 412)", async () => {
    server.replies.push({ body: ok({ zulip_feature_level: 421, zulip_version: '11.0' }) });
    await client.register({ include_subscribers: 'partial' });
    expect(server.only().form.get('include_subscribers')).toBe('partial');
  });

  it('sends client_capabilities with notification_settings_null (required by every Zulip since 2.1)', async () => {
    server.replies.push({ body: ok({ zulip_feature_level: 442, zulip_version: '12.0' }) });
    await client.register(ORG_READ_REGISTER_PARAMS);
    const form = server.only().form;
    expect(JSON.parse(form.get('client_capabilities') ?? '{}')).toMatchObject({
      notification_settings_null: true,
    });
    expect(form.get('include_subscribers')).toBe('true');
  });

  it('sends message_retention_days JSON-encoded, keywords quoted (Json[str] | Json[int])', async () => {
    await client.updateStream(1, { message_retention_days: 30 });
    expect(server.only().form.get('message_retention_days')).toBe('30');
    server.requests.length = 0;
    await client.updateStream(1, { message_retention_days: 'unlimited' });
    expect(server.only().form.get('message_retention_days')).toBe('"unlimited"');
    server.requests.length = 0;
    server.replies.push({ body: ok({ id: 7 }) });
    await client.createChannel({
      name: 'x',
      subscribers: [],
      message_retention_days: 'realm_default',
    });
    expect(server.only().form.get('message_retention_days')).toBe('"realm_default"');
  });

  it('sends topics_policy JSON-encoded on creation, plain on PATCH /streams', async () => {
    server.replies.push({ body: ok({ id: 7 }) });
    await client.createChannel({ name: 'x', subscribers: [], topics_policy: 'inherit' });
    expect(server.only().form.get('topics_policy')).toBe('"inherit"');
    server.requests.length = 0;
    server.replies.push({ body: ok({ subscribed: {}, already_subscribed: {} }) });
    await client.subscribe({ subscriptions: [{ name: 'x' }], topics_policy: 'allow_empty_topic' });
    expect(server.only().form.get('topics_policy')).toBe('"allow_empty_topic"');
    server.requests.length = 0;
    await client.updateStream(1, { topics_policy: 'disable_empty_topic' });
    expect(server.only().form.get('topics_policy')).toBe('disable_empty_topic');
  });

  it('resolves the yaml for the helper (sanity)', () => {
    const op = findOperation('PATCH', '/streams/{stream_id}');
    expect(op).toBeDefined();
    const p = operationParams(op!).find((x) => x.name === 'is_private');
    expect(p).toMatchObject({ in: 'body', json: true });
    expect(resolveSchema({ $ref: '#/components/schemas/GroupSettingValue' }).oneOf).toHaveLength(2);
  });
});
