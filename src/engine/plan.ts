import { hasContentAccess, recursiveGroupIds } from '../model/access';
import { folderRenameStandIn } from '../model/rules';
import { channelNameKey, playgroundKey, resourceAddress } from '../model/address';
import type {
  DesiredChannel,
  DesiredChannelFolder,
  DesiredState,
  DesiredUserGroup,
  GroupSettingValue,
  Lifecycle,
  Membership,
} from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { FEATURES, supports } from '../model/features';
import type { FeatureName } from '../model/features';
import { canonicalGroupSetting, groupSettingsEqual } from '../model/group-setting';
import {
  KIND_SPECS,
  ROLES,
  SUBSCRIPTION_PROPERTIES,
  creatorDefault,
  isSystemGroupName,
  roleName,
} from '../model/kinds';
import type { PrunableKind, SubscriptionPropertyName } from '../model/kinds';
import type {
  LiveChannel,
  LiveChannelFolder,
  LiveLinkifier,
  LivePlayground,
  LiveSavedSnippet,
  LiveState,
  LiveUser,
  LiveUserGroup,
  WireGroupSettingValue,
} from '../model/live-state';
import { PLAN_TYPE_LIMITED } from '../model/live-state';
import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { closest } from '../model/spelling';
import { canonicalJson, desiredStateDigest } from './digest';
import { checkFeatures } from './feature-check';
import {
  LiveIndex,
  normaliseChannelDescription,
  normaliseFolderDescription,
  retentionToNatural,
} from './live-index';
import type {
  Change,
  JsonValue,
  Plan,
  PlanWarning,
  PropertyChange,
  SafetyFinding,
  UntaggedChange,
  WarningCode,
} from './plan-format';
import { PLAN_FORMAT_VERSION } from './plan-format';
import { finishPlan } from './plan-finish';
import { SlotOrder, matchLive } from './plan/keyed';
import { liveStateDigest, planDigest } from './plan-io';
import { joinAnd, someOf } from './render/describe';
import type { ChangeMeta } from './plan-finish';

/** Options of {@link plan}. */
export interface PlanOptions {
  /**
   * Limit the plan to these addresses (`channel["eng"]`) or kinds (`channel`), plus the changes
   * they depend on.
   */
  readonly targets?: readonly string[];
  /** Recorded as `createdAt`; left out by default so plans are deterministic. */
  readonly createdAt?: string;
}

/**
 * Diffs the desired state against the live organization. Pure: no I/O, no clock.
 *
 * Throws `UNSUPPORTED_FEATURE` (every feature the configuration uses that the server lacks)
 * and `UNRESOLVED_REFERENCE` (groups or folders that exist neither in the configuration nor
 * live, e-mails that are not users of the organization, and what the server would refuse)
 * before producing any change.
 */
export function plan(desired: DesiredState, live: LiveState, options: PlanOptions = {}): Plan {
  checkFeatures(desired, live.server);
  const planner = new Planner(desired, live);
  planner.run();
  planner.throwErrors();
  const { changes, warnings, findings, fingerprints, summary } = finishPlan({
    changes: planner.changes,
    meta: planner.meta,
    warnings: planner.warnings,
    findings: planner.findings,
    idx: planner.idx,
    live,
    ...(options.targets ? { targets: options.targets } : {}),
    maxRemovals: desired.organization.maxRemovals ?? 10,
  });
  const made: Omit<Plan, 'digest'> = {
    formatVersion: PLAN_FORMAT_VERSION,
    ...(options.createdAt !== undefined ? { createdAt: options.createdAt } : {}),
    desiredDigest: desiredStateDigest(desired),
    liveDigest: liveStateDigest(live),
    server: {
      site: live.server.site,
      featureLevel: live.server.featureLevel,
      version: live.server.version,
      channelEventsMessages: live.server.channelEventsMessages,
    },
    account: { userId: live.me.userId, email: live.me.email },
    ...(options.targets ? { targets: [...options.targets] } : {}),
    summary,
    changes,
    warnings,
    findings,
    fingerprints,
    desired,
  };
  return { ...made, digest: planDigest(made) };
}

type Props = Record<string, JsonValue>;
/** The fields every change of one declared object shares. */
type ChangeBase = Pick<Change, 'kind' | 'address' | 'key'> & { path: string };

function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** Whether `lifecycle.ignoreChanges` covers a property (`permissions` covers all of them). */
export function isIgnored(lifecycle: Lifecycle | undefined, property: string): boolean {
  const ignore = lifecycle?.ignoreChanges;
  if (!ignore || ignore.length === 0) return false;
  if (ignore.includes(property)) return true;
  if (property.startsWith('permissions.')) {
    const bare = property.slice('permissions.'.length);
    return ignore.includes('permissions') || ignore.includes(bare);
  }
  return false;
}

/** Group names inside a natural-key group-setting value. */
function groupsIn(value: JsonValue | GroupSettingValue | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object' && !Array.isArray(value) && 'groups' in value) {
    const groups: unknown = value.groups;
    return Array.isArray(groups)
      ? groups.filter((g: unknown): g is string => typeof g === 'string')
      : [];
  }
  return [];
}

const groupAddress = (name: string): string => resourceAddress('userGroup', name);

/**
 * The users whose e-mail a mistyped `email` most likely meant: the closest addresses (whole,
 * case-insensitively) within a few typos (one per 7 characters, 1 to 3), and no more typos
 * than half its local part, so that short, different names sharing a long domain
 * (`dan@example.com`, `admin@example.com`) are not offered for each other; failing that, the
 * one user with the same local part at another domain (`bob@acme.example` for `bob@acme.com`).
 */
function suggestEmails(email: string, users: readonly LiveUser[]): LiveUser[] {
  const wanted = email.trim().toLowerCase();
  const at = wanted.lastIndexOf('@');
  if (at < 1) return [];
  const local = wanted.slice(0, at);
  const maxTypos = Math.min(
    Math.max(1, Math.min(3, Math.floor(wanted.length / 7))),
    Math.floor(local.length / 2),
  );
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const near = closest(wanted, byEmail.keys(), maxTypos);
  if (near.length > 0) return near.slice(0, 3).flatMap((e) => byEmail.get(e) ?? []);
  const sameLocal = users.filter((u) => {
    const e = u.email.toLowerCase();
    return e.slice(0, e.lastIndexOf('@')) === local;
  });
  return sameLocal.length === 1 ? sameLocal : [];
}

/** Channel settings whose change on a private channel needs content access (NOTES 3.4). */
const CONTENT_ACCESS_WIRES: ReadonlySet<string> = new Set(
  Object.values(CHANNEL_PERMISSIONS as Record<string, PermissionSettingInfo>)
    .filter((info) => info.needsContentAccess === true)
    .map((info) => info.wire),
);

/**
 * Turns desired and live state into changes, warnings, findings and errors. `run()` runs these
 * phases, in this order; each reads what the phases before it wrote into the planner's shared
 * maps, and nothing else checks that order, so a new phase goes after every phase it reads.
 *
 * 1. `checkUsers`: every e-mail the configuration names, against the live users. Writes
 *    `errors` (unknown users, once each via `unknownUserLines`) and `DEACTIVATED_USER`
 *    warnings. Later phases only leave such users out (`resolveUsers`), without a word.
 * 2. `matchAll`: declared → live, by natural key then `renamedFrom`, for folders, groups and
 *    channels (`matchLive`). Writes `desiredFolders`, `desiredGroups`, `desiredChannels`,
 *    `folderMatch`, `groupMatch`, `channelMatch`, `idx.groupRenames` (a renamed group's new
 *    name, used to describe group-setting values) and `referenced` (undeclared live groups and
 *    folders the configuration uses). It comes before any diffing because kinds refer to each
 *    other (a channel's folder and groups, a group's subgroups): every phase must resolve a
 *    reference to the same live object, whichever kind it plans.
 * 3. `planFolders`: reads `folderMatch` and `referenced` (a referenced folder is never pruned).
 *    Pushes folder changes, archives of undeclared folders included, and the folder reorder.
 * 4. `planGroups`: reads `groupMatch` (also for which groups this plan creates: settings that
 *    name a group created later are deferred to an update), `desiredGroups` and `referenced`;
 *    fills the `expansions` cache (group name → the user IDs it holds after the plan).
 * 5. `planChannels`: reads `channelMatch`, `folderMatch`/`desiredFolders` (a channel's
 *    folder), `groupMatch` and `expansions` (subscribers through groups, content access).
 *    Writes `channelFolderAfter` (each live channel's folder after the plan),
 *    `channelSubscribersAfter` (each channel's subscribers after the plan), `myGroups` (a
 *    cache), and `leftOut`, which it reports itself at its end (`warnLeftOut`).
 * 6. `keepNonEmptyFolders`: reads the folder archives in `changes` (phase 3) and
 *    `channelFolderAfter` (phase 5), and drops the archive of a folder a channel stays in:
 *    it must run after both.
 * 7. `planLinkifiers`, `planPlaygrounds`, `planSnippets`, `planUsers`: independent of the
 *    maps above (they read only the live index and the desired state).
 * 8. `planSubscriptionSettings`: reads `desiredChannels`, `channelMatch` and
 *    `channelSubscribersAfter` (Zulip sets only the caller's own subscription: a setting the
 *    applying account will not be subscribed to after the plan is a `NOT_SUBSCRIBED` warning),
 *    so it runs after `planChannels`.
 *
 * The order of `changes` also matters for the output: `finishPlan` sorts topologically by
 * dependencies and kind rank, and keeps push order among equals, so moving a phase can change
 * a saved plan's bytes (test/engine/plan-json-identity.test.ts catches it).
 */
