import type { ResourceKind } from '../../model/kinds';
import { destructiveReason } from '../apply/batching';
import { LEFT_OUT_WARNING_CODES } from '../plan-format';
import type { Change, ChangeAction, JsonValue, Plan, PlanSummary } from '../plan-format';

/** Terraform-like symbols: `+` create, `~` update, `-` remove, `±` replace. */
export const SYMBOLS: Record<ChangeAction, string> = {
  create: '+',
  update: '~',
  rename: '~',
  unarchive: '+',
  reactivate: '+',
  archive: '-',
  deactivate: '-',
  delete: '-',
  replace: '±',
  reorder: '~',
  membership: '~',
};

/** Human verbs, as in "will be archived". */
export const VERBS: Record<ChangeAction, string> = {
  create: 'created',
  update: 'updated in place',
  rename: 'renamed',
  unarchive: 'unarchived',
  reactivate: 'reactivated',
  archive: 'archived',
  deactivate: 'deactivated',
  delete: 'deleted',
  replace: 'replaced (deleted, then created again)',
  reorder: 'reordered',
  membership: 'changed membership',
};

export const KIND_TITLES: Record<ResourceKind, string> = {
  channelFolder: 'Channel folders',
  userGroup: 'User groups',
  channel: 'Channels',
  subscriptionSettings: 'Subscription settings (applying account)',
  linkifier: 'Linkifiers',
  playground: 'Code playgrounds',
  savedSnippet: 'Saved snippets (applying account)',
  user: 'Users',
};

/** A value as shown in a diff: strings quoted, group sets as `{a@x, eng}`. */
export function formatValue(v: JsonValue | undefined): string {
  if (v === undefined) return '(unset)';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (!Array.isArray(v) && Array.isArray(v.users) && Array.isArray(v.groups)) {
    const parts = [...v.users, ...v.groups].map((x) =>
      typeof x === 'string' ? x : JSON.stringify(x),
    );
    return `{${parts.join(', ')}}`;
  }
  return JSON.stringify(v);
}

/** `n thing`/`n things`. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The footer line of a plan: {@link summaryLine}, and, when declared changes were left out
 * because Zulip would refuse them, never "the organization matches the configuration".
 */
export function planSummaryLine(plan: Pick<Plan, 'summary' | 'warnings' | 'changes'>): string {
  const leftOut = new Set(
    plan.warnings
      .filter((w) => LEFT_OUT_WARNING_CODES.includes(w.code))
      .map((w) => w.address ?? ''),
  ).size;
  // "0 to archive/delete" and then an apply refused as destructive would mislead: removing a
  // member or subscriber, or demoting someone, needs --allow-destroy too.
  const destructive = plan.changes.filter((c) => destructiveReason(c) !== undefined).length;
  const destroyNote =
    destructive > 0
      ? ` ${countOf(destructive, 'change')} ${destructive === 1 ? 'is' : 'are'} destructive (apply needs --allow-destroy).`
      : '';
  if (leftOut === 0) return `${summaryLine(plan.summary)}${destroyNote}`;
  const objects = countOf(leftOut, 'object');
  if (plan.summary.total === 0)
    return `No changes can be applied: changes to ${objects} are left out because Zulip would refuse them (see the warnings), so the organization does not match the configuration.`;
  return `${summaryLine(plan.summary)}${destroyNote} Changes to ${objects} are left out because Zulip would refuse them (see the warnings).`;
}

/** The footer line. */
export function summaryLine(s: PlanSummary): string {
  if (s.total === 0) return 'No changes. The organization matches the configuration.';
  const parts = [`${s.create} to create`, `${s.update} to update`, `${s.remove} to archive/delete`];
  if (s.rename) parts.push(`${s.rename} to rename`);
  if (s.restore) parts.push(`${s.restore} to unarchive/reactivate`);
  if (s.replace) parts.push(`${s.replace} to replace`);
  if (s.reorder) parts.push(`${s.reorder} to reorder`);
  if (s.membership) parts.push(`${s.membership} membership change${s.membership === 1 ? '' : 's'}`);
  return `Plan: ${parts.join(', ')}.`;
}

