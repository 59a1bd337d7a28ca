import { resourceAddress } from '../../model/address';
import type {
  DesiredChannel,
  DesiredChannelFolder,
  DesiredState,
  DesiredUserGroup,
  GroupSettingValue,
  Lifecycle,
} from '../../model/desired-state';
import { ZulipCdkError } from '../../model/errors';
import { FEATURES, supports } from '../../model/features';
import type { FeatureName } from '../../model/features';
import { KIND_SPECS, RESOURCE_KINDS, ROLES } from '../../model/kinds';
import type { PrunableKind } from '../../model/kinds';
import type {
  LiveChannel,
  LiveChannelFolder,
  LiveState,
  LiveUser,
  LiveUserGroup,
} from '../../model/live-state';
import { PLAN_TYPE_LIMITED } from '../../model/live-state';
import { CHANNEL_PERMISSIONS } from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import { canonicalJson } from '../digest';
import { LiveIndex } from '../live-index';
import type { IdMarks } from '../live-index';
import type {
  Change,
  JsonValue,
  PlanWarning,
  PropertyChange,
  SafetyFinding,
  UntaggedChange,
  WarningCode,
} from '../plan-format';
import type { ChangeMeta } from '../plan-finish';
import { checkAccount } from './account';
import { checkChannelAccount } from './account-channels';
import { checkGroupsAfterPlan } from './groups-after';
import { checkUsers } from './users';
import { matchAll } from './cross-kind';
import { planOf } from './kinds';

export type Props = Record<string, JsonValue>;
/** The fields every change of one declared object shares. */
export type ChangeBase = Pick<Change, 'kind' | 'address' | 'key'> & { path: string };

/**
 * The declaration whose `renamedFrom` names a live object that is left over: its path and
 * address, and the other live object it renames instead when it does (else its own name is live).
 */
export interface RenamedBy {
  readonly path: string;
  readonly address: string;
  readonly renames?: { readonly address: string; readonly key: string };
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  // Equal scalars (most properties of most objects) write the same JSON: no string to build.
  if (a === b && (typeof a !== 'object' || a === null)) return true;
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
export function groupsIn(value: JsonValue | GroupSettingValue | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object' && !Array.isArray(value) && 'groups' in value) {
    const groups: unknown = value.groups;
    return Array.isArray(groups)
      ? groups.filter((g: unknown): g is string => typeof g === 'string')
      : [];
  }
  return [];
}

export const groupAddress = (name: string): string => resourceAddress('userGroup', name);

/** Channel settings whose change on a private channel needs content access (NOTES 3.4). */
export const CONTENT_ACCESS_WIRES: ReadonlySet<string> = new Set(
  Object.values(CHANNEL_PERMISSIONS as Record<string, PermissionSettingInfo>)
    .filter((info) => info.needsContentAccess === true)
    .map((info) => info.wire),
);

/**
 * Turns desired and live state into changes, warnings, findings and errors. `run()` checks the
 * users, matches declared objects to live ones (`matchAll`), then plans each kind in the order
 * of `RESOURCE_KINDS` as `planOf` (`./kinds.ts`) says: the generic keyed planner
 * (`./keyed.ts`) for keyed kinds, a phase of its own for the others. What crosses
 * kinds, and the order it needs, is in `./cross-kind.ts` (its note says which phase writes
 * which of the shared maps below). Only `plan()` (src/engine/plan.ts) uses the planner from
 * outside this folder.
 *
 * The order of `changes` also matters for the output: `finishPlan` sorts topologically by
 * dependencies and kind rank, and keeps push order among equals, so moving a phase can change
 * a saved plan's bytes (test/engine/plan-json-identity.test.ts catches it).
 */
export class Planner {
  public readonly idx: LiveIndex;
  public readonly changes: Change[] = [];
  public readonly meta = new Map<string, ChangeMeta>();
  public readonly warnings: PlanWarning[] = [];
  public readonly findings: SafetyFinding[] = [];
  public readonly errors: string[] = [];
  /** The unknown-user lines already in `errors` (an e-mail named twice in a list is said once). */
  public readonly unknownUserLines = new Set<string>();
  /** Errors about what Zulip refuses the applying account (`./account.ts`), counted apart for the hint. */
  #accountErrors = 0;
  /** Of those, the ones that need an organization owner (`needsOwner`). */
  #ownerErrors = 0;
  public readonly warned = new Set<string>();
  public readonly fl: number;

