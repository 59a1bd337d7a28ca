import { channelNameKey } from '../model/address';
import type { GroupSettingValue } from '../model/desired-state';
import { KIND_SPECS } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import { canonicalGroupSetting } from '../model/group-setting';
import {
  ORGANIZATION_PROPERTIES,
  organizationPropertyFromWire,
} from '../model/organization-settings';
import type {
  OrganizationPropertyName,
  OrganizationPropertyValue,
} from '../model/organization-settings';
import { DEFAULT_USER_SETTINGS, defaultUserSettingFromWire } from '../model/default-user-settings';
import type {
  DefaultUserSettingName,
  DefaultUserSettingValue,
} from '../model/default-user-settings';
import type {
  LiveChannel,
  LiveChannelFolder,
  LiveState,
  LiveUser,
  LiveUserGroup,
  WireGroupSettingValue,
} from '../model/live-state';

/** The users a list of emails names: see {@link LiveIndex.resolve}. */
export interface ResolvedEmails {
  /** The IDs of its active users, each once, in the list's order. */
  readonly ids: readonly number[];
  /** Its addresses that are no user, or a deactivated one, in the list's order. */
  readonly problems: readonly { readonly email: string; readonly deactivated: boolean }[];
}

const NO_USER = 0;
const ACTIVE = 1;
const DEACTIVATED = 2;

/**
 * Each user ID's state ({@link ACTIVE}, {@link DEACTIVATED}, or {@link NO_USER}) and user,
 * looked up for every member and subscriber (a million at the largest sizes, issue 17): arrays
 * over the IDs' span when they are dense enough, as a server numbers its users in one sequence,
 * else a map. The last user of an ID counts.
 */
class UserStates {
  readonly #min: number;
  readonly #byOffset: Uint8Array | undefined;
  /** Each ID's user, by the same offset (dense IDs), else by ID. */
  readonly #users: (LiveUser | undefined)[] | Map<number, LiveUser>;
  public readonly someDeactivated: boolean;

  /** Marks over these users' IDs (see {@link IdMarks}). */
  public marks(): IdMarks {
    const span = this.#byOffset?.length ?? 0;
    return new IdMarks(span > 0 ? this.#min : 0, span);
  }

  public constructor(users: readonly LiveUser[]) {
    let min = Infinity;
    let max = -Infinity;
    for (const u of users) {
      min = Math.min(min, u.id);
      max = Math.max(max, u.id);
    }
    this.#min = min;
    const dense = users.length > 0 && max - min < 16 * users.length + 65536;
    const byOffset = dense ? new Uint8Array(max - min + 1) : undefined;
    const byId = new Map<number, LiveUser>();
    const all = dense ? new Array<LiveUser | undefined>(max - min + 1).fill(undefined) : byId;
    for (const u of users) {
      if (byOffset && Array.isArray(all)) {
        byOffset[u.id - min] = u.isActive ? ACTIVE : DEACTIVATED;
        all[u.id - min] = u;
      } else byId.set(u.id, u);
    }
    this.#byOffset = byOffset;
    this.#users = all;
    let someDeactivated = false;
    for (const u of users) if (this.of(u.id) === DEACTIVATED) someDeactivated = true;
    this.someDeactivated = someDeactivated;
  }

  public of(id: number): number {
    const byOffset = this.#byOffset;
    if (!byOffset) {
      const u = this.user(id);
      return u === undefined ? NO_USER : u.isActive ? ACTIVE : DEACTIVATED;
    }
    const i = id - this.#min;
    return i >= 0 && i < byOffset.length ? (byOffset[i] as number) : NO_USER;
  }

  /** The user of an ID; undefined when there is none. */
  public user(id: number): LiveUser | undefined {
    const all = this.#users;
    if (!Array.isArray(all)) return all.get(id);
    const i = id - this.#min;
    return i >= 0 && i < all.length ? all[i] : undefined;
  }
}

/**
 * Marks on user IDs, all cleared at once: the sets of users the plan makes for each of
 * thousands of lists (a million subscribers at the largest sizes, issue 17), without a set per
 * list. Over the users' ID span when it is dense (an array of the round each ID was last marked
 * in), else, and for IDs outside it, a set.
 */
export class IdMarks {
  readonly #min: number;
  readonly #rounds: Int32Array;
  readonly #others = new Set<number>();
  #round = 1;

  public constructor(min: number, span: number) {
    this.#min = min;
    this.#rounds = new Int32Array(span);
  }