/** What a permission lets people do, for reviewers. */
export const PERMISSION_MEANINGS: Record<string, string> = {
  canAddSubscribersGroup: 'add subscribers',
  canAdministerChannelGroup: 'administer the channel',
  canCreateTopicGroup: 'start new topics',
  canDeleteAnyMessageGroup: 'delete any message',
  canDeleteOwnMessageGroup: 'delete their own messages',
  canMoveMessagesOutOfChannelGroup: 'move messages out of the channel',
  canMoveMessagesWithinChannelGroup: 'move messages between topics',
  canRemoveSubscribersGroup: 'unsubscribe others',
  canResolveTopicsGroup: 'resolve topics',
  canSendMessageGroup: 'post',
  canSubscribeGroup: 'subscribe themselves',
  canAddMembersGroup: 'add members',
  canJoinGroup: 'join the group',
  canLeaveGroup: 'leave the group',
  canManageGroup: 'manage the group',
  canMentionGroup: 'mention the group',
  canRemoveMembersGroup: 'remove members',
};

function holders(v: JsonValue): string[] {
  if (typeof v === 'string') return [v];
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const users = Array.isArray(v.users) ? v.users : [];
    const groups = Array.isArray(v.groups) ? v.groups : [];
    return [...users, ...groups].map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  }
  return [];
}

/**
 * "who gains / who loses" for a group-setting change, by the users and groups named in the
 * values (not expanded: a reviewer reads `role:members` better than 300 addresses).
 */
export function permissionEffect(property: string, before: JsonValue, after: JsonValue): string {
  const name = property.replace(/^permissions\./, '');
  const what = PERMISSION_MEANINGS[name] ?? name;
  // role:nobody holds no one: it neither gains nor loses anything.
  const b = holders(before).filter((x) => x !== 'role:nobody');
  const a = holders(after).filter((x) => x !== 'role:nobody');
  const gain = a.filter((x) => !b.includes(x));
  const lose = b.filter((x) => !a.includes(x));
  const parts: string[] = [];
  if (gain.length) parts.push(`${gain.join(', ')} may now ${what}`);
  if (lose.length)
    parts.push(
      `${lose.join(', ')} may no longer ${what}${
        a.length === 0 ? ': no one may' : ' (unless also covered otherwise)'
      }`,
    );
  return parts.join('; ');
}

/**
 * Deleting a playground resets the realm's `default_code_block_language` when it is the
 * playground's language (NOTES 2.8). The live state does not carry that setting, so the plan
 * says it may happen.
 */
