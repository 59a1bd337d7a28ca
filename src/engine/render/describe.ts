import { DEFAULT_RATE_LIMIT_PER_MINUTE, predictRequests } from '../apply/batching';
import {
  announcesCreation,
  archiveOnly,
  channelNotices,
  destructiveReason,
  irreversibleReason,
  messagedUsers,
} from '../change-tags';
import type { ChangeContext } from '../change-tags';
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

/** A change with the reason it is listed (destructive or irreversible). */
export interface ChangeReason {
  readonly change: Change;
  readonly why: string;
}

/**
 * The plan's destructive changes (apply refuses them without `--allow-destroy`) and the changes
 * Zulip cannot undo, with why. Recomputed from each change with the functions that made its
 * `tags` and that apply asks, so a plan edited by hand cannot hide one from the reviewer.
 */
export function riskyChanges(plan: Pick<Plan, 'changes' | 'server'>): {
  destructive: ChangeReason[];
  irreversible: ChangeReason[];
} {
  const destructive: ChangeReason[] = [];
  const irreversible: ChangeReason[] = [];
  for (const change of plan.changes) {
    const d = destructiveReason(change);
    const undo = change.action === 'deactivate' ? 'reactivated' : 'unarchived';
    if (d !== undefined)
      destructive.push({
        change,
        why: archiveOnly(change, plan.server) ? `${d} (it can be ${undo})` : d,
      });
    const i = irreversibleReason(change, plan.server);
    if (i !== undefined) irreversible.push({ change, why: i });
  }
  return { destructive, irreversible };
}

/** The labels shown after a change's first line: `destructive`, `irreversible`. */
export function changeLabels(c: Change, ctx: ChangeContext = {}): string[] {
  const labels: string[] = [];
  if (destructiveReason(c) !== undefined) labels.push('destructive');
  if (irreversibleReason(c, ctx) !== undefined) labels.push('irreversible');
  return labels;
}

/**
 * The plan's digest line, the same in the text and the Markdown: the bare hex that apply's
 * `--expect-digest` takes.
 */
export function digestLine(digest: string, code: (s: string) => string = (s) => s): string {
  return `Plan digest: ${code(digest)} (for ${code('zulip-cdk apply --expect-digest')})`;
}

/**
 * What applying the plan costs at Zulip's default rate limit (issue 17): the requests apply
 * will send (predicted from its order and batches, reads included) and the minutes they take at
 * 200 requests a minute; undefined for an empty plan.
 */
export function applyCostLine(plan: Pick<Plan, 'changes' | 'server'>): string | undefined {
  if (plan.changes.length === 0) return undefined;
  const n = predictRequests(plan.changes, plan.server.featureLevel);
  const minutes = n / DEFAULT_RATE_LIMIT_PER_MINUTE;
  const time = minutes < 1 ? 'under a minute' : `about ${minutes.toFixed(1)} minutes`;
  return `Apply: ${countOf(n, 'request')}, ${time} at Zulip's default rate limit of ${DEFAULT_RATE_LIMIT_PER_MINUTE} requests a minute.`;
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
  const messaged = messagedUsers(c);
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
  const messaged = new Set(messagedUsers(c));
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
 * What the plan's server does (`plan.server`) and the plan's other changes (`plan.changes`), for
 * sentences that depend on them, and which sentences to give.
 */
export interface SideEffectContext extends ChangeContext {
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
  const notices = channelNotices(c, server);
  if (notices.length > 0)
    out.push(
      `Notification Bot will post a notice about ${joinAnd(notices)} in #${c.key} (topic "channel events"), seen by its subscribers.`,
    );
  switch (c.action) {
    case 'archive':
      if (c.kind === 'channel' && archiveOnly(c, server))
        out.push(
          `Archiving is not deleting: ${c.key}'s messages are kept, its name stays taken (case-insensitively), and it can be unarchived.`,
        );
      else if (c.kind === 'channel')
        out.push(
          `Archiving is not deleting: ${c.key}'s messages are kept and its name stays taken, but this server cannot unarchive a channel (that needs feature level 388).`,
        );
      else out.push(`Archiving is not deleting: the folder ${c.key} keeps its name reserved.`);
      break;
    case 'deactivate':
      out.push(
        archiveOnly(c, server)
          ? `Deactivating is not deleting: the group ${c.key} keeps its name reserved and can be reactivated.`
          : `Deactivating is not deleting: the group ${c.key} keeps its members and its name reserved, but this server cannot reactivate a group (that needs feature level 386).`,
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
        } else if (p.property === 'messageRetentionDays') {
          const gone = irreversibleReason(c, server);
          if (gone) out.push(`Irreversible: ${gone}.`);
        }
      }
      break;
    case 'create':
      if (announcesCreation(c))
        out.push(
          `Notification Bot will announce #${c.key} in the channel the organization set for new channel announcements, if any.`,
        );
      break;
    default:
      break;
  }
  const note = playgroundNote(c);
  if (note) out.push(note);
  return out;
}