class Planner {
  public readonly idx: LiveIndex;
  public readonly changes: Change[] = [];
  public readonly meta = new Map<string, ChangeMeta>();
  public readonly warnings: PlanWarning[] = [];
  public readonly findings: SafetyFinding[] = [];
  private readonly errors: string[] = [];
  /** The unknown-user lines already in `errors` (an e-mail named twice in a list is said once). */
  private readonly unknownUserLines = new Set<string>();
  private readonly warned = new Set<string>();
  private readonly fl: number;

  /** Desired natural key → the live object it manages (after renames), or null when created. */
  private readonly folderMatch = new Map<string, LiveChannelFolder | null>();
  private readonly groupMatch = new Map<string, LiveUserGroup | null>();
  private readonly channelMatch = new Map<string, LiveChannel | null>();
  private readonly desiredGroups = new Map<string, DesiredUserGroup>();
  private readonly desiredFolders = new Map<string, DesiredChannelFolder>();
  private readonly desiredChannels = new Map<string, DesiredChannel>();
  private readonly expansions = new Map<string, Set<number>>();
  /** Addresses of undeclared live objects the configuration refers to (never pruned). */
  private readonly referenced = new Set<string>();
  /** Live channel ID → the folder ID it is in after the plan (undefined: a folder created now). */
  private readonly channelFolderAfter = new Map<number, number | null | undefined>();
  /** Users (IDs) that will be subscribed to a channel (by desired key) after apply, when known. */
  private readonly channelSubscribersAfter = new Map<string, Set<number>>();
  private myGroups: ReadonlySet<number> | undefined;
  /** Changes left out for want of content access, by channel address (see `leaveOut`). */
  private readonly leftOut = new Map<string, { l: LiveChannel; path: string; what: string[] }>();

  public constructor(
    private readonly desired: DesiredState,
    private readonly live: LiveState,
  ) {
    this.idx = new LiveIndex(live);
    this.fl = live.server.featureLevel;
  }

  public run(): void {
    this.checkUsers();
    this.matchAll();
    this.planFolders();
    this.planGroups();
    this.planChannels();
    this.keepNonEmptyFolders();
    this.planLinkifiers();
    this.planPlaygrounds();
    this.planSnippets();
    this.planUsers();
    this.planSubscriptionSettings();
  }

  public throwErrors(): void {
    if (this.errors.length === 0) return;
    const hints: string[] = [];
    if (this.unknownUserLines.size > 0) {
      hints.push(
        'Fix the e-mail addresses: zulip-cdk does not create users (invite them to the organization first).',
      );
      // `user<id>@<host>` is the stand-in Zulip shows for an address the reader may not see.
      if (this.live.users.some((u) => u.email.toLowerCase().startsWith(`user${u.id}@`)))
        hints.push(
          "This account sees some users only by a stand-in address (user<ID>@...), as the organization's e-mail address visibility allows: plan with an account that can see e-mail addresses, such as an administrator.",
        );
    }
    if (this.errors.length > this.unknownUserLines.size)
      hints.push('Declare the missing objects, or fix the names.');
    throw new ZulipCdkError(
      'UNRESOLVED_REFERENCE',
      `The configuration cannot be planned:\n${this.errors.map((e) => `  - ${e}`).join('\n')}`,
      { hint: hints.join(' ') },
    );
  }

  // ---------------------------------------------------------------- helpers

  /** Zulip Cloud Free: `ensure_not_on_limited_plan` refuses group creation and retention. */
  private limitedPlan(): boolean {
    return this.live.server.planType === PLAN_TYPE_LIMITED;
  }

  /**
   * A channel's own message retention needs an organization owner, and is refused on Zulip
   * Cloud Free (`check_channel_creation_permissions`, `update_stream_backend`).
   * `what` is the sentence's subject: "creating a channel with its own message retention".
   */
  private checkRetention(what: string, address: string, path: string): void {
    if (this.limitedPlan())
      this.errors.push(
        `${address} (${path}): Zulip Cloud Free does not set a channel's message retention ("Available on Zulip Cloud Standard. Upgrade to access."); upgrade the organization's plan, or remove messageRetentionDays`,
      );
    if (this.live.me.role !== ROLES.owner)
      this.warn(
        'NEEDS_OWNER',
        `${what} needs an organization owner; the applying account is not one`,
        address,
        path,
      );
  }

  private supports(feature: FeatureName): boolean {
    return supports(this.fl, feature);
  }

  private warn(code: WarningCode, message: string, address?: string, path?: string): void {
    const dedupe = `${code}|${address ?? ''}|${message}`;
    if (this.warned.has(dedupe)) return;
    this.warned.add(dedupe);
    this.warnings.push({
      code,
      message,
      ...(address !== undefined ? { address } : {}),
      ...(path !== undefined ? { path } : {}),
    });
  }

  private add(change: UntaggedChange, meta: ChangeMeta = {}): void {
    // A fixed key order makes saved plans easier to read and diff. The finishing step fills in
    // `tags` (and `dependsOn`) once every change is known.
    const { id, action, kind, address, key, path, dependsOn, ...rest } = change;
    this.changes.push({
      id,
      action,
      kind,
      address,
      key,
      path,
      dependsOn,
      tags: [],
      ...rest,
    } as Change);
    this.meta.set(change.id, meta);
  }

  /** A rename of a live object matched by its old name (or by a case-only change). */
  private addRename(base: ChangeBase, liveId: number, from: string, to: string): void {
    this.add({
      ...base,
      id: `${base.address}#rename`,
      action: 'rename',
      dependsOn: [],
      liveId,
      from,
      to,
    });
  }

  /**
   * Archive or unarchive (channels, folders), deactivate or reactivate (groups): what the
   * declared flag asks of the live one. A protected object is never removed; a restore the
   * server cannot do is an error naming the feature level it needs.
   */
  private addRemoveOrRestore(
    base: ChangeBase,
    liveId: number,
    o: {
      live: boolean;
      declared: boolean;
      protect: boolean | undefined;
      remove: 'archive' | 'deactivate';
      restore: 'unarchive' | 'reactivate';
      /** The feature a restore needs, and what to tell the user when the server lacks it. */
      restoreNeeds?: { feature: FeatureName; what: string; hint?: string };
      before: Record<string, JsonValue>;
    },
  ): void {
    if (o.live && !o.declared) {
      const needs = o.restoreNeeds;
      if (needs && !this.supports(needs.feature))
        this.errors.push(
          `${base.address} (${base.path}): ${needs.what} needs feature level ${FEATURES[needs.feature].level} (the server is at ${this.fl})${needs.hint ? `; ${needs.hint}` : ''}`,
        );
      else
        this.add({
          ...base,
          id: `${base.address}#${o.restore}`,
          action: o.restore,
          dependsOn: [],
          liveId,
        });
    }
    if (!o.live && o.declared) {
      if (o.protect) this.protectedFinding(base.address, base.path, o.remove);
      else
        this.add({
          ...base,
          id: `${base.address}#${o.remove}`,
          action: o.remove,
          dependsOn: [],
          liveId,
          reason: 'declared',
          before: o.before,
        });
    }
  }

  private protectedFinding(address: string, path: string, what: string): void {
    this.findings.push({
      code: 'PROTECTED',
      message: `${address} (${path}) is protected: the plan would ${what} it; left as it is`,
      address,
    });
  }

  /**
   * Active live user IDs for emails. Unknown users are plan errors and deactivated ones
   * warnings, both reported once by {@link checkUsers}; here they are only left out.
   */
  private resolveUsers(emails: readonly string[]): number[] {
    const ids: number[] = [];
    for (const email of emails) {
      const u = this.idx.user(email);
      if (u?.isActive) ids.push(u.id);
    }
    return [...new Set(ids)];
  }

