import { z } from 'zod';
import { channelNameKey } from '../address';
import { normaliseFolderDescription } from './normalise';
import { describedEntrySchema, describedLiveSchema } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { NAMED_AND_DESCRIBED } from './spec';

export const ChannelFolderSchema = describedEntrySchema({
  archived: z.boolean().optional(),
});
export type DesiredChannelFolder = z.infer<typeof ChannelFolderSchema>;

export const LiveChannelFolderSchema = describedLiveSchema({
  archived: z.boolean(),
  order: z.number().int(),
});
export type LiveChannelFolder = z.infer<typeof LiveChannelFolderSchema>;

/** A channel folder (Zulip 11, FL 389). Names compare like channel names. */
export const channelFolder = {
  collection: 'channelFolders',
  construct: 'ChannelFolder',
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
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Archive undeclared channel folders (Zulip can unarchive them). @default false */
    channelFolder: false,
  },
  /** In declaration order: the order Zulip shows them in. */
  desiredSchema: z.array(ChannelFolderSchema),
  /** Archived folders included, sorted by order. Empty when the server has no folders. */
  liveSchema: z.array(LiveChannelFolderSchema),
  keyed: {
    ...NAMED_AND_DESCRIBED,
    desired: (d) => ({
      name: d.name,
      description: normaliseFolderDescription(d.description ?? ''),
    }),
    replaces: [],
    removedFlag: 'archived',
    followsRenames: true,
  } satisfies KeyedFacts<DesiredChannelFolder, LiveChannelFolder>,
} as const satisfies KindSpec;
