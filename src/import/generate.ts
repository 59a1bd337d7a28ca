/** The import: each kind's constructs from the live organization, then the printed app. */
import { normaliseChannelDescription, retentionToNatural } from '../engine/live-index';
import { KIND_SPECS, ROLES, roleName } from '../model/kinds';
import type { KeyedKind, ResourceKind, RoleName } from '../model/kinds';
import type { LiveChannel, LiveChannelFolder, LiveState, LiveUserGroup } from '../model/live-state';
import { channelNameKey } from '../model/address';
import { ORGANIZATION_PROPERTIES } from '../model/organization-settings';
import type {
  OrganizationPropertyInfo,
  OrganizationPropertyName,
} from '../model/organization-settings';
import {
  DEFAULT_USER_SETTINGS,
  DEFAULT_USER_SETTING_NAMES,
  defaultUserSettingProblem,
} from '../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../model/default-user-settings';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
} from '../model/permissions';
import { arr, raw, str } from './code';
import type { Entry, Expr } from './code';
import { FieldAndEmojiImporter } from './fields-and-emoji';
import { importHeader } from './header';
import { IMPORT_ORDER, compareNames, printApp } from './layout';
import type { Decl } from './layout';
import { constructIdFor } from './names';
import { IMPORT_KINDS } from './options';
import type { GenerateAppOptions, GeneratedApp } from './options';

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

/**
 * The kinds with an importer of their own (an `Importer` method): what they declare needs more
 * than their spec says (references to other constructs, users' values, images, defaults that
 * depend on other objects). Typed so that a kind that is not keyed is a compile error here until
 * it is imported; a keyed kind without an entry is imported from its spec (`importKeyed`).
 * `null`: imported with another kind (folders with the channels in them).
 */
const IMPORTERS = {
  user: 'users',
  userGroup: 'groups',
  channel: 'channels',
  channelFolder: null,
  customEmoji: 'customEmoji',
  subscriptionSettings: 'subscriptionSettings',
  organizationSettings: 'organizationSettings',
  defaultUserSettings: 'defaultUserSettings',
  defaultChannelGroup: 'defaultChannelGroups',
  customProfileField: 'customProfileFields',
} as const satisfies Record<Exclude<ResourceKind, KeyedKind>, string> &
  Partial<Record<KeyedKind, string | null>>;
const IMPORTER_OF: Partial<Record<ResourceKind, (typeof IMPORTERS)[keyof typeof IMPORTERS]>> =
  IMPORTERS;

/** Declares each kind's constructs, then prints them. */
class Importer extends FieldAndEmojiImporter {
  public run(): GeneratedApp {
    this.select();
    for (const kind of IMPORT_ORDER) {
      const step = IMPORTER_OF[kind];
      if (step === undefined) this.importKeyed(kind as KeyedKind);
      else if (step !== null) this[step]();
    }
    return {
      files: this.print(),
      assets: this.assets,
      skipped: this.skipped,
      counts: { ...this.counts },
    };
  }

  // ------------------------------------------------------------------ users