  /** Desired natural key → the live object it manages (after renames), or null when created. */
  public readonly folderMatch = new Map<string, LiveChannelFolder | null>();
  public readonly groupMatch = new Map<string, LiveUserGroup | null>();
  public readonly channelMatch = new Map<string, LiveChannel | null>();
  public readonly desiredGroups = new Map<string, DesiredUserGroup>();
  public readonly desiredFolders = new Map<string, DesiredChannelFolder>();
  public readonly desiredChannels = new Map<string, DesiredChannel>();
  public readonly expansions = new Map<string, Set<number>>();
  /** Addresses of undeclared live objects the configuration refers to (never pruned). */
  public readonly referenced = new Set<string>();
  /** Live channel ID → the folder ID it is in after the plan (undefined: a folder created now). */
  public readonly channelFolderAfter = new Map<number, number | null | undefined>();
  /** Users (IDs) that will be subscribed to a channel (by desired key) after apply, when known. */
  public readonly channelSubscribersAfter = new Map<
    string,
    { has(id: number): boolean; size: number }
  >();
  /** Marks of the users a channel wants and of those it has (`channelMembership`). */
  public readonly channelMarks: { readonly want: IdMarks; readonly found: IdMarks };
  public myGroups: ReadonlySet<number> | undefined;
  /** Changes left out for want of content access, by channel address (see `leaveOut`). */
  public readonly leftOut = new Map<string, { l: LiveChannel; path: string; what: string[] }>();

  public constructor(
    public readonly desired: DesiredState,
    public readonly live: LiveState,
  ) {
    this.idx = new LiveIndex(live);
    this.fl = live.server.featureLevel;
    this.channelMarks = { want: this.idx.idMarks(), found: this.idx.idMarks() };
  }

  public run(): void {
    checkUsers(this);
    matchAll(this);
    for (const kind of RESOURCE_KINDS) planOf(kind)(this);
    checkAccount(this);
    checkChannelAccount(this);
    checkGroupsAfterPlan(this);
  }

  /**
   * Makes change `id` wait for the changes `ids` (`meta.after`), each once: an order Zulip
   * enforces at each request (the last owner, a group still in use, a name still taken).
   */
  public waitFor(id: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const meta = this.meta.get(id) ?? {};
    this.meta.set(id, { ...meta, after: [...new Set([...(meta.after ?? []), ...ids])] });
  }

  /** A plan error about what Zulip refuses the applying account whatever the object. */
  public accountError(line: string): void {
    this.errors.push(line);
    this.#accountErrors += 1;
  }

