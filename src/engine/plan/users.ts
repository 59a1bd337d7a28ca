/**
 * Users: the check of every e-mail the configuration names (phase 1 of `Planner.run`), and the
 * role and name of declared users.
 *
 * Functions of the planner's phases (see `Planner` in `./planner.ts`): they read and write its
 * shared state.
 */
import { resourceAddress } from '../../model/address';
import type { DesiredUser, GroupSettingValue } from '../../model/desired-state';
import { ROLES, roleName } from '../../model/kinds';
import type { RoleName } from '../../model/kinds';
import type { PropertyChange, UntaggedChange } from '../plan-format';
import type { LiveUser } from '../../model/live-state';
import { closest } from '../../model/spelling';
import { ORGANIZATION_PERMISSIONS } from '../../model/permissions';
import { fullNameKey, pyStrip } from '../../model/rules';
import { holderFor, holdsDeclared } from './account';
import { ORGANIZATION_UPDATE } from './organization';
import { groupAddress, isIgnored } from './planner';
import type { Planner } from './planner';
import { cyclesOf } from './cycles';

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
export function checkUsers(p: Planner): void {
  const check = (emails: readonly string[], address: string, path: string, where: string) => {
    for (const { email, deactivated } of p.idx.resolve(emails).problems)
      if (!deactivated) unknownUser(p, email, address, path, where);
      else
        p.warn(
          'DEACTIVATED_USER',
          `${where}: ${email} is deactivated: neither added nor removed (Zulip adds no deactivated user, and keeps what it was a member of for when it is reactivated); remove it from the configuration`,
          address,
          path,
        );
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
  for (const d of p.desired.userGroups) {
    const address = groupAddress(d.name);
    check(d.members.users, address, d.path, 'members');
    checkPermissions(d.permissions, address, d.path);
  }
  for (const d of p.desired.channels) {
    const address = resourceAddress('channel', d.name);
    if (d.subscribers) check(d.subscribers.users, address, d.path, 'subscribers');
    checkPermissions(d.permissions, address, d.path);
  }
  const lives = p.liveUsers();
  const declared = p.desired.users;
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i] as DesiredUser;
    const u = lives[i];
    if (!u) unknownUser(p, d.email, resourceAddress('user', d.email), d.path, 'email');
    // Declared deactivated, or to be reactivated: nothing to warn about.
    else if (!u.isActive && d.active === undefined)
      p.warn(
        'DEACTIVATED_USER',
        `${d.email} is deactivated; its role and name are left as they are (declare active: true to reactivate the account, or active: false to record that it is offboarded)`,
        resourceAddress('user', d.email),
        d.path,
      );
  }
}

/** A plan error for an e-mail that is not a user, with the closest users' e-mails. */
function unknownUser(
  p: Planner,
  email: string,
  address: string,
  path: string,
  where: string,
): void {
  const line = `${address} (${path}): ${where}: ${email} is not a user of this organization`;
  if (p.unknownUserLines.has(line)) return;
  p.unknownUserLines.add(line);
  const near = suggestEmails(email, p.live.users).map((u) =>
    u.isActive ? u.email : `${u.email} (deactivated)`,
  );
  p.errors.push(near.length > 0 ? `${line}; did you mean ${near.join(' or ')}?` : line);
}

/** Whether a declared user is active after the plan. */
function activeAfter(d: DesiredUser, u: LiveUser): boolean {
  return d.active === undefined || isIgnored(d.lifecycle, 'active') ? u.isActive : d.active;
}

/**
 * The human owners the organization has after the plan: active ones, minus those this plan
 * deactivates or demotes, plus those it promotes or reactivates as owners.
 */
function ownersAfter(p: Planner): Set<number> {
  const owners = new Set(
    p.live.users.filter((u) => u.isActive && !u.isBot && u.role === ROLES.owner).map((u) => u.id),
  );
  const lives = p.liveUsers();
  const declared = p.desired.users;
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i] as DesiredUser;
    const u = lives[i];
    if (!u || u.isBot) continue;
    const active = activeAfter(d, u);
    // A user the plan reactivates gets its declared role too (planUsers).
    const roleAfter =
      d.role === undefined || isIgnored(d.lifecycle, 'role') || !active ? roleName(u.role) : d.role;
    if (active && roleAfter === 'owner') owners.add(u.id);
    else owners.delete(u.id);
  }
  return owners;
}

