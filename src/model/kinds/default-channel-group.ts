import type { KindSpec } from './spec';
import { exactKey } from './spec';

/**
 * A default channel group (`/default_stream_groups`): a named set of channels that people
 * signing up can choose to join. Keyed by its name, which Zulip keeps unique per organization
 * as stored (zerver/models/streams.py `DefaultStreamGroup`, `unique_together` on the name).
 * Zulip deletes a group outright (`do_remove_default_stream_group`).
 */
export const defaultChannelGroup = {
  collection: 'defaultChannelGroups',
  title: 'Default channel groups',
  nouns: ['default channel group', 'default channel groups'],
  listOrder: 8,
  rank: 8,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['description', 'channels'],
  actions: ['create', 'update', 'rename', 'delete'],
} as const satisfies KindSpec;
