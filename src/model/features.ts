/**
 * Server capabilities by feature level (NOTES section 6). Every layer asks `supports()`;
 * nothing compares feature levels by hand.
 */
export const FEATURES = {
  savedSnippets: { level: 297, what: 'saved snippets' },
  groupDeactivation: { level: 290, what: 'user group deactivation' },
  addSubgroupsOnMembers: { level: 311, what: 'subgroups on POST /user_groups/{id}/members' },
  channelIsArchived: { level: 315, what: 'channel is_archived' },
  channelGroupSettingObjects: { level: 320, what: 'channel group settings as objects' },
  canAdministerChannelGroup: { level: 325, what: 'can_administer_channel_group' },
  canSendMessageGroup: { level: 333, what: 'can_send_message_group' },
  canAddSubscribersGroup: { level: 342, what: 'can_add_subscribers_group' },
  includeAllChannels: { level: 356, what: 'GET /streams include_all' },
  canSubscribeGroup: { level: 357, what: 'can_subscribe_group' },
  groupReactivation: { level: 386, what: 'reactivating a user group' },
  channelUnarchive: { level: 388, what: 'unarchiving a channel' },
  channelFolders: { level: 389, what: 'channel folders' },
  navigationViews: { level: 390, what: 'navigation views' },
  topicsPolicy: { level: 392, what: 'topics_policy' },
  canMoveMessagesGroups: {
    level: 396,
    what: 'can_move_messages_out_of_channel_group and can_move_messages_within_channel_group',
  },
  sendNewSubscriptionMessages: { level: 397, what: 'send_new_subscription_messages' },
  canResolveTopicsGroup: { level: 402, what: 'can_resolve_topics_group' },
  emptyTopicOnly: { level: 404, what: "topics_policy 'empty_topic_only'" },
  canDeleteMessageGroups: {
    level: 407,
    what: 'can_delete_any_message_group and can_delete_own_message_group',
  },
  userStatusOfOthers: { level: 407, what: "POST /users/{user_id}/status (another user's status)" },
  requireE2eePushNotifications: { level: 409, what: 'require_e2ee_push_notifications' },
  channelFolderOrder: { level: 414, what: 'channel folder order' },
  welcomeMessageCustomText: { level: 416, what: 'welcome_message_custom_text' },
  channelsCreate: { level: 417, what: 'POST /channels/create' },
  e2eeTestNotification: { level: 420, what: 'POST /mobile_push/e2ee/test_notification' },
  channelEventsMessagesSetting: { level: 434, what: 'send_channel_events_messages' },
  canCreateTopicGroup: { level: 441, what: 'can_create_topic_group' },
  // Default user settings newer than the baseline (api_docs/changelog.md).
  webChannelDefaultViewTopicList: { level: 383, what: "web_channel_default_view 'topic_list'" },
  resolvedTopicNoticeAutoReadPolicy: {
    level: 385,
    what: 'resolved_topic_notice_auto_read_policy',
  },
  webLeftSidebarUnreadsCountSummary: {
    level: 398,
    what: 'web_left_sidebar_unreads_count_summary',
  },
  webChannelDefaultViewTopUnread: { level: 401, what: "web_channel_default_view 'top_unread'" },
  webLeftSidebarShowChannelFolders: {
    level: 411,
    what: 'web_left_sidebar_show_channel_folders',
  },
  webInboxShowChannelFolders: { level: 431, what: 'web_inbox_show_channel_folders' },
  // What the embedded server changes by level beyond the above (zulip-cdk itself does not ask).
  linkifierReorder: { level: 202, what: 'PATCH /realm/linkifiers (reordering linkifiers)' },
  usersByEmail: { level: 313, what: 'GET /users/{email}' },
  createGroupReturnsId: { level: 317, what: 'group_id in the POST /user_groups/create response' },
  savedSnippetEdit: { level: 368, what: 'PATCH /saved_snippets/{saved_snippet_id}' },
  peerRemoveOnUserDeactivation: {
    level: 377,
    what: "subscription peer_remove events for a deactivated user's channels",
  },
  peerRemoveOnUserDeactivationArchived: {
    level: 428,
    what: "peer_remove events for a deactivated user's archived channels",
  },
  archivingUpdateEvents: {
    level: 378,
    what: 'stream update is_archived events to queues with archived_channels, delete/create to the others',
  },
  archivedChannelsInRegisterStreams: {
    level: 378,
    what: "archived channels in register's streams (the archived_channels capability)",
  },
  usersByIds: { level: 384, what: 'GET /users user_ids' },
  deactivatedGroupMembersEditable: {
    level: 391,
    what: "editing a deactivated group's members and subgroups",
  },
  channelSubscriberCount: { level: 394, what: 'channel subscriber_count' },
  channelFolderLimitsInRegister: {
    level: 410,
    what: 'max_channel_folder_name_length and max_channel_folder_description_length',
  },
  includeSubscribersPartial: { level: 412, what: "include_subscribers 'partial'" },
  channelFolderReorderEvent: { level: 418, what: 'the channel_folder reorder event' },
  channelCreatorDefault: { level: 427, what: "'channel_creator' as a permission setting default" },
  isImportedStub: { level: 433, what: 'is_imported_stub in user objects' },
  userChannels: { level: 440, what: 'GET /users/{user_id}/channels' },
  rateLimitDocsLink: { level: 442, what: "the documentation link in Zulip's rate-limit message" },
  botsAsTargetUsers: { level: 458, what: 'bots as the target of GET /users/{user_id}/channels' },
  linkifierExamples: { level: 471, what: 'linkifier example_input and reverse_template' },
  linkifierAlternativeUrlTemplates: { level: 478, what: 'linkifier alternative_url_templates' },
} as const;
export type FeatureName = keyof typeof FEATURES;

/** The oldest server zulip-cdk supports: Zulip 10.2. */
export const MIN_FEATURE_LEVEL = 372;

/** Well-known levels, for tests and the emulator. */
export const FEATURE_LEVELS = { zulip10: 372, zulip11: 421, newest: 478 } as const;

/**
 * The first Zulip release with a feature level, for messages: `Zulip 11.0` up to 421 (its
 * level), then the release after it, in development when these levels were recorded.
 */
export function releaseWith(featureLevel: number): string {
  if (featureLevel <= FEATURE_LEVELS.zulip10) return 'Zulip 10.2';
  if (featureLevel <= FEATURE_LEVELS.zulip11) return 'Zulip 11.0';
  return 'Zulip 12.0';
}

export function supports(featureLevel: number, feature: FeatureName): boolean {
  return featureLevel >= FEATURES[feature].level;
}