/**
 * `active: false` on an active user: `DELETE /users/{id}` (zerver/views/users.py
 * `deactivate_user_backend`), with Zulip's refusals said at plan time.
 */
function planDeactivation(
  p: Planner,
  d: DesiredUser,
  l: LiveUser,
  address: string,
  owners: () => Set<number>,
): void {
  const where = `${address} (${d.path})`;
  const me = p.live.me;
  if (d.lifecycle?.protect) {
    p.protectedFinding(address, d.path, 'deactivate');
    return;
  }
  if (l.id === me.userId) {
    p.errors.push(
      `${where}: active: false on the applying account (${me.email}): apply would lock itself out halfway; deactivate this account with another administrator's account`,
    );
    return;
  }
  if (l.isBot) {
    p.errors.push(
      `${where}: ${l.email} is a bot: Zulip deactivates bots with DELETE /bots/{id}, not as users ("No such user"); remove active: false`,
    );
    return;
  }
  if (me.role > ROLES.administrator)
    p.errors.push(
      `${where}: deactivating a user needs an organization administrator; Zulip refuses it for ${me.email} ("Insufficient permission")`,
    );
  // zerver/views/users.py check_last_owner.
  if (l.role === ROLES.owner && owners().size === 0)
    p.errors.push(
      `${where}: ${l.email} is the organization's only owner after this plan; Zulip refuses ("Cannot deactivate the only organization owner"): make someone else an owner first`,
    );
  else if (l.role === ROLES.owner)
    p.needsOwner('deactivating an organization owner', address, d.path);
  const bots = p.live.users
    .filter((u) => u.isBot && u.isActive && u.botOwnerId === l.id)
    .map((u) => u.email)
    .sort();
  p.add({
    kind: 'user',
    address,
    key: l.email,
    path: d.path,
    id: `${address}#deactivate`,
    action: 'deactivate',
    dependsOn: [],
    liveId: l.id,
    reason: 'declared',
    before: {
      email: l.email,
      fullName: l.fullName,
      role: roleName(l.role) ?? String(l.role),
      ownedBots: bots,
    },
  });
}

/**
 * Whether the organization requires unique names after the plan (`require_unique_names`: the
 * organization's settings are applied before users).
 */
function uniqueNamesRequired(p: Planner): boolean {
  const declared = p.desired.organizationSettings[0]?.properties.requireUniqueNames;
  if (declared !== undefined) return declared === true;
  return p.live.organizationSettings?.properties.require_unique_names === true;
}

/**
 * What Zulip refuses in `PATCH /users/{id}` (zerver/views/users.py `update_user_backend`) for a
 * declared role or name change of `l`, said at plan time: the account must be an organization
 * administrator (`access_user_by_id` with `for_admin`: "Insufficient permission", unless it owns
 * the bot; a role change always needs one), the only human owner keeps the owner role
 * (`check_last_owner`), and with `require_unique_names` no other user may have the name
 * (`check_full_name`, compared as {@link fullNameKey}, with every other user's name after the
 * plan).
 */
function checkUserUpdate(
  p: Planner,
  d: DesiredUser,
  l: LiveUser,
  props: readonly PropertyChange[],
  owners: () => Set<number>,
  names: () => Map<string, LiveUser[]>,
): void {
  const where = `${resourceAddress('user', d.email)} (${d.path})`;
  const me = p.live.me;
  const role = props.find((x) => x.property === 'role');
  const ownBot = l.isBot && l.botOwnerId === me.userId;
  if (me.role > ROLES.administrator && (role !== undefined || !ownBot))
    p.accountError(
      `${where}: changing a user's ${props.map((x) => x.property).join(' and ')} needs an organization administrator (PATCH /users/{id}); Zulip refuses it for ${me.email} ("${role !== undefined && ownBot ? 'Must be an organization administrator' : 'Insufficient permission'}")`,
    );
  if (role?.before === 'owner' && !l.isBot && owners().size === 0)
    p.errors.push(
      `${where}: ${l.email} is the organization's only owner after this plan; Zulip refuses to change its role ("The owner permission cannot be removed from the only organization owner."): make someone else an owner first`,
    );
  const name = props.find((x) => x.property === 'fullName');
  if (name === undefined || typeof name.after !== 'string') return;
  if (!uniqueNamesRequired(p)) {
    // Allowed because the plan turns requireUniqueNames off (applied before users): a name
    // another user has then waits for that change, so --target keeps it.
    if (p.live.organizationSettings?.properties.require_unique_names === true)
      if (
        names()
          .get(fullNameKey(name.after))
          ?.some((u) => u.id !== l.id)
      )
        p.waitFor(`${resourceAddress('user', d.email)}#update`, [ORGANIZATION_UPDATE]);
    return;
  }
  const other = names()
    .get(fullNameKey(name.after))
    ?.find((u) => u.id !== l.id);
  if (other)
    p.errors.push(
      `${where}: fullName '${name.after}': the organization requires unique names, and ${other.email} has the same name after this plan (compared without case or Unicode variants); Zulip refuses it ("Unique names required in this organization."): choose another name`,
    );
}