  /**
   * Every e-mail the configuration names (members, subscribers, users in permissions, user
   * resources), checked against the organization's users, case-insensitively as Zulip does
   * (`get_user`, `bulk_access_users_by_email`: `email__iexact`). Users are not created by
   * zulip-cdk, so a name that is not a user is a mistake: a plan error, never a warning, since
   * leaving it out of an `exact` membership would remove the person it was meant to be.
   *
   * A deactivated user is a warning (`DEACTIVATED_USER`), not an error: Zulip refuses to add one
   * anywhere ("User is deactivated", `access_user_common`; `user_ids_to_users` with
   * `allow_deactivated=False` for group members and settings), and keeps the memberships it had
   * (`change_user_is_active` only marks its subscriptions inactive; its group memberships stay)
   * for when it is reactivated, while the API lists only active members. The planner does the
   * same: such a user is neither added nor removed, and an `exact` membership naming one does
   * not churn. Offboarding someone in Zulip must not break every plan until the configuration
   * catches up, nor need `--force`, which would also wave through every other safety finding.
   */
  private checkUsers(): void {
    const check = (emails: readonly string[], address: string, path: string, where: string) => {
      for (const email of emails) {
        const u = this.idx.user(email);
        if (!u) this.unknownUser(email, address, path, where);
        else if (!u.isActive)
          this.warn(
            'DEACTIVATED_USER',
            `${where}: ${email} is deactivated: neither added nor removed (Zulip adds no deactivated user, and keeps what it was a member of for when it is reactivated); remove it from the configuration`,
            address,
            path,
          );
      }
    };
    const checkPermissions = (
      permissions: Partial<Record<string, GroupSettingValue>>,
      address: string,
      path: string,
    ) => {
      for (const [name, value] of Object.entries(permissions))
        if (value !== undefined && typeof value !== 'string')
          check(value.users, address, path, `permissions.${name}`);
    };
    for (const d of this.desired.userGroups) {
      const address = groupAddress(d.name);
      check(d.members.users, address, d.path, 'members');
      checkPermissions(d.permissions, address, d.path);
    }
    for (const d of this.desired.channels) {
      const address = resourceAddress('channel', d.name);
      if (d.subscribers) check(d.subscribers.users, address, d.path, 'subscribers');
      checkPermissions(d.permissions, address, d.path);
    }
    for (const d of this.desired.users) {
      const address = resourceAddress('user', d.email);
      const u = this.idx.user(d.email);
      if (!u) this.unknownUser(d.email, address, d.path, 'email');
      else if (!u.isActive)
        this.warn(
          'DEACTIVATED_USER',
          `${d.email} is deactivated; its role and name are left as they are (zulip-cdk does not reactivate users)`,
          address,
          d.path,
        );
    }
  }

  /** A plan error for an e-mail that is not a user, with the closest users' e-mails. */
  private unknownUser(email: string, address: string, path: string, where: string): void {
    const line = `${address} (${path}): ${where}: ${email} is not a user of this organization`;
    if (this.unknownUserLines.has(line)) return;
    this.unknownUserLines.add(line);
    const near = suggestEmails(email, this.live.users).map((u) =>
      u.isActive ? u.email : `${u.email} (deactivated)`,
    );
    this.errors.push(near.length > 0 ? `${line}; did you mean ${near.join(' or ')}?` : line);
  }

  /** Checks a group reference: a system group, a declared group, or a live one. */
  private checkGroupRef(name: string, address: string, path: string): void {
    if (isSystemGroupName(name)) return;
    if (this.desiredGroups.has(name)) return;
    const l = this.idx.groupsByName.get(name);
    if (l && !l.deactivated) return;
    this.errors.push(
      `${address} (${path}): user group '${name}' ${l ? 'is deactivated' : 'does not exist'}`,
    );
  }

  /** A desired group-setting value in canonical natural-key terms, users as live emails. */
  private desiredGroupSetting(
    value: GroupSettingValue,
    address: string,
    path: string,
  ): GroupSettingValue {
    if (typeof value === 'string') {
      this.checkGroupRef(value, address, path);
      return value;
    }
    const users = this.resolveUsers(value.users).map((id) => this.idx.emailOf(id));
    for (const g of value.groups) this.checkGroupRef(g, address, path);
    return canonicalGroupSetting({ users, groups: value.groups });
  }

  private permissionSupported(info: PermissionSettingInfo): boolean {
    return info.feature === undefined || this.supports(info.feature);
  }

  /**
   * Effective permissions of an object this plan creates (`creator` is the applying account).
   * A declared value naming a group in `later` cannot be sent with the create (the group does
   * not exist yet: the object itself, or a new group whose create needs this one): the object
   * is created with Zulip's default and the value goes into `deferred`, an update after it.
   */
  private createPermissions(
    table: Record<string, PermissionSettingInfo>,
    declared: Partial<Record<string, GroupSettingValue>>,
    address: string,
    path: string,
    props: Props,
    later: ReadonlySet<string> = new Set(),
    deferred: PropertyChange[] = [],
  ): string[] {
    const refs: string[] = [];
    for (const [name, info] of Object.entries(table)) {
      if (!this.permissionSupported(info)) continue;
      const value = declared[name];
      const fallback =
        info.default === 'creator'
          ? creatorDefault(this.live.me.userId, this.idx.usersById)
          : info.default;
      const after = value !== undefined ? this.desiredGroupSetting(value, address, path) : fallback;
      if (groupsIn(after).some((g) => later.has(g))) {
        props[`permissions.${name}`] = fallback;
        refs.push(...groupsIn(fallback));
        const old = this.wireOfDefault(fallback);
        deferred.push({
          property: `permissions.${name}`,
          before: fallback,
          after,
          wire: info.wire,
          ...(old !== undefined ? { old } : {}),
        });
        continue;
      }
      props[`permissions.${name}`] = after;
      refs.push(...groupsIn(after));
    }
    return refs;
  }

  /** The wire value Zulip gives a new object for a default (a system group, or `{creator}`). */
  private wireOfDefault(value: GroupSettingValue): WireGroupSettingValue | undefined {
    if (typeof value === 'string') return this.idx.groupsByName.get(value)?.id;
    const users = value.users.map((email) => this.idx.user(email)?.id);
    if (value.groups.length > 0 || users.some((id) => id === undefined)) return undefined;
    return { direct_members: users as number[], direct_subgroups: [] };
  }

  /**
   * For each group this plan creates, the new groups that its create cannot name: itself, and
   * every new group whose create needs it first (through a setting or a subgroup), directly or
   * not. A group may manage itself, and two new groups may manage each other; Zulip can only
   * set such a value once both exist.
   */
  private groupsCreatedLater(): Map<string, Set<string>> {
    const created = new Set(
      this.desired.userGroups
        .filter((d) => !this.groupMatch.get(d.name) && d.deactivated !== true)
        .map((d) => d.name),
    );
    const needs = new Map<string, string[]>();
    for (const d of this.desired.userGroups) {
      if (!created.has(d.name)) continue;
      const named = [
        ...d.members.groups,
        ...Object.values(d.permissions).flatMap((v) => groupsIn(v)),
      ];
      needs.set(
        d.name,
        named.filter((g) => created.has(g) && g !== d.name),
      );
    }
    const reaches = (from: string, to: string): boolean => {
      const seen = new Set<string>();
      const stack = [from];
      while (stack.length > 0) {
        const g = stack.pop()!;
        if (g === to) return true;
        if (seen.has(g)) continue;
        seen.add(g);
        stack.push(...(needs.get(g) ?? []));
      }
      return false;
    };
    const out = new Map<string, Set<string>>();
    for (const g of created)
      out.set(g, new Set([g, ...[...created].filter((h) => h !== g && reaches(h, g))]));
    return out;
  }

  /** Property changes of group settings on a live object. */
  private updatePermissions(
    table: Record<string, PermissionSettingInfo>,
    declared: Partial<Record<string, GroupSettingValue>>,
    live: { permissions: Record<string, LiveState['channels'][number]['permissions'][string]> },
    creatorId: number | null,
    lifecycle: Lifecycle | undefined,
    address: string,
    path: string,
    out: PropertyChange[],
    meta: { refs: string[]; releases: string[] },
  ): void {
    for (const [name, info] of Object.entries(table)) {
      if (!this.permissionSupported(info)) continue;
      const property = `permissions.${name}`;
      const old = live.permissions[info.wire];
      if (old === undefined || isIgnored(lifecycle, property)) continue;
      const value = declared[name];
      let after: GroupSettingValue;
      if (value !== undefined) after = this.desiredGroupSetting(value, address, path);
      else if (info.default === 'creator') {
        // Without a known creator we cannot tell what Zulip's default was: leave it.
        if (creatorId === null) continue;
        after = creatorDefault(creatorId, this.idx.usersById);
      } else after = info.default;
      const before = this.idx.groupSettingToNatural(old);
      if (groupSettingsEqual(before, after)) continue;
      out.push({ property, before, after, wire: info.wire, old });
      const afterGroups = groupsIn(after);
      meta.refs.push(...afterGroups);
      meta.releases.push(...groupsIn(before).filter((g) => !afterGroups.includes(g)));
    }
  }

