/**
 * Channel folders (create, rename, update, archive, reorder: the generic keyed planner), and the
 * check that a folder to archive is empty once the channels have moved (`keepNonEmptyFolders`).
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import { channelNameKey } from '../../model/address';
import type { DesiredChannelFolder } from '../../model/desired-state';
import { FEATURES } from '../../model/features';
import type { LiveChannelFolder } from '../../model/live-state';
import type { KeyedPlan } from './keyed';
import type { Planner } from './planner';

export const channelFolders: KeyedPlan<DesiredChannelFolder, LiveChannelFolder> = {
  kind: 'channelFolder',
  declared: (p) => p.desired.channelFolders,
  // Folders are archived, never deleted: every live folder stays in the order (Zulip appends a
  // new folder, order = its id), and an undeclared archived one keeps its slot.
  live: (p) => p.live.channelFolders,
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

/**
 * Zulip refuses to archive a folder that still holds any channel, archived ones included:
 * drop such archives (and say why) rather than plan a step that cannot succeed.
 */
export function keepNonEmptyFolders(p: Planner): void {
  const drop = new Set<string>();
  for (const c of p.changes) {
    if (c.kind !== 'channelFolder' || c.action !== 'archive') continue;
    const remaining = p.live.channels.filter((ch) => {
      const after = p.channelFolderAfter.has(ch.id) ? p.channelFolderAfter.get(ch.id) : ch.folderId;
      return after === c.liveId;
    });
    if (remaining.length === 0) continue;
    drop.add(c.id);
    p.warn(
      'FOLDER_NOT_EMPTY',
      `not archived: Zulip archives only empty folders, and ${remaining.map((ch) => ch.name).join(', ')} would still be in it; move those channels out first`,
      c.address,
      c.path ?? undefined,
    );
  }
  if (drop.size === 0) return;
  const kept = p.changes.filter((c) => !drop.has(c.id));
  p.changes.length = 0;
  p.changes.push(...kept);
}

export function nameOfLiveFolder(p: Planner, f: LiveChannelFolder): string {
  for (const [k, m] of p.folderMatch)
    if (m?.id === f.id) return p.desiredFolders.get(k)?.name ?? f.name;
  return f.name;
}

/** The live folder ID a desired `folder` value points at; undefined when the folder is created. */
export function folderTarget(
  p: Planner,
  folder: string | null,
  address: string,
  path: string,
): number | null | undefined {
  if (folder === null) return null;
  const k = channelNameKey(folder);
  if (p.desiredFolders.has(k)) return p.folderMatch.get(k)?.id ?? undefined;
  const l = p.idx.foldersByKey.get(k);
  if (l) return l.id;
  p.errors.push(`${address} (${path}): channel folder '${folder}' does not exist`);
  return null;
}