  /** Clears every mark. */
  public clear(): void {
    this.#others.clear();
    if (this.#round < 0x7fffffff) this.#round += 1;
    else {
      this.#rounds.fill(0);
      this.#round = 1;
    }
  }

  /** Marks `id`; false when it was marked already. */
  public mark(id: number): boolean {
    const i = id - this.#min;
    const rounds = this.#rounds;
    if (i >= 0 && i < rounds.length) {
      if (rounds[i] === this.#round) return false;
      rounds[i] = this.#round;
      return true;
    }
    if (this.#others.has(id)) return false;
    this.#others.add(id);
    return true;
  }

  public has(id: number): boolean {
    const i = id - this.#min;
    const rounds = this.#rounds;
    return i >= 0 && i < rounds.length ? rounds[i] === this.#round : this.#others.has(id);
  }
}

/** Lookups over a LiveState: IDs to natural keys and back. Built once per plan. */
export class LiveIndex {
  /** Users by ID (active and not): an array over the IDs when they are dense, not a map. */
  public readonly usersById: { get(id: number): LiveUser | undefined } = {
    get: (id) => this.#states.user(id),
  };
  public readonly groupsById = new Map<number, LiveUserGroup>();
  /** Group names are case-sensitive in Zulip. */
  public readonly groupsByName = new Map<string, LiveUserGroup>();
  public readonly channelsById = new Map<number, LiveChannel>();
  /** By {@link channelNameKey}; archived channels included (their names stay reserved). */
  public readonly channelsByKey = new Map<string, LiveChannel>();
  public readonly foldersById = new Map<number, LiveChannelFolder>();
  public readonly foldersByKey = new Map<string, LiveChannelFolder>();

  /**
   * Group ID → the name the configuration gives it (`renamedFrom`), so values read live are
   * shown and compared under the name they will have: a rename alone changes no setting.
   */
  public readonly groupRenames = new Map<number, string>();

  readonly #states: UserStates;

  public constructor(public readonly live: LiveState) {
    for (const u of live.users) {
      // By lower-cased email: Zulip compares addresses case-insensitively.
      this.#idByEmail.set(u.email.toLowerCase(), u.isActive ? u.id : -1 - u.id);
    }
    this.#states = new UserStates(live.users);
    this.#seen = this.#states.marks();
    for (const g of live.userGroups) {
      this.groupsById.set(g.id, g);
      this.groupsByName.set(g.name, g);
    }
    for (const c of live.channels) {
      this.channelsById.set(c.id, c);
      const k = channelNameKey(c.name);
      // An active channel wins over an archived one with the same key (should not happen).
      const prev = this.channelsByKey.get(k);
      if (!prev || prev.archived) this.channelsByKey.set(k, c);
    }
    for (const f of live.channelFolders) {
      this.foldersById.set(f.id, f);
      const k = channelNameKey(f.name);
      const prev = this.foldersByKey.get(k);
      if (!prev || prev.archived) this.foldersByKey.set(k, f);
    }
  }

  /**
   * The live object of `kind` with Zulip's `id` (for subscription settings, the channel's ID);
   * undefined when there is none.
   */
  public byId(kind: ResourceKind, id: number): object | undefined {
    const live = this.live;
    switch (kind) {
      case 'channel':
        return this.channelsById.get(id);
      case 'userGroup':
        return this.groupsById.get(id);
      case 'channelFolder':
        return this.foldersById.get(id);
      case 'user':
        return this.usersById.get(id);
      case 'subscriptionSettings':
        return live.subscriptionSettings.find((s) => s.channelId === id);
      case 'organizationSettings':
        // One per organization: its changes carry the liveId 0.
        return id === 0 ? (live.organizationSettings ?? undefined) : undefined;
      case 'defaultUserSettings':
        return id === 0 ? (live.defaultUserSettings ?? undefined) : undefined;
      default:
        // Any other kind: its objects, by ID.
        return (live[KIND_SPECS[kind].collection] as readonly { id: number }[]).find(
          (o) => o.id === id,
        );
    }
  }

  /** A user by email, case-insensitively. */
  public user(email: string): LiveUser | undefined {
    // The keys are lower-cased: an address found as written is its own lower case (the plan
    // looks up every subscriber and member, about a million at the largest sizes).
    const v = this.#idByEmail.get(email) ?? this.#idByEmail.get(email.toLowerCase());
    return v === undefined ? undefined : this.usersById.get(v >= 0 ? v : -1 - v);
  }

  /** Whether `id` is an active user's (false for an ID that is no user's). */
  public isActiveId(id: number): boolean {
    return this.#states.of(id) === ACTIVE;
  }

  /**
   * Lower-cased email → the user's ID, or `-1 - id` for a deactivated user: resolving an
   * address says whether it is an active user without reading the user (a million addresses
   * at the largest sizes, issue 17).
   */
  readonly #idByEmail = new Map<string, number>();

  readonly #resolved = new WeakMap<readonly string[], ResolvedEmails>();

  /** New marks over the users' IDs. */
  public idMarks(): IdMarks {
    return this.#states.marks();
  }

  readonly #seen: IdMarks;

  /**
   * The users of a list of emails (case-insensitively), worked out once per list: the plan
   * checks every subscriber and member, then compares them by ID.
   */
  public resolve(emails: readonly string[]): ResolvedEmails {
    let out = this.#resolved.get(emails);
    if (out) return out;
    const byEmail = this.#idByEmail;
    const seen = this.#seen;
    seen.clear();
    const ids: number[] = [];
    let problems: { email: string; deactivated: boolean }[] | undefined;
    for (let i = 0; i < emails.length; i++) {
      const email = emails[i] as string;
      const v = byEmail.get(email) ?? byEmail.get(email.toLowerCase());
      if (v !== undefined && v >= 0) {
        if (seen.mark(v)) ids.push(v);
      } else (problems ??= []).push({ email, deactivated: v !== undefined });
    }
    out = { ids, problems: problems ?? [] };
    this.#resolved.set(emails, out);
    return out;
  }

  /**
   * A live member or subscriber list without the users known to be deactivated (Zulip keeps
   * their memberships); the list itself when it has none, as it mostly has.
   */
  public withoutInactive(ids: readonly number[]): readonly number[] {
    const states = this.#states;
    if (!states.someDeactivated) return ids;
    for (let i = 0; i < ids.length; i++)
      if (states.of(ids[i] as number) === DEACTIVATED)
        return ids.filter((id) => states.of(id) !== DEACTIVATED);
    return ids;
  }

  /** The email we show and compare for a user ID; `#<id>` when the reader could not see it. */
  public emailOf(id: number): string {
    return this.#states.user(id)?.email ?? `user#${id}`;
  }

  /** The name of a group ID; `group#<id>` when unknown. */
  public groupNameOf(id: number): string {
    return this.groupRenames.get(id) ?? this.groupsById.get(id)?.name ?? `group#${id}`;
  }

  /** A wire group-setting value in natural-key terms, canonicalised. */
  public groupSettingToNatural(value: WireGroupSettingValue): GroupSettingValue {
    if (typeof value === 'number') return this.groupNameOf(value);
    return canonicalGroupSetting({
      users: value.direct_members.map((id) => this.emailOf(id)),
      groups: value.direct_subgroups.map((id) => this.groupNameOf(id)),
    });
  }

  /**
   * A live organization property in natural terms (channels by name, `channel#<id>` when the
   * reader cannot see it); undefined when the server did not report it.
   */
  public organizationProperty(
    name: OrganizationPropertyName,
  ): OrganizationPropertyValue | undefined {
    const info = ORGANIZATION_PROPERTIES[name];
    const v = organizationPropertyFromWire(
      info,
      this.live.organizationSettings?.properties[info.wire],
    );
    if (info.type === 'channel' && typeof v === 'number')
      return this.channelsById.get(v)?.name ?? `channel#${v}`;
    return v;
  }

  /**
   * A live default user setting in natural terms (an integer choice by name); undefined when
   * the server did not report it.
   */
  public defaultUserSetting(name: DefaultUserSettingName): DefaultUserSettingValue | undefined {
    const info = DEFAULT_USER_SETTINGS[name];
    return defaultUserSettingFromWire(info, this.live.defaultUserSettings?.settings[info.wire]);
  }

  /**
   * Every active user in a live group, following live subgroups (Zulip's `members` lists
   * direct members only). Cycles are impossible in Zulip but guarded anyway.
   */
  public expandLiveGroup(group: LiveUserGroup, seen = new Set<number>()): Set<number> {
    const out = new Set<number>();
    if (seen.has(group.id)) return out;
    seen.add(group.id);
    for (const id of group.members) if (this.isActiveId(id)) out.add(id);
    for (const sub of group.subgroups) {
      const g = this.groupsById.get(sub);
      if (g) for (const id of this.expandLiveGroup(g, seen)) out.add(id);
    }
    return out;
  }
}

export {
  normaliseChannelDescription,
  normaliseFolderDescription,
  retentionToNatural,
} from '../model/kinds';
