import { channelNameKey } from '../address';
import type { KindSpec } from './spec';

/** A channel folder (Zulip 11, FL 389). Names compare like channel names. */
export const channelFolder = {
  collection: 'channelFolders',
  title: 'Channel folders',
  nouns: ['channel folder', 'channel folders'],
  listOrder: 1,
  rank: 0,
  compareKey: channelNameKey,
  removal: 'archive',
  ordered: true,
  ignorable: ['description', 'archived', 'order'],
  actions: ['create', 'update', 'rename', 'archive', 'unarchive', 'reorder'],
} as const satisfies KindSpec;
