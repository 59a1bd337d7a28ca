import { KIND_SPECS } from '../../model/kinds';
import { countOf, joinAnd, someOf } from '../words';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, predictRequests } from '../apply/batching';
import {
  announcesCreation,
  archiveOnly,
  channelNotices,
  destructiveReason,
  irreversibleReason,
  messagedUsers,
  profileValuesLost,
} from '../change-tags';
import type { ChangeContext } from '../change-tags';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
} from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import { LEFT_OUT_WARNING_CODES } from '../plan-format';
import type {
  Change,
  ChangeAction,
  JsonValue,
  PermissionEffect,
  Plan,
  PlanPermissions,
  PlanSummary,
  RemoveChange,
} from '../plan-format';

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
  // An emoji image: where it is, its type and size, and its digest (never its bytes).
  if (!Array.isArray(v) && typeof v.sha256 === 'string' && typeof v.size === 'number') {
    const where = typeof v.file === 'string' ? `${v.file} ` : '';
    const type = typeof v.contentType === 'string' ? `${v.contentType}, ` : '';
    return `${where}(${type}${v.size} bytes, SHA-256 ${v.sha256})`;
  }
  if (!Array.isArray(v) && Array.isArray(v.users) && Array.isArray(v.groups)) {
    const parts = [...v.users, ...v.groups].map((x) =>
      typeof x === 'string' ? x : JSON.stringify(x),
    );
    return `{${parts.join(', ')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The footer line of a plan: {@link summaryLine}, and, when declared changes were left out
 * because Zulip would refuse them, never "the organization matches the configuration".
 */
export function planSummaryLine(
  plan: Pick<Plan, 'summary' | 'warnings' | 'changes'> & Partial<Pick<Plan, 'targets'>>,
): string {
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
  // Limited by --target: only the targets were compared, never the whole organization.
  if (leftOut === 0 && plan.summary.total === 0 && plan.targets?.length)
    return `No changes within the targets (${plan.targets.join(', ')}): what they name matches the configuration. The rest of the organization was not compared.`;
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

/** What a permission lets people do, for reviewers (the `ability` of the model's tables). */
export const PERMISSION_MEANINGS: Record<string, string> = Object.fromEntries(
  Object.entries({
    ...ORGANIZATION_PERMISSIONS,
    ...CHANNEL_PERMISSIONS,
    ...GROUP_PERMISSIONS,
  } as Record<string, PermissionSettingInfo>).map(([name, info]) => [
    name,
    info.ability ?? info.wire,
  ]),
);

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
 * values, not expanded: only for plans saved before they carried effective permissions
 * (`plan.permissions`), which {@link effectSentence} reads. A group named only before may still
 * hold the permission through a group named after, hence "unless also covered otherwise".
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

/** Users of a gained or lost set: the named ones, then "and N more". */
export function holdersText(h: { count: number; users: readonly string[] }, max = 10): string {
  const shown = h.users.slice(0, max);
  const more = h.count - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : joinAnd(shown);
}

/** The effective-permission entry of a property of an object, if the plan carries one. */
export function effectFor(
  permissions: PlanPermissions | undefined,
  address: string,
  property: string,
): PermissionEffect | undefined {
  return permissions?.effects.find((e) => e.address === address && e.permission === property);
}

/**
 * The organization settings that also let people through some of the plan's permissions and
 * that the plan could not count (`notCounted`), sorted.
 */
function uncountedSettings(permissions: PlanPermissions | undefined): string[] {
  return [...new Set((permissions?.effects ?? []).flatMap((e) => e.notCounted ?? []))].sort();
}

/** Whether anyone gains or loses the permission. */
export function effectMoves(e: PermissionEffect): boolean {
  return e.gained.count > 0 || e.lost.count > 0;
}

/**
 * Who gains and who loses one permission, from its effective holders (nested groups, role
 * groups and what Zulip always lets through counted), e.g. "alice and bob may now administer
 * the channel; dave may no longer".
 */
export function effectSentence(e: PermissionEffect): string {
  const parts: string[] = [];
  if (e.before === null)
    parts.push(
      e.after === 0
        ? `no one may ${e.ability}`
        : `${countOf(e.after, 'user')} may ${e.ability}: ${holdersText(e.gained)}`,
    );
  else {
    if (e.gained.count > 0) parts.push(`${holdersText(e.gained)} may now ${e.ability}`);
    if (e.lost.count > 0)
      parts.push(
        e.gained.count > 0
          ? `${holdersText(e.lost)} may no longer`
          : `${holdersText(e.lost)} may no longer ${e.ability}`,
      );
    if (e.lost.count > 0 && e.after === 0) parts.push('no one may');
    if (parts.length === 0)
      parts.push(`no one gains or loses it: the same ${countOf(e.after, 'user')} may ${e.ability}`);
  }
  return parts.join('; ');
}

/**
 * What a membership or role change gives and takes away through the permissions it reaches
 * (directly or through nested groups): one sentence per ability and set of people, e.g.
 * "dave may now administer the channel in channel["engineering"]". At most `max` sentences.
 */
export function abilitySentences(
  changeId: string,
  permissions: PlanPermissions | undefined,
  max = 5,
): string[] {
  if (!permissions) return [];
  const mine = {
    ...permissions,
    effects: permissions.effects.filter((e) => e.changes.includes(changeId)),
  };
  const grouped = new Map<string, string[]>();
  for (const r of whoGainsRows(mine)) {
    const what = joinAnd(r.abilities);
    const who: string[] = [];
    if (r.gained.count > 0)
      who.push(`${holdersText(r.gained)} may${r.isNew ? '' : ' now'} ${what}`);
    if (r.lost.count > 0)
      who.push(`${holdersText(r.lost)} may no longer${r.gained.count > 0 ? '' : ` ${what}`}`);
    const text = who.join('; ');
    grouped.set(text, [...(grouped.get(text) ?? []), r.address]);
  }
  const all = [...grouped].map(
    ([text, addresses]) =>
      `${text} in ${addresses.length <= 3 ? joinAnd(addresses) : someOf(addresses, 3)}`,
  );
  const out = all.slice(0, max).map((x) => `${x}.`);
  if (all.length > max)
    out.push(`And ${all.length - max} more permission changes (see who gains and who loses).`);
  return out;
}

/** A person's gains or losses, e.g. "administer the channel in channel["eng"]", at most `max`. */
export function abilityList(
  items: readonly { address: string; permission: string }[],
  total: number,
  max = 10,
): string {
  const byAddress = new Map<string, string[]>();
  for (const a of items.slice(0, max)) {
    const name = a.permission.replace(/^permissions\./, '');
    byAddress.set(a.address, [
      ...(byAddress.get(a.address) ?? []),
      PERMISSION_MEANINGS[name] ?? name,
    ]);
  }
  const parts = [...byAddress].map(([address, what]) => `${joinAnd(what)} in ${address}`);
  const shown = Math.min(items.length, max);
  return total > shown ? `${parts.join('; ')}; and ${total - shown} more` : parts.join('; ');
}

/** One row of "who gains / who loses": the abilities on one object that the same people gain and lose. */
export interface WhoGainsRow {
  readonly address: string;
  /** The object is created by the plan. */
  readonly isNew: boolean;
  readonly abilities: string[];
  readonly gained: PermissionEffect['gained'];
  readonly lost: PermissionEffect['lost'];
}

/**
 * What the renderers' "who gains / who loses" section shows: its rows ({@link whoGainsRows})
 * and the organization settings it could not count ({@link uncountedSettings}).
 */
export function whoGains(permissions: PlanPermissions | undefined): {
  readonly rows: WhoGainsRow[];
  readonly uncounted: string[];
} {
  return { rows: whoGainsRows(permissions), uncounted: uncountedSettings(permissions) };
}

/**
 * The permissions whose holders change, as rows: on one object, abilities that the same people
 * gain and lose share a row (administering a channel brings unsubscribing and moving messages
 * with it). Objects that exist come first, then new ones.
 */
function whoGainsRows(permissions: PlanPermissions | undefined): WhoGainsRow[] {
  const rows = new Map<string, WhoGainsRow>();
  for (const e of permissions?.effects ?? []) {
    if (!effectMoves(e)) continue;
    const key = JSON.stringify([e.address, e.before === null, e.gained, e.lost]);
    const row = rows.get(key);
    if (row) row.abilities.push(e.ability);
    else
      rows.set(key, {
        address: e.address,
        isNew: e.before === null,
        abilities: [e.ability],
        gained: e.gained,
        lost: e.lost,
      });
  }
  const all = [...rows.values()];
  return [...all.filter((r) => !r.isNew), ...all.filter((r) => r.isNew)];
}

/**
 * Deleting a playground resets the realm's `default_code_block_language` when it is the
 * playground's language (`delete_realm_playground`, zerver/views/realm_playgrounds.py). A plan
 * does not record the live setting unless it changes it, so the note says when it happens; a
 * declared language is set again after the delete (`playgroundDeletes` in
 * engine/plan/organization.ts).
 */
export function playgroundNote(c: Change): string | undefined {
  if (c.kind !== 'playground' || (c.action !== 'delete' && c.action !== 'replace'))
    return undefined;
  const lang = c.before.pygmentsLanguage;
  if (typeof lang !== 'string') return undefined;
  return `If ${lang} is the organization's default code block language, Zulip resets that setting to none (the plan sets it again afterwards when the organization settings declare it).`;
}

