import { sideEffects } from '../../src/engine';
import type { Change, SideEffectContext } from '../../src/engine';

/**
 * Every side-effect sentence the plan says (src/engine/render/describe.ts `sideEffects`), one
 * row each, with the function of Zulip's server that makes it true: who gets a message, what
 * is posted where, what cannot be undone. A row fails when the sentence stops being said, or
 * says something else.
 */
const base = (): { path: string; dependsOn: string[]; tags: [] } => ({
  path: 'acme/x',
  dependsOn: [],
  tags: [],
});
const channel = (key: string) => ({
  ...base(),
  kind: 'channel' as const,
  key,
  address: `channel["${key}"]`,
});

function update(key: string, property: string, before: unknown, after: unknown): Change {
  return {
    ...channel(key),
    id: `channel["${key}"]#update`,
    action: 'update',
    liveId: 7,
    properties: [{ property, before, after } as never],
  };
}

function created(key: string, properties: Record<string, unknown> = {}): Change {
  return {
    ...channel(key),
    id: `channel["${key}"]#create`,
    action: 'create',
    properties: { name: key, topicsPolicy: 'inherit', ...properties },
  };
}

function membership(
  kind: 'channel' | 'userGroup',
  key: string,
  o: Partial<Extract<Change, { action: 'membership' }>>,
): Change {
  return {
    ...base(),
    kind,
    key,
    address: `${kind}["${key}"]`,
    id: `${kind}["${key}"]#membership`,
    action: 'membership',
    liveId: 7,
    collection: kind === 'channel' ? 'subscribers' : 'members',
    mode: 'exact',
    add: [],
    remove: [],
    addSubgroups: [],
    removeSubgroups: [],
    notify: false,
    ...o,
  };
}

function settingsUpdate(property: string, before: unknown, after: unknown): Change {
  return {
    ...base(),
    kind: 'organizationSettings',
    key: 'organization',
    address: 'organizationSettings["organization"]',
    id: 'organizationSettings["organization"]#update',
    action: 'update',
    liveId: null,
    properties: [{ property, before, after } as never],
  };
}

function removal(
  kind: Change['kind'],
  key: string,
  action: 'archive' | 'deactivate' | 'delete',
  before: Record<string, unknown> = {},
): Change {
  return {
    ...base(),
    kind,
    key,
    address: `${kind}["${key}"]`,
    id: `${kind}["${key}"]#${action}`,
    action,
    liveId: 7,
    reason: 'declared',
    before: before as never,
  };
}

const subscribersOf = (key: string): Change =>
  membership('channel', key, { liveId: null, add: [{ email: 'a@x', id: 3 }] });

interface Row {
  /** The Zulip function the sentence follows. */
  readonly zulip: string;
  readonly change: Change;
  readonly ctx?: SideEffectContext;
  /** A sentence (or part of one) that must be said; `null`: nothing about it may be said. */
  readonly says: string | null;
  /** What must not be said. */
  readonly never?: string;
}

const NEWEST: SideEffectContext = { featureLevel: 478, channelEventsMessages: true };