/**
 * Every user's full name after the plan (declared names of active declared users, else the
 * live name; bots and deactivated users included, as Zulip compares them), by {@link fullNameKey}.
 */
function namesAfter(p: Planner): Map<string, LiveUser[]> {
  const after = new Map<number, string>();
  const lives = p.liveUsers();
  p.desired.users.forEach((d, i) => {
    const u = lives[i];
    if (u && activeAfter(d, u) && d.fullName !== undefined && !isIgnored(d.lifecycle, 'fullName'))
      after.set(u.id, d.fullName);
  });
  const out = new Map<string, LiveUser[]>();
  for (const u of p.live.users) {
    const key = fullNameKey(after.get(u.id) ?? u.fullName);
    const list = out.get(key) ?? [];
    list.push(u);
    out.set(key, list);
  }
  return out;
}

/**
 * Zulip checks the last owner at each request (`check_last_owner`), so a change that takes the
 * owner role away (a deactivation, a demotion) waits for those that give it (a promotion, the
 * reactivation of an owner): otherwise handing the organization over in one plan would be
 * refused at its first request. The applying account's own demotion waits for every other
 * user change.
 */
function ownersFirst(p: Planner): void {
  const gives: string[] = [];
  /** Change id → the user whose owner role it takes away. */
  const takes = new Map<string, number>();
  for (const c of p.changes) {
    if (c.kind !== 'user' || !('liveId' in c) || c.liveId === null) continue;
    const l = p.idx.usersById.get(c.liveId);
    if (!l || l.isBot) continue;
    if (c.action === 'deactivate' && l.role === ROLES.owner) takes.set(c.id, l.id);
    if (c.action === 'reactivate' && l.role === ROLES.owner) gives.push(c.id);
    if (c.action !== 'update') continue;
    const role = c.properties.find((x) => x.property === 'role');
    if (role?.after === 'owner') gives.push(c.id);
    else if (role?.before === 'owner') takes.set(c.id, l.id);
  }
  // Only when the owners the plan keeps would not cover every removal in any order.
  const taken = new Set(takes.values());
  const kept = p.live.users.some(
    (u) => u.isActive && !u.isBot && u.role === ROLES.owner && !taken.has(u.id),
  );
  if (!kept) for (const id of takes.keys()) p.waitFor(id, gives);
  // The applying account's own demotion goes after every other user change: Zulip checks its
  // role at each request (an administrator no longer may change roles, a non-owner owners).
  const me = p.live.me;
  const mine = p.changes.find(
    (c) =>
      c.kind === 'user' &&
      c.action === 'update' &&
      c.liveId === me.userId &&
      c.properties.some(
        (x) => x.property === 'role' && ROLES[x.after as RoleName] > ROLES[x.before as RoleName],
      ),
  );
  if (mine)
    p.waitFor(
      mine.id,
      p.changes.filter((c) => c.kind === 'user' && c.id !== mine.id).map((c) => c.id),
    );
}

/** `UserProfile.INCOMING_WEBHOOK_BOT`. */
const INCOMING_WEBHOOK_BOT = 2;

/**
 * What `reactivate_user_backend` checks of a bot (zerver/views/users.py): the account may
 * create bots (`check_can_create_bot`: the organization's can_create_bots_group, or for an
 * incoming webhook bot can_create_write_only_bots_group, `bot_type` 2), and no active user has
 * the bot's name (`check_bot_name_available`, exact). Users are reactivated before any name changes.
 */
