/**
 * Channel folders: create, rename, update, archive, reorder, and the check that a folder to
 * archive is empty once the channels have moved (`keepNonEmptyFolders`).
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import { channelNameKey, resourceAddress } from '../../model/address';
import { FEATURES } from '../../model/features';
import type { LiveChannelFolder } from '../../model/live-state';
import { normaliseFolderDescription } from '../live-index';
import type { PropertyChange } from '../plan-format';
import { SlotOrder } from './keyed';
import { isIgnored } from './planner';
import type { Planner } from './planner';

export function planFolders(p: Planner): void {
  const claimed = new Set<number>();
  const order = new SlotOrder('channelFolder');
  for (const d of p.desired.channelFolders) {
    const address = resourceAddress('channelFolder', d.name);
    const l = p.folderMatch.get(channelNameKey(d.name)) ?? null;
    const base = { kind: 'channelFolder' as const, address, key: d.name, path: d.path };
    if (!l) {
      if (d.archived === true) {
        p.removedNotFound('archived', address, d.path);
        continue;
      }
      p.addCreate(base, {
        name: d.name,
        description: normaliseFolderDescription(d.description ?? ''),
      });
      order.declare(d.name, null, d.lifecycle);
      continue;
    }
    claimed.add(l.id);
    order.declare(d.name, l.id, d.lifecycle);
    const renamed = channelNameKey(l.name) !== channelNameKey(d.name);
    if (renamed) p.addRename(base, l.id, l.name, d.name);
    const archived = isIgnored(d.lifecycle, 'archived') ? l.archived : (d.archived ?? false);
    p.addRemoveOrRestore(base, l.id, {
      live: l.archived,
      declared: archived,
      protect: d.lifecycle?.protect,
      remove: 'archive',
      restore: 'unarchive',
      before: { name: l.name, description: l.description },
    });
    const props: PropertyChange[] = [];
    if (!renamed) p.prop(props, d.lifecycle, 'name', l.name, d.name);
    p.prop(
      props,
      d.lifecycle,
      'description',
      l.description,
      normaliseFolderDescription(d.description ?? ''),
    );
    p.addUpdate(base, l.id, props);
  }
  for (const l of p.live.channelFolders) {
    if (claimed.has(l.id)) continue;
    // Undeclared folders keep their slot, archived ones included (Zulip's reorder lists them).
    order.keep(l.name, l.id);
    if (l.archived) continue;
    p.undeclared('channelFolder', l.name, l.id, {
      name: l.name,
      description: l.description,
    });
  }
  // Zulip appends a new folder (order = its id). Folders are archived, never deleted: every
  // live folder stays in the order.
  const reorder = order.reorder(
    p.live.channelFolders,
    p.live.channelFolders.map((f) => f.name),
    p.desired.organization.path,
  );
  if (!reorder) return;
  if (!p.supports('channelFolderOrder'))
    p.warn(
      'REORDER_UNSUPPORTED',
      `channel folders are not in the declared order, and reordering them needs feature level ${FEATURES.channelFolderOrder.level} (the server is at ${p.fl})`,
    );
  else p.add(reorder);
}

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
