import { z } from 'zod';
import { describedEntrySchema, describedLiveSchema } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';
import { NAMED_AND_DESCRIBED } from './spec';
import { exactKey } from './spec';

export const DefaultChannelGroupSchema = describedEntrySchema({
  /** Channels by name, sorted by name. */
  channels: z.array(z.string()),
});
export type DesiredDefaultChannelGroup = z.infer<typeof DefaultChannelGroupSchema>;

/** A default channel group (`realm_default_stream_groups` of `POST /register`). */
export const LiveDefaultChannelGroupSchema = describedLiveSchema({
  /** Channel IDs, as Zulip lists them (by channel name). */
  channelIds: z.array(z.number().int()),
});
export type LiveDefaultChannelGroup = z.infer<typeof LiveDefaultChannelGroupSchema>;

/**
 * A default channel group (`/default_stream_groups`): a named set of channels that people
 * signing up can choose to join. Keyed by its name, which Zulip keeps unique per organization
 * as stored (zerver/models/streams.py `DefaultStreamGroup`, `unique_together` on the name).
 * Zulip deletes a group outright (`do_remove_default_stream_group`).
 */
export const defaultChannelGroup = {
  collection: 'defaultChannelGroups',
  construct: 'DefaultChannelGroup',
  title: 'Default channel groups',
  nouns: ['default channel group', 'default channel groups'],
  listOrder: 8,
  rank: 8,
  compareKey: exactKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['description', 'channels'],
  actions: ['create', 'update', 'rename', 'delete'],
  // zerver/actions/default_streams.py notify_default_stream_groups.
  events: ['default_stream_groups', 'stream'],
  sortedBy: (d: DesiredDefaultChannelGroup) => [d.name],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete undeclared default channel groups (Zulip has no undelete). @default false */
    defaultChannelGroup: false,
  },
  /** Sorted by name. Absent in desired states written before default channel groups existed. */
  desiredSchema: z.array(DefaultChannelGroupSchema).default([]),
  /**
   * Sorted by name; empty for a guest, to whom Zulip shows none. Absent in snapshots made
   * before default channel groups were read.
   */
  liveSchema: z.array(LiveDefaultChannelGroupSchema).default([]),
  // A group names channels as they are called after the plan, and Zulip cannot clear its
  // description: both properties are diffed by the planner's hooks
  // (src/engine/plan/default-channel-groups.ts), which know the channels after the plan.
  keyed: {
    ...NAMED_AND_DESCRIBED,
    desired: (d) => ({ name: d.name, description: d.description ?? '', channels: [...d.channels] }),
    updatable: [],
    replaces: [],
    followsRenames: true,
  } satisfies KeyedFacts<DesiredDefaultChannelGroup, LiveDefaultChannelGroup>,
} as const satisfies KindSpec;
