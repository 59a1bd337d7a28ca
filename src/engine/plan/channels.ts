/**
 * Channels, planned by the generic keyed planner (`./keyed.ts`) with the hooks below: a
 * channel's folder, permissions, retention checks; its subscribers and the content access its
 * changes need are in `./cross-kind.ts`.
 */
import { channelNameKey, resourceAddress } from '../../model/address';
import type { DesiredChannel } from '../../model/desired-state';
import type { LiveChannel } from '../../model/live-state';
import { CHANNEL_PERMISSIONS } from '../../model/permissions';
import type { KeyedPlan } from './keyed';
import type { Planner } from './planner';
import { groupAddress, isIgnored } from './planner';
import { createPermissions, updatePermissions } from './permissions';
import { turnsSpectatorAccessOn } from '../feature-check';
import { deferAccessLoss } from './content-access';
import { ORGANIZATION_UPDATE } from './organization';
import {
  announceNeedsSubscribers,
  channelMembership,
  dropGatedProps,
  folderTarget,
  nameOfLiveFolder,
  warnLeftOut,
} from './cross-kind';

/** The folder a declared channel's change refers to (it must exist first). */
function folderRefs(p: Planner, d: DesiredChannel): string[] {
  if (typeof d.folder !== 'string') return [];
  const name = p.desiredFolders.get(channelNameKey(d.folder))?.name ?? d.folder;
  return [resourceAddress('channelFolder', name)];
}

/**
 * A channel made web-public waits for the organization's settings when they turn spectator
 * access on: that is what lets Zulip make it web-public (`web_public_streams_enabled()`, checked
 * by channel creation and `update_stream_backend`).
 */
function afterSpectatorAccess(p: Planner, webPublic: boolean): string[] {
  if (!webPublic || p.idx.organizationProperty('enableSpectatorAccess') !== false) return [];
  return turnsSpectatorAccessOn(p.desired) ? [ORGANIZATION_UPDATE] : [];
}

/**
 * Channels, for the generic keyed planner: its hooks add a channel's folder, permissions and
 * subscribers, the checks of its message retention, and leave out what needs content access.
 */
export const channels: KeyedPlan<DesiredChannel, LiveChannel> = {
  kind: 'channel',
  unmanaged: (l) => l.archived,
  match: (p, d) => p.channelMatch.get(channelNameKey(d.name)) ?? undefined,
  restoreNeeds: {
    feature: 'channelUnarchive',
    what: 'the channel is archived (its name stays reserved) and unarchiving',
    hint: 'rename the channel or unarchive it in Zulip',
  },
  create: (p, d, base, props) => {
    const { address } = base;
    if (props.messageRetentionDays !== 'realm_default')
      p.checkRetention('creating a channel with its own message retention', address, d.path);
    if (p.supports('channelFolders')) {
      const folder = d.folder ?? null;
      if (folder !== null) folderTarget(p, folder, address, d.path);
      props.folder =
        folder === null ? null : (p.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
    }
    if (d.announce !== undefined) props.announce = d.announce;
    const refs = createPermissions(p, CHANNEL_PERMISSIONS, d.permissions, address, d.path, props);
    return {
      meta: {
        refs: [...refs.map(groupAddress), ...folderRefs(p, d)],
        after: afterSpectatorAccess(p, props.webPublic === true),
      },
      then: () => {
        channelMembership(p, d, null, address);
        announceNeedsSubscribers(p, d, props, address);
      },
    };
  },
  update: (p, d, l, base, props) => {
    const { address } = base;
    const lc = d.lifecycle;
    if (props.some((c) => c.property === 'messageRetentionDays'))
      p.checkRetention('changing message retention', address, d.path);
    const meta = {
      refs: [] as string[],
      releases: [] as string[],
      after: afterSpectatorAccess(
        p,
        props.some((x) => x.property === 'webPublic' && x.after === true),
      ),
    };
    if (p.supports('channelFolders') && !isIgnored(lc, 'folder')) {
      const folder = d.folder ?? null;
      const target = folderTarget(p, folder, address, d.path);
      p.channelFolderAfter.set(l.id, target);
      if (target !== l.folderId) {
        const before =
          l.folderId === null
            ? null
            : (p.idx.foldersById.get(l.folderId)?.name ?? `folder#${l.folderId}`);
        const after =
          folder === null ? null : (p.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
        props.push({ property: 'folder', before, after });
        meta.refs.push(...folderRefs(p, d));
        if (l.folderId !== null) {
          const lf = p.idx.foldersById.get(l.folderId);
          if (lf) meta.releases.push(resourceAddress('channelFolder', nameOfLiveFolder(p, lf)));
        }
      }
    }
    const groupMeta = { refs: [] as string[], releases: [] as string[] };
    updatePermissions(
      p,
      CHANNEL_PERMISSIONS,
      d.permissions,
      l,
      l.creatorId,
      lc,
      address,
      d.path,
      props,
      groupMeta,
    );
    meta.refs.push(...groupMeta.refs.map(groupAddress));
    meta.releases.push(...groupMeta.releases.map(groupAddress));
    dropGatedProps(p, l, props, address, d.path);
    deferAccessLoss(p, l, props, address, d.path, false);
    // Subscribers added after the update need the access it leaves (update_stream_backend, then
    // add_subscriptions_backend): what takes it away waits for the next plan.
    const beforeAdding = (): void => {
      if (deferAccessLoss(p, l, props, address, d.path, true) && props.length === 0)
        p.dropChange(`${address}#update`);
    };
    return { meta, then: () => channelMembership(p, d, l, address, beforeAdding) };
  },
  afterDeclared: warnLeftOut,
};
