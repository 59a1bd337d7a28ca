import { ZulipCdkError } from '../model/errors';
import type { LiveSavedSnippet, LiveState } from '../model/live-state';
import type { ApplyContext, ApplyTarget, SubscribeCall, UnsubscribeCall } from '../engine/apply';
import type { Change, MembershipChange, Plan, UpdateChange } from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';
import { readLiveState } from './read-live-state';
import * as channels from './write-channels';
import * as groups from './write-groups';
import * as org from './write-org';
import { text } from './write-values';

/**
 * The write side of the resource handlers: an {@link ApplyTarget} that turns plan changes into
 * Zulip API calls with a {@link ZulipClient}. One request per change except where noted in the
 * handler files (a channel update with both plain fields and group settings takes two).
 */
export class ZulipApplyTarget implements ApplyTarget {
  /** Channels created by this target that need the applying account subscribed (settings). */
  readonly #subscribeMe: ReadonlySet<string>;

  /**
   * @param plan the plan about to be applied: a new channel whose subscription settings the
   *   plan sets is created with the applying account among its subscribers.
   */
  public constructor(
    private readonly client: ZulipClient,
    plan?: Plan,
  ) {
    const me = new Set<string>();
    for (const c of plan?.changes ?? [])
      if (c.kind === 'subscriptionSettings' && c.action === 'update' && c.liveId === null)
        me.add(c.key.trim().toLowerCase());
    this.#subscribeMe = me;
  }

  public get site(): string {
    return this.client.site;
  }

  public requestCount(): number {
    return this.client.requestCount;
  }

  public readLive(): Promise<LiveState> {
    return readLiveState(this.client);
  }

  public async readSavedSnippets(): Promise<LiveSavedSnippet[]> {
    const res = await this.client.getSavedSnippets();
    return res.saved_snippets.map((s) => ({ id: s.id, title: s.title, content: s.content }));
  }

  public async applyChange(
    change: Change,
    ctx: ApplyContext,
    fold?: MembershipChange,
  ): Promise<number | void> {
    const c = this.client;
    switch (change.kind) {
      case 'channel':
        switch (change.action) {
          case 'create':
            return channels.createChannel(
              c,
              change,
              ctx,
              fold,
              this.#subscribeMe.has(change.key.trim().toLowerCase()) &&
                !(fold?.add ?? []).some((u) => u.id === ctx.me.userId),
            );
          case 'update':
            return channels.updateChannel(c, change, ctx);
          case 'rename':
            return channels.renameChannel(c, change.liveId, change.to);
          case 'archive':
            return channels.archiveChannel(c, change.liveId);
          case 'unarchive':
            return channels.unarchiveChannel(c, change.liveId);
          case 'membership': {
            // Normally batched by the engine; alone it is one call of each kind.
            const names = [change.key];
            if (change.add.length > 0)
              await channels.subscribe(
                c,
                { channels: names, principals: change.add.map((u) => u.id), notify: change.notify },
                ctx,
              );
            if (change.remove.length > 0)
              await channels.unsubscribe(c, {
                channels: names,
                principals: change.remove.map((u) => u.id),
              });
            return;
          }
          default:
            break;
        }
        break;
      case 'userGroup':
        switch (change.action) {
          case 'create':
            return groups.createGroup(c, change, ctx, fold);
          case 'update':
            return groups.updateGroup(c, change, ctx);
          case 'rename':
            return groups.renameGroup(c, change.liveId, change.to);
          case 'deactivate':
            return groups.deactivateGroup(c, change.liveId);
          case 'reactivate':
            return groups.reactivateGroup(c, change.liveId);
          case 'membership':
            return groups.updateGroupMembers(c, change, ctx);
          default:
            break;
        }
        break;
      case 'channelFolder':
        switch (change.action) {
          case 'create':
            return org.createFolder(c, change);
          case 'update':
            return org.updateFolder(c, change);
          case 'rename':
            await c.updateChannelFolder(change.liveId, { name: change.to });
            return;
          case 'archive':
            await c.updateChannelFolder(change.liveId, { is_archived: true });
            return;
          case 'unarchive':
            await c.updateChannelFolder(change.liveId, { is_archived: false });
            return;
          case 'reorder':
            return org.reorder(c, change, ctx);
          default:
            break;
        }
        break;
      case 'linkifier':
        switch (change.action) {
          case 'create':
            return org.createLinkifier(c, change);
          case 'update': {
            const url = change.properties.find((p) => p.property === 'urlTemplate');
            return org.updateLinkifier(c, change.liveId ?? -1, ctx, {
              pattern: change.key,
              ...(url ? { urlTemplate: text(url.after) } : {}),
            });
          }
          case 'rename':
            return org.updateLinkifier(c, change.liveId, ctx, { pattern: change.to });
          case 'delete':
            await c.removeLinkifier(change.liveId);
            return;
          case 'reorder':
            return org.reorder(c, change, ctx);
          default:
            break;
        }
        break;
      case 'playground':
        switch (change.action) {
          case 'create':
            return org.createPlayground(c, change.properties);
          case 'replace':
            return org.replacePlayground(c, change);
          case 'delete':
            await c.removePlayground(change.liveId);
            return;
          default:
            break;
        }
        break;
      case 'savedSnippet':
        switch (change.action) {
          case 'create':
            return org.createSnippet(c, change);
          case 'update':
            return org.updateSnippet(c, change);
          case 'rename':
            await c.updateSavedSnippet(change.liveId, { title: change.to });
            return;
          case 'delete':
            await c.deleteSavedSnippet(change.liveId);
            return;
          default:
            break;
        }
        break;
      case 'user':
        if (change.action === 'update') return org.updateUser(c, change);
        break;
      case 'subscriptionSettings':
        if (change.action === 'update') return org.updateSubscriptionSettings(c, [change], ctx);
        break;
    }
    throw new ZulipCdkError(
      'PLAN_INVALID',
      `zulip-cdk cannot ${change.action} a ${change.kind} (${change.address}).`,
    );
  }

  public subscribe(call: SubscribeCall, ctx: ApplyContext): Promise<void> {
    return channels.subscribe(this.client, call, ctx);
  }

  public unsubscribe(call: UnsubscribeCall): Promise<void> {
    return channels.unsubscribe(this.client, call);
  }

  public updateSubscriptionSettings(
    changes: readonly UpdateChange[],
    ctx: ApplyContext,
  ): Promise<void> {
    return org.updateSubscriptionSettings(this.client, changes, ctx);
  }
}
