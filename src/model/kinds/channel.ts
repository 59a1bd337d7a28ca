import { channelNameKey } from '../address';
import { CHANNEL_PERMISSION_NAMES } from '../permissions';
import type { DesiredChannel } from '../desired-state';
import { supports } from '../features';
import type { LiveChannel } from '../live-state';
import { normaliseChannelDescription, retentionToNatural } from './normalise';
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

/** A channel. Zulip finds channels by name case-insensitively (zerver/models/streams.py `get_stream`, `name__iexact`). */
export const channel = {
  collection: 'channels',
  title: 'Channels',
  nouns: ['channel', 'channels'],
  listOrder: 0,
  rank: 2,
  compareKey: channelNameKey,
  removal: 'archive',
  ordered: false,
  ignorable: [...PROPERTIES, 'folder', 'archived', 'subscribers', ...CHANNEL_PERMISSION_NAMES],
  actions: ['create', 'update', 'rename', 'archive', 'unarchive', 'membership'],
  events: ['stream', 'subscription', 'default_streams', 'user_group'],
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
