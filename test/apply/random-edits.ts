/**
 * Seeded random edits of a desired state that plans no change (an imported organization), as
 * a user would write them: channels (rename, description, privacy, history, retention, topics
 * policy, folder, archive and unarchive, default channel, new channels with subscribers),
 * channel folders (create, rename, reorder, archive), user groups (create, rename, description,
 * members, subgroups, deactivate), subscribers, users (role, full name, deactivate and
 * reactivate, profile values), linkifiers, playgrounds, saved snippets, custom profile fields,
 * default channel groups, allowed domains, organization settings and default user settings.
 * Each edit keeps what the constructs check (what synth accepts): renames update the
 * references by name, a private channel leaves the default channels, no subgroup cycle...
 */
import { prng } from '../../bench/org-generator';
import type {
  DesiredChannel,
  DesiredState,
  DesiredUser,
  DesiredUserGroup,
  GroupSettingValue,
  LiveState,
} from '../../src/model';
import { DesiredStateSchema } from '../../src/model/desired-state';
import { KIND_SPECS, RESOURCE_KINDS, TOPICS_POLICIES } from '../../src/model/kinds';
import type { KindSpec } from '../../src/model/kinds';
import {
  DEFAULT_USER_SETTINGS,
  defaultUserSettingProblem,
} from '../../src/model/default-user-settings';
import type { DefaultUserSettingInfo } from '../../src/model/default-user-settings';
import {
  ORGANIZATION_PROPERTIES,
  organizationPropertyProblem,
} from '../../src/model/organization-settings';
import type { OrganizationPropertyInfo } from '../../src/model/organization-settings';
import { compareStrings } from '../../src/synth/stable-json';

export const EDIT_KINDS = [
  'channelRename',
  'channelDescription',
  'channelPrivacy',
  'channelRetention',
  'channelTopics',
  'channelFolder',
  'channelArchive',
  'channelUnarchive',
  'channelDefault',
  'channelNew',
  'folderNew',
  'folderRename',
  'folderReorder',
  'folderArchive',
  'groupNew',
  'groupRename',
  'groupDescription',
  'groupMembers',
  'groupSubgroups',
  'groupDeactivate',
  'subscribers',
  'userRole',
  'userName',
  'userActive',
  'userProfile',
  'linkifier',
  'playground',
  'snippet',
  'profileField',
  'defaultChannelGroup',
  'allowedDomain',
  'organization',
  'userDefaults',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** Organization properties the edits change, with the values drawn. */
const ORG_VALUES: Record<string, readonly (string | number | boolean | null)[]> = {
  description: ['Edited description', ''],
  waitingPeriodThreshold: [0, 3, 10],
  topicsPolicy: ['allow_empty_topic', 'disable_empty_topic'],
  allowMessageEditing: [true, false],
  messageContentEditLimitSeconds: [600, 3600, 'unlimited'],
  messageEditHistoryVisibilityPolicy: ['all', 'moves', 'none'],
  inviteRequired: [true, false],
  emailsRestrictedToDomains: [true, false],
  requireUniqueNames: [true, false],
  enableReadReceipts: [true, false],
  digestWeekday: [0, 3, 6],
  giphyRating: ['g', 'pg', 'disabled'],
  messageRetentionDays: ['unlimited', 30, 400],
  enableSpectatorAccess: [true, false],
};
/** Organization permissions the edits change (not the applying owner's own ones). */
const ORG_PERMISSIONS: Record<string, readonly string[]> = {
  canAddCustomEmojiGroup: ['role:members', 'role:administrators'],
  canInviteUsersGroup: ['role:members', 'role:moderators'],
  canMoveMessagesBetweenTopicsGroup: ['role:everyone', 'role:members'],
  directMessagePermissionGroup: ['role:everyone', 'role:members'],
  canResolveTopicsGroup: ['role:everyone', 'role:moderators'],
};

type Rnd = () => number;

/** Whether group `to` is `from` or reached from it through `subgroups` (to keep cycles out). */
export function reachesGroup(
  from: string,
  to: string,
  subgroups: (group: string) => Iterable<string>,
): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const g = stack.pop() as string;
    if (g === to) return true;
    if (seen.has(g)) continue;
    seen.add(g);
    stack.push(...subgroups(g));
  }
  return false;
}

export interface Edited {
  readonly desired: DesiredState;
  /** One line per edit, for messages. */
  readonly log: string[];
}