  private prop(
    out: PropertyChange[],
    lifecycle: Lifecycle | undefined,
    property: string,
    before: JsonValue,
    after: JsonValue,
  ): void {
    if (isIgnored(lifecycle, property) || jsonEqual(before, after)) return;
    out.push({ property, before, after });
  }

  // ---------------------------------------------------------------- matching

  /**
   * Matches declared objects to live ones by natural key, then through `renamedFrom`, before any
   * diffing: references between kinds (a channel's folder, a group's subgroups) must resolve to
   * the same live object whichever kind is planned first.
   */
  private matchAll(): void {
    for (const f of this.desired.channelFolders) this.desiredFolders.set(channelNameKey(f.name), f);
    for (const g of this.desired.userGroups) this.desiredGroups.set(g.name, g);
    for (const c of this.desired.channels) this.desiredChannels.set(channelNameKey(c.name), c);

    const match = <D extends { name: string; lifecycle?: Lifecycle | undefined }, L>(
      kind: 'channelFolder' | 'userGroup' | 'channel',
      items: readonly D[],
      live: { get(key: string): L | undefined },
      declared: { has(key: string): boolean },
      out: Map<string, L | null>,
    ): void => {
      const key = KIND_SPECS[kind].compareKey;
      for (const d of items)
        out.set(
          key(d.name),
          matchLive(kind, d.name, d.lifecycle?.renamedFrom, live, declared).live ?? null,
        );
    };
    match(
      'channelFolder',
      this.desired.channelFolders,
      {
        // A folder left under its stand-in name by an interrupted case-only rename is the same
        // folder.
        get: (k) =>
          this.idx.foldersByKey.get(k) ??
          this.idx.foldersByKey.get(channelNameKey(folderRenameStandIn(k))),
      },
      this.desiredFolders,
      this.folderMatch,
    );
    match(
      'userGroup',
      this.desired.userGroups,
      {
        get: (k) => {
          const g = this.idx.groupsByName.get(k);
          return g && !g.isSystemGroup ? g : undefined;
        },
      },
      this.desiredGroups,
      this.groupMatch,
    );
    for (const [name, g] of this.groupMatch)
      if (g && g.name !== name) this.idx.groupRenames.set(g.id, name);
    const refGroup = (name: string): void => {
      if (!this.desiredGroups.has(name)) this.referenced.add(groupAddress(name));
    };
    const refValue = (v: GroupSettingValue | undefined): void => {
      for (const g of groupsIn(v)) refGroup(g);
    };
    for (const g of this.desired.userGroups) {
      g.members.groups.forEach(refGroup);
      Object.values(g.permissions).forEach(refValue);
    }
    for (const c of this.desired.channels) {
      c.subscribers?.groups.forEach(refGroup);
      Object.values(c.permissions).forEach(refValue);
      if (typeof c.folder === 'string') {
        const l = this.idx.foldersByKey.get(channelNameKey(c.folder));
        if (l && !this.desiredFolders.has(channelNameKey(c.folder)))
          this.referenced.add(resourceAddress('channelFolder', l.name));
      }
    }
    match(
      'channel',
      this.desired.channels,
      this.idx.channelsByKey,
      this.desiredChannels,
      this.channelMatch,
    );
  }

  // ---------------------------------------------------------------- folders

  private planFolders(): void {
    const claimed = new Set<number>();
    const order = new SlotOrder('channelFolder');
    for (const d of this.desired.channelFolders) {
      const address = resourceAddress('channelFolder', d.name);
      const l = this.folderMatch.get(channelNameKey(d.name)) ?? null;
      const base = { kind: 'channelFolder' as const, address, key: d.name, path: d.path };
      if (!l) {
        if (d.archived === true) {
          this.warn(
            'ARCHIVED_NOT_FOUND',
            'declared archived but does not exist; nothing to do',
            address,
            d.path,
          );
          continue;
        }
        this.add({
          ...base,
          id: `${address}#create`,
          action: 'create',
          dependsOn: [],
          properties: {
            name: d.name,
            description: normaliseFolderDescription(d.description ?? ''),
          },
        });
        order.declare(d.name, null, d.lifecycle);
        continue;
      }
      claimed.add(l.id);
      order.declare(d.name, l.id, d.lifecycle);
      const renamed = channelNameKey(l.name) !== channelNameKey(d.name);
      if (renamed) this.addRename(base, l.id, l.name, d.name);
      const archived = isIgnored(d.lifecycle, 'archived') ? l.archived : (d.archived ?? false);
      this.addRemoveOrRestore(base, l.id, {
        live: l.archived,
        declared: archived,
        protect: d.lifecycle?.protect,
        remove: 'archive',
        restore: 'unarchive',
        before: { name: l.name, description: l.description },
      });
      const props: PropertyChange[] = [];
      if (!renamed) this.prop(props, d.lifecycle, 'name', l.name, d.name);
      this.prop(
        props,
        d.lifecycle,
        'description',
        l.description,
        normaliseFolderDescription(d.description ?? ''),
      );
      if (props.length > 0)
        this.add({
          ...base,
          id: `${address}#update`,
          action: 'update',
          dependsOn: [],
          liveId: l.id,
          properties: props,
        });
    }
    for (const l of this.live.channelFolders) {
      if (claimed.has(l.id)) continue;
      // Undeclared folders keep their slot, archived ones included (Zulip's reorder lists them).
      order.keep(l.name, l.id);
      if (l.archived) continue;
      this.undeclared('channelFolder', l.name, l.id, {
        name: l.name,
        description: l.description,
      });
    }
    // Zulip appends a new folder (order = its id). Folders are archived, never deleted: every
    // live folder stays in the order.
    const reorder = order.reorder(
      this.live.channelFolders,
      this.live.channelFolders.map((f) => f.name),
      this.desired.organization.path,
    );
    if (!reorder) return;
    if (!this.supports('channelFolderOrder'))
      this.warn(
        'REORDER_UNSUPPORTED',
        `channel folders are not in the declared order, and reordering them needs feature level ${FEATURES.channelFolderOrder.level} (the server is at ${this.fl})`,
      );
    else this.add(reorder);
  }

  /**
   * An undeclared live object: removed (with its kind's removal action) when pruning is on for
   * its kind, else a warning.
   */
  private undeclared(kind: PrunableKind, key: string, liveId: number, before: Props): boolean {
    const action = KIND_SPECS[kind].removal;
    const address = resourceAddress(kind, key);
    if (this.desired.organization.prune[kind] === true && this.referenced.has(address)) {
      // Deactivating a group (or archiving a folder) the config still uses would fail in Zulip.
      this.warn(
        'UNDECLARED',
        'not in the configuration but referenced by it; kept although pruning is on',
        address,
      );
      return false;
    }
    if (this.desired.organization.prune[kind] === true) {
      this.add({
        id: `${address}#${action}`,
        action,
        kind,
        address,
        key,
        path: null,
        dependsOn: [],
        liveId,
        reason: 'prune',
        before,
      });
      return true;
    }
    this.warn(
      'UNDECLARED',
      `exists in the organization but not in the configuration; left as it is (pruning is off for ${kind})`,
      address,
    );
    return false;
  }

  // ---------------------------------------------------------------- groups

  /** Active user IDs a desired or live group stands for after apply, following subgroups. */
  private expandGroup(name: string, seen?: Set<string>): Set<number> {
    // Channels share groups (role:members on many channels): expand each group once.
    if (!seen) {
      const cached = this.expansions.get(name);
      if (cached) return cached;
      const fresh = this.expandGroupUncached(name, new Set());
      this.expansions.set(name, fresh);
      return fresh;
    }
    return this.expandGroupUncached(name, seen);
  }