  private users(): void {
    if (!this.include.has('users')) return;
    const rank = (role: number): number => role;
    const withValues = this.include.has('customProfileFields');
    // Each user's values once: reading them also records the values left out (`skip`).
    const profiles = new Map<number, Entry[]>();
    for (const u of this.live.users)
      if (withValues && u.isActive && !u.isBot) profiles.set(u.id, this.profileEntries(u));
    const users = this.live.users
      .filter(
        (u) =>
          u.isActive &&
          !u.isBot &&
          (u.role !== ROLES.member || (profiles.get(u.id)?.length ?? 0) > 0),
      )
      .sort((a, b) => rank(a.role) - rank(b.role) || compareNames(a.email, b.email));
    for (const u of users) {
      const role: RoleName | undefined = roleName(u.role);
      if (role === undefined) {
        this.skip('user', u.email, `unknown role ${u.role}`);
        continue;
      }
      const entries: Entry[] = [
        { key: 'email', value: str(u.email) },
        { key: 'role', value: str(role) },
      ];
      const profile = profiles.get(u.id) ?? [];
      if (profile.length > 0)
        entries.push({ key: 'profile', value: { t: 'object', entries: profile } });
      this.declareObject('user', constructIdFor(u.email.split('@')[0] ?? '', 'user'), entries);
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
          const r = this.groupExpr('userGroups', sg.name, () => undefined);
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
            'userGroups',
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
          this.refFrom('userGroups', 'group', g.name);
          deferred.push({ group: g, entries: later.entries });
        }
        if (ignore.length > 0) {
          comments.push(`Left as they are live: ${ignore.join(', ')}.`);
          entries.push({ key: 'ignoreChanges', value: arr(ignore.map(str)) });
        }
      }
      this.declare(
        {
          file: 'userGroups',
          construct: KIND_SPECS.userGroup.construct,
          id: this.ids.allocate(constructIdFor(g.name, 'group', '-group')),
          entries,
          comments,
        },
        { kind: 'group', key: g.name },
      );
    }
    deferred.forEach(({ group, entries }, i) =>
      this.declare({
        file: 'userGroups',
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

  /** A channel's props, and comments above its declaration. */
  private channelDecl(c: LiveChannel): Pick<Decl, 'entries' | 'comments'> {
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
      return { entries, comments };
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
    return { entries, comments };
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
          {
            ...d,
            file: 'channels',
            construct: KIND_SPECS.channel.construct,
            id: this.ids.allocate(constructIdFor(c.name, 'channel')),
          },
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
          construct: KIND_SPECS.channelFolder.construct,
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

  /**
   * The organization's settings: every property and permission the server has, as it is live,
   * so that the review covers all of them from the start. A setting that cannot be written
   * (a channel or group this account cannot see) is left out, and so left alone.
   */
  private organizationSettings(): void {
    const org = this.live.organizationSettings;
    if (!this.include.has('organizationSettings') || !org) return;
    const entries: Entry[] = [];
    for (const [name, info] of Object.entries(
      ORGANIZATION_PROPERTIES as Record<string, OrganizationPropertyInfo>,
    )) {
      if (info.feature !== undefined && !this.supports(info.feature)) continue;
      const v = this.idx.organizationProperty(name as OrganizationPropertyName);
      if (v === undefined) continue;
      if (info.type === 'channel' && typeof v === 'string') {
        const c = this.idx.channelsByKey.get(channelNameKey(v));
        if (!c || !this.channelIds.has(c.id)) {
          this.skip(
            'organizationSettings',
            name,
            `names a channel this account cannot see (${v}): left as it is`,
          );
          continue;
        }
        entries.push({ key: name, value: this.refFrom('organizationSettings', 'channel', c.name) });
        continue;
      }
      entries.push({
        key: name,
        value: v === null ? raw('null') : typeof v === 'string' ? str(v) : raw(String(v)),
      });
    }
    for (const [name, info] of Object.entries(ORGANIZATION_PERMISSIONS)) {
      if (!this.permissionSupported(info)) continue;
      const old = org.permissions[info.wire];
      if (old === undefined) continue;
      const r = this.settingExpr(
        'organizationSettings',
        this.idx.groupSettingToNatural(old),
        () => undefined,
      );
      if ('problem' in r) {
        this.skip('organizationSettings', name, `${r.problem}: left as it is`);
        continue;
      }
      entries.push({ key: name, value: r.expr });
    }
    this.declareObject('organizationSettings', 'settings', entries);
  }

  /**
   * The default user settings: every setting the server has, as it is live (choices by name),
   * as the organization's settings are. A value zulip-cdk does not know (a choice newer than
   * it) is left out, and so left alone.
   */
  private defaultUserSettings(): void {
    if (!this.include.has('defaultUserSettings') || !this.live.defaultUserSettings) return;
    const entries: Entry[] = [];
    for (const name of DEFAULT_USER_SETTING_NAMES) {
      const info: DefaultUserSettingInfo = DEFAULT_USER_SETTINGS[name];
      if (info.feature !== undefined && !this.supports(info.feature)) continue;
      const v = this.idx.defaultUserSetting(name);
      if (v === undefined) continue;
      if (defaultUserSettingProblem(info, v) !== undefined) {
        this.skip(
          'defaultUserSettings',
          name,
          `${JSON.stringify(v)} is not a value zulip-cdk knows: left as it is`,
        );
        continue;
      }
      entries.push({ key: name, value: typeof v === 'string' ? str(v) : raw(String(v)) });
    }
    this.declareObject('defaultUserSettings', 'user-defaults', entries);
  }

  /**
   * Default channel groups, their channels by construct when the channel is declared (by name
   * otherwise, and for a default channel, which Zulip lets stay in a group it joined before it
   * became default but which the `DefaultChannelGroup` construct refuses).
   */
  private defaultChannelGroups(): void {
    if (!this.include.has('defaultChannelGroups')) return;
    for (const g of this.live.defaultChannelGroups) {
      const channels = g.channelIds
        .map((id) => this.idx.channelsById.get(id))
        .filter((c): c is LiveChannel => c !== undefined)
        .sort((a, b) => compareChannelNames(a.name, b.name))
        .map((c) =>
          this.channelIds.has(c.id) && !c.archived && !c.defaultChannel
            ? this.refFrom('defaultChannelGroups', 'channel', c.name)
            : str(c.name),
        );
      if (channels.length < g.channelIds.length)
        this.skip(
          'defaultChannelGroup',
          g.name,
          'some of its channels are not visible to this account: they are left as they are',
        );
      const entries: Entry[] = [{ key: 'name', value: str(g.name) }];
      if (g.description !== '') entries.push({ key: 'description', value: str(g.description) });
      entries.push({ key: 'channels', value: arr(channels) });
      const id = constructIdFor(g.name, 'channel-group', '-channel-group');
      this.declareObject('defaultChannelGroup', id, entries);
    }
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
      this.declareObject('subscriptionSettings', constructIdFor(c.name, 'channel', '-settings'), [
        { key: 'channel', value: this.refFrom('subscriptionSettings', 'channel', c.name) },
        ...entries,
      ]);
    }
  }

  // ------------------------------------------------------------------ printing

  private print(): Record<string, string> {
    return printApp({
      decls: this.decls,
      byTarget: this.byTarget,
      refs: this.refs,
      pendingComment: this.pendingComment,
      layout: this.options.layout ?? 'auto',
      header: importHeader({
        realmName: this.live.server.realmName,
        featureLevel: this.fl,
        me: this.live.me.email,
        subscriberPolicy: this.subscriberPolicy,
        excluded: IMPORT_KINDS.filter((k) => !this.include.has(k)),
        pulled: this.pulled,
        skipped: this.skipped,
      }),
      orgId: this.orgId(),
    });
  }

  private orgId(): string {
    return this.options.orgId ?? constructIdFor(this.live.server.realmName, 'org');
  }
}

/** Code-unit order of names compared case-insensitively, as Zulip's channel names are. */
function compareChannelNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The natural key of a folder for references (folders compare case-insensitively). */
function channelFolderKey(f: LiveChannelFolder): string {
  return `${f.id}`;
}