export function playgroundNote(c: Change): string | undefined {
  if (c.kind !== 'playground' || (c.action !== 'delete' && c.action !== 'replace'))
    return undefined;
  const lang = c.before.pygmentsLanguage;
  if (typeof lang !== 'string') return undefined;
  return `If ${lang} is the organization's default code block language, Zulip resets that setting to none.`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** Up to `max` items, then "and N more". */
export function someOf(items: readonly string[], max = 10): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** Who gets a Notification Bot message about being subscribed (see `notify` in the plan). */
function subscriptionMessages(
  c: Extract<Change, { action: 'membership' }>,
  featureLevel: number | undefined,
): string {
  const n = c.add.length;
  if (c.liveId === null)
    return `${countOf(n, 'new subscriber')} ${n === 1 ? 'gets' : 'get'} no message: Zulip does not message the subscribers a channel is created with.`;
  if (!c.notify)
    return `${countOf(n, 'new subscriber')} will not get a message (apply sends send_new_subscription_messages=false).`;
  const messaged = c.messaged ?? [];
  if (messaged.length === 0)
    return `${countOf(n, 'new subscriber')}, none of whom gets a message (Zulip never messages the applying account or bots).`;
  const why =
    featureLevel === undefined
      ? 'below feature level 397 Zulip always does; from 397 because the channel is announced, unless one request subscribes more than max_bulk_new_subscription_messages users'
      : featureLevel < 397
        ? `Zulip always does below feature level 397; the server is at ${featureLevel}`
        : 'the channel is announced; Zulip sends none when one request subscribes more than max_bulk_new_subscription_messages users';
  return `Notification Bot will send a direct message to ${messaged.length} of ${countOf(n, 'new subscriber')}: ${someOf(messaged)} (${why}).`;
}

/** Group members added or removed get a Notification Bot message (see `messaged`). */
function groupMembershipMessages(c: Extract<Change, { action: 'membership' }>): string[] {
  const messaged = new Set(c.messaged ?? []);
  const added = c.add.map((u) => u.email).filter((e) => messaged.has(e));
  const removed = c.remove.map((u) => u.email).filter((e) => messaged.has(e));
  const out: string[] = [];
  if (added.length > 0)
    out.push(
      `Notification Bot will send a direct message ("… added you to the group ${c.key}.") to ${countOf(added.length, 'added member')}: ${someOf(added)}.`,
    );
  if (removed.length > 0)
    out.push(
      `Notification Bot will send a direct message ("… removed you from the group ${c.key}.") to ${countOf(removed.length, 'removed member')}: ${someOf(removed)}.`,
    );
  return out;
}

/**
 * What Zulip posts into the channel about a change of it (zerver/actions/streams.py, through
 * `maybe_send_channel_events_notice`): renames, description, privacy and history, the posting
 * permission, retention, topics policy, archiving and unarchiving.
 */
function channelNotices(c: Change): string[] {
  if (c.kind !== 'channel') return [];
  switch (c.action) {
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

/** What the plan's server does, for sentences that depend on it, and which sentences to give. */
export interface SideEffectContext {
  readonly featureLevel?: number | undefined;
  /** `send_channel_events_messages`; unknown (an older saved plan) is treated as on. */
  readonly channelEventsMessages?: boolean | undefined;
  /**
   * Whether to give the sentences that restate the diff (who gains or loses a permission, a
   * role change, how many are unsubscribed): the Markdown comment lists effects apart from the
   * diff, the text plan prints them under it. Default true.
   */
  readonly restateDiff?: boolean | undefined;
}

/**
 * Side effects a reviewer must know, in one sentence per change (empty when none).
 * `server` is the plan's server (`plan.server`), for sentences that depend on it.
 */
export function sideEffects(c: Change, server: SideEffectContext = {}): string[] {
  const out: string[] = [];
  const featureLevel = server.featureLevel;
  const restate = server.restateDiff !== false;
  if (server.channelEventsMessages !== false) {
    const notices = channelNotices(c);
    if (notices.length > 0)
      out.push(
        `Notification Bot will post a notice about ${joinAnd(notices)} in #${c.key} (topic "channel events"), seen by its subscribers.`,
      );
  }
  switch (c.action) {
    case 'archive':
      if (c.kind === 'channel')
        out.push(
          `Archiving is not deleting: ${c.key}'s messages are kept, its name stays taken (case-insensitively), and it can be unarchived.`,
        );
      else out.push(`Archiving is not deleting: the folder ${c.key} keeps its name reserved.`);
      break;
    case 'deactivate':
      out.push(
        `Deactivating is not deleting: the group ${c.key} keeps its name reserved and can be reactivated.`,
      );
      break;
    case 'delete':
      out.push(`${c.key} is deleted for good.`);
      break;
    case 'replace':
      out.push('Zulip cannot edit a code playground: it is deleted and created again.');
      break;
    case 'membership':
      if (c.kind === 'channel' && c.add.length > 0) out.push(subscriptionMessages(c, featureLevel));
      if (c.kind === 'channel' && c.remove.length > 0 && restate)
        out.push(`${countOf(c.remove.length, 'subscriber')} will be unsubscribed.`);
      if (c.kind === 'userGroup') out.push(...groupMembershipMessages(c));
      break;
    case 'update':
      for (const p of c.properties) {
        if (p.property.startsWith('permissions.')) {
          const e = restate ? permissionEffect(p.property, p.before, p.after) : '';
          if (e) out.push(`${p.property}: ${e}.`);
        } else if (p.property === 'role') {
          if (restate) out.push(`role: ${formatValue(p.before)} → ${formatValue(p.after)}.`);
        } else if (p.property === 'private' && p.after === true) {
          out.push(`${c.key} becomes private: non-subscribers lose access to its content.`);
        } else if (p.property === 'private' && p.after === false) {
          out.push(`${c.key} becomes public: every member can read it.`);
        }
      }
      break;
    case 'create':
      if (c.kind === 'channel' && c.properties.announce === true)
        out.push(`The creation of ${c.key} is announced.`);
      break;
    default:
      break;
  }
  const note = playgroundNote(c);
  if (note) out.push(note);
  return out;
}