  private expandGroupUncached(name: string, seen: Set<string>): Set<number> {
    const out = new Set<number>();
    if (seen.has(name)) return out;
    seen.add(name);
    const d = this.desiredGroups.get(name);
    const l = d ? (this.groupMatch.get(name) ?? undefined) : this.idx.groupsByName.get(name);
    if (!d) {
      if (l) for (const id of this.idx.expandLiveGroup(l)) out.add(id);
      return out;
    }
    if (d.deactivated === true) return out;
    for (const id of this.resolveUsers(d.members.users)) out.add(id);
    for (const g of d.members.groups) for (const id of this.expandGroup(g, seen)) out.add(id);
    if (d.members.mode === 'atLeast' && l) {
      // atLeast keeps live members the config does not list.
      for (const id of l.members) if (this.idx.usersById.get(id)?.isActive) out.add(id);
      for (const sub of l.subgroups) {
        const sg = this.idx.groupsById.get(sub);
        if (sg) for (const id of this.expandGroup(sg.name, seen)) out.add(id);
      }
    }
    return out;
  }

  private planGroups(): void {
    const claimed = new Set<number>();
    const createdLater = this.groupsCreatedLater();
    for (const d of this.desired.userGroups) {
      const address = groupAddress(d.name);
      const base = { kind: 'userGroup' as const, address, key: d.name, path: d.path };
      if (isSystemGroupName(d.name)) {
        this.errors.push(`${address} (${d.path}): system groups cannot be declared`);
        continue;
      }
      const l = this.groupMatch.get(d.name) ?? null;
      if (!l) {
        if (d.deactivated === true) {
          this.warn(
            'ARCHIVED_NOT_FOUND',
            'declared deactivated but does not exist; nothing to do',
            address,
            d.path,
          );
          continue;
        }
        if (this.limitedPlan())
          this.errors.push(
            `${address} (${d.path}): Zulip Cloud Free does not create user groups ("Available on Zulip Cloud Standard. Upgrade to access.", ensure_not_on_limited_plan); upgrade the organization's plan, or remove the group from the configuration`,
          );
        const props: Props = { name: d.name, description: d.description ?? '' };
        const deferred: PropertyChange[] = [];
        const refs = this.createPermissions(
          GROUP_PERMISSIONS,
          d.permissions,
          address,
          d.path,
          props,
          createdLater.get(d.name),
          deferred,
        );
        this.add(
          { ...base, id: `${address}#create`, action: 'create', dependsOn: [], properties: props },
          { refs: refs.map(groupAddress) },
        );
        if (deferred.length > 0)
          this.add(
            {
              ...base,
              id: `${address}#update`,
              action: 'update',
              dependsOn: [],
              liveId: null,
              properties: deferred,
            },
            { refs: deferred.flatMap((p) => groupsIn(p.after)).map(groupAddress) },
          );
        this.groupMembership(d, null, address);
        continue;
      }
      claimed.add(l.id);
      if (l.name !== d.name) this.addRename(base, l.id, l.name, d.name);
      const deactivated = isIgnored(d.lifecycle, 'deactivated')
        ? l.deactivated
        : (d.deactivated ?? false);
      this.addRemoveOrRestore(base, l.id, {
        live: l.deactivated,
        declared: deactivated,
        protect: d.lifecycle?.protect,
        remove: 'deactivate',
        restore: 'reactivate',
        restoreNeeds: {
          feature: 'groupReactivation',
          what: 'the group is deactivated and reactivating it',
        },
        before: { name: l.name, description: l.description },
      });
      if (deactivated) {
        if (!l.deactivated && d.lifecycle?.protect !== true) this.releaseOwnSettings(base, l);
        continue;
      }
      const props: PropertyChange[] = [];
      const meta = { refs: [] as string[], releases: [] as string[] };
      this.prop(props, d.lifecycle, 'description', l.description, d.description ?? '');
      this.updatePermissions(
        GROUP_PERMISSIONS,
        d.permissions,
        l,
        l.creatorId,
        d.lifecycle,
        address,
        d.path,
        props,
        meta,
      );
      if (props.length > 0)
        this.add(
          {
            ...base,
            id: `${address}#update`,
            action: 'update',
            dependsOn: [],
            liveId: l.id,
            properties: props,
          },
          { refs: meta.refs.map(groupAddress), releases: meta.releases.map(groupAddress) },
        );
      this.groupMembership(d, l, address);
    }
    for (const l of this.live.userGroups) {
      if (claimed.has(l.id) || l.isSystemGroup || l.deactivated) continue;
      const deactivated = this.undeclared('userGroup', l.name, l.id, {
        name: l.name,
        description: l.description,
      });
      if (deactivated)
        this.releaseOwnSettings(
          { kind: 'userGroup', address: groupAddress(l.name), key: l.name, path: null },
          l,
        );
    }
  }

  /**
   * Zulip refuses to deactivate a group that any active group's setting names, the group's own
   * settings included (zerver/lib/user_groups.py `check_user_group_can_be_deactivated` does not
   * exclude it): "Cannot deactivate user group in use." A group about to be deactivated whose
   * own settings name it (directly or inside an anonymous group) has them set first to the
   * applying account alone, which keeps the account able to deactivate it.
   */
  private releaseOwnSettings(
    base: { kind: 'userGroup'; address: string; key: string; path: string | null },
    l: LiveUserGroup,
  ): void {
    const props: PropertyChange[] = [];
    const after = creatorDefault(this.live.me.userId, this.idx.usersById);
    for (const [name, info] of Object.entries(
      GROUP_PERMISSIONS as Record<string, PermissionSettingInfo>,
    )) {
      const old = l.permissions[info.wire];
      if (old === undefined) continue;
      const names = typeof old === 'number' ? old === l.id : old.direct_subgroups.includes(l.id);
      if (!names) continue;
      props.push({
        property: `permissions.${name}`,
        before: this.idx.groupSettingToNatural(old),
        after,
        wire: info.wire,
        old,
      });
    }
    if (props.length === 0) return;
    this.add({
      ...base,
      id: `${base.address}#update`,
      action: 'update',
      dependsOn: [],
      liveId: l.id,
      properties: props,
    });
  }

  private groupMembership(d: DesiredUserGroup, l: LiveUserGroup | null, address: string): void {
    if (isIgnored(d.lifecycle, 'members')) return;
    const want = this.resolveUsers(d.members.users);
    const have = l ? l.members.filter((id) => this.idx.usersById.get(id)?.isActive !== false) : [];
    const exact = d.members.mode === 'exact';
    const haveSet = new Set(have);
    const wantSet = new Set(want);
    const add = want.filter((id) => !haveSet.has(id));
    const remove = exact ? have.filter((id) => !wantSet.has(id)) : [];
    const wantGroups = d.members.groups.map((name) => {
      this.checkGroupRef(name, address, d.path);
      const m = this.desiredGroups.has(name)
        ? this.groupMatch.get(name)
        : this.idx.groupsByName.get(name);
      return { name, id: m?.id ?? null };
    });
    const haveGroups = l?.subgroups ?? [];
    const addSubgroups = wantGroups.filter((g) => g.id === null || !haveGroups.includes(g.id));
    const removeSubgroups = exact
      ? haveGroups
          .filter((id) => !wantGroups.some((g) => g.id === id))
          .map((id) => ({ name: this.nameOfLiveGroup(id), id }))
      : [];
    if (add.length + remove.length + addSubgroups.length + removeSubgroups.length === 0) return;
    // zerver/views/user_groups.py notify_for_user_group_subscription_changes: adding or removing
    // direct members of an existing group messages each of them, but the acting account and
    // bots. Creating a group with its members messages no one.
    const messaged =
      l === null
        ? []
        : this.users([...add, ...remove])
            .filter((u) => u.id !== this.live.me.userId && !this.idx.usersById.get(u.id)?.isBot)
            .map((u) => u.email);
    this.add(
      {
        id: `${address}#membership`,
        action: 'membership',
        kind: 'userGroup',
        address,
        key: d.name,
        path: d.path,
        dependsOn: [],
        liveId: l?.id ?? null,
        collection: 'members',
        mode: d.members.mode,
        add: this.users(add),
        remove: this.users(remove),
        addSubgroups,
        removeSubgroups,
        notify: messaged.length > 0,
        ...(messaged.length > 0 ? { messaged } : {}),
      },
      {
        refs: addSubgroups.map((g) => groupAddress(g.name)),
        releases: removeSubgroups.map((g) => groupAddress(g.name)),
      },
    );
  }

  /** The desired name of a live group when the config renames it, else its live name. */
  private nameOfLiveGroup(id: number): string {
    for (const [name, g] of this.groupMatch) if (g?.id === id) return name;
    return this.idx.groupNameOf(id);
  }

  private users(ids: readonly number[]): { email: string; id: number }[] {
    return ids
      .map((id) => ({ email: this.idx.emailOf(id), id }))
      .sort((a, b) => a.email.localeCompare(b.email));
  }

  // ---------------------------------------------------------------- channels

