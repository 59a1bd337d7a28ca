/**
 * Channel folders, planned by the generic keyed planner (`./keyed.ts`): create, rename,
 * update, archive, reorder. The check that a folder to archive is empty once the channels have
 * moved is in `./cross-kind.ts` (`keepNonEmptyFolders`).
 */
import { channelNameKey } from '../../model/address';
import type { DesiredChannelFolder } from '../../model/desired-state';
import { FEATURES } from '../../model/features';
import type { LiveChannelFolder } from '../../model/live-state';
import type { KeyedPlan } from './keyed';

export const channelFolders: KeyedPlan<DesiredChannelFolder, LiveChannelFolder> = {
  kind: 'channelFolder',
  // Folders are archived, never deleted: every live folder stays in the order (Zulip appends a
  // new folder, order = its id), and an undeclared archived one keeps its slot.
  unmanaged: (l) => l.archived,
  match: (p, d) => p.folderMatch.get(channelNameKey(d.name)) ?? undefined,
  // An archived folder's description is still managed.
  diffsRemoved: true,
  reorder: (p, change) => {
    if (!p.supports('channelFolderOrder'))
      p.warn(
        'REORDER_UNSUPPORTED',
        `channel folders are not in the declared order, and reordering them needs feature level ${FEATURES.channelFolderOrder.level} (the server is at ${p.fl})`,
      );
    else p.add(change);
  },
};
