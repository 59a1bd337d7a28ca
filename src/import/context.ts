/**
 * What an import shares across kinds: the live organization, which objects are selected (the
 * included kinds plus what they refer to), the declarations made so far, and how a reference
 * to a group or a permission value is written.
 */
import { LiveIndex } from '../engine/live-index';
import { supports } from '../model/features';
import type { GroupSettingValue } from '../model/desired-state';
import { groupSettingsEqual } from '../model/group-setting';
import { KIND_SPECS, creatorDefault, isSystemGroupName } from '../model/kinds';
import type { KeyedKind, ResourceKind, SystemGroupName } from '../model/kinds';
import type { LiveState, LiveUserGroup, WireGroupSettingValue } from '../model/live-state';
import { ORGANIZATION_PROPERTIES } from '../model/organization-settings';
import { CHANNEL_PERMISSIONS, ORGANIZATION_PERMISSIONS } from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { arr, raw, ref, str } from './code';
import type { Entry, Expr, RefTarget } from './code';
import { constructWord, keyedConstructId, keyedFacts, keyedProps } from './keyed';
import { fileOfKind, targetKey } from './layout';
import type { Decl, FileKey } from './layout';
import { NameAllocator } from './names';
import { IMPORT_KINDS } from './options';
import type { GenerateAppOptions, ImportKind, SkippedObject, SubscriberPolicy } from './options';

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

/** The state and helpers the kinds share; `Importer` (generate.ts) adds one method per kind. */
export abstract class ImportContext {
  protected readonly idx: LiveIndex;
  protected readonly fl: number;
  protected readonly include: ReadonlySet<ImportKind>;
  protected readonly subscriberPolicy: SubscriberPolicy;
  protected readonly skipped: SkippedObject[] = [];
  protected readonly pulled: string[] = [];
  protected readonly decls: Decl[] = [];
  protected readonly byTarget = new Map<string, Decl>();
  /** Which files refer to which targets. */
  protected readonly refs = new Map<string, Set<FileKey>>();
  protected readonly ids = new NameAllocator('-');
  protected readonly counts = Object.fromEntries(IMPORT_KINDS.map((k) => [k, 0])) as Record<
    ImportKind,
    number
  >;
  /** Selected objects (IDs). */
  protected readonly groupIds = new Set<number>();
  protected readonly channelIds = new Set<number>();
  protected readonly folderIds = new Set<number>();
  /** Live group ID → every active user in it (following subgroups), computed once. */
  protected readonly expansions = new Map<number, Set<number>>();
  /** Position of each declared group in declaration order. */
  protected readonly groupPosition = new Map<number, number>();

  public constructor(
    protected readonly live: LiveState,
    protected readonly options: GenerateAppOptions,
  ) {
    this.idx = new LiveIndex(live);
    this.fl = live.server.featureLevel;
    this.include = new Set(options.include ?? IMPORT_KINDS);
    this.subscriberPolicy = options.subscribers ?? 'private';
  }

  // ------------------------------------------------------------------ selection

  protected skip(kind: string, name: string, reason: string): void {
    this.skipped.push({ kind, name, reason });
  }

  protected activeUser(id: number): boolean {
    const u = this.idx.usersById.get(id);
    return u !== undefined && u.isActive;
  }

  /** Which objects to declare: the included kinds, plus what they refer to. */
  protected select(): void {
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
    const org = this.live.organizationSettings;
    if (this.include.has('organizationSettings') && org) {
      for (const [name, info] of Object.entries(ORGANIZATION_PERMISSIONS)) {
        const v = org.permissions[info.wire];
        if (v === undefined || !this.permissionSupported(info)) continue;
        for (const gid of this.groupIdsIn(v)) pullGroup(gid, `organization setting ${name}`);
      }
      for (const info of Object.values(ORGANIZATION_PROPERTIES)) {
        const id = org.properties[info.wire];
        const c =
          info.type === 'channel' && typeof id === 'number'
            ? this.idx.channelsById.get(id)
            : undefined;
        if (c && !this.channelIds.has(c.id) && !c.archived) {
          this.channelIds.add(c.id);
          this.pulled.push(`channel '${c.name}' (organization setting ${info.wire})`);
        }
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

  protected supports(feature: Parameters<typeof supports>[1]): boolean {
    return supports(this.fl, feature);
  }

  protected permissionSupported(info: PermissionSettingInfo): boolean {
    return info.feature === undefined || this.supports(info.feature);
  }

  protected groupIdsIn(v: WireGroupSettingValue): number[] {
    return typeof v === 'number' ? [v] : v.direct_subgroups;
  }

  protected settingsEntries(s: LiveState['subscriptionSettings'][number]): Entry[] {
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

  // ------------------------------------------------------------------ helpers

  /**
   * Counts one object of `kind` and declares its construct (the spec's `construct`) in the kind's
   * file, with no comment; `id` is made unique.
   */
  protected declareObject(kind: ResourceKind, id: string, entries: Entry[]): void {
    const { collection, construct } = KIND_SPECS[kind];
    this.counts[collection]++;
    this.declare({
      file: fileOfKind(collection),
      construct,
      id: this.ids.allocate(id),
      entries,
      comments: [],
    });
  }

  /**
   * Declares the live objects of a keyed kind that has no importer of its own, from its spec
   * (`./keyed.ts`): in Zulip's order for an ordered kind, else oldest first. Of the objects with
   * one natural key, only the first is declared (the others are said left out).
   */
  protected importKeyed(kind: KeyedKind): void {
    const spec = KIND_SPECS[kind];
    if (!this.include.has(spec.collection)) return;
    const facts = keyedFacts(kind);
    const live = this.live[spec.collection] as readonly { readonly id: number }[];
    const seen = new Set<string>();
    for (const l of spec.ordered ? live : [...live].sort((a, b) => a.id - b.id)) {
      const key = facts.liveKey(l);
      if (seen.has(spec.compareKey(key))) {
        this.skip(
          kind,
          key,
          `a second ${constructWord(kind)} with this ${facts.keyProperty} (id ${l.id}); only the ${spec.ordered ? 'first' : 'oldest'} is managed`,
        );
        continue;
      }
      seen.add(spec.compareKey(key));
      this.declareObject(kind, keyedConstructId(kind, l), keyedProps(kind, l, this.fl));
    }
  }

  protected declare(decl: Decl, target?: RefTarget): Decl {
    this.decls.push(decl);
    if (target) {
      decl.target = target;
      this.byTarget.set(targetKey(target), decl);
    }
    return decl;
  }

  /** Records that `file` refers to `target`, returning the reference expression. */
  protected refFrom(file: FileKey, kind: RefTarget['kind'], key: string): Expr {
    const k = targetKey({ kind, key });
    let files = this.refs.get(k);
    if (!files) this.refs.set(k, (files = new Set()));
    files.add(file);
    return ref(kind, key);
  }

  /** Whether a live setting equals what the planner holds an absent property at. */
  protected isDefault(
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
  protected groupExpr(
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
  protected settingExpr(
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
  protected permissionEntries(
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
}
