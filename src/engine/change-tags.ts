import { channelNameKey } from '../model/address';
import { supports } from '../model/features';
import type { FeatureName } from '../model/features';
import { ROLES } from '../model/kinds';
import type { RoleName } from '../model/kinds';
import type { ChangeTag, JsonValue, UntaggedChange } from './plan-format';
import { REMOVAL_ACTIONS } from './plan-format';
import { countOf, joinAnd, someOf } from './words';

/**
 * What a change needs and what Zulip does besides it: the single source of the plan's `tags`,
 * of apply's `--allow-destroy` refusal and of the renderers' side-effect sentences, so the three
 * never disagree. Every rule names the function of Zulip's server it follows.
 */

/** What a change's tags and side effects depend on besides the change itself. */
export interface ChangeContext {
  /** The server's feature level (`plan.server.featureLevel`); unknown: the newest behaviour. */
  readonly featureLevel?: number | undefined;
  /** `send_channel_events_messages`; unknown (an older saved plan) is treated as on. */
  readonly channelEventsMessages?: boolean | undefined;
  /**
   * Every change of the plan: whether a new channel is created with subscribers is in its
   * membership change, not in its create. Unknown: the creation notice is not claimed.
   */
  readonly changes?: readonly UntaggedChange[] | undefined;
}

function has(ctx: ChangeContext, feature: FeatureName): boolean {
  return ctx.featureLevel === undefined || supports(ctx.featureLevel, feature);
}

/**
 * Why a change needs `--allow-destroy`, or undefined: archive, deactivate, delete, unsubscribing
 * people, removing members or subgroups, and demotions (a role with fewer rights). Apply refuses
 * exactly these (`DESTROY_NOT_ALLOWED`), and they are exactly the changes tagged `destructive`.
 */
export function destructiveReason(c: UntaggedChange): string | undefined {
  if (c.kind === 'customProfileField') {
    const lost = profileValuesLost(c);
    if (lost !== undefined) return lost;
  }
  if ((REMOVAL_ACTIONS as readonly string[]).includes(c.action)) return `${c.action}s it`;
  if (c.action === 'membership') {
    const users = c.remove.map((u) => u.email);
    const groups = c.removeSubgroups.map((g) => `group ${g.name}`);
    if (users.length + groups.length > 0)
      return c.kind === 'channel'
        ? `unsubscribes ${countOf(users.length, 'user')}: ${firstFew(users)}`
        : `removes ${[
            users.length > 0 ? countOf(users.length, 'member') : '',
            groups.length > 0 ? countOf(groups.length, 'subgroup') : '',
          ]
            .filter(Boolean)
            .join(' and ')}: ${firstFew([...users, ...groups])}`;
  }
  if (c.action === 'update' && c.kind === 'user') {
    const role = c.properties.find((p) => p.property === 'role');
    if (role && typeof role.before === 'string' && typeof role.after === 'string') {
      const before = ROLES[role.before as RoleName] as number | undefined;
      const after = ROLES[role.after as RoleName] as number | undefined;
      if (before !== undefined && after !== undefined && after > before)
        return `demotes ${c.key} from ${role.before} to ${role.after}`;
    }
  }
  return undefined;
}

/** The first three names, then how many more: `a, b, c and 4 more`; `a, b and c`. */
function firstFew(names: readonly string[]): string {
  return names.length > 3 ? someOf(names, 3) : joinAnd(names);
}

/**
 * The users' values a custom profile field change deletes, or undefined:
 * zerver/actions/custom_profile_fields.py `do_remove_realm_custom_profile_field` deletes every
 * value with the field (a delete, and a replace: Zulip cannot change a field's type, so the
 * field is deleted and created again), and `remove_custom_profile_field_value_if_required`
 * deletes the values of the users who chose a choice that an update removes.
 */
export function profileValuesLost(c: UntaggedChange): string | undefined {
  if (c.kind !== 'customProfileField') return undefined;
  if (c.action === 'delete') return "deletes it, and every user's value of it";
  if (c.action === 'replace')
    return `changes its type from ${JSON.stringify(c.before.type)} to ${JSON.stringify(c.after.type)}: Zulip deletes the field with every user's value of it and creates it again`;
  if (c.action === 'update' && c.liveId !== null) {
    const p = c.properties.find((x) => x.property === 'choices');
    if (!p || !Array.isArray(p.before) || !Array.isArray(p.after)) return undefined;
    const after = new Set(p.after);
    const gone = p.before.filter((t) => !after.has(t));
    if (gone.length > 0)
      return `removes the choice${gone.length === 1 ? '' : 's'} ${gone.map((t) => JSON.stringify(t)).join(', ')}: Zulip deletes the values of the users who chose ${gone.length === 1 ? 'it' : 'them'}`;
  }
  return undefined;
}