/** Applies `count` seeded random edits (of `kinds`) to a copy of `base`. */
export function randomEdits(
  seed: number,
  base: DesiredState,
  live: LiveState,
  count: number,
  kinds: readonly EditKind[] = EDIT_KINDS,
): Edited {
  const rnd: Rnd = prng(seed * 15485863);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const d = structuredClone(base);
  const log: string[] = [];
  const org = d.organization.id;
  const me = live.users.find((u) => u.id === live.me.userId)?.email;
  const activeEmails = live.users
    .filter((u) => u.isActive && u.email !== me)
    .map((u) => u.email)
    .sort();
  const humans = live.users.filter((u) => !u.isBot && u.email !== me);

  // References by name, kept in step with renames and removals.
  const groupRefs = (f: (name: string) => string | undefined): void => {
    // A setting that named only a removed group is declared empty (deleting it would leave a
    // setting whose default is its unknown creator as it is live).
    const value = (v: GroupSettingValue): GroupSettingValue => {
      if (typeof v === 'string') return f(v) ?? { users: [], groups: [] };
      return { users: v.users, groups: v.groups.flatMap((g) => f(g) ?? []) };
    };
    const perms = (p: Record<string, GroupSettingValue | undefined>): void => {
      for (const [k, v] of Object.entries(p)) {
        if (v === undefined) continue;
        p[k] = value(v);
      }
    };
    for (const g of d.userGroups) {
      perms(g.permissions);
      g.members.groups = g.members.groups.flatMap((x) => f(x) ?? []);
    }
    for (const c of d.channels) {
      perms(c.permissions);
      if (c.subscribers) c.subscribers.groups = c.subscribers.groups.flatMap((x) => f(x) ?? []);
    }
    for (const s of d.organizationSettings) perms(s.permissions);
  };
  const channelRefs = (old: string, now: string | null): void => {
    for (const g of d.defaultChannelGroups)
      g.channels = g.channels.flatMap((c) => (c === old ? (now === null ? [] : [now]) : [c]));
    d.subscriptionSettings = d.subscriptionSettings.flatMap((s) =>
      s.channel !== old ? [s] : now === null ? [] : [{ ...s, channel: now }],
    );
    for (const s of d.organizationSettings)
      for (const [k, v] of Object.entries(s.properties))
        if (
          v === old &&
          (ORGANIZATION_PROPERTIES as Record<string, OrganizationPropertyInfo>)[k]?.type ===
            'channel'
        )
          (s.properties as Record<string, unknown>)[k] = now;
  };
  const active = (): DesiredChannel[] => d.channels.filter((c) => !c.archived);
  const publicActive = (): DesiredChannel[] => active().filter((c) => !c.private);
  const openFolders = (): string[] =>
    d.channelFolders.filter((f) => !f.archived).map((f) => f.name);
  const namedGroups = (): DesiredUserGroup[] => d.userGroups.filter((g) => !g.deactivated);
  const userDecl = (email: string): DesiredUser => {
    let u = d.users.find((x) => x.email === email);
    if (!u) {
      u = { path: `${org}/fz-${email}`, email };
      d.users.push(u);
    }
    return u;
  };
  const someUsers = (n: number): string[] =>
    [...new Set(Array.from({ length: n }, () => pick(activeEmails)))].sort(compareStrings);
  const reaches = (from: string, to: string): boolean =>
    reachesGroup(from, to, (g) => d.userGroups.find((x) => x.name === g)?.members.groups ?? []);
  /** Removes a random entry of a collection, pruning its kind (undeclared objects go). */
  const removeOne = <T>(xs: T[], kind: keyof DesiredState['organization']['prune']): T => {
    d.organization.prune[kind] = true;
    return xs.splice(Math.floor(rnd() * xs.length), 1)[0] as T;
  };
  const shuffle = <T>(xs: T[]): void => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
    }
  };
  const inDefaultGroup = (name: string): boolean =>
    d.defaultChannelGroups.some((g) => g.channels.includes(name));

  for (let i = 0; i < count; i++) {
    const kind = pick(kinds);
    const tag = `${seed}-${i}`;
    const say = (s: string): void => {
      log.push(`${kind}: ${s}`);
    };
    switch (kind) {
      case 'channelRename': {
        const c = pick(active());
        const old = c.name;
        c.name = `renamed ${tag}`;
        c.lifecycle = { ...c.lifecycle, renamedFrom: [old] };
        channelRefs(old, c.name);
        say(`${old} -> ${c.name}`);
        break;
      }
      case 'channelDescription': {
        const c = pick(active());
        if (rnd() < 0.3) delete c.description;
        else c.description = `Edited ${tag}: see https://example.com/x`;
        say(`${c.name}: ${c.description ?? '(none)'}`);
        break;
      }
      case 'channelPrivacy': {
        const c = pick(active());
        const to = pick(['public', 'private', 'web-public'] as const);
        delete c.private;
        delete c.webPublic;
        delete c.historyPublicToSubscribers;
        if (to === 'private') {
          c.private = true;
          delete c.defaultChannel;
          if (rnd() < 0.5) {
            c.historyPublicToSubscribers = false;
            c.permissions.canCreateTopicGroup = 'role:everyone';
          } else c.historyPublicToSubscribers = true;
        } else if (to === 'web-public') {
          c.webPublic = true;
          // Web-public channels need spectator access: turned on with them, or already on.
          const s = d.organizationSettings[0];
          if (s && rnd() < 0.5) s.properties.enableSpectatorAccess = true;
        }
        say(
          `${c.name}: ${to}${c.historyPublicToSubscribers === false ? ', protected history' : ''}`,
        );
        break;
      }
      case 'channelRetention': {
        const c = pick(active());
        const v = pick([30, 'unlimited', 'realm_default', undefined] as const);
        if (v === undefined) delete c.messageRetentionDays;
        else c.messageRetentionDays = v;
        say(`${c.name}: ${String(v)}`);
        break;
      }
      case 'channelTopics': {
        const c = pick(active());
        const v = pick([...TOPICS_POLICIES, undefined]);
        if (v === undefined) delete c.topicsPolicy;
        else c.topicsPolicy = v;
        say(`${c.name}: ${String(v)}`);
        break;
      }
      case 'channelFolder': {
        const c = pick(active());
        c.folder = rnd() < 0.3 || openFolders().length === 0 ? null : pick(openFolders());
        say(`${c.name}: ${String(c.folder)}`);
        break;
      }
      case 'channelArchive': {
        const c = pick(active().filter((x) => !x.defaultChannel));
        c.archived = true;
        // What names the channel by name goes with it.
        for (const g of d.defaultChannelGroups) g.channels = g.channels.filter((x) => x !== c.name);
        for (const s of d.organizationSettings)
          for (const [k, v] of Object.entries(s.properties))
            if (v === c.name) (s.properties as Record<string, unknown>)[k] = null;
        say(c.name);
        break;
      }
      case 'channelUnarchive': {
        const archived = d.channels.filter((c) => c.archived);
        if (archived.length === 0) break;
        const c = pick(archived);
        delete c.archived;
        say(c.name);
        break;
      }
      case 'channelDefault': {
        const candidates = publicActive().filter(
          (c) => c.defaultChannel || !inDefaultGroup(c.name),
        );
        if (candidates.length === 0) break;
        const c = pick(candidates);
        if (c.defaultChannel) delete c.defaultChannel;
        else c.defaultChannel = true;
        say(`${c.name}: ${String(c.defaultChannel ?? false)}`);
        break;
      }
      case 'channelNew': {
        const isPrivate = rnd() < 0.4;
        const groups = rnd() < 0.4 ? [pick(namedGroups()).name] : [];
        const c: DesiredChannel = {
          path: `${org}/fz-channel-${tag}`,
          name: `new channel ${tag}`,
          ...(rnd() < 0.5 && { description: `New ${tag}` }),
          ...(isPrivate && { private: true }),
          ...(rnd() < 0.4 && openFolders().length > 0 && { folder: pick(openFolders()) }),
          permissions: {},
          subscribers: { mode: 'exact', users: someUsers(3), groups },
        };
        d.channels.push(c);
        say(`${c.name}${isPrivate ? ' (private)' : ''}`);
        break;
      }
      case 'folderNew': {
        const name = `Folder ${tag}`;
        d.channelFolders.splice(Math.floor(rnd() * (d.channelFolders.length + 1)), 0, {
          path: `${org}/fz-folder-${tag}`,
          name,
          ...(rnd() < 0.5 && { description: `About ${tag}` }),
        });
        if (rnd() < 0.6) pick(active()).folder = name;
        say(name);
        break;
      }
      case 'folderRename': {
        if (openFolders().length === 0) break;
        const name = pick(openFolders());
        const f = d.channelFolders.find((x) => x.name === name)!;
        const old = f.name;
        f.name = `Renamed folder ${tag}`;
        f.lifecycle = { ...f.lifecycle, renamedFrom: [old] };
        for (const c of d.channels) if (c.folder === old) c.folder = f.name;
        say(`${old} -> ${f.name}`);
        break;
      }
      case 'folderReorder':
        shuffle(d.channelFolders);
        say(d.channelFolders.map((f) => f.name).join(', '));
        break;
      case 'folderArchive': {
        if (openFolders().length === 0) break;
        const name = pick(openFolders());
        const f = d.channelFolders.find((x) => x.name === name)!;
        f.archived = true;
        // Zulip archives only an empty folder: its channels leave it first.
        for (const c of d.channels) if (c.folder === f.name) c.folder = null;
        say(f.name);
        break;
      }
      case 'groupNew': {
        const name = `group ${tag}`;
        const sub = rnd() < 0.5 ? [pick(namedGroups()).name] : [];
        d.userGroups.push({
          path: `${org}/fz-group-${tag}`,
          name,
          ...(rnd() < 0.5 && { description: `Group ${tag}` }),
          members: { mode: 'exact', users: someUsers(3), groups: sub },
          permissions: {},
        });
        if (rnd() < 0.5) {
          const parent = pick(namedGroups().filter((g) => g.name !== name));
          if (!reaches(name, parent.name)) parent.members.groups.push(name);
        }
        say(`${name} in ${sub.join(',')}`);
        break;
      }
      case 'groupRename': {
        const g = pick(namedGroups());
        const old = g.name;
        const now = `renamed group ${tag}`;
        groupRefs((x) => (x === old ? now : x));
        g.name = now;
        g.lifecycle = { ...g.lifecycle, renamedFrom: [old] };
        say(`${old} -> ${now}`);
        break;
      }
      case 'groupDescription': {
        const g = pick(namedGroups());
        g.description = rnd() < 0.3 ? '' : `Edited group ${tag}`;
        if (g.description === '') delete g.description;
        say(g.name);
        break;
      }
      case 'groupMembers': {
        const g = pick(namedGroups());
        if (rnd() < 0.5 && g.members.users.length > 0)
          g.members.users = g.members.users.filter((u) => u !== pick(g.members.users));
        else
          g.members.users = [...new Set([...g.members.users, ...someUsers(2)])].sort(
            compareStrings,
          );
        say(`${g.name}: ${g.members.users.length} users`);
        break;
      }
      case 'groupSubgroups': {
        const g = pick(namedGroups());
        if (rnd() < 0.5 && g.members.groups.length > 0) {
          const gone = pick(g.members.groups);
          g.members.groups = g.members.groups.filter((x) => x !== gone);
          say(`${g.name} - ${gone}`);
        } else {
          const s = pick(namedGroups());
          if (s === g || g.members.groups.includes(s.name) || reaches(s.name, g.name)) break;
          g.members.groups.push(s.name);
          say(`${g.name} + ${s.name}`);
        }
        break;
      }
      case 'groupDeactivate': {
        // What names the group leaves it first: Zulip deactivates no group in use.
        const g = pick(namedGroups());
        groupRefs((x) => (x === g.name ? undefined : x));
        g.deactivated = true;
        say(g.name);
        break;
      }
      case 'subscribers': {
        const cs = active().filter((c) => c.subscribers);
        if (cs.length === 0) break;
        const c = pick(cs);
        const s = c.subscribers!;
        if (rnd() < 0.5 && s.users.length > 0) s.users = s.users.filter((u) => u !== pick(s.users));
        else s.users = [...new Set([...s.users, ...someUsers(2)])].sort(compareStrings);
        say(`${c.name}: ${s.users.length} users`);
        break;
      }
      case 'userRole': {
        const u = pick(humans.filter((x) => x.isActive));
        const role = pick([
          'member',
          'member',
          'moderator',
          'administrator',
          'guest',
          'owner',
        ] as const);
        userDecl(u.email).role = role;
        say(`${u.email}: ${role}`);
        break;
      }
      case 'userName': {
        const u = pick(humans.filter((x) => x.isActive));
        userDecl(u.email).fullName = `Renamed user ${tag}`;
        say(u.email);
        break;
      }
      case 'userActive': {
        // Deactivation only. Reactivating a user brings back the group memberships and channel
        // subscriptions Zulip kept for it (change_user_is_active leaves them; the API lists
        // active members only, user_groups_in_realm_serialized, so no plan sees them): an
        // exact membership that does not name the user removes it again in the next plan,
        // which the first plan does not announce. Left out until the plan says so.
        const u = pick(humans.filter((x) => x.isActive));
        const decl = userDecl(u.email);
        decl.active = false;
        say(`${u.email}: ${String(decl.active)}`);
        break;
      }
      case 'userProfile': {
        const u = pick(humans.filter((x) => x.isActive));
        const fields = d.customProfileFields.filter((f) =>
          ['short-text', 'choice', 'date', 'user'].includes(f.type),
        );
        if (fields.length === 0) break;
        const f = pick(fields);
        const decl = userDecl(u.email);
        const value =
          rnd() < 0.2
            ? null
            : f.type === 'choice'
              ? pick(f.choices ?? [])
              : f.type === 'date'
                ? '2024-05-17'
                : f.type === 'user'
                  ? someUsers(1)
                  : `value ${tag}`;
        decl.profile = { ...decl.profile, [f.name]: value };
        say(`${u.email} ${f.name}`);
        break;
      }
      case 'linkifier': {
        const op = pick(['add', 'change', 'reorder', 'delete'] as const);
        if (op === 'add')
          d.linkifiers.splice(Math.floor(rnd() * (d.linkifiers.length + 1)), 0, {
            path: `${org}/fz-linkifier-${tag}`,
            pattern: `FZ${seed}x${i}-(?P<n>[0-9]+)`,
            urlTemplate: `https://fz.example/${tag}/{n}`,
          });
        else if (d.linkifiers.length === 0) break;
        else if (op === 'change') {
          // The same variables, on another host.
          const l = pick(d.linkifiers);
          l.urlTemplate = l.urlTemplate.replace(
            /^https:\/\/[^/]*/,
            `https://changed-${seed}x${i}.example`,
          );
        } else if (op === 'reorder') shuffle(d.linkifiers);
        else removeOne(d.linkifiers, 'linkifier');
        say(op);
        break;
      }
      case 'playground': {
        const op = pick(['add', 'change', 'delete'] as const);
        if (op === 'add')
          d.playgrounds.push({
            path: `${org}/fz-playground-${tag}`,
            name: `Playground ${tag}`,
            pygmentsLanguage: pick(['python', 'rust', 'javascript']),
            urlTemplate: `https://play.example/${tag}?code={code}`,
          });
        else if (d.playgrounds.length === 0) break;
        else if (op === 'change')
          pick(d.playgrounds).urlTemplate = `https://changed.example/${tag}#{code}`;
        else removeOne(d.playgrounds, 'playground');
        say(op);
        break;
      }
      case 'snippet': {
        const op = pick(['add', 'change', 'delete'] as const);
        if (op === 'add')
          d.savedSnippets.push({
            path: `${org}/fz-snippet-${tag}`,
            title: `Snippet ${tag}`,
            content: `Content of ${tag}`,
          });
        else if (d.savedSnippets.length === 0) break;
        else if (op === 'change') pick(d.savedSnippets).content = `Changed ${tag}`;
        else removeOne(d.savedSnippets, 'savedSnippet');
        say(op);
        break;
      }
      case 'profileField': {
        const op = pick(['add', 'hint', 'reorder', 'delete'] as const);
        if (op === 'add')
          d.customProfileFields.splice(Math.floor(rnd() * (d.customProfileFields.length + 1)), 0, {
            path: `${org}/fz-field-${tag}`,
            name: `Field ${tag}`,
            type: pick(['short-text', 'long-text', 'date'] as const),
            ...(rnd() < 0.5 && { hint: `Hint ${tag}` }),
          });
        else if (d.customProfileFields.length === 0) break;
        else if (op === 'hint') pick(d.customProfileFields).hint = `Changed hint ${tag}`;
        else if (op === 'reorder') shuffle(d.customProfileFields);
        else {
          const gone = removeOne(d.customProfileFields, 'customProfileField');
          // Users' values of the field go with it.
          for (const u of d.users)
            if (u.profile && gone.name in u.profile) {
              delete u.profile[gone.name];
              if (Object.keys(u.profile).length === 0) delete u.profile;
            }
        }
        say(op);
        break;
      }
      case 'defaultChannelGroup': {
        const op = pick(['add', 'description', 'channels', 'delete'] as const);
        const eligible = (): string[] =>
          active()
            .filter((c) => !c.defaultChannel)
            .map((c) => c.name);
        if (op === 'add')
          d.defaultChannelGroups.push({
            path: `${org}/fz-dcg-${tag}`,
            name: `Default group ${tag}`,
            description: `Starts ${tag}`,
            channels: [...new Set([pick(eligible()), pick(eligible())])].sort(compareStrings),
          });
        else if (d.defaultChannelGroups.length === 0) break;
        else if (op === 'description') pick(d.defaultChannelGroups).description = `Changed ${tag}`;
        else if (op === 'channels') {
          const g = pick(d.defaultChannelGroups);
          if (rnd() < 0.5 && g.channels.length > 0)
            g.channels = g.channels.filter((c) => c !== pick(g.channels));
          else g.channels = [...new Set([...g.channels, pick(eligible())])].sort(compareStrings);
        } else removeOne(d.defaultChannelGroups, 'defaultChannelGroup');
        say(op);
        break;
      }
      case 'allowedDomain': {
        const op = pick(['add', 'subdomains', 'delete'] as const);
        if (op === 'add')
          d.allowedDomains.push({
            path: `${org}/fz-domain-${tag}`,
            domain: `d${seed}x${i}.example`,
            ...(rnd() < 0.5 && { allowSubdomains: true }),
          });
        else if (d.allowedDomains.length === 0) break;
        else if (op === 'subdomains') {
          const a = pick(d.allowedDomains);
          if (a.allowSubdomains) delete a.allowSubdomains;
          else a.allowSubdomains = true;
        } else removeOne(d.allowedDomains, 'allowedDomain');
        say(op);
        break;
      }
      case 'organization': {
        const s = d.organizationSettings[0];
        if (!s) break;
        if (rnd() < 0.7) {
          const [name, values] = pick(Object.entries(ORG_VALUES));
          const v = pick(values);
          const info = (ORGANIZATION_PROPERTIES as Record<string, OrganizationPropertyInfo>)[name]!;
          if (organizationPropertyProblem(info, v) !== undefined)
            throw new Error(`${name}: ${String(v)} is not valid`);
          (s.properties as Record<string, unknown>)[name] = v;
          say(`${name} = ${String(v)}`);
        } else if (rnd() < 0.5) {
          const c = pick(active().filter((x) => !x.private));
          s.properties.newChannelAnnouncementsChannel = c.name;
          say(`newChannelAnnouncementsChannel = ${c.name}`);
        } else {
          const [name, values] = pick(Object.entries(ORG_PERMISSIONS));
          (s.permissions as Record<string, GroupSettingValue>)[name] = pick(values);
          say(name);
        }
        break;
      }
      case 'userDefaults': {
        const s = d.defaultUserSettings[0];
        if (!s) break;
        const entries = (
          Object.entries(DEFAULT_USER_SETTINGS) as [string, DefaultUserSettingInfo][]
        ).filter(
          ([n, info]) => n in s.properties && (info.type === 'boolean' || info.type === 'enum'),
        );
        const [name, info] = pick(entries);
        const v =
          info.type === 'boolean'
            ? !(s.properties as Record<string, unknown>)[name]
            : pick(Object.keys(info.values ?? {}));
        if (defaultUserSettingProblem(info, v) !== undefined)
          throw new Error(`${name} ${String(v)}`);
        (s.properties as Record<string, unknown>)[name] = v;
        say(`${name} = ${String(v)}`);
        break;
      }
    }
  }
  // As synth writes it: sorted as each kind's spec says, checked against the schema.
  for (const k of RESOURCE_KINDS) {
    const by = (KIND_SPECS[k] as KindSpec).sortedBy as
      ((x: object) => readonly string[]) | undefined;
    if (by)
      (d[KIND_SPECS[k].collection] as object[]).sort((a, b) => {
        const x = by(a);
        const y = by(b);
        for (let j = 0; j < x.length; j++) {
          const c = compareStrings(x[j] ?? '', y[j] ?? '');
          if (c !== 0) return c;
        }
        return 0;
      });
  }
  return { desired: DesiredStateSchema.parse(d), log };
}