  /** The live folder ID a desired `folder` value points at; undefined when the folder is created. */
  private folderTarget(
    folder: string | null,
    address: string,
    path: string,
  ): number | null | undefined {
    if (folder === null) return null;
    const k = channelNameKey(folder);
    if (this.desiredFolders.has(k)) return this.folderMatch.get(k)?.id ?? undefined;
    const l = this.idx.foldersByKey.get(k);
    if (l) return l.id;
    this.errors.push(`${address} (${path}): channel folder '${folder}' does not exist`);
    return null;
  }

  private planChannels(): void {
    const claimed = new Set<number>();
    const folders = this.supports('channelFolders');
    for (const d of this.desired.channels) {
      const address = resourceAddress('channel', d.name);
      const base = { kind: 'channel' as const, address, key: d.name, path: d.path };
      const key = channelNameKey(d.name);
      const l = this.channelMatch.get(key) ?? null;
      const isPrivate = d.private ?? false;
      const folderRefs =
        typeof d.folder === 'string'
          ? [
              resourceAddress(
                'channelFolder',
                this.desiredFolders.get(channelNameKey(d.folder))?.name ?? d.folder,
              ),
            ]
          : [];
      if (!l) {
        if (d.archived === true) {
          this.warn(
            'ARCHIVED_NOT_FOUND',
            'declared archived but does not exist; nothing to do',
            address,
            d.path,
          );
          continue;
        }
        const props: Props = {
          name: d.name.trim(),
          description: normaliseChannelDescription(d.description ?? ''),
          private: isPrivate,
          webPublic: d.webPublic ?? false,
          historyPublicToSubscribers: d.historyPublicToSubscribers ?? !isPrivate,
          defaultChannel: d.defaultChannel ?? false,
          messageRetentionDays: d.messageRetentionDays ?? 'realm_default',
        };
        if (props.messageRetentionDays !== 'realm_default')
          this.checkRetention('creating a channel with its own message retention', address, d.path);
        if (this.supports('topicsPolicy')) props.topicsPolicy = d.topicsPolicy ?? 'inherit';
        if (folders) {
          const folder = d.folder ?? null;
          if (folder !== null) this.folderTarget(folder, address, d.path);
          props.folder =
            folder === null
              ? null
              : (this.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
        }
        if (d.announce !== undefined) props.announce = d.announce;
        const refs = this.createPermissions(
          CHANNEL_PERMISSIONS,
          d.permissions,
          address,
          d.path,
          props,
        );
        this.add(
          { ...base, id: `${address}#create`, action: 'create', dependsOn: [], properties: props },
          { refs: [...refs.map(groupAddress), ...folderRefs] },
        );
        this.channelMembership(d, null, address);
        this.announceNeedsSubscribers(d, props, address);
        continue;
      }
      claimed.add(l.id);
      const renamed = channelNameKey(l.name) !== key;
      if (renamed) this.addRename(base, l.id, l.name, d.name);
      const archived = isIgnored(d.lifecycle, 'archived') ? l.archived : (d.archived ?? false);
      this.addRemoveOrRestore(base, l.id, {
        live: l.archived,
        declared: archived,
        protect: d.lifecycle?.protect,
        remove: 'archive',
        restore: 'unarchive',
        restoreNeeds: {
          feature: 'channelUnarchive',
          what: 'the channel is archived (its name stays reserved) and unarchiving',
          hint: 'rename the channel or unarchive it in Zulip',
        },
        before: { name: l.name, description: l.description, private: l.private },
      });
      if (archived) continue;
      const props: PropertyChange[] = [];
      const meta = { refs: [] as string[], releases: [] as string[] };
      const lc = d.lifecycle;
      if (!renamed) this.prop(props, lc, 'name', l.name, d.name.trim());
      this.prop(
        props,
        lc,
        'description',
        l.description,
        normaliseChannelDescription(d.description ?? ''),
      );
      this.prop(props, lc, 'private', l.private, isPrivate);
      this.prop(props, lc, 'webPublic', l.webPublic, d.webPublic ?? false);
      this.prop(
        props,
        lc,
        'historyPublicToSubscribers',
        l.historyPublicToSubscribers,
        d.historyPublicToSubscribers ?? !isPrivate,
      );
      this.prop(props, lc, 'defaultChannel', l.defaultChannel, d.defaultChannel ?? false);
      const retentionBefore = props.length;
      this.prop(
        props,
        lc,
        'messageRetentionDays',
        retentionToNatural(l.messageRetentionDays),
        d.messageRetentionDays ?? 'realm_default',
      );
      if (props.length > retentionBefore)
        this.checkRetention('changing message retention', address, d.path);
      if (this.supports('topicsPolicy') && l.topicsPolicy !== null)
        this.prop(props, lc, 'topicsPolicy', l.topicsPolicy, d.topicsPolicy ?? 'inherit');
      if (folders && !isIgnored(lc, 'folder')) {
        const folder = d.folder ?? null;
        const target = this.folderTarget(folder, address, d.path);
        this.channelFolderAfter.set(l.id, target);
        if (target !== l.folderId) {
          const before =
            l.folderId === null
              ? null
              : (this.idx.foldersById.get(l.folderId)?.name ?? `folder#${l.folderId}`);
          const after =
            folder === null
              ? null
              : (this.desiredFolders.get(channelNameKey(folder))?.name ?? folder);
          props.push({ property: 'folder', before, after });
          meta.refs.push(...folderRefs);
          if (l.folderId !== null) {
            const lf = this.idx.foldersById.get(l.folderId);
            if (lf) meta.releases.push(resourceAddress('channelFolder', this.nameOfLiveFolder(lf)));
          }
        }
      }
      const groupMeta = { refs: [] as string[], releases: [] as string[] };
      this.updatePermissions(
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
      const updateMeta: ChangeMeta = meta;
      this.dropGatedProps(l, props, address, d.path);
      if (props.length > 0)
        this.add(
          {
            ...base,
            id: `${address}#update`,
            action: 'update',
            dependsOn: [],
            liveId: l.id,
            properties: props,
          },
          updateMeta,
        );
      this.channelMembership(d, l, address);
    }
    this.warnLeftOut();
    for (const l of this.live.channels) {
      if (claimed.has(l.id) || l.archived) continue;
      this.undeclared('channel', l.name, l.id, {
        name: l.name,
        description: l.description,
        private: l.private,
      });
    }
  }

  /**
   * Zulip refuses to archive a folder that still holds any channel, archived ones included:
   * drop such archives (and say why) rather than plan a step that cannot succeed.
   */
  private keepNonEmptyFolders(): void {
    const drop = new Set<string>();
    for (const c of this.changes) {
      if (c.kind !== 'channelFolder' || c.action !== 'archive') continue;
      const remaining = this.live.channels.filter((ch) => {
        const after = this.channelFolderAfter.has(ch.id)
          ? this.channelFolderAfter.get(ch.id)
          : ch.folderId;
        return after === c.liveId;
      });
      if (remaining.length === 0) continue;
      drop.add(c.id);
      this.warn(
        'FOLDER_NOT_EMPTY',
        `not archived: Zulip archives only empty folders, and ${remaining.map((ch) => ch.name).join(', ')} would still be in it; move those channels out first`,
        c.address,
        c.path ?? undefined,
      );
    }
    if (drop.size === 0) return;
    const kept = this.changes.filter((c) => !drop.has(c.id));
    this.changes.length = 0;
    this.changes.push(...kept);
  }

  private nameOfLiveFolder(f: LiveChannelFolder): string {
    for (const [k, m] of this.folderMatch)
      if (m?.id === f.id) return this.desiredFolders.get(k)?.name ?? f.name;
    return f.name;
  }

  /**
   * `POST /channels/create` returns before announcing when the channel has no subscribers
   * (zerver/views/streams.py `create_channel`): `announce` would announce nothing, and the plan
   * must not say it does: it is left out of the plan (apply then sends `announce=false`,
   * which Zulip treats the same), and said.
   */
  private announceNeedsSubscribers(d: DesiredChannel, props: Props, address: string): void {
    if (props.announce !== true || !this.supports('channelsCreate')) return;
    const key = channelNameKey(d.name);
    const subscribers = this.channelSubscribersAfter.get(key)?.size ?? 0;
    // A new channel whose subscription settings the plan sets is created with the account in it.
    const withMe = this.desired.subscriptionSettings.some((s) => channelNameKey(s.channel) === key);
    if (subscribers > 0 || withMe) return;
    delete props.announce;
    this.warn(
      'NOTHING_ANNOUNCED',
      'announce: true, but Zulip announces a new channel only when it is created with subscribers; no announcement will be made: declare subscribers, or drop announce',
      address,
      d.path,
    );
  }

  /** The groups the applying account belongs to, directly or through subgroups (live). */
  private myGroupIds(): ReadonlySet<number> {
    this.myGroups ??= recursiveGroupIds(this.live.me.userId, this.live.userGroups);
    return this.myGroups;
  }

  /**
   * Whether the applying account has content access to a live channel, as Zulip decides it
   * (`user_has_content_access`): organization administrators get no bypass.
   */
  private contentAccess(l: LiveChannel): boolean {
    const me = this.live.me;
    const subscribed =
      l.subscribers?.includes(me.userId) === true ||
      this.live.subscriptionSettings.some((s) => s.channelId === l.id);
    return hasContentAccess(me, l, subscribed, this.myGroupIds());
  }

  /**
   * Zulip refuses, to an account without content access to a private channel, adding
   * subscribers ("Unable to access channel (NAME).", for the whole batch) and changing its
   * privacy, `can_add_subscribers_group` or `can_subscribe_group` ("Channel content access is
   * required."). Subscribing the account itself is refused the same way. Such changes are left
   * out of the plan, and the plan says so on the construct, once per channel, with what would
   * make them possible: apply never fails on them, nor takes other channels of a batch down
   * with it.
   */
  private leaveOut(l: LiveChannel, what: string, address: string, path: string): void {
    const entry = this.leftOut.get(address);
    if (entry) entry.what.push(what);
    else this.leftOut.set(address, { l, path, what: [what] });
  }

  /** One NO_CONTENT_ACCESS warning per channel, for what {@link leaveOut} collected. */
  private warnLeftOut(): void {
    const me = this.live.me.email;
    for (const [address, { l, path, what }] of this.leftOut)
      this.warn(
        'NO_CONTENT_ACCESS',
        `left out of this plan: ${joinAnd(what)}. Zulip lets only accounts with access to a private channel's content do that, and the applying account (${me}) is neither subscribed to #${l.name} nor in its can_add_subscribers_group or can_subscribe_group (organization administrators get no exception). To make it possible, have a subscriber subscribe ${me} or add it to one of those groups, or apply as a subscriber.`,
        address,
        path,
      );
  }

  /** Removes the changes of `props` that need content access the account lacks (see above). */
  private dropGatedProps(
    l: LiveChannel,
    props: PropertyChange[],
    address: string,
    path: string,
  ): void {
    if (!l.private) return;
    const privacy = props.find((p) => p.property === 'private');
    const settings = props.filter((p) => p.wire !== undefined && CONTENT_ACCESS_WIRES.has(p.wire));
    if ((privacy === undefined && settings.length === 0) || this.contentAccess(l)) return;
    const gated: PropertyChange[] = [...settings];
    const what: string[] = [];
    if (privacy) {
      // Web-public needs the channel public ("Invalid parameters"), and the history change was
      // reviewed as part of making it public: neither goes ahead alone.
      const web = props.find((p) => p.property === 'webPublic' && p.after === true);
      gated.push(privacy, ...props.filter((p) => p.property === 'historyPublicToSubscribers'));
      if (web) gated.push(web);
      what.push(web ? 'making it web-public' : 'making it public');
    }
    for (const p of settings)
      what.push(
        p.wire === 'can_add_subscribers_group'
          ? 'changing who may add subscribers (can_add_subscribers_group)'
          : 'changing who may subscribe (can_subscribe_group)',
      );
    const kept = props.filter((p) => !gated.includes(p));
    props.length = 0;
    props.push(...kept);
    this.leaveOut(l, joinAnd(what), address, path);
  }

  private channelMembership(d: DesiredChannel, l: LiveChannel | null, address: string): void {
    const key = channelNameKey(d.name);
    const have = l?.subscribers ?? null;
    const s: Membership | undefined = d.subscribers;
    if (!s || isIgnored(d.lifecycle, 'subscribers')) {
      if (have) this.channelSubscribersAfter.set(key, new Set(have));
      return;
    }
    const want = new Set(this.resolveUsers(s.users));
    for (const g of s.groups) {
      this.checkGroupRef(g, address, d.path);
      for (const id of this.expandGroup(g)) want.add(id);
    }
    if (l && have === null) {
      this.warn(
        'SUBSCRIBERS_NOT_VISIBLE',
        'the applying account cannot see who is subscribed; subscribers left as they are',
        address,
        d.path,
      );
      return;
    }
    const current = (have ?? []).filter((id) => this.idx.usersById.get(id)?.isActive !== false);
    const currentSet = new Set(current);
    let add = [...want].filter((id) => !currentSet.has(id));
    if (add.length > 0 && l?.private === true && !this.contentAccess(l)) {
      this.leaveOut(
        l,
        `subscribing ${someOf(this.users(add).map((u) => u.email))}`,
        address,
        d.path,
      );
      add = [];
    }
    const remove = s.mode === 'exact' ? current.filter((id) => !want.has(id)) : [];
    const removed = new Set(remove);
    const after = new Set(current.filter((id) => !removed.has(id)));
    for (const id of add) after.add(id);
    this.channelSubscribersAfter.set(key, after);
    if (add.length + remove.length === 0) return;
    // Zulip messages each non-bot user another user subscribes to an existing channel: always
    // below FL 397, and from 397 only when asked (apply asks when the channel is announced).
    // It never messages the subscribers a channel is created with.
    const notify =
      l !== null && (!this.supports('sendNewSubscriptionMessages') || d.announce === true);
    const messaged = notify
      ? this.users(add)
          .filter((u) => u.id !== this.live.me.userId && !this.idx.usersById.get(u.id)?.isBot)
          .map((u) => u.email)
      : [];
    this.add({
      id: `${address}#membership`,
      action: 'membership',
      kind: 'channel',
      address,
      key: d.name,
      path: d.path,
      dependsOn: [],
      liveId: l?.id ?? null,
      collection: 'subscribers',
      mode: s.mode,
      add: this.users(add),
      remove: this.users(remove),
      addSubgroups: [],
      removeSubgroups: [],
      notify,
      ...(messaged.length > 0 ? { messaged } : {}),
    });
  }

  // ---------------------------------------------------------------- linkifiers

  private planLinkifiers(): void {
    const byPattern = new Map<string, LiveLinkifier>();
    for (const l of this.live.linkifiers)
      if (!byPattern.has(l.pattern)) byPattern.set(l.pattern, l);
    // Zulip strips both (zerver/actions/realm_linkifiers.py `do_add_linkifier`,
    // `do_update_linkifier`): compare and send what it will store.
    const linkifiers = this.desired.linkifiers.map((d) => ({
      ...d,
      pattern: d.pattern.trim(),
      urlTemplate: d.urlTemplate.trim(),
      ...(d.lifecycle?.renamedFrom
        ? {
            lifecycle: {
              ...d.lifecycle,
              renamedFrom: d.lifecycle.renamedFrom.map((f) => f.trim()),
            },
          }
        : {}),
    }));
    const declared = new Set(linkifiers.map((d) => d.pattern));
    const claimed = new Set<number>();
    const order = new SlotOrder('linkifier');
    for (const d of linkifiers) {
      const address = resourceAddress('linkifier', d.pattern);
      const base = { kind: 'linkifier' as const, address, key: d.pattern, path: d.path };
      const { live: l, renamed } = matchLive(
        'linkifier',
        d.pattern,
        d.lifecycle?.renamedFrom,
        byPattern,
        declared,
        (c) => claimed.has(c.id),
      );
      if (!l) {
        this.add({
          ...base,
          id: `${address}#create`,
          action: 'create',
          dependsOn: [],
          properties: { pattern: d.pattern, urlTemplate: d.urlTemplate },
        });
        order.declare(d.pattern, null, d.lifecycle);
        continue;
      }
      claimed.add(l.id);
      order.declare(d.pattern, l.id, d.lifecycle);
      if (renamed) this.addRename(base, l.id, l.pattern, d.pattern);
      const props: PropertyChange[] = [];
      this.prop(props, d.lifecycle, 'urlTemplate', l.urlTemplate, d.urlTemplate);
      if (props.length > 0)
        this.add({
          ...base,
          id: `${address}#update`,
          action: 'update',
          dependsOn: [],
          liveId: l.id,
          properties: props,
        });
    }
    for (const l of this.live.linkifiers) {
      if (claimed.has(l.id)) continue;
      const deleted = this.undeclared('linkifier', l.pattern, l.id, {
        pattern: l.pattern,
        urlTemplate: l.urlTemplate,
      });
      // Undeclared linkifiers that stay keep their slot: their place is their precedence.
      if (!deleted) order.keep(l.pattern, l.id);
    }
    // Zulip appends new linkifiers; the order after creates and deletes is live order + created.
    const reorder = order.reorder(
      this.live.linkifiers,
      this.live.linkifiers.map((l) => l.pattern),
      this.desired.organization.path,
    );
    if (reorder) this.add(reorder);
  }

  // ---------------------------------------------------------------- playgrounds

  private planPlaygrounds(): void {
    const byKey = new Map<string, LivePlayground>();
    for (const l of this.live.playgrounds) byKey.set(playgroundKey(l), l);
    const declared = new Set(this.desired.playgrounds.map((d) => playgroundKey(d)));
    const claimed = new Set<number>();
    for (const d of this.desired.playgrounds) {
      const key = playgroundKey({
        pygmentsLanguage: d.pygmentsLanguage.trim(),
        name: d.name.trim(),
      });
      const address = resourceAddress('playground', key);
      const base = { kind: 'playground' as const, address, key, path: d.path };
      const after = {
        name: d.name.trim(),
        pygmentsLanguage: d.pygmentsLanguage.trim(),
        urlTemplate: d.urlTemplate.trim(),
      };
      const { live: l } = matchLive(
        'playground',
        key,
        d.lifecycle?.renamedFrom,
        byKey,
        declared,
        (c) => claimed.has(c.id),
      );
      if (!l) {
        this.add({
          ...base,
          id: `${address}#create`,
          action: 'create',
          dependsOn: [],
          properties: after,
        });
        continue;
      }
      claimed.add(l.id);
      const before = {
        name: l.name,
        pygmentsLanguage: l.pygmentsLanguage,
        urlTemplate: l.urlTemplate,
      };
      const relevant = (o: typeof before): Props =>
        Object.fromEntries(Object.entries(o).filter(([p]) => !isIgnored(d.lifecycle, p)));
      if (jsonEqual(relevant(before), relevant(after))) continue;
      // Zulip has no PATCH for playgrounds: a change is a delete and a create.
      if (d.lifecycle?.protect) {
        this.protectedFinding(address, d.path, 'replace (delete and re-create)');
        continue;
      }
      this.add({
        ...base,
        id: `${address}#replace`,
        action: 'replace',
        dependsOn: [],
        liveId: l.id,
        before,
        after,
      });
    }
    for (const l of this.live.playgrounds) {
      if (claimed.has(l.id)) continue;
      this.undeclared('playground', playgroundKey(l), l.id, {
        name: l.name,
        pygmentsLanguage: l.pygmentsLanguage,
        urlTemplate: l.urlTemplate,
      });
    }
  }

  // ---------------------------------------------------------------- saved snippets

  private planSnippets(): void {
    const byTitle = new Map<string, LiveSavedSnippet>();
    const sorted = [...this.live.savedSnippets].sort((a, b) => a.id - b.id);
    for (const l of sorted) {
      if (byTitle.has(l.title)) {
        this.warn(
          'DUPLICATE_SNIPPET',
          `several live snippets have this title; the oldest (id ${byTitle.get(l.title)?.id}) is the one managed`,
          resourceAddress('savedSnippet', l.title),
        );
        continue;
      }
      byTitle.set(l.title, l);
    }
    const declared = new Set(this.desired.savedSnippets.map((d) => d.title.trim()));
    const claimed = new Set<number>();
    for (const d of this.desired.savedSnippets) {
      const title = d.title.trim();
      const address = resourceAddress('savedSnippet', title);
      const base = { kind: 'savedSnippet' as const, address, key: title, path: d.path };
      const { live: l, renamed } = matchLive(
        'savedSnippet',
        title,
        d.lifecycle?.renamedFrom,
        byTitle,
        declared,
        (c) => claimed.has(c.id),
      );
      if (!l) {
        this.add({
          ...base,
          id: `${address}#create`,
          action: 'create',
          dependsOn: [],
          properties: { title, content: d.content },
        });
        continue;
      }
      claimed.add(l.id);
      if (renamed) this.addRename(base, l.id, l.title, title);
      const props: PropertyChange[] = [];
      this.prop(props, d.lifecycle, 'content', l.content.trim(), d.content.trim());
      if (props.length > 0)
        this.add({
          ...base,
          id: `${address}#update`,
          action: 'update',
          dependsOn: [],
          liveId: l.id,
          properties: props,
        });
    }
    for (const l of sorted) {
      if (claimed.has(l.id)) continue;
      // Duplicates get their id in the key so each has its own address.
      const key = byTitle.get(l.title)?.id === l.id ? l.title : `${l.title}#${l.id}`;
      this.undeclared('savedSnippet', key, l.id, { title: l.title, content: l.content });
    }
  }

  // ---------------------------------------------------------------- users

  private planUsers(): void {
    for (const d of this.desired.users) {
      const l = this.idx.user(d.email);
      const address = resourceAddress('user', d.email);
      // Unknown users are plan errors and deactivated ones warnings (checkUsers).
      if (!l?.isActive) continue;
      // Unlike other resources, an absent role or name is not managed: there is no "default"
      // role a declared user should be reset to.
      const props: PropertyChange[] = [];
      if (d.role !== undefined) {
        const before = roleName(l.role) ?? String(l.role);
        this.prop(props, d.lifecycle, 'role', before, d.role);
        const changed = props.some((p) => p.property === 'role');
        if (
          changed &&
          (before === 'owner' || d.role === 'owner') &&
          this.live.me.role !== ROLES.owner
        )
          this.warn(
            'NEEDS_OWNER',
            `${d.role === 'owner' ? 'granting' : 'removing'} the owner role needs an organization owner; the applying account is not one`,
            address,
            d.path,
          );
      }
      if (d.fullName !== undefined)
        this.prop(props, d.lifecycle, 'fullName', l.fullName, d.fullName);
      if (props.length > 0)
        this.add({
          kind: 'user',
          address,
          key: l.email,
          path: d.path,
          id: `${address}#update`,
          action: 'update',
          dependsOn: [],
          liveId: l.id,
          properties: props,
        });
    }
  }

  // ---------------------------------------------------------------- subscription settings

  private planSubscriptionSettings(): void {
    const names = Object.keys(SUBSCRIPTION_PROPERTIES) as SubscriptionPropertyName[];
    for (const d of this.desired.subscriptionSettings) {
      const address = resourceAddress('subscriptionSettings', d.channel);
      const key = channelNameKey(d.channel);
      const channel = this.desiredChannels.has(key)
        ? this.channelMatch.get(key)
        : this.idx.channelsByKey.get(key);
      if (channel === undefined) {
        this.errors.push(`${address} (${d.path}): channel '${d.channel}' does not exist`);
        continue;
      }
      const liveSub = channel
        ? this.live.subscriptionSettings.find((s) => s.channelId === channel.id)
        : undefined;
      const props: PropertyChange[] = [];
      for (const p of names) {
        const after = d[p];
        if (after === undefined) continue;
        const before = liveSub ? liveSub[p] : null;
        // Zulip stores colours as sent; compare hex case-insensitively.
        const same =
          p === 'color' && typeof before === 'string' && typeof after === 'string'
            ? before.toLowerCase() === after.toLowerCase()
            : before === after;
        if (!same && !isIgnored(d.lifecycle, p)) props.push({ property: p, before, after });
      }
      if (props.length === 0) continue;
      if (!liveSub) {
        // Zulip sets only the caller's own subscription ("Not subscribed to channel ID N"). A
        // channel this plan creates without declared subscribers is created with the applying
        // account subscribed (apply does so for its settings); otherwise the subscribers it will
        // have after apply decide, for new and live channels alike.
        const after = this.channelSubscribersAfter.get(key);
        const createdWithoutSubscribers = channel === null && after === undefined;
        if (!createdWithoutSubscribers && !after?.has(this.live.me.userId)) {
          this.warn(
            'NOT_SUBSCRIBED',
            channel === null
              ? `the applying account (${this.live.me.email}) is not among the subscribers '${d.channel}' is created with; its subscription settings cannot be set (add the account to the channel's subscribers)`
              : `the applying account (${this.live.me.email}) is not subscribed to '${d.channel}'; its subscription settings cannot be set`,
            address,
            d.path,
          );
          continue;
        }
      }
      const channelAddress = resourceAddress(
        'channel',
        this.desiredChannels.get(key)?.name ?? channel?.name ?? d.channel,
      );
      this.add(
        {
          kind: 'subscriptionSettings',
          address,
          key: d.channel,
          path: d.path,
          id: `${address}#update`,
          action: 'update',
          dependsOn: [],
          liveId: channel?.id ?? null,
          properties: props,
        },
        { refs: [channelAddress], afterMembershipOf: channelAddress },
      );
    }
  }
}
