import { ZulipCdkError } from '../model/errors';
import type { LiveSavedSnippet, LiveState } from '../model/live-state';
import type { ApplyContext, ApplyTarget, SubscribeCall, UnsubscribeCall } from '../engine/apply';
import type {
  Change,
  ChangeAction,
  MembershipChange,
  Plan,
  UpdateChange,
} from '../engine/plan-format';
import type { KIND_SPECS, ResourceKind } from '../model/kinds';
import type { ZulipClient } from '../zulip/client';
import type { Success } from '../zulip/wire/common';
import { readLiveState } from './read-live-state';
import * as channels from './write-channels';
import * as emoji from './write-emoji';
import * as groups from './write-groups';
import * as org from './write-org';
import * as profileFields from './write-profile-fields';
import { text } from './write-values';

/**
 * The write side of the resource handlers: an {@link ApplyTarget} that turns plan changes into
 * Zulip API calls with a {@link ZulipClient}. One request per change except where noted in the
 * handler files (a channel update with both plain fields and group settings takes two).
 */
export class ZulipApplyTarget implements ApplyTarget {
  /** Channels created by this target that need the applying account subscribed (settings). */
  readonly #subscribeMe: ReadonlySet<string>;

  /** Where relative emoji image paths of the plan are read from. */
  readonly #baseDir: string;