function checkBotReactivation(
  p: Planner,
  d: DesiredUser,
  l: LiveUser,
  address: string,
  conflicts: { id: string; other: LiveUser }[],
): void {
  const where = `${address} (${d.path})`;
  const realm = p.live.organizationSettings?.permissions;
  // At the request: the organization's declared settings and the memberships the plan adds
  // have landed (users go last). Organization settings are planned after users, so their
  // declared values are read here, not the plan's changes.
  // The reactivation waits for the memberships and the organization's change it relies on, so a
  // targeted plan and --keep-going keep them with it.
  const declared = p.desired.organizationSettings[0]?.permissions;
  const id = `${address}#reactivate`;
  const holds = (name: 'canCreateBotsGroup' | 'canCreateWriteOnlyBotsGroup'): boolean => {
    const wire = ORGANIZATION_PERMISSIONS[name].wire;
    const live = realm?.[wire] === undefined || holderFor(p, [id])(realm[wire]);
    if (declared?.[name] === undefined) return live;
    if (!holdsDeclared(p, declared[name], [id])) return false;
    if (!live) p.waitFor(id, [ORGANIZATION_UPDATE]);
    return true;
  };
  // A bot whose type is not known (an older snapshot): either setting may let it through.
  const webhook = l.botType === undefined || l.botType === INCOMING_WEBHOOK_BOT;
  if (!holds('canCreateBotsGroup') && !(webhook && holds('canCreateWriteOnlyBotsGroup')))
    p.errors.push(
      `${where}: reactivating a bot needs the right to create one (the organization's canCreateBotsGroup${l.botType === INCOMING_WEBHOOK_BOT ? ', or canCreateWriteOnlyBotsGroup for an incoming webhook bot' : ''}); Zulip refuses it for ${p.live.me.email} ("Insufficient permission"): add the account to canCreateBotsGroup, or apply with an account that holds it`,
    );
  const name = pyStrip(l.fullName);
  const other = p.live.users.find((u) => u.isActive && u.fullName === name);
  // Deactivated or renamed by this plan: the reactivation waits for it (end of planUsers).
  if (other && freedByPlan(p, other, name)) conflicts.push({ id: `${address}#reactivate`, other });
  else if (other)
    p.errors.push(
      `${where}: ${other.email} is an active user named '${name}', as the bot is; Zulip refuses to reactivate it ("There is already an active bot named "${l.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first."): rename one of them in Zulip first`,
    );
}

export function planUsers(p: Planner): void {
  let owners: Set<number> | undefined;
  const ownersOnce = (): Set<number> => (owners ??= ownersAfter(p));
  let names: Map<string, LiveUser[]> | undefined;
  const namesOnce = (): Map<string, LiveUser[]> => (names ??= namesAfter(p));
  const lives = p.liveUsers();
  const declared = p.desired.users;
  const conflicts: { id: string; other: LiveUser }[] = [];
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i] as DesiredUser;
    const found = lives[i];
    const address = resourceAddress('user', d.email);
    // Unknown users are plan errors (checkUsers).
    if (!found) continue;
    const l = found;
    if (d.active !== undefined && !isIgnored(d.lifecycle, 'active')) {
      if (!d.active) {
        // Nothing else changes on an account that is (or becomes) deactivated.
        if (l.isActive) planDeactivation(p, d, l, address, ownersOnce);
        continue;
      }
      if (!l.isActive) {
        // zerver/views/users.py reactivate_user_backend: `for_admin` access, which lets a
        // bot's owner through (can_admin_user).
        const ownBot = l.isBot && l.botOwnerId === p.live.me.userId;
        const refused = p.live.me.role > ROLES.administrator && !ownBot;
        if (refused)
          p.errors.push(
            `${address} (${d.path}): reactivating a user needs an organization administrator; Zulip refuses it for ${p.live.me.email} ("Insufficient permission")`,
          );
        p.add({
          kind: 'user',
          address,
          key: l.email,
          path: d.path,
          id: `${address}#reactivate`,
          action: 'reactivate',
          dependsOn: [],
          liveId: l.id,
        });
        if (!refused && l.isBot) checkBotReactivation(p, d, l, address, conflicts);
      }
    } else if (!l.isActive) continue; // A DEACTIVATED_USER warning (checkUsers).
    // Unlike other resources, an absent role or name is not managed: there is no "default"
    // role a declared user should be reset to.
    const props: PropertyChange[] = [];
    if (d.role !== undefined) {
      const before = roleName(l.role) ?? String(l.role);
      p.prop(props, d.lifecycle, 'role', before, d.role);
      const changed = props.some((p) => p.property === 'role');
      if (changed && (before === 'owner' || d.role === 'owner'))
        p.needsOwner(
          `${d.role === 'owner' ? 'granting' : 'removing'} the owner role`,
          address,
          d.path,
        );
    }
    if (d.fullName !== undefined) p.prop(props, d.lifecycle, 'fullName', l.fullName, d.fullName);
    p.addUpdate({ kind: 'user', address, key: l.email, path: d.path }, l.id, props);
    if (props.length > 0) checkUserUpdate(p, d, l, props, ownersOnce, namesOnce);
  }
  ownersFirst(p);
  if (uniqueNamesRequired(p)) renamesInTurn(p);
  for (const { id, other } of conflicts) {
    const frees = p.changes.filter(
      (c) =>
        c.kind === 'user' &&
        (c.action === 'deactivate' || c.action === 'update') &&
        c.liveId === other.id,
    );
    p.waitFor(
      id,
      frees.map((c) => c.id),
    );
  }
  checkUserRings(p);
}

