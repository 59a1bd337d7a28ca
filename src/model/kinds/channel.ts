import { z } from 'zod';
import { channelNameKey } from '../address';
import { supports } from '../features';
import { intListSchema } from '../int-list';
import { CHANNEL_PERMISSION_NAMES } from '../permissions';
import type { ChannelPermissionName } from '../permissions';
import { normaliseChannelDescription, retentionToNatural } from './normalise';
import {
  MembershipSchema,
  describedEntrySchema,
  livePermissions,
  describedLiveSchema,
  permissionsSchema,
} from './schemas';
import { TOPICS_POLICIES } from './vocabulary';
import type { KeyedFacts, KindSpec } from './spec';
import { BY_NAME } from './spec';

/** A channel's plain properties, updated in this order (`PATCH /streams/{id}`). */
const PROPERTIES = [
  'description',
  'private',
  'webPublic',
  'historyPublicToSubscribers',
  'defaultChannel',
  'messageRetentionDays',
  'topicsPolicy',
] as const;

export const RetentionSchema = z.union([
  z.number().int().positive(),
  z.literal('realm_default'),
  z.literal('unlimited'),
]);
export type Retention = z.infer<typeof RetentionSchema>;

export const ChannelSchema = describedEntrySchema({
  private: z.boolean().optional(),
  webPublic: z.boolean().optional(),
  historyPublicToSubscribers: z.boolean().optional(),
  defaultChannel: z.boolean().optional(),
  messageRetentionDays: RetentionSchema.optional(),
  topicsPolicy: z.enum(TOPICS_POLICIES).optional(),
  /** Folder by name; `null` means in no folder. */
  folder: z.string().nullable().optional(),
  archived: z.boolean().optional(),
  permissions: permissionsSchema<ChannelPermissionName>(CHANNEL_PERMISSION_NAMES),
  /** Who is subscribed; absent means subscriptions are not managed for this channel. */
  subscribers: MembershipSchema.optional(),
  /** Announce the channel's creation through the notification bot. */
  announce: z.boolean().optional(),
});
export type DesiredChannel = z.infer<typeof ChannelSchema>;

export const LiveChannelSchema = describedLiveSchema({
  private: z.boolean(),
  webPublic: z.boolean(),
  historyPublicToSubscribers: z.boolean(),
  defaultChannel: z.boolean(),
  /** null: the organization's default; -1: unlimited (as Zulip reports them). */
  messageRetentionDays: z.number().int().nullable(),
  topicsPolicy: z.enum(TOPICS_POLICIES).nullable(),
  folderId: z.number().int().nullable(),
  archived: z.boolean(),
  creatorId: z.number().int().nullable(),
  /** By wire name, e.g. `can_send_message_group`. */
  permissions: livePermissions,
  /** Subscribed user IDs, sorted; null when the reader could not see them. */
  subscribers: intListSchema().nullable(),
});
export type LiveChannel = z.infer<typeof LiveChannelSchema>;

/** A channel. Zulip finds channels by name case-insensitively (zerver/models/streams.py `get_stream`, `name__iexact`). */
export const channel = {
  collection: 'channels',
  construct: 'Channel',
  title: 'Channels',
  nouns: ['channel', 'channels'],
  listOrder: 0,
  rank: 2,
  compareKey: channelNameKey,
  removal: 'archive',
  ordered: false,
  ignorable: [...PROPERTIES, 'folder', 'archived', 'subscribers', ...CHANNEL_PERMISSION_NAMES],
  actions: ['create', 'update', 'rename', 'archive', 'unarchive', 'membership'],
  // 'channel_folder': the folder it is in, by name (a folder renamed by hand).
  events: ['stream', 'subscription', 'default_streams', 'user_group', 'channel_folder'],
  sortedBy: (d: DesiredChannel) => [d.name],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Archive undeclared channels (Zulip can unarchive them). @default false */
    channel: false,
  },
  /** Sorted by name. */
  desiredSchema: z.array(ChannelSchema),
  /** Every channel the account can see, archived ones included. */
  liveSchema: z.array(LiveChannelSchema),
  // The folder, permissions and subscribers are planned by the hooks in
  // src/engine/plan/channels.ts: they name folders, groups and users as they are after the plan.
  keyed: {
    ...BY_NAME,
    desired: (d, fl) => {
      const isPrivate = d.private ?? false;
      return {
        name: d.name.trim(),
        description: normaliseChannelDescription(d.description ?? ''),
        private: isPrivate,
        webPublic: d.webPublic ?? false,
        historyPublicToSubscribers: d.historyPublicToSubscribers ?? !isPrivate,
        defaultChannel: d.defaultChannel ?? false,
        messageRetentionDays: d.messageRetentionDays ?? 'realm_default',
        ...(supports(fl, 'topicsPolicy') ? { topicsPolicy: d.topicsPolicy ?? 'inherit' } : {}),
      };
    },
    live: (l) => ({
      name: l.name,
      description: l.description,
      private: l.private,
      webPublic: l.webPublic,
      historyPublicToSubscribers: l.historyPublicToSubscribers,
      defaultChannel: l.defaultChannel,
      messageRetentionDays: retentionToNatural(l.messageRetentionDays),
      // Null: the server does not report it.
      ...(l.topicsPolicy !== null ? { topicsPolicy: l.topicsPolicy } : {}),
    }),
    removed: (l) => ({ name: l.name, description: l.description, private: l.private }),
    updatable: ['name', ...PROPERTIES],
    replaces: [],
    removedFlag: 'archived',
    followsRenames: true,
  } satisfies KeyedFacts<DesiredChannel, LiveChannel>,
} as const satisfies KindSpec;