  /**
   * @param plan the plan about to be applied: a new channel whose subscription settings the
   *   plan sets is created with the applying account among its subscribers.
   * @param options.baseDir the directory synth ran in: relative emoji image paths of the plan
   *   are read from it (default: the current directory).
   */
  public constructor(
    private readonly client: ZulipClient,
    plan?: Plan,
    options: { readonly baseDir?: string } = {},
  ) {
    this.#baseDir = options.baseDir ?? process.cwd();
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
    const byAction = HANDLERS[change.kind] as Partial<Record<ChangeAction, Handler<Change>>>;
    const handle = byAction[change.action];
    if (handle === undefined)
      throw new ZulipCdkError(
        'PLAN_INVALID',
        `zulip-cdk cannot ${change.action} a ${change.kind} (${change.address}).`,
      );
    const created = await handle(change, {
      client: this.client,
      ctx,
      ...(fold ? { fold } : {}),
      subscribeMe: this.#subscribeMe,
      baseDir: this.#baseDir,
    });
    return typeof created === 'number' ? created : undefined;
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

/** What a handler gets besides its change. */
interface HandlerEnv {
  readonly client: ZulipClient;
  readonly ctx: ApplyContext;
  /** The membership of the object a create makes, sent in the same request. */
  readonly fold?: MembershipChange;
  /** Channels created with the applying account subscribed (its subscription settings follow). */
  readonly subscribeMe: ReadonlySet<string>;
  /** Where relative emoji image paths are read from. */
  readonly baseDir: string;
}

/** The change types whose `action` can be `A` (removals share one type for three actions). */
type WithAction<C, A> = C extends { action: infer X } ? (A extends X ? C : never) : never;

/**
 * Turns one change into its requests; returns the ID of an object it creates. A handler that
 * sends one request about an existing object returns Zulip's answer, which is not an ID.
 */
type Handler<C extends Change> = (change: C, env: HandlerEnv) => Promise<number | void | Success>;

/**
 * One handler per kind and per action the kind's `KindSpec` lists (`src/model/kinds`): an
 * action listed there without a handler here, or a handler for an action not listed, is a
 * compile error.
 */
type KindHandlers = {
  readonly [K in ResourceKind]: {
    readonly [A in (typeof KIND_SPECS)[K]['actions'][number]]: Handler<
      WithAction<Change, A> & { kind: K }
    >;
  };
};

const HANDLERS = {
  channel: {
    create: (change, { client, ctx, fold, subscribeMe }) =>
      channels.createChannel(
        client,
        change,
        ctx,
        fold,
        subscribeMe.has(change.key.trim().toLowerCase()) &&
          !(fold?.add ?? []).some((u) => u.id === ctx.me.userId),
      ),
    update: (change, { client, ctx }) => channels.updateChannel(client, change, ctx),
    rename: (change, { client }) => client.updateStream(change.liveId, { new_name: change.to }),
    // `DELETE /streams/{id}` archives (the name stays reserved).
    archive: (change, { client }) => client.archiveStream(change.liveId),
    // Zulip unarchives a channel from feature level 388.
    unarchive: (change, { client }) => client.updateStream(change.liveId, { is_archived: false }),
    // Normally batched by the engine; alone it is one call of each kind.
    membership: async (change, { client, ctx }) => {
      const names = [change.key];
      if (change.add.length > 0)
        await channels.subscribe(
          client,
          { channels: names, principals: change.add.map((u) => u.id), notify: change.notify },
          ctx,
        );
      if (change.remove.length > 0)
        await channels.unsubscribe(client, {
          channels: names,
          principals: change.remove.map((u) => u.id),
        });
    },
  },
  userGroup: {
    create: (change, { client, ctx, fold }) => groups.createGroup(client, change, ctx, fold),
    update: (change, { client, ctx }) => groups.updateGroup(client, change, ctx),
    rename: (change, { client }) => client.updateUserGroup(change.liveId, { name: change.to }),
    // The plan detached the group first.
    deactivate: (change, { client }) => client.deactivateUserGroup(change.liveId),
    // Zulip reactivates a group from feature level 386.
    reactivate: (change, { client }) =>
      client.updateUserGroup(change.liveId, { deactivated: false }),
    membership: (change, { client, ctx }) => groups.updateGroupMembers(client, change, ctx),
  },
  channelFolder: {
    create: (change, { client }) => org.createFolder(client, change),
    update: (change, { client }) => org.updateFolder(client, change),
    rename: (change, { client }) => client.updateChannelFolder(change.liveId, { name: change.to }),
    archive: (change, { client }) =>
      client.updateChannelFolder(change.liveId, { is_archived: true }),
    unarchive: (change, { client }) =>
      client.updateChannelFolder(change.liveId, { is_archived: false }),
    reorder: (change, { client, ctx }) => org.reorder(client, change, ctx),
  },
  linkifier: {
    create: (change, { client }) => org.createLinkifier(client, change),
    update: (change, { client, ctx }) => {
      const url = change.properties.find((p) => p.property === 'urlTemplate');
      return org.updateLinkifier(client, change.liveId ?? -1, ctx, {
        pattern: change.key,
        ...(url ? { urlTemplate: text(url.after) } : {}),
      });
    },
    rename: (change, { client, ctx }) =>
      org.updateLinkifier(client, change.liveId, ctx, { pattern: change.to }),
    delete: (change, { client }) => client.removeLinkifier(change.liveId),
    reorder: (change, { client, ctx }) => org.reorder(client, change, ctx),
  },
  playground: {
    create: (change, { client }) => org.createPlayground(client, change.properties),
    replace: (change, { client }) => org.replacePlayground(client, change),
    delete: (change, { client }) => client.removePlayground(change.liveId),
  },
  savedSnippet: {
    create: (change, { client }) => org.createSnippet(client, change),
    update: (change, { client }) => org.updateSnippet(client, change),
    rename: (change, { client }) => client.updateSavedSnippet(change.liveId, { title: change.to }),
    delete: (change, { client }) => client.deleteSavedSnippet(change.liveId),
  },
  customEmoji: {
    create: (change, { client, baseDir }) => emoji.uploadEmoji(client, change, baseDir),
    replace: (change, { client, baseDir }) => emoji.replaceEmoji(client, change, baseDir),
    deactivate: (change, { client }) => client.deactivateEmoji(change.key),
  },
  user: {
    update: (change, { client, ctx }) => org.updateUser(client, change, ctx),
    // zerver/views/users.py deactivate_user_backend: Zulip deactivates the user's bots first.
    deactivate: (change, { client }) => client.deactivateUser(change.liveId),
    reactivate: (change, { client }) => client.reactivateUser(change.liveId),
  },
  subscriptionSettings: {
    update: (change, { client, ctx }) => org.updateSubscriptionSettings(client, [change], ctx),
  },
  organizationSettings: {
    update: (change, { client, ctx }) => org.updateOrganizationSettings(client, change, ctx),
  },
  defaultUserSettings: {
    update: (change, { client }) => org.updateDefaultUserSettings(client, change),
  },
  defaultChannelGroup: {
    create: (change, { client }) => org.createDefaultChannelGroup(client, change),
    update: (change, { client }) => org.updateDefaultChannelGroup(client, change),
    // update_default_stream_group_info: `new_group_name`.
    rename: (change, { client }) =>
      client.updateDefaultStreamGroupInfo(change.liveId, { new_group_name: change.to }),
    delete: (change, { client }) => client.removeDefaultStreamGroup(change.liveId),
  },
  customProfileField: {
    create: (change, { client, ctx }) =>
      profileFields.createField(client, change.properties, change.key, ctx),
    update: (change, { client, ctx }) => profileFields.updateField(client, change, ctx),
    // update_realm_custom_profile_field: `name` alone (Zulip strips it).
    rename: (change, { client }) =>
      client.updateCustomProfileField(change.liveId, { name: change.to }),
    replace: (change, { client, ctx }) => profileFields.replaceField(client, change, ctx),
    delete: (change, { client }) => client.removeCustomProfileField(change.liveId),
    reorder: (change, { client, ctx }) => org.reorder(client, change, ctx),
  },
  // zerver/views/realm_domains.py; every request needs an organization owner.
  allowedDomain: {
    create: (change, { client }) => org.createAllowedDomain(client, change),
    update: (change, { client, ctx }) => org.updateAllowedDomain(client, change, ctx),
    delete: (change, { client, ctx }) => client.removeRealmDomain(org.storedDomain(change, ctx)),
  },
} as const satisfies KindHandlers;
