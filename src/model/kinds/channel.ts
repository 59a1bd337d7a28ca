import { channelNameKey } from '../address';
import { CHANNEL_PERMISSION_NAMES } from '../permissions';
import type { KindSpec } from './spec';

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
  ignorable: [
    'description',
    'private',
    'webPublic',
    'historyPublicToSubscribers',
    'defaultChannel',
    'messageRetentionDays',
    'topicsPolicy',
    'folder',
    'archived',
    'subscribers',
    ...CHANNEL_PERMISSION_NAMES,
  ],
  actions: ['create', 'update', 'rename', 'archive', 'unarchive', 'membership'],
} as const satisfies KindSpec;