  /**
   * A plan error when the applying account is not an organization owner and `what` needs one
   * (`require_realm_owner`, `OrganizationOwnerRequiredError`: "Must be an organization
   * owner"). An error, not a warning: apply would stop at that request with the rest of the plan
   * half-written.
   */
  public needsOwner(
    what: string,
    address: string,
    path: string,
    leaveOut = 'leave this change out',
  ): void {
    const me = this.live.me;
    if (me.role === ROLES.owner) return;
    this.accountError(
      `${address} (${path}): ${what} needs an organization owner ("Must be an organization owner"), and the applying account ${me.email} is not one. Apply with an owner's API key, or ${leaveOut}`,
    );
    this.#ownerErrors += 1;
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
    if (this.errors.length > this.unknownUserLines.size + this.#accountErrors)
      hints.push('Declare the missing objects, or fix the names and values each line names.');
    if (this.#accountErrors > 0)
      hints.push(
        `Plan and apply with an account Zulip lets make these changes: a human organization ${this.#ownerErrors > 0 ? 'owner' : 'administrator'}'s.`,
      );
    throw new ZulipCdkError(
      // Every line about what Zulip refuses the applying account: the code says that, not a
      // missing name.
      this.#accountErrors === this.errors.length ? 'ACCOUNT_NOT_ALLOWED' : 'UNRESOLVED_REFERENCE',
      `The configuration cannot be planned:\n${this.errors.map((e) => `  - ${e}`).join('\n')}`,
      { hint: hints.join(' ') },
    );
  }

  // ---------------------------------------------------------------- helpers

  /** Zulip Cloud Free: `ensure_not_on_limited_plan` refuses group creation and retention. */
  public limitedPlan(): boolean {
    return this.live.server.planType === PLAN_TYPE_LIMITED;
  }

  /**
   * A channel's own message retention needs an organization owner, and is refused on Zulip
   * Cloud Free (`check_channel_creation_permissions`, `update_stream_backend`).
   * `what` is the sentence's subject: "creating a channel with its own message retention".
   */
  public checkRetention(what: string, address: string, path: string): void {
    if (this.limitedPlan())
      this.errors.push(
        `${address} (${path}): Zulip Cloud Free does not set a channel's message retention ("Available on Zulip Cloud Standard. Upgrade to access."); upgrade the organization's plan, or remove messageRetentionDays`,
      );
    this.needsOwner(
      what,
      address,
      path,
      "declare messageRetentionDays as it is in Zulip (or lifecycle.ignoreChanges: ['messageRetentionDays'])",
    );
  }

  public supports(feature: FeatureName): boolean {
    return supports(this.fl, feature);
  }

  /**
   * What declaring `what` says when the server lacks `feature` (a setting newer than it),
   * undefined when the server has it (or no feature is needed).
   */
  public lacks(what: string, feature: FeatureName | undefined): string | undefined {
    if (feature === undefined || this.supports(feature)) return undefined;
    const f = FEATURES[feature];
    return `${what} needs feature level ${f.level} (${f.what}); the server is at ${this.fl}: remove it, or upgrade the server`;
  }

  public warn(code: WarningCode, message: string, address?: string, path?: string): void {
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

  /**
   * Adds a change with its meta; what a {@link waitFor} recorded for its id before it was added
   * is kept.
   */
  public add(change: UntaggedChange, meta: ChangeMeta = {}): void {
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
    const earlier = this.meta.get(change.id)?.after;
    this.meta.set(
      change.id,
      earlier ? { ...meta, after: [...new Set([...earlier, ...(meta.after ?? [])])] } : meta,
    );
  }

  /** A declared object that is declared archived (or deactivated) but does not exist. */
  public removedNotFound(state: 'archived' | 'deactivated', address: string, path: string): void {
    this.warn(
      'ARCHIVED_NOT_FOUND',
      `declared ${state} but does not exist; nothing to do`,
      address,
      path,
    );
  }

  /** The create of a declared object. */
  public addCreate(base: ChangeBase, properties: Props, meta?: ChangeMeta): void {
    this.add(
      { ...base, id: `${base.address}#create`, action: 'create', dependsOn: [], properties },
      meta,
    );
  }

  /**
   * The update of a declared object (`liveId` null: an object this plan creates), or nothing
   * when no property changes.
   */
  public addUpdate(
    base: Pick<Change, 'kind' | 'address' | 'key' | 'path'>,
    liveId: number | null,
    properties: PropertyChange[],
    meta?: ChangeMeta,
  ): void {
    if (properties.length === 0) return;
    this.add(
      {
        ...base,
        id: `${base.address}#update`,
        action: 'update',
        dependsOn: [],
        liveId,
        properties,
      },
      meta,
    );
  }

  /** Takes back a change just added (and what was recorded for it), when planning finds it empty. */
  public dropChange(id: string): void {
    const i = this.changes.findIndex((c) => c.id === id);
    if (i >= 0) this.changes.splice(i, 1);
    this.meta.delete(id);
  }

  /** A rename of a live object matched by its old name (or by a case-only change). */
  public addRename(base: ChangeBase, liveId: number, from: string, to: string): void {
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
  public addRemoveOrRestore(
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

  public protectedFinding(address: string, path: string, what: string): void {
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
  public resolveUsers(emails: readonly string[]): readonly number[] {
    return this.idx.resolve(emails).ids;
  }

  #liveUsers: readonly (LiveUser | undefined)[] | undefined;

  /**
   * The live user each declared user is (by email), in the order of `desired.users`: looked up
   * once (100,000 at scale 10), kept in an array (not a map by declared user).
   */
  public liveUsers(): readonly (LiveUser | undefined)[] {
    return (this.#liveUsers ??= this.desired.users.map((d) => this.idx.user(d.email)));
  }

  public prop(
    out: PropertyChange[],
    lifecycle: Lifecycle | undefined,
    property: string,
    before: JsonValue,
    after: JsonValue,
  ): void {
    if (isIgnored(lifecycle, property) || jsonEqual(before, after)) return;
    out.push({ property, before, after });
  }

  // ---------------------------------------------------------------- undeclared objects

  /**
   * An undeclared live object: removed (with its kind's removal action) when pruning is on for
   * its kind, else a warning. One a declaration names in `renamedFrom` (`renamedBy`: that
   * declaration matched a live object of its own name instead) is never removed: the warning
   * says why it was not renamed.
   */
  public undeclared(
    kind: PrunableKind,
    key: string,
    liveId: number,
    before: Props,
    renamedBy?: RenamedBy,
  ): boolean {
    const action = KIND_SPECS[kind].removal;
    const address = resourceAddress(kind, key);
    if (renamedBy !== undefined) {
      // The configuration meant it (renamedFrom), so it is neither undeclared nor pruned.
      const pruning = this.desired.organization.prune[kind] === true;
      const left = `left as it is${pruning ? ', although pruning is on' : ''}`;
      const took = renamedBy.renames;
      this.warn(
        'UNDECLARED',
        took === undefined
          ? `not renamed: renamedFrom of ${renamedBy.path} names it, but that declaration's own name is live too (${renamedBy.address}), and a declared name is matched first; ${left}. To rename this one, free the declared name first`
          : `not renamed: renamedFrom of ${renamedBy.path} names it, but that declaration renames ${took.address} instead (more than one of its renamedFrom names is live, and only one can be renamed); ${left}. To rename this one instead, remove '${took.key}' from that renamedFrom`,
        address,
      );
      return false;
    }
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

  /** Users by ID, as e-mail and ID, sorted by e-mail. */
  public users(ids: readonly number[]): { email: string; id: number }[] {
    return ids
      .map((id) => ({ email: this.idx.emailOf(id), id }))
      .sort((a, b) => a.email.localeCompare(b.email));
  }
}