/**
 * User changes that must each go before another (the waits above: the last owner, the applying
 * account's own demotion, unique names, a bot's name): no order passes Zulip's checks at each
 * request, so the plan says so instead of breaking the ring at random.
 */
function checkUserRings(p: Planner): void {
  const users = new Map<string, UntaggedChange>();
  for (const c of p.changes) if (c.kind === 'user') users.set(c.id, c);
  const graph = new Map([...users.keys()].map((id) => [id, p.meta.get(id)?.after ?? []]));
  for (const ring of cyclesOf(graph)) {
    const first = users.get(ring[0]!)!;
    p.errors.push(
      `${first.address} (${first.path ?? 'undeclared'}): the changes ${ring.join(', ')} must each be made before another, since Zulip checks at each request the last owner, the applying account's role and unique names; no order works in one apply. Make one of them in a first apply (for example a name or role alone), then the rest`,
    );
  }
}

/**
 * With `require_unique_names`, Zulip compares a new name with the names users have at that
 * request (`check_full_name`): a rename to a name another user gives up in the same plan waits
 * for that user's rename, and renames that would each wait for another (two users swapping
 * names) are an error.
 */
function renamesInTurn(p: Planner): void {
  const renames: { id: string; address: string; path: string; from: string; to: string }[] = [];
  for (const c of p.changes) {
    if (c.kind !== 'user' || c.action !== 'update') continue;
    const name = c.properties.find((x) => x.property === 'fullName');
    if (name && typeof name.before === 'string' && typeof name.after === 'string')
      renames.push({
        id: c.id,
        address: c.address,
        path: c.path ?? '',
        from: fullNameKey(name.before),
        to: fullNameKey(name.after),
      });
  }
  const byFrom = new Map(renames.map((r) => [r.from, r]));
  const reported = new Set<(typeof renames)[number]>();
  for (const r of renames) {
    const first = byFrom.get(r.to);
    if (!first || first === r) continue;
    p.waitFor(r.id, [first.id]);
    if (reported.has(r)) continue;
    // Follow the renames that must go first: back to r is a cycle.
    const chain = [r, first];
    for (let at = byFrom.get(first.to); at; at = byFrom.get(at.to)) {
      if (at === r) {
        for (const x of chain) reported.add(x);
        p.errors.push(
          `${r.address}${r.path ? ` (${r.path})` : ''}: the organization requires unique names, and this plan swaps names between users (${chain.map((x) => x.address).join(', ')}); Zulip compares each new name with the names users have at that request ("Unique names required in this organization."): give one of them a name no one has in a first apply, then the swap`,
        );
        break;
      }
      if (chain.includes(at)) break;
      chain.push(at);
    }
  }
}

/**
 * Whether the plan deactivates a live user (declared `active: false`) or renames it away from
 * `name` (stripped, compared exactly as `check_bot_name_available` does).
 */
function freedByPlan(p: Planner, u: LiveUser, name: string): boolean {
  const lives = p.liveUsers();
  return p.desired.users.some(
    (d, i) =>
      lives[i]?.id === u.id &&
      ((d.active === false && !isIgnored(d.lifecycle, 'active')) ||
        (d.fullName !== undefined &&
          !isIgnored(d.lifecycle, 'fullName') &&
          pyStrip(d.fullName) !== name)),
  );
}
