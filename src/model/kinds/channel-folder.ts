import { channelNameKey } from '../address';
import type { DesiredChannelFolder } from '../desired-state';
import type { LiveChannelFolder } from '../live-state';
import { normaliseFolderDescription } from './normalise';
import type { KeyedFacts, KindSpec } from './spec';
import { BY_NAME } from './spec';

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
  events: ['channel_folder'],
  keyed: {
    ...BY_NAME,
    desired: (d) => ({
      name: d.name,
      description: normaliseFolderDescription(d.description ?? ''),
    }),
    live: (l) => ({ name: l.name, description: l.description }),
    updatable: ['name', 'description'],
    replaces: [],
    removedFlag: 'archived',
    followsRenames: true,
  } satisfies KeyedFacts<DesiredChannelFolder, LiveChannelFolder>,
} as const satisfies KindSpec;