/**
 * Whether a channel's message retention may become shorter, so that Zulip deletes messages.
 * zerver/lib/retention.py `archive_stream_messages` uses the channel's `message_retention_days`,
 * or the organization's when it is `realm_default` (null); -1 (`unlimited`) keeps everything. The
 * plan does not know the organization's policy, so a change to or from `realm_default` counts
 * unless it ends at `unlimited`.
 */
function retentionMayShorten(before: JsonValue, after: JsonValue): boolean {
  if (after === 'unlimited') return false;
  if (typeof before === 'number' && typeof after === 'number') return after < before;
  return before !== after;
}

/**
 * Why a change cannot be undone through Zulip's API, or undefined. What is not here can be:
 * renames, settings, permissions (making history protected included: setting
 * `history_public_to_subscribers` back gives subscribers their access again, since
 * zerver/lib/message.py `has_message_access` decides it per request), memberships, roles
 * (`do_change_user_role` only moves the user between system groups), reorders, and archiving or
 * deactivating where Zulip can restore (see {@link archiveOnly}). A replace (playgrounds) is not
 * here either: Zulip keeps nothing by a playground's ID, the playground exists again at once,
 * and replacing it again with the values in `before` restores it.
 */
export function irreversibleReason(c: UntaggedChange, ctx: ChangeContext = {}): string | undefined {
  // Users' values of a custom profile field, once deleted, are gone: no API call restores them.
  const lost = profileValuesLost(c);
  if (lost !== undefined) return `${lost}; no API call brings the values back`;
  switch (c.action) {
    case 'delete':
      // do_remove_linkifier, do_remove_realm_playground, do_delete_saved_snippet delete the row:
      // there is no undelete, only a new object (a new ID; a linkifier last in the order).
      return 'deletes it: Zulip has no undelete, it can only be created again as a new object from the values in the plan';
    case 'archive':
      // do_unarchive_stream is reachable through the API only from FL 388.
      if (c.kind === 'channel' && !has(ctx, 'channelUnarchive'))
        return `archives it, and this server (feature level ${ctx.featureLevel ?? '?'}) cannot unarchive channels (feature level 388)`;
      return undefined;
    case 'deactivate':
      // do_remove_realm_emoji: no API call reactivates an emoji; an upload under the same name
      // makes a new one (messages and reactions that used the old one keep its image).
      if (c.kind === 'customEmoji')
        return 'deactivates it: Zulip has no API to reactivate a custom emoji; the name can be uploaded again as a new emoji';
      // do_reactivate_user_group is reachable through the API only from FL 386.
      if (c.kind === 'userGroup' && !has(ctx, 'groupReactivation'))
        return `deactivates it, and this server (feature level ${ctx.featureLevel ?? '?'}) cannot reactivate groups (feature level 386)`;
      return undefined;
    case 'update': {
      // A channel's own retention, or the organization's (every channel on `realm_default`).
      if ((c.kind !== 'channel' && c.kind !== 'organizationSettings') || c.liveId === null)
        return undefined;
      const p = c.properties.find((x) => x.property === 'messageRetentionDays');
      if (!p || !retentionMayShorten(p.before, p.after)) return undefined;
      // archive_messages moves expired messages out of the organization; only a server
      // administrator can bring them back (retention.py restore_retention_policy_deletions_for_stream,
      // from the Django shell, before clean_archived_data removes them for good).
      return `message retention ${JSON.stringify(p.before)} → ${JSON.stringify(p.after)}: Zulip deletes the messages older than the new period, and no API call brings them back`;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a removal is one Zulip can undo: archiving a channel (`do_deactivate_stream` keeps its
 * messages and subscribers; `do_unarchive_stream` from FL 388, though it does not make the
 * channel a default channel or an announcement channel again), archiving a folder
 * (`do_unarchive_channel_folder`), deactivating a group (`do_reactivate_user_group` from FL 386,
 * members and subgroups kept).
 */
export function archiveOnly(c: UntaggedChange, ctx: ChangeContext = {}): boolean {
  if (c.action === 'archive') return irreversibleReason(c, ctx) === undefined;
  if (c.action === 'deactivate') return irreversibleReason(c, ctx) === undefined;
  return false;
}

/**
 * Who gets a direct message from Notification Bot because of a membership change (empty when
 * nobody): the planner records them in `messaged` when `notify` is true, following
 * zerver/views/streams.py `send_user_subscribed_and_new_channel_notifications` (people someone
 * else subscribes to an existing channel) and zerver/views/user_groups.py
 * `notify_for_user_group_subscription_changes` (members added to or removed from an existing
 * group). Nothing else zulip-cdk does sends direct messages: not unsubscribing
 * (`remove_subscriptions_backend`), not role changes (`do_change_user_role`).
 */
export function messagedUsers(c: UntaggedChange): readonly string[] {
  if (c.action !== 'membership' || !c.notify) return [];
  return c.messaged ?? [];
}

/**
 * Whether a new channel is created with subscribers. Below FL 417 the subscribe call creates it
 * and always has a principal; `POST /channels/create` may have none, and then returns before
 * posting anything (zerver/views/streams.py `create_channel`). Its subscribers are in the plan's
 * membership change of the channel, or it has the applying account for the subscription
 * settings the plan sets on it. Undefined when not known.
 */
function createdWithSubscribers(c: UntaggedChange, ctx: ChangeContext): boolean | undefined {
  if (!has(ctx, 'channelsCreate')) return true;
  if (!ctx.changes) return undefined;
  const key = channelNameKey(c.key);
  return ctx.changes.some(
    (o) =>
      (o.address === c.address && o.action === 'membership' && o.add.length > 0) ||
      (o.kind === 'subscriptionSettings' &&
        o.action === 'update' &&
        o.liveId === null &&
        channelNameKey(o.key) === key),
  );
}

/**
 * What Notification Bot posts into the channel about a change of it, through
 * zerver/actions/message_send.py `maybe_send_channel_events_notice` (nothing when the
 * organization's `send_channel_events_messages` is off): the creation
 * (`send_user_subscribed_and_new_channel_notifications`, when created with subscribers),
 * renames, description, privacy and history, the posting permission, retention, topics policy,
 * archiving and unarchiving (zerver/actions/streams.py).
 */
export function channelNotices(c: UntaggedChange, ctx: ChangeContext = {}): string[] {
  if (c.kind !== 'channel' || ctx.channelEventsMessages === false) return [];
  switch (c.action) {
    case 'create':
      return createdWithSubscribers(c, ctx) === true ? ['the creation'] : [];
    case 'rename':
      return ['the rename'];
    case 'archive':
      return ['the archiving'];
    case 'unarchive':
      return ['the unarchiving'];
    case 'update': {
      const what = new Set<string>();
      for (const p of c.properties) {
        if (p.property === 'description') what.add('the new description');
        else if (['private', 'webPublic', 'historyPublicToSubscribers'].includes(p.property))
          what.add('the change of access');
        else if (p.property === 'permissions.canSendMessageGroup') what.add('who may post');
        else if (p.property === 'messageRetentionDays') what.add('the message retention');
        else if (p.property === 'topicsPolicy') what.add('the topics policy');
        else if (p.property === 'name') what.add('the rename');
      }
      return [...what];
    }
    default:
      return [];
  }
}

/**
 * Whether creating the channel is announced in the organization's new-channel announcements
 * channel (`send_user_subscribed_and_new_channel_notifications` with `announce`, whatever
 * `send_channel_events_messages` says). The planner drops `announce` where Zulip would announce
 * nothing (a channel created without subscribers, `NOTHING_ANNOUNCED`).
 */
export function announcesCreation(c: UntaggedChange): boolean {
  return c.kind === 'channel' && c.action === 'create' && c.properties.announce === true;
}

/** The tags of a change (see `CHANGE_TAGS` in plan-format.ts), in that order. */
export function changeTags(c: UntaggedChange, ctx: ChangeContext = {}): ChangeTag[] {
  const tags: ChangeTag[] = [];
  if (destructiveReason(c) !== undefined) tags.push('destructive');
  if (irreversibleReason(c, ctx) !== undefined) tags.push('irreversible');
  if (archiveOnly(c, ctx)) tags.push('archive-only');
  if (messagedUsers(c).length > 0) tags.push('notifies-users');
  if (channelNotices(c, ctx).length > 0 || announcesCreation(c)) tags.push('posts-message');
  return tags;
}
