import { LiveIndex, normaliseChannelDescription, retentionToNatural } from '../engine/live-index';
import { supports } from '../model/features';
import type { GroupSettingValue } from '../model/desired-state';
import { groupSettingsEqual } from '../model/group-setting';
import {
  KIND_SPECS,
  LISTED_KINDS,
  ROLES,
  creatorDefault,
  isSystemGroupName,
  roleName,
} from '../model/kinds';
import type { KindCollection, RoleName, SystemGroupName } from '../model/kinds';
import type {
  LiveChannel,
  LiveChannelFolder,
  LiveState,
  LiveUserGroup,
  WireGroupSettingValue,
} from '../model/live-state';
import { CHANNEL_PERMISSIONS, GROUP_PERMISSIONS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { arr, commentLines, printCall, printImport, raw, ref, str } from './code';
import type { Entry, Expr, RefResolver, RefTarget } from './code';
import { NameAllocator, constructIdFor, identifierFor } from './names';

/** The kinds `import --include` accepts: the desired state's collection names. */
export type ImportKind = KindCollection;
export const IMPORT_KINDS: readonly ImportKind[] = LISTED_KINDS.map(
  (k) => KIND_SPECS[k].collection,
);

/**
 * Which channels get their subscribers imported (with mode `exact`): `private` (the default:
 * who may read a private channel is access control, worth reviewing; who follows a public
 * channel is each person's choice), `all`, or `none`.
 */
export const SUBSCRIBER_POLICIES = ['private', 'all', 'none'] as const;
export type SubscriberPolicy = (typeof SUBSCRIBER_POLICIES)[number];

/** File layouts: everything in `main.ts`, one file per kind, or by size (`auto`). */
export const IMPORT_LAYOUTS = ['auto', 'single', 'split'] as const;
export type ImportLayout = (typeof IMPORT_LAYOUTS)[number];

/** Options of {@link generateApp}. */
export interface GenerateAppOptions {
  /**
   * The Organization construct's id (it names the synthesized file).
   * @default - derived from the organization's name, such as `acme`
   */
  readonly orgId?: string;
  /**
   * The kinds to import. Objects of other kinds that an imported object refers to (a channel's
   * folder, a group in a permission) are imported too, and listed in the header.
   * @default - every kind
   */
  readonly include?: readonly ImportKind[];
  /** @default 'auto' (one file per kind above {@link SPLIT_THRESHOLD} constructs) */
  readonly layout?: ImportLayout;
  /** @default 'private' */
  readonly subscribers?: SubscriberPolicy;
}

/** Above this many constructs, `auto` writes one file per kind. */
export const SPLIT_THRESHOLD = 30;

/** Something live that the generated code does not declare, and why. */
export interface SkippedObject {
  readonly kind: string;
  readonly name: string;
  readonly reason: string;
}

/** What {@link generateApp} produced. */
export interface GeneratedApp {
  /** File name (relative, such as `main.ts`) → content. */
  readonly files: Record<string, string>;
  /** Live objects or settings left out, with the reason (also listed in `main.ts`). */
  readonly skipped: readonly SkippedObject[];
  /** How many constructs of each kind were generated. */
  readonly counts: Readonly<Record<ImportKind, number>>;
}

type FileKey =
  'users' | 'groups' | 'channels' | 'linkifiers' | 'playgrounds' | 'snippets' | 'settings';

const FILES: Record<
  FileKey,
  { file: string; fn: string; param?: string; title: string; kind: ImportKind }
> = {
  users: {
    file: 'users.ts',
    fn: 'declareUsers',
    title: 'Roles of the users who are not plain members (zulip-cdk does not create users).',
    kind: 'users',
  },
  groups: {
    file: 'groups.ts',
    fn: 'declareUserGroups',
    param: 'groups',
    title: 'User groups, each after the groups it refers to.',
    kind: 'userGroups',
  },
  channels: {
    file: 'channels.ts',
    fn: 'declareChannels',
    param: 'channels',
    title:
      "Channel folders in Zulip's order, each followed by its channels; then the channels in no folder.",
    kind: 'channels',
  },
  linkifiers: {
    file: 'linkifiers.ts',
    fn: 'declareLinkifiers',
    title: 'Linkifiers, in the order Zulip applies them.',
    kind: 'linkifiers',
  },
  playgrounds: {
    file: 'playgrounds.ts',
    fn: 'declareCodePlaygrounds',
    title: 'Code playgrounds.',
    kind: 'playgrounds',
  },
  snippets: {
    file: 'saved-snippets.ts',
    fn: 'declareSavedSnippets',
    title: 'Saved snippets of the applying account.',
    kind: 'savedSnippets',
  },
  settings: {
    file: 'subscription-settings.ts',
    fn: 'declareSubscriptionSettings',
    title: "The applying account's own settings of its subscriptions.",
    kind: 'subscriptionSettings',
  },
};
const FILE_ORDER: FileKey[] = [
  'users',
  'groups',
  'channels',
  'linkifiers',
  'playgrounds',
  'snippets',
  'settings',
];

const SYSTEM_GROUP_CONSTANTS: Record<SystemGroupName, string> = {
  'role:internet': 'INTERNET',
  'role:everyone': 'EVERYONE',
  'role:members': 'MEMBERS',
  'role:fullmembers': 'FULL_MEMBERS',
  'role:moderators': 'MODERATORS',
  'role:administrators': 'ADMINISTRATORS',
  'role:owners': 'OWNERS',
  'role:nobody': 'NOBODY',
};

/** One construct to declare. */
interface Decl {
  readonly file: FileKey;
  readonly construct: string;
  readonly id: string;
  readonly entries: Entry[];
  /** Comment lines above the declaration. */
  readonly comments: string[];
  /** Set when something may refer to it. */
  target?: RefTarget;
  /** The Zulip name its variable is derived from. */
  label?: string;
  /** Set for `subject.setPermissions({...})` statements (then `construct` is empty). */
  readonly subject?: RefTarget;
  varName?: string;
}

/** Code-unit order, case-insensitive first: the same on every machine. */
function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const targetKey = (t: RefTarget): string => `${t.kind}:${t.key}`;

/**
 * Turns a live organization into a zulip-cdk app: TypeScript that declares what exists with the
 * construct library, as a person would write it, so that synthesizing it and planning against
 * the same organization shows no change. Pure: no I/O, never prints.
 *
 * @example
 * const { files } = generateApp(await readLiveState(client), { orgId: 'acme' });
 * for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
 */
export function generateApp(live: LiveState, options: GenerateAppOptions = {}): GeneratedApp {
  return new Importer(live, options).run();
}

class Importer {
  private readonly idx: LiveIndex;
  private readonly fl: number;
  private readonly include: ReadonlySet<ImportKind>;
  private readonly subscriberPolicy: SubscriberPolicy;
  private readonly skipped: SkippedObject[] = [];
  private readonly pulled: string[] = [];
  private readonly decls: Decl[] = [];
  private readonly byTarget = new Map<string, Decl>();
  /** Which files refer to which targets. */
  private readonly refs = new Map<string, Set<FileKey>>();
  private readonly ids = new NameAllocator('-');
  private readonly vars = new NameAllocator();
  private readonly counts = Object.fromEntries(IMPORT_KINDS.map((k) => [k, 0])) as Record<
    ImportKind,
    number
  >;
  /** Selected objects (IDs). */
  private readonly groupIds = new Set<number>();
  private readonly channelIds = new Set<number>();
  private readonly folderIds = new Set<number>();
  /** Live group ID → every active user in it (following subgroups), computed once. */
  private readonly expansions = new Map<number, Set<number>>();
  /** Position of each declared group in declaration order. */
  private readonly groupPosition = new Map<number, number>();

  public constructor(
    private readonly live: LiveState,
    private readonly options: GenerateAppOptions,
  ) {
    this.idx = new LiveIndex(live);
    this.fl = live.server.featureLevel;
    this.include = new Set(options.include ?? IMPORT_KINDS);
    this.subscriberPolicy = options.subscribers ?? 'private';
  }

  public run(): GeneratedApp {
    this.select();
    this.users();
    this.groups();
    this.channels();
    this.linkifiers();
    this.playgrounds();
    this.snippets();
    this.subscriptionSettings();
    return { files: this.render(), skipped: this.skipped, counts: { ...this.counts } };
  }

  // ------------------------------------------------------------------ selection

  private skip(kind: string, name: string, reason: string): void {
    this.skipped.push({ kind, name, reason });
  }

  private activeUser(id: number): boolean {
    const u = this.idx.usersById.get(id);
    return u !== undefined && u.isActive;
  }

  /** Which objects to declare: the included kinds, plus what they refer to. */
  private select(): void {
    const pullGroup = (id: number, by: string): void => {
      const g = this.idx.groupsById.get(id);
      if (!g || g.isSystemGroup || this.groupIds.has(id)) return;
      this.groupIds.add(id);
      if (!this.include.has('userGroups')) this.pulled.push(`user group '${g.name}' (${by})`);
      if (g.deactivated) return;
      for (const sub of g.subgroups) pullGroup(sub, `a subgroup of '${g.name}'`);
      for (const v of Object.values(g.permissions))
        for (const gid of this.groupIdsIn(v)) pullGroup(gid, `used by group '${g.name}'`);
    };
    if (this.include.has('userGroups'))
      for (const g of this.live.userGroups) if (!g.isSystemGroup) this.groupIds.add(g.id);
    for (const id of [...this.groupIds]) {
      const g = this.idx.groupsById.get(id);
      if (!g || g.deactivated) continue;
      for (const sub of g.subgroups) pullGroup(sub, `a subgroup of '${g.name}'`);
      for (const v of Object.values(g.permissions))
        for (const gid of this.groupIdsIn(v)) pullGroup(gid, `used by group '${g.name}'`);
    }
    if (this.include.has('channels')) for (const c of this.live.channels) this.channelIds.add(c.id);
    if (this.include.has('subscriptionSettings'))
      for (const s of this.live.subscriptionSettings) {
        const c = this.idx.channelsById.get(s.channelId);
        if (c && !this.channelIds.has(c.id) && this.settingsEntries(s).length > 0) {
          this.channelIds.add(c.id);
          this.pulled.push(`channel '${c.name}' (it has subscription settings)`);
        }
      }
    if (this.include.has('channelFolders') && this.supports('channelFolders'))
      for (const f of this.live.channelFolders) this.folderIds.add(f.id);
    for (const id of this.channelIds) {
      const c = this.idx.channelsById.get(id);
      if (!c) continue;
      const f = c.folderId === null ? undefined : this.idx.foldersById.get(c.folderId);
      if (f && !this.folderIds.has(f.id) && this.supports('channelFolders') && !f.archived) {
        // Every folder, in Zulip's order: the planner puts undeclared folders last, which
        // would reorder them.
        for (const x of this.live.channelFolders) this.folderIds.add(x.id);
        this.pulled.push(`every channel folder (channel '${c.name}' is in '${f.name}')`);
      }
      if (c.archived) continue;
      for (const [name, info] of Object.entries(CHANNEL_PERMISSIONS)) {
        const v = c.permissions[info.wire];
        if (v === undefined || !this.permissionSupported(info)) continue;
        for (const gid of this.groupIdsIn(v)) pullGroup(gid, `channel '${c.name}' ${name}`);
      }
    }
  }

  private supports(feature: Parameters<typeof supports>[1]): boolean {
    return supports(this.fl, feature);
  }

  private permissionSupported(info: PermissionSettingInfo): boolean {
    return info.feature === undefined || this.supports(info.feature);
  }

  private groupIdsIn(v: WireGroupSettingValue): number[] {
    return typeof v === 'number' ? [v] : v.direct_subgroups;
  }

  // ------------------------------------------------------------------ helpers

  private declare(decl: Decl, target?: RefTarget): Decl {
    this.decls.push(decl);
    if (target) {
      decl.target = target;
      this.byTarget.set(targetKey(target), decl);
    }
    return decl;
  }

  /** Records that `file` refers to `target`, returning the reference expression. */
  private refFrom(file: FileKey, kind: RefTarget['kind'], key: string): Expr {
    const k = targetKey({ kind, key });
    let files = this.refs.get(k);
    if (!files) this.refs.set(k, (files = new Set()));
    files.add(file);
    return ref(kind, key);
  }

  /** Whether a live setting equals what the planner holds an absent property at. */
  private isDefault(
    info: PermissionSettingInfo,
    value: GroupSettingValue,
    creatorId: number | null,
  ): boolean {
    if (info.default !== 'creator') return groupSettingsEqual(value, info.default);
    // Without a creator the planner leaves an absent setting alone; declare it, to be explicit.
    return (
      creatorId !== null && groupSettingsEqual(value, creatorDefault(creatorId, this.idx.usersById))
    );
  }

  /**
   * A group reference for a group name, or a reason it cannot be one. `usable(id)` says whether
   * the referring construct may refer to that group (declared before it, say).
   */
  private groupExpr(
    file: FileKey,
    name: string,
    usable: (g: LiveUserGroup) => string | undefined,
  ): { expr: Expr } | { problem: string } {
    if (isSystemGroupName(name))
      return { expr: raw(`SystemGroup.${SYSTEM_GROUP_CONSTANTS[name]}`) };
    const g = this.idx.groupsByName.get(name);
    if (!g) return { problem: `refers to a group this account cannot see (${name})` };
    if (g.deactivated) return { problem: `refers to the deactivated group '${name}'` };
    if (!this.groupIds.has(g.id)) return { problem: `refers to group '${name}', not imported` };
    const why = usable(g);
    if (why !== undefined) return { problem: why };
    return { expr: this.refFrom(file, 'group', name) };
  }

  /** A permission value as code, or a reason it cannot be written. */
  private settingExpr(
    file: FileKey,
    value: GroupSettingValue,
    usable: (g: LiveUserGroup) => string | undefined,
  ): { expr: Expr } | { problem: string } {
    if (typeof value === 'string') return this.groupExpr(file, value, usable);
    const users = value.users.filter((email) => this.idx.user(email)?.isActive === true);
    const groups: Expr[] = [];
    for (const name of value.groups) {
      const r = this.groupExpr(file, name, usable);
      if ('problem' in r) return r;
      groups.push(r.expr);
    }
    if (users.length === 0 && groups.length === 0) return { expr: raw('SystemGroup.NOBODY') };
    const entries: Entry[] = [];
    if (users.length > 0) entries.push({ key: 'users', value: arr(users.map(str)) });
    if (groups.length > 0) entries.push({ key: 'groups', value: arr(groups) });
    return { expr: { t: 'call', callee: 'Permission.anyOf', entries } };
  }

  /** Permission entries of a group or channel; problems become `ignoreChanges`. */
  private permissionEntries(
    file: FileKey,
    table: Record<string, PermissionSettingInfo>,
    permissions: Record<string, WireGroupSettingValue>,
    creatorId: number | null,
    what: string,
    usable: (g: LiveUserGroup) => string | undefined,
    ignore: string[],
    later?: { readonly test: (g: LiveUserGroup) => boolean; readonly entries: Entry[] },
  ): Entry[] {
    const entries: Entry[] = [];
    for (const [name, info] of Object.entries(table)) {
      if (!this.permissionSupported(info)) continue;
      const old = permissions[info.wire];
      if (old === undefined) continue;
      const natural = this.idx.groupSettingToNatural(old);
      if (this.isDefault(info, natural, creatorId)) continue;
      const r = this.settingExpr(file, natural, usable);
      if ('problem' in r) {
        ignore.push(name);
        this.skip(what, name, `${r.problem}: left as it is live (ignoreChanges)`);
        continue;
      }
      const names = typeof natural === 'string' ? [natural] : natural.groups;
      const deferred = names.some((n) => {
        const g = this.idx.groupsByName.get(n);
        return g !== undefined && later?.test(g) === true;
      });
      (deferred && later ? later.entries : entries).push({ key: name, value: r.expr });
    }
    return entries;
  }

  // ------------------------------------------------------------------ users

  private users(): void {
    if (!this.include.has('users')) return;
    const rank = (role: number): number => role;
    const users = this.live.users
      .filter((u) => u.isActive && !u.isBot && u.role !== ROLES.member)
      .sort((a, b) => rank(a.role) - rank(b.role) || compareNames(a.email, b.email));
    for (const u of users) {
      const role: RoleName | undefined = roleName(u.role);
      if (role === undefined) {
        this.skip('user', u.email, `unknown role ${u.role}`);
        continue;
      }
      this.counts.users++;
      this.declare({
        file: 'users',
        construct: 'User',
        id: this.ids.allocate(constructIdFor(u.email.split('@')[0] ?? '', 'user')),
        entries: [
          { key: 'email', value: str(u.email) },
          { key: 'role', value: str(role) },
        ],
        comments: [],
      });
    }
  }

  // ------------------------------------------------------------------ groups

  /**
   * Declaration order: subgroups before their groups (required), groups used in a permission
   * before the group using it when that makes no cycle; a permission that would need a group
   * declared later (the group itself, or a cycle) is left as it is live.
   */
  private groupOrder(groups: LiveUserGroup[]): LiveUserGroup[] {
    const closure = new Map<number, Set<number>>();
    const hard = (g: LiveUserGroup): Set<number> => {
      let c = closure.get(g.id);
      if (c) return c;
      c = new Set([g.id]);
      closure.set(g.id, c);
      if (!g.deactivated)
        for (const sub of g.subgroups) {
          const sg = this.idx.groupsById.get(sub);
          if (sg && this.groupIds.has(sg.id)) for (const x of hard(sg)) c.add(x);
        }
      return c;
    };
    const done = new Set<number>();
    const active = new Set<number>();
    const order: LiveUserGroup[] = [];
    const visit = (g: LiveUserGroup): void => {
      if (done.has(g.id)) return;
      active.add(g.id);
      if (!g.deactivated) {
        for (const sub of [...g.subgroups].sort((a, b) => a - b)) {
          const sg = this.idx.groupsById.get(sub);
          if (sg && this.groupIds.has(sg.id) && !active.has(sg.id)) visit(sg);
        }
        for (const v of Object.values(g.permissions))
          for (const id of this.groupIdsIn(v)) {
            const pg = this.idx.groupsById.get(id);
            if (!pg || !this.groupIds.has(id) || done.has(id)) continue;
            if ([...hard(pg)].some((x) => active.has(x))) continue;
            visit(pg);
          }
      }
      active.delete(g.id);
      done.add(g.id);
      order.push(g);
    };
    for (const g of [...groups].sort((a, b) => compareNames(a.name, b.name))) visit(g);
    return order;
  }

  private groups(): void {
    const groups = this.live.userGroups.filter((g) => this.groupIds.has(g.id));
    const order = this.groupOrder(groups);
    order.forEach((g, i) => this.groupPosition.set(g.id, i));
    const deferred: { group: LiveUserGroup; entries: Entry[] }[] = [];
    for (const g of order) {
      this.counts.userGroups++;
      const entries: Entry[] = [{ key: 'name', value: str(g.name) }];
      if (g.description !== '') entries.push({ key: 'description', value: str(g.description) });
      const comments: string[] = [];
      if (g.deactivated) {
        entries.push({ key: 'deactivated', value: raw('true') });
      } else {
        const members = g.members
          .filter((id) => this.activeUser(id))
          .map((id) => this.idx.emailOf(id))
          .sort(compareNames);
        const subgroups: Expr[] = [];
        let atLeast = false;
        const position = this.groupPosition.get(g.id) ?? 0;
        const sorted = g.subgroups
          .map((id) => this.idx.groupsById.get(id))
          .filter((x): x is LiveUserGroup => x !== undefined)
          .sort((a, b) => compareNames(a.name, b.name));
        if (sorted.length !== g.subgroups.length) atLeast = true;
        for (const sg of sorted) {
          const r = this.groupExpr('groups', sg.name, () => undefined);
          if ('problem' in r) {
            atLeast = true;
            this.skip('userGroup', g.name, `subgroup: ${r.problem}; membership mode 'atLeast'`);
          } else subgroups.push(r.expr);
        }
        if (members.length > 0 || subgroups.length === 0)
          entries.push({ key: 'members', value: arr(members.map(str)) });
        if (subgroups.length > 0) entries.push({ key: 'subgroups', value: arr(subgroups) });
        if (atLeast) {
          comments.push(
            'Some subgroups cannot be declared (deactivated or not visible): they are kept as they are.',
          );
          entries.push({ key: 'membershipMode', value: str('atLeast') });
        }
        const ignore: string[] = [];
        const later = {
          // The group itself, or a group declared after it (they refer to each other).
          test: (other: LiveUserGroup): boolean =>
            !other.isSystemGroup &&
            (other.id === g.id || (this.groupPosition.get(other.id) ?? Infinity) > position),
          entries: [] as Entry[],
        };
        entries.push(
          ...this.permissionEntries(
            'groups',
            GROUP_PERMISSIONS,
            g.permissions,
            g.creatorId,
            `userGroup '${g.name}'`,
            () => undefined,
            ignore,
            later,
          ),
        );
        if (later.entries.length > 0) {
          this.refFrom('groups', 'group', g.name);
          deferred.push({ group: g, entries: later.entries });
        }
        if (ignore.length > 0) {
          comments.push(`Left as they are live: ${ignore.join(', ')}.`);
          entries.push({ key: 'ignoreChanges', value: arr(ignore.map(str)) });
        }
      }
      this.declare(
        {
          file: 'groups',
          construct: 'UserGroup',
          id: this.ids.allocate(constructIdFor(g.name, 'group', '-group')),
          entries,
          comments,
        },
        { kind: 'group', key: g.name },
      );
    }
    deferred.forEach(({ group, entries }, i) =>
      this.declare({
        file: 'groups',
        construct: '',
        id: '',
        entries,
        comments:
          i === 0
            ? [
                'Permissions that refer to the group itself, or to a group declared after it (the two refer to each other).',
              ]
            : [],
        subject: { kind: 'group', key: group.name },
      }),
    );
  }

  // ------------------------------------------------------------------ channels

  /** Users subscribed to a live channel, active only, expressed through one group when possible. */
  private subscriberEntries(c: LiveChannel): Entry[] | undefined {
    const policy = this.subscriberPolicy;
    if (policy === 'none' || (policy === 'private' && !c.private)) return undefined;
    if (c.subscribers === null) {
      this.skip('channel', c.name, 'subscribers are not visible to this account: not managed');
      return undefined;
    }
    const subs = new Set(c.subscribers.filter((id) => this.activeUser(id)));
    let best: { g: LiveUserGroup; members: Set<number> } | undefined;
    if (this.include.has('userGroups'))
      for (const g of [...this.live.userGroups].sort((a, b) => compareNames(a.name, b.name))) {
        if (g.isSystemGroup || g.deactivated || !this.groupIds.has(g.id) || !this.expandable(g))
          continue;
        let members = this.expansions.get(g.id);
        if (!members) this.expansions.set(g.id, (members = this.idx.expandLiveGroup(g)));
        if (members.size < 2 || [...members].some((id) => !subs.has(id))) continue;
        if (!best || members.size > best.members.size) best = { g, members };
      }
    const users = [...subs]
      .filter((id) => !best?.members.has(id))
      .map((id) => this.idx.emailOf(id))
      .sort(compareNames);
    const entries: Entry[] = [{ key: 'mode', value: str('exact') }];
    if (users.length > 0 || !best) entries.push({ key: 'users', value: arr(users.map(str)) });
    if (best)
      entries.push({ key: 'groups', value: arr([this.refFrom('channels', 'group', best.g.name)]) });
    return entries;
  }

  /** Whether the planner expands a declared group as Zulip does (no hidden subgroups). */
  private expandable(g: LiveUserGroup, seen = new Set<number>()): boolean {
    if (seen.has(g.id)) return true;
    seen.add(g.id);
    for (const sub of g.subgroups) {
      const sg = this.idx.groupsById.get(sub);
      if (!sg || sg.deactivated) return false;
      if (!sg.isSystemGroup && (!this.groupIds.has(sg.id) || !this.expandable(sg, seen)))
        return false;
    }
    return true;
  }

  private channelDecl(c: LiveChannel): Decl {
    const entries: Entry[] = [{ key: 'name', value: str(c.name) }];
    const comments: string[] = [];
    const description = normaliseChannelDescription(c.description);
    if (description !== '') entries.push({ key: 'description', value: str(description) });
    if (c.private) entries.push({ key: 'private', value: raw('true') });
    if (c.historyPublicToSubscribers !== !c.private)
      entries.push({
        key: 'historyPublicToSubscribers',
        value: raw(String(c.historyPublicToSubscribers)),
      });
    const folder = c.folderId === null ? undefined : this.idx.foldersById.get(c.folderId);
    const inFolder =
      folder !== undefined && this.folderIds.has(folder.id) && !folder.archived
        ? this.refFrom('channels', 'folder', channelFolderKey(folder))
        : undefined;
    if (c.archived) {
      if (inFolder) entries.push({ key: 'folder', value: inFolder });
      entries.push({ key: 'archived', value: raw('true') });
      return { file: 'channels', construct: 'Channel', id: '', entries, comments };
    }
    const ignore: string[] = [];
    if (c.webPublic && this.live.server.webPublicChannelsEnabled)
      entries.push({ key: 'webPublic', value: raw('true') });
    else if (c.webPublic) {
      // Declaring it would fail (the server has web-public channels off); leaving it out would
      // plan making the channel not web-public.
      ignore.push('webPublic');
      this.skip(
        'channel',
        c.name,
        'web-public, but the server has web-public channels off: webPublic left as it is live (ignoreChanges)',
      );
    }
    if (c.defaultChannel) entries.push({ key: 'defaultChannel', value: raw('true') });
    const retention = retentionToNatural(c.messageRetentionDays);
    if (retention !== 'realm_default')
      entries.push({
        key: 'messageRetentionDays',
        value: typeof retention === 'number' ? raw(String(retention)) : str(retention),
      });
    if (this.supports('topicsPolicy') && c.topicsPolicy !== null && c.topicsPolicy !== 'inherit')
      entries.push({ key: 'topicsPolicy', value: str(c.topicsPolicy) });
    if (inFolder) entries.push({ key: 'folder', value: inFolder });
    entries.push(
      ...this.permissionEntries(
        'channels',
        CHANNEL_PERMISSIONS,
        c.permissions,
        c.creatorId,
        `channel '${c.name}'`,
        () => undefined,
        ignore,
      ),
    );
    const subscribers = this.subscriberEntries(c);
    if (subscribers)
      entries.push({ key: 'subscribers', value: { t: 'object', entries: subscribers } });
    if (ignore.length > 0) {
      comments.push(`Left as they are live: ${ignore.join(', ')}.`);
      entries.push({ key: 'ignoreChanges', value: arr(ignore.map(str)) });
    }
    return { file: 'channels', construct: 'Channel', id: '', entries, comments };
  }

  private channels(): void {
    const channels = this.live.channels
      .filter((c) => this.channelIds.has(c.id))
      .sort((a, b) => compareNames(a.name, b.name));
    const byFolder = new Map<number | null, LiveChannel[]>();
    for (const c of channels) {
      const f = c.folderId !== null && this.folderIds.has(c.folderId) ? c.folderId : null;
      const list = byFolder.get(f) ?? [];
      list.push(c);
      byFolder.set(f, list);
    }
    const addChannels = (list: readonly LiveChannel[]): void => {
      for (const c of list) {
        this.counts.channels++;
        const d = this.channelDecl(c);
        this.declare(
          { ...d, id: this.ids.allocate(constructIdFor(c.name, 'channel')) },
          { kind: 'channel', key: c.name },
        );
      }
    };
    for (const f of this.live.channelFolders) {
      if (!this.folderIds.has(f.id)) continue;
      this.counts.channelFolders++;
      const entries: Entry[] = [{ key: 'name', value: str(f.name) }];
      if (f.description !== '') entries.push({ key: 'description', value: str(f.description) });
      if (f.archived) entries.push({ key: 'archived', value: raw('true') });
      this.declare(
        {
          file: 'channels',
          construct: 'ChannelFolder',
          id: this.ids.allocate(constructIdFor(f.name, 'folder', '-folder')),
          entries,
          comments: [],
          label: f.name,
        },
        { kind: 'folder', key: channelFolderKey(f) },
      );
      addChannels(byFolder.get(f.id) ?? []);
    }
    const loose = byFolder.get(null) ?? [];
    if (loose.length > 0 && byFolder.size > 1) {
      const first = loose[0];
      if (first) this.pendingComment.set(first.name, 'Channels in no folder.');
    }
    addChannels(loose);
  }

  /** Section comments to put above a channel's declaration, by channel name. */
  private readonly pendingComment = new Map<string, string>();

  // ------------------------------------------------------------------ the rest

  private linkifiers(): void {
    if (!this.include.has('linkifiers')) return;
    const seen = new Set<string>();
    for (const l of this.live.linkifiers) {
      if (seen.has(l.pattern)) {
        this.skip('linkifier', l.pattern, 'a second linkifier with the same pattern');
        continue;
      }
      seen.add(l.pattern);
      this.counts.linkifiers++;
      this.declare({
        file: 'linkifiers',
        construct: 'Linkifier',
        id: this.ids.allocate(constructIdFor(hostOf(l.urlTemplate), 'linkifier')),
        entries: [
          { key: 'pattern', value: str(l.pattern) },
          { key: 'urlTemplate', value: str(l.urlTemplate) },
        ],
        comments: [],
      });
    }
  }

  private playgrounds(): void {
    if (!this.include.has('playgrounds')) return;
    for (const p of this.live.playgrounds) {
      this.counts.playgrounds++;
      this.declare({
        file: 'playgrounds',
        construct: 'CodePlayground',
        id: this.ids.allocate(constructIdFor(p.name, 'playground')),
        entries: [
          { key: 'name', value: str(p.name) },
          { key: 'pygmentsLanguage', value: str(p.pygmentsLanguage) },
          { key: 'urlTemplate', value: str(p.urlTemplate) },
        ],
        comments: [],
      });
    }
  }

  private snippets(): void {
    if (!this.include.has('savedSnippets')) return;
    const seen = new Set<string>();
    for (const s of [...this.live.savedSnippets].sort((a, b) => a.id - b.id)) {
      if (seen.has(s.title)) {
        this.skip(
          'savedSnippet',
          s.title,
          `a second snippet with this title (id ${s.id}); only the oldest is managed`,
        );
        continue;
      }
      seen.add(s.title);
      this.counts.savedSnippets++;
      this.declare({
        file: 'snippets',
        construct: 'SavedSnippet',
        id: this.ids.allocate(constructIdFor(s.title, 'snippet', '-snippet')),
        entries: [
          { key: 'title', value: str(s.title) },
          { key: 'content', value: str(s.content) },
        ],
        comments: [],
      });
    }
  }

  private settingsEntries(s: LiveState['subscriptionSettings'][number]): Entry[] {
    const entries: Entry[] = [];
    if (s.isMuted) entries.push({ key: 'isMuted', value: raw('true') });
    if (s.pinToTop) entries.push({ key: 'pinToTop', value: raw('true') });
    for (const key of [
      'desktopNotifications',
      'audibleNotifications',
      'pushNotifications',
      'emailNotifications',
      'wildcardMentionsNotify',
    ] as const) {
      const v = s[key];
      if (v !== null) entries.push({ key, value: raw(String(v)) });
    }
    return entries;
  }

  private subscriptionSettings(): void {
    if (!this.include.has('subscriptionSettings')) return;
    const list = this.live.subscriptionSettings
      .map((s) => ({ s, c: this.idx.channelsById.get(s.channelId) }))
      .filter((x): x is { s: (typeof x)['s']; c: LiveChannel } => x.c !== undefined)
      .sort((a, b) => compareNames(a.c.name, b.c.name));
    for (const { s, c } of list) {
      const entries = this.settingsEntries(s);
      if (entries.length === 0) continue;
      this.counts.subscriptionSettings++;
      this.declare({
        file: 'settings',
        construct: 'SubscriptionSettings',
        id: this.ids.allocate(constructIdFor(c.name, 'channel', '-settings')),
        entries: [
          { key: 'channel', value: this.refFrom('settings', 'channel', c.name) },
          ...entries,
        ],
        comments: [],
      });
    }
  }

  // ------------------------------------------------------------------ rendering

  private split(): boolean {
    const layout = this.options.layout ?? 'auto';
    if (layout === 'auto') return this.decls.length > SPLIT_THRESHOLD;
    return layout === 'split';
  }

  /** Gives every referenced declaration a variable name. */
  private nameVariables(): void {
    const suffix = { group: '', folder: 'Folder', channel: 'Channel' } as const;
    for (const d of this.decls) {
      if (!d.target || !this.refs.has(targetKey(d.target))) continue;
      d.varName = this.vars.allocate(
        identifierFor(d.label ?? d.target.key, d.target.kind, suffix[d.target.kind]),
      );
    }
  }

  private orgId(): string {
    return this.options.orgId ?? constructIdFor(this.live.server.realmName, 'org');
  }

  private header(): string[] {
    const me = this.live.me.email;
    const lines: string[] = [];
    const p = (text: string): void => {
      lines.push(...commentLines(text));
    };
    const item = (text: string): void => {
      lines.push(
        ...commentLines(text, 0, '// - ').map((l, i) =>
          i === 0 ? l : l.replace('// - ', '//   '),
        ),
      );
    };
    p(
      `${JSON.stringify(this.live.server.realmName)} as zulip-cdk constructs, imported from feature level ${this.fl} as ${me}.`,
    );
    p('`zulip-cdk plan` shows no change until you edit this code.');
    lines.push('//');
    p('How it was imported:');
    item("values equal to Zulip's defaults are left out;");
    item(
      this.subscriberPolicy === 'private'
        ? "subscribers of private channels are declared exactly (mode 'exact'); who follows a public channel is left to each person;"
        : this.subscriberPolicy === 'all'
          ? "subscribers of every channel are declared exactly (mode 'exact');"
          : 'subscribers are not managed;',
    );
    item(
      'user groups are declared with their exact members; roles only for users who are not plain members (full names are left to their owners);',
    );
    item(
      `saved snippets and subscription settings are those of ${me}, the account that applies (not the colours of its subscriptions).`,
    );
    lines.push('//');
    p('Not managed by zulip-cdk, so not imported:');
    item(
      'organization settings (name, description, policies, organization-wide permissions), custom emoji, custom profile fields, default channel groups, invitations;',
    );
    item(
      "other users' saved snippets and subscription settings, bots and their settings, user settings;",
    );
    item('deactivated users, and messages.');
    const excluded = IMPORT_KINDS.filter((k) => !this.include.has(k));
    if (excluded.length > 0) {
      lines.push('//');
      p(`Not imported (--include): ${excluded.join(', ')}.`);
    }
    if (this.pulled.length > 0) {
      lines.push('//');
      p('Imported because something imported refers to them:');
      for (const x of this.pulled) item(x);
    }
    if (this.skipped.length > 0) {
      lines.push('//');
      p('Left out or left as they are:');
      for (const s of this.skipped) item(`${s.kind} ${JSON.stringify(s.name)}: ${s.reason}`);
    }
    return lines;
  }

  private declLines(d: Decl, indent: number, resolve: RefResolver): string[] {
    const pad = ' '.repeat(indent);
    const out: string[] = [];
    if (d.target?.kind === 'channel') {
      const section = this.pendingComment.get(d.target.key);
      if (section) out.push(`${pad}// ${section}`);
    }
    for (const c of d.comments) out.push(...commentLines(c, indent));
    const head = d.subject
      ? `${resolve(d.subject)}.setPermissions(`
      : `${d.varName ? `const ${d.varName} = ` : ''}new ${d.construct}(org, '${d.id}', `;
    out.push(...printCall(head, d.entries, indent, resolve));
    return out;
  }

  private constructsUsed(decls: readonly Decl[]): Set<string> {
    const names = new Set<string>();
    const walk = (e: Expr): void => {
      if (e.t === 'raw' && e.code.startsWith('SystemGroup.')) names.add('SystemGroup');
      if (e.t === 'array') e.items.forEach(walk);
      if (e.t === 'object' || e.t === 'call') {
        if (e.t === 'call') names.add('Permission');
        e.entries.forEach((x) => walk(x.value));
      }
    };
    for (const d of decls) {
      if (d.construct !== '') names.add(d.construct);
      d.entries.forEach((x) => walk(x.value));
    }
    return names;
  }

  private render(): Record<string, string> {
    this.nameVariables();
    return this.split() ? this.renderSplit() : this.renderSingle();
  }

  private sectionComment(file: FileKey, indent: number): string[] {
    const title =
      file === 'channels' && !this.decls.some((d) => d.construct === 'ChannelFolder')
        ? 'Channels.'
        : FILES[file].title;
    return commentLines(title, indent);
  }

  private renderSingle(): Record<string, string> {
    const resolve: RefResolver = (t) => this.byTarget.get(targetKey(t))?.varName ?? 'undefined';
    const used = this.constructsUsed(this.decls);
    used.add('App');
    used.add('Organization');
    const lines = [...this.header(), '', ...printImport([...used], 'zulip-cdk'), ''];
    lines.push('const app = new App();');
    lines.push(`const org = new Organization(app, ${quoteId(this.orgId())});`);
    for (const file of FILE_ORDER) {
      const decls = this.decls.filter((d) => d.file === file);
      if (decls.length === 0) continue;
      lines.push('', ...this.sectionComment(file, 0));
      decls.forEach((d, i) => {
        if (i > 0) lines.push('');
        lines.push(...this.declLines(d, 0, resolve));
      });
    }
    lines.push('', 'app.synth();', '');
    return { 'main.ts': lines.join('\n') };
  }

  private renderSplit(): Record<string, string> {
    const files: Record<string, string> = {};
    /** Which files each file's function takes (by parameter) and what it returns. */
    const exportsOf = new Map<FileKey, Decl[]>();
    const needs = new Map<FileKey, Set<FileKey>>();
    for (const d of this.decls) {
      if (!d.target) continue;
      const users = this.refs.get(targetKey(d.target));
      if (!users) continue;
      for (const f of users) {
        if (f === d.file) continue;
        const list = exportsOf.get(d.file) ?? [];
        if (!list.includes(d)) list.push(d);
        exportsOf.set(d.file, list);
        const n = needs.get(f) ?? new Set();
        n.add(d.file);
        needs.set(f, n);
      }
    }
    const present = FILE_ORDER.filter((f) => this.decls.some((d) => d.file === f));
    const typeName = (f: FileKey): string => (f === 'groups' ? 'UserGroups' : 'Channels');
    for (const file of present) {
      const meta = FILES[file];
      const decls = this.decls.filter((d) => d.file === file);
      const resolve: RefResolver = (t) => {
        const d = this.byTarget.get(targetKey(t));
        if (!d) return 'undefined';
        return d.file === file
          ? (d.varName ?? 'undefined')
          : `${FILES[d.file].param ?? ''}.${d.varName ?? ''}`;
      };
      const params = [...(needs.get(file) ?? [])].sort(
        (a, b) => FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b),
      );
      const lines: string[] = [];
      lines.push(...printImport(['Organization'], 'zulip-cdk', true));
      lines.push(...printImport([...this.constructsUsed(decls)], 'zulip-cdk'));
      for (const p of params)
        lines.push(...printImport([typeName(p)], `./${FILES[p].file.replace(/\.ts$/, '')}`, true));
      lines.push('');
      lines.push(...this.sectionComment(file, 0).map((l) => l.replace(/^\/\/ /, '// ')));
      const sig = [
        'org: Organization',
        ...params.map((p) => `${FILES[p].param ?? ''}: ${typeName(p)}`),
      ];
      lines.push(`export function ${meta.fn}(${sig.join(', ')}) {`);
      decls.forEach((d, i) => {
        if (i > 0) lines.push('');
        lines.push(...this.declLines(d, 2, resolve));
      });
      const exported = (exportsOf.get(file) ?? []).map((d) => d.varName ?? '');
      if (exported.length > 0) {
        lines.push('  return {', ...exported.sort(compareNames).map((v) => `    ${v},`), '  };');
      }
      lines.push('}');
      if (exported.length > 0) {
        lines.push('', `/** What \`${meta.fn}\` declared that other files refer to. */`);
        lines.push(`export type ${typeName(file)} = ReturnType<typeof ${meta.fn}>;`);
      }
      lines.push('');
      files[meta.file] = lines.join('\n');
    }
    const main = [...this.header(), '', ...printImport(['App', 'Organization'], 'zulip-cdk')];
    for (const file of [...present].sort((a, b) => compareNames(FILES[a].file, FILES[b].file)))
      main.push(...printImport([FILES[file].fn], `./${FILES[file].file.replace(/\.ts$/, '')}`));
    main.push(
      '',
      'const app = new App();',
      `const org = new Organization(app, ${quoteId(this.orgId())});`,
    );
    for (const file of present) {
      const meta = FILES[file];
      const args = ['org', ...[...(needs.get(file) ?? [])].map((p) => FILES[p].param ?? '')];
      const call = `${meta.fn}(${args.join(', ')});`;
      main.push(exportsOf.has(file) ? `const ${meta.param ?? ''} = ${call}` : call);
    }
    main.push('app.synth();', '');
    files['main.ts'] = main.join('\n');
    return files;
  }
}

function quoteId(id: string): string {
  return `'${id.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The natural key of a folder for references (folders compare case-insensitively). */
function channelFolderKey(f: LiveChannelFolder): string {
  return `${f.id}`;
}

/** `github.com` for `https://github.com/acme/{id}`; the template itself when it has no host. */
function hostOf(template: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:www\.)?([^/?#{}]+)/i.exec(template);
  return m?.[1] ?? template;
}