const ROWS: Record<string, Row> = {
  'a new channel with subscribers gets a creation notice in "channel events"': {
    zulip: 'zerver/views/streams.py send_user_subscribed_and_new_channel_notifications',
    change: created('eng'),
    ctx: { ...NEWEST, changes: [created('eng'), subscribersOf('eng')] },
    says: 'Notification Bot will post a notice about the creation in #eng (topic "channel events"), seen by its subscribers.',
  },
  'an empty-topic-only channel gets it in general chat': {
    zulip: 'zerver/lib/streams.py channel_events_topic_name',
    change: created('eng', { topicsPolicy: 'empty_topic_only' }),
    ctx: {
      ...NEWEST,
      changes: [created('eng', { topicsPolicy: 'empty_topic_only' }), subscribersOf('eng')],
    },
    says: 'in #eng (in its general chat, the only topic it allows)',
    never: '"channel events"',
  },
  'no channel notices when the organization turned them off': {
    zulip: 'zerver/actions/message_send.py maybe_send_channel_events_notice',
    change: update('eng', 'description', 'a', 'b'),
    ctx: { ...NEWEST, channelEventsMessages: false },
    says: null,
    never: 'Notification Bot',
  },
  'a new description is posted': {
    zulip: 'zerver/actions/streams.py send_change_stream_description_notification',
    change: update('eng', 'description', 'a', 'b'),
    ctx: NEWEST,
    says: 'Notification Bot will post a notice about the new description in #eng (topic "channel events", or general chat if the channel allows only that)',
  },
  'a change of access is posted, and says who keeps access': {
    zulip:
      'zerver/actions/streams.py send_change_stream_permission_notification; zerver/lib/streams.py user_has_content_access',
    change: update('eng', 'private', false, true),
    ctx: NEWEST,
    says: 'eng becomes private: non-subscribers lose access to its content, except those who may add subscribers or subscribe themselves (canAddSubscribersGroup, canSubscribeGroup).',
  },
  'a public channel is readable and joinable by members, not guests': {
    zulip: 'zerver/lib/streams.py user_has_content_access',
    change: update('eng', 'private', true, false),
    ctx: NEWEST,
    says: 'eng becomes public: every member (not guests) can read it and join it.',
  },
  'who may post is posted': {
    zulip: 'zerver/actions/streams.py send_stream_posting_permission_update_notification',
    change: update('eng', 'permissions.canSendMessageGroup', 'role:everyone', 'role:members'),
    ctx: NEWEST,
    says: 'a notice about who may post in #eng',
  },
  'other channel permissions are not posted': {
    zulip:
      'zerver/actions/streams.py do_change_stream_group_based_setting (only can_send_message_group)',
    change: update('eng', 'permissions.canAdministerChannelGroup', 'role:administrators', 'eng'),
    ctx: NEWEST,
    says: 'permissions.canAdministerChannelGroup: ',
    never: 'Notification Bot',
  },
  'a shorter retention is posted and cannot be undone': {
    zulip:
      'zerver/actions/streams.py send_change_stream_message_retention_days_notification; zerver/lib/retention.py archive_stream_messages',
    change: update('eng', 'messageRetentionDays', 'unlimited', 30),
    ctx: NEWEST,
    says: 'Irreversible: message retention "unlimited" → 30: Zulip deletes the messages older than the new period, and no API call brings them back.',
  },
  'a topics policy is posted': {
    zulip: 'zerver/actions/streams.py do_set_stream_property',
    change: update('eng', 'topicsPolicy', 'inherit', 'disable_empty_topic'),
    ctx: NEWEST,
    says: 'a notice about the topics policy in #eng (topic "channel events")',
  },
  'a rename is posted': {
    zulip: 'zerver/actions/streams.py do_rename_stream',
    change: {
      ...channel('new'),
      id: 'channel["new"]#rename',
      action: 'rename',
      liveId: 7,
      from: 'old',
      to: 'new',
    },
    ctx: NEWEST,
    says: 'a notice about the rename in #new',
  },
  'archiving a channel is posted, keeps it and its name, and can be undone': {
    zulip:
      'zerver/actions/streams.py do_deactivate_stream, do_unarchive_stream; zerver/lib/streams.py check_stream_name_available',
    change: removal('channel', 'eng', 'archive'),
    ctx: NEWEST,
    says: "Archiving is not deleting: eng's messages are kept, its name stays taken (case-insensitively), and it can be unarchived.",
  },
  'archiving a default channel takes it out of the defaults for good': {
    zulip: 'zerver/actions/streams.py do_deactivate_stream (do_remove_default_stream)',
    change: removal('channel', 'eng', 'archive', { defaultChannel: true }),
    ctx: NEWEST,
    says: 'eng stops being a default channel (new users are no longer subscribed to it); unarchiving does not make it one again.',
  },
  'unarchiving is posted': {
    zulip: 'zerver/actions/streams.py do_unarchive_stream',
    change: { ...channel('eng'), id: 'channel["eng"]#unarchive', action: 'unarchive', liveId: 7 },
    ctx: NEWEST,
    says: 'a notice about the unarchiving in #eng',
  },
  'an announced channel is announced in "new channels"': {
    zulip: 'zerver/views/streams.py send_user_subscribed_and_new_channel_notifications (announce)',
    change: created('eng', { announce: true }),
    ctx: { ...NEWEST, changes: [created('eng', { announce: true }), subscribersOf('eng')] },
    says: 'Notification Bot will announce #eng in the channel the organization set for new channel announcements (topic "new channels"), if it set one.',
  },
  'people someone else subscribes to an existing channel get a direct message': {
    zulip: 'zerver/views/streams.py send_user_subscribed_and_new_channel_notifications',
    change: membership('channel', 'eng', {
      add: [{ email: 'a@x', id: 3 }],
      notify: true,
      messaged: ['a@x'],
    }),
    ctx: NEWEST,
    says: 'Notification Bot will send a direct message to 1 of 1 new subscriber: a@x',
  },
  'subscribers a channel is created with get no message': {
    zulip:
      'zerver/views/streams.py send_user_subscribed_and_new_channel_notifications (newly_created_stream_names)',
    change: subscribersOf('eng'),
    ctx: NEWEST,
    says: '1 new subscriber gets no message: Zulip does not message the subscribers a channel is created with.',
  },
  'no message when apply asks for none': {
    zulip: 'zerver/views/streams.py add_subscriptions_backend (send_new_subscription_messages)',
    change: membership('channel', 'eng', { add: [{ email: 'a@x', id: 3 }] }),
    ctx: NEWEST,
    says: '1 new subscriber will not get a message (apply sends send_new_subscription_messages=false).',
  },
  'members added to a group get a direct message': {
    zulip: 'zerver/views/user_groups.py notify_for_user_group_subscription_changes',
    change: membership('userGroup', 'eng', {
      add: [{ email: 'a@x', id: 3 }],
      notify: true,
      messaged: ['a@x'],
    }),
    ctx: NEWEST,
    says: 'Notification Bot will send a direct message ("… added you to the group eng.") to 1 added member: a@x.',
  },
  'members removed from a group get a direct message': {
    zulip: 'zerver/views/user_groups.py notify_for_user_group_subscription_changes',
    change: membership('userGroup', 'eng', {
      remove: [{ email: 'a@x', id: 3 }],
      notify: true,
      messaged: ['a@x'],
    }),
    ctx: NEWEST,
    says: 'Notification Bot will send a direct message ("… removed you from the group eng.") to 1 removed member: a@x.',
  },
  'deactivating a group keeps it and can be undone': {
    zulip:
      'zerver/actions/user_groups.py do_deactivate_user_group, do_reactivate_user_group; zerver/models/groups.py unique_together (realm, name)',
    change: removal('userGroup', 'eng', 'deactivate'),
    ctx: NEWEST,
    says: 'Deactivating is not deleting: the group eng keeps its name reserved and can be reactivated.',
  },
  'an archived folder frees its name': {
    zulip: 'zerver/lib/channel_folders.py check_channel_folder_name (not archived folders only)',
    change: removal('channelFolder', 'Eng', 'archive'),
    ctx: NEWEST,
    says: 'Archiving is not deleting: the folder Eng can be unarchived; its name becomes free for a new folder.',
    never: 'keeps its name reserved',
  },
  'a deleted linkifier, playground or snippet is gone': {
    zulip: 'zerver/actions/realm_linkifiers.py do_remove_linkifier',
    change: removal('linkifier', 'one', 'delete'),
    ctx: NEWEST,
    // Before: "one is deleted for good." (a linkifier's pattern read as the sentence's subject).
    says: 'The linkifier one is deleted for good.',
  },
  'a deleted allowed domain no longer lets its addresses sign up': {
    zulip:
      'zerver/lib/email_validation.py get_realm_email_validator (registration, do_invite_users)',
    change: removal('allowedDomain', 'acme.example', 'delete', {
      domain: 'acme.example',
      allowSubdomains: true,
    }),
    ctx: NEWEST,
    // Not the addresses another domain still lets in: a parent domain that allows its
    // subdomains (example.com lets in acme.example.com), or a subdomain listed itself.
    says: 'While sign-up is restricted to the allowed domains (emailsRestrictedToDomains), Zulip refuses new accounts (invited or not) with an address at acme.example or its subdomains, unless another allowed domain lets them in (a parent domain that allows its subdomains, or a subdomain listed itself).',
    never: 'deleted for good',
  },
  'deleting a playground resets the default code block language': {
    zulip: 'zerver/views/realm_playgrounds.py delete_realm_playground',
    change: removal('playground', 'python/Tutor', 'delete', { pygmentsLanguage: 'python' }),
    ctx: NEWEST,
    says: "If python is the organization's default code block language, Zulip resets that setting to none (the plan sets it again afterwards when the organization settings declare it).",
  },
  'a playground is replaced, not edited': {
    zulip: 'zerver/views/realm_playgrounds.py (add and delete only)',
    change: {
      ...base(),
      kind: 'playground',
      key: 'python/Tutor',
      address: 'playground["python/Tutor"]',
      id: 'playground["python/Tutor"]#replace',
      action: 'replace',
      liveId: 7,
      before: { pygmentsLanguage: 'python' },
      after: { pygmentsLanguage: 'python' },
    },
    ctx: NEWEST,
    says: 'Zulip cannot edit a code playground: it is deleted and created again.',
  },
  'a longer waiting period takes new members out of role:fullmembers': {
    zulip:
      'zerver/actions/realm_settings.py do_set_realm_property (update_users_in_full_members_system_group; promote_new_full_members)',
    change: settingsUpdate('waitingPeriodThreshold', 0, 3),
    says: 'Members who joined less than 3 days ago leave role:fullmembers now; Zulip puts each back once 3 days have passed since they joined.',
  },
  'a shorter waiting period makes more members full members': {
    zulip: 'zerver/actions/user_groups.py update_users_in_full_members_system_group',
    change: settingsUpdate('waitingPeriodThreshold', 10, 1),
    says: 'Members who joined at least 1 day ago join role:fullmembers now.',
  },
  'no waiting period: every member is a full member': {
    zulip: 'zerver/actions/user_groups.py update_users_in_full_members_system_group',
    change: settingsUpdate('waitingPeriodThreshold', 10, 0),
    says: 'Every member joins role:fullmembers now (no waiting period).',
  },
  'a reactivated user gets back what Zulip kept, which the plan cannot see': {
    zulip:
      'zerver/actions/create_user.py do_reactivate_user (memberships kept); zerver/lib/user_groups.py get_members_and_subgroups_of_groups (active members only)',
    change: {
      ...base(),
      kind: 'user',
      key: 'a@x',
      address: 'user["a@x"]',
      id: 'user["a@x"]#reactivate',
      action: 'reactivate',
      liveId: 7,
    },
    says: 'the next plan shows any that the configuration does not declare',
  },
  'unsubscribing sends nobody a message': {
    zulip: 'zerver/views/streams.py remove_subscriptions_backend',
    change: membership('channel', 'eng', { remove: [{ email: 'a@x', id: 3 }] }),
    ctx: NEWEST,
    says: '1 subscriber will be unsubscribed.',
    never: 'direct message',
  },
};

describe('side effects are what Zulip does', () => {
  it.each(Object.entries(ROWS))('%s', (_name, row) => {
    expect(row.zulip).toMatch(/^zerver\//);
    const said = sideEffects(row.change, row.ctx ?? NEWEST).join('\n');
    if (row.says === null) expect(said).toBe('');
    else expect(said).toContain(row.says);
    if (row.never !== undefined) expect(said).not.toContain(row.never);
  });
});