/**
 * What Zulip does when it deactivates a user (zerver/actions/users.py `do_deactivate_user`):
 * the bots they own first, then the account (logged out everywhere: `delete_user_sessions`;
 * invitations they sent revoked; scheduled e-mails to them cancelled); and what it keeps.
 */
function userDeactivationEffects(c: RemoveChange): string[] {
  const bots = Array.isArray(c.before.ownedBots)
    ? c.before.ownedBots.filter((b): b is string => typeof b === 'string')
    : [];
  return [
    `Zulip logs ${c.key} out of every session, revokes the invitations they sent and cancels the e-mails scheduled for them.`,
    bots.length > 0
      ? `The ${countOf(bots.length, 'bot')} they own ${bots.length === 1 ? 'is' : 'are'} deactivated first: ${someOf(bots)}.`
      : 'They own no active bot.',
    'Kept: their messages, and their subscriptions and group memberships (inactive until they are reactivated). The account can be reactivated.',
  ];
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
 * Where Zulip posts a channel's notices (zerver/lib/streams.py `channel_events_topic_name`): the
 * "channel events" topic, or the general chat (the empty topic) in a channel whose topics
 * policy is `empty_topic_only`. A change that does not set the policy cannot tell.
 */
function noticeTopic(c: Change): string {
  const policy =
    c.action === 'create'
      ? c.properties.topicsPolicy
      : c.action === 'update'
        ? c.properties.find((p) => p.property === 'topicsPolicy')?.after
        : undefined;
  if (policy === 'empty_topic_only') return 'in its general chat, the only topic it allows';
  if (policy !== undefined) return 'topic "channel events"';
  return 'topic "channel events", or general chat if the channel allows only that';
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
  /** The plan's effective permissions (`plan.permissions`): who gains and loses what. */
  readonly permissions?: PlanPermissions | undefined;
}

/** What a change of a default channel group's channels does: `adds #a; removes #b`. */
function channelSetEffect(before: JsonValue, after: JsonValue): string {
  const list = (v: JsonValue): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const key = (n: string): string => n.toLowerCase();
  const had = new Set(list(before).map(key));
  const wants = new Set(list(after).map(key));
  const add = list(after).filter((n) => !had.has(key(n)));
  const remove = list(before).filter((n) => !wants.has(key(n)));
  const parts: string[] = [];
  if (add.length > 0) parts.push(`adds ${add.map((n) => `#${n}`).join(', ')}`);
  if (remove.length > 0) parts.push(`removes ${remove.map((n) => `#${n}`).join(', ')}`);
  return parts.join('; ');
}

/**
 * What a new waiting period does to role:fullmembers (zerver/actions/realm_settings.py
 * `do_set_realm_property` → `update_users_in_full_members_system_group`, then the daily
 * `promote_new_full_members`).
 */
function waitingPeriodEffect(before: JsonValue, after: JsonValue): string {
  if (typeof after !== 'number' || typeof before !== 'number' || before === after) return '';
  if (after === 0) return 'Every member joins role:fullmembers now (no waiting period).';
  const days = countOf(after, 'day');
  return after > before
    ? `Members who joined less than ${days} ago leave role:fullmembers now; Zulip puts each back once ${days} have passed since they joined.`
    : `Members who joined at least ${days} ago join role:fullmembers now.`;
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
      `Notification Bot will post a notice about ${joinAnd(notices)} in #${c.key} (${noticeTopic(c)}), seen by its subscribers.`,
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
      // zerver/lib/channel_folders.py check_channel_folder_name looks only at folders that are
      // not archived: the name is free for a new folder.
      else
        out.push(
          `Archiving is not deleting: the folder ${c.key} can be unarchived; its name becomes free for a new folder.`,
        );
      // zerver/actions/streams.py do_deactivate_stream removes it from the default channels
      // (and their groups); do_unarchive_stream does not put it back.
      if (c.kind === 'channel' && c.before.defaultChannel === true)
        out.push(
          `${c.key} stops being a default channel (new users are no longer subscribed to it); unarchiving does not make it one again.`,
        );
      break;
    case 'deactivate':
      if (c.kind === 'user') out.push(...userDeactivationEffects(c));
      else if (c.kind === 'customEmoji')
        out.push(
          `Deactivating is not deleting: messages and reactions that used :${c.key}: keep showing it, nobody can use it any more, and the name is free for a new upload.`,
        );
      else
        out.push(
          archiveOnly(c, server)
            ? `Deactivating is not deleting: the group ${c.key} keeps its name reserved and can be reactivated.`
            : `Deactivating is not deleting: the group ${c.key} keeps its members and its name reserved, but this server cannot reactivate a group (that needs feature level 386).`,
        );
      break;
    case 'reactivate':
      if (c.kind === 'user')
        out.push(
          `${c.key} can log in again; their subscriptions and group memberships count again. Zulip lists only active users' memberships, so this plan cannot see them: the next plan shows any that the configuration does not declare. Bots that were deactivated with them stay deactivated.`,
        );
      break;
    case 'delete':
      out.push(
        c.kind === 'defaultChannelGroup'
          ? `The default channel group ${c.key} is deleted for good; its channels stay as they are, and people signing up no longer see the group.`
          : c.kind === 'customProfileField'
            ? `The custom profile field ${c.key} is deleted for good, and with it every user's value of it.`
            : c.kind === 'allowedDomain'
              ? `While sign-up is restricted to the allowed domains (emailsRestrictedToDomains), Zulip refuses new accounts (invited or not) with an address at ${c.key}${c.before.allowSubdomains === true ? ' or its subdomains' : ''}, unless another allowed domain lets them in (a parent domain that allows its subdomains, or a subdomain listed itself).`
              : `The ${KIND_SPECS[c.kind].nouns[0]} ${c.key} is deleted for good.`,
      );
      break;
    case 'replace':
      out.push(
        c.kind === 'customEmoji'
          ? `Zulip cannot change an emoji's image: :${c.key}: is deactivated (messages and reactions that used it keep the old image) and the new image is uploaded under the same name.`
          : c.kind === 'customProfileField'
            ? `Zulip cannot change a custom profile field's type: ${c.key} is deleted, and with it every user's value of it, then created again as a ${typeof c.after.type === 'string' ? c.after.type : 'new'} field (last in the order until the plan's reorder).`
            : 'Zulip cannot edit a code playground: it is deleted and created again.',
      );
      break;
    case 'membership':
      if (c.kind === 'channel' && c.add.length > 0) out.push(subscriptionMessages(c, featureLevel));
      if (c.kind === 'channel' && c.remove.length > 0 && restate)
        out.push(`${countOf(c.remove.length, 'subscriber')} will be unsubscribed.`);
      if (c.kind === 'userGroup') out.push(...groupMembershipMessages(c));
      if (c.kind === 'userGroup' && restate)
        out.push(...abilitySentences(c.id, server.permissions));
      break;
    case 'update':
      for (const p of c.properties) {
        if (p.property.startsWith('permissions.')) {
          if (!restate) continue;
          const effect = effectFor(server.permissions, c.address, p.property);
          const e = effect
            ? effectSentence(effect)
            : server.permissions
              ? ''
              : permissionEffect(p.property, p.before, p.after);
          if (e) out.push(`${p.property}: ${e}.`);
        } else if (p.property === 'role') {
          if (restate) {
            out.push(`role: ${formatValue(p.before)} → ${formatValue(p.after)}.`);
            out.push(...abilitySentences(c.id, server.permissions));
          }
        } else if (p.property === 'private' && p.after === true) {
          // zerver/lib/streams.py user_has_content_access
          out.push(
            `${c.key} becomes private: non-subscribers lose access to its content, except those who may add subscribers or subscribe themselves (canAddSubscribersGroup, canSubscribeGroup).`,
          );
        } else if (p.property === 'private' && p.after === false) {
          out.push(`${c.key} becomes public: every member (not guests) can read it and join it.`);
        } else if (p.property === 'channels' && c.kind === 'defaultChannelGroup' && restate) {
          const e = channelSetEffect(p.before, p.after);
          if (e) out.push(`channels: ${e}.`);
        } else if (p.property === 'choices' && c.kind === 'customProfileField') {
          const lost = profileValuesLost(c);
          if (lost) out.push(`choices: ${lost}.`);
        } else if (p.property === 'messageRetentionDays') {
          const gone = irreversibleReason(c, server);
          if (gone) out.push(`Irreversible: ${gone}.`);
        } else if (p.property === 'waitingPeriodThreshold' && c.kind === 'organizationSettings') {
          const e = waitingPeriodEffect(p.before, p.after);
          if (e) out.push(e);
        }
      }
      break;
    case 'create':
      if (announcesCreation(c))
        out.push(
          `Notification Bot will announce #${c.key} in the channel the organization set for new channel announcements (topic "new channels"), if it set one.`,
        );
      break;
    default:
      break;
  }
  const note = playgroundNote(c);
  if (note) out.push(note);
  return out;
}
