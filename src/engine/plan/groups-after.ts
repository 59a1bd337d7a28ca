/**
 * What Zulip refuses of user groups that only the groups as the plan leaves them show:
 *
 * - a subgroup that would make a cycle ({@link checkSubgroupCycles});
 * - deactivating a group still in use ({@link checkGroupDeactivations}).
 *
 * Zulip refuses to deactivate a user group that is still in use
 * (zerver/lib/user_groups.py `check_user_group_can_be_deactivated`, behind
 * `access_user_group_for_deactivation`: "Cannot deactivate user group in use."): a subgroup of
 * an active named group, or named (directly, or as a subgroup of an anonymous value) by a
 * setting of an active channel, of an active group (itself included) or of the organization.
 *
 * Removals are applied after every other change (`rank` in `../plan-finish.ts`), so what counts
 * is each object as the plan leaves it: its value in the plan's update, create or membership
 * change when there is one, else the live value. The configuration cannot name a group it
 * deactivates (synth refuses a declared-deactivated one, and the planner keeps a pruned one it
 * names), so what is left is what the configuration does not manage: undeclared channels and
 * groups, settings in `ignoreChanges`, the organization's settings not declared.
 */
import {
  ORGANIZATION_PERMISSIONS,
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
} from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import type { WireGroupSettingValue } from '../../model/live-state';
import type { Change, JsonValue } from '../plan-format';
import type { Planner } from './planner';
import { groupsIn } from './planner';
import { cyclesOf } from './cycles';

/** Uses listed by name in one error; the rest are counted. */
const LISTED = 5;

/** The natural name of a setting, by wire name, for each table. */
function namesByWire(table: Record<string, PermissionSettingInfo>): Map<string, string> {
  return new Map(Object.entries(table).map(([name, info]) => [info.wire, name]));
}

/** One object's settings after the plan: the plan's values by property, else the live ones. */
interface SettingsAfter {
  readonly where: string;
  /** The plan's change that deactivates or archives the object, if any. */
  readonly removedBy?: string;
  readonly live: Readonly<Record<string, WireGroupSettingValue>>;
  readonly planned: ReadonlyMap<string, JsonValue>;
  readonly names: ReadonlyMap<string, string>;
}

/** `c`'s values of `permissions.*` properties (create or update), by setting name. */
function plannedSettings(c: Change | undefined): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  if (c?.action === 'update')
    for (const x of c.properties)
      if (x.property.startsWith('permissions.'))
        out.set(x.property.slice('permissions.'.length), x.after);
  if (c?.action === 'create')
    for (const [k, v] of Object.entries(c.properties))
      if (k.startsWith('permissions.')) out.set(k.slice('permissions.'.length), v);
  return out;
}

/** The settings of `s` that name the group (`id` live, `name` in the plan's terms). */
function settingsNaming(s: SettingsAfter, id: number, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const [wire, name] of s.names) {
    const planned = s.planned.get(name);
    if (planned !== undefined) {
      if (groupsIn(planned).some((g) => names.includes(g))) out.push(name);
      continue;
    }
    const v = s.live[wire];
    if (v === undefined) continue;
    if (typeof v === 'number' ? v === id : v.direct_subgroups.includes(id)) out.push(name);
  }
  return out;
}

/** The checks of this module, run once every kind is planned. */
export function checkGroupsAfterPlan(p: Planner): void {
  checkSubgroupCycles(p);
  checkGroupDeactivations(p);
}

/**
 * Zulip refuses to add a subgroup that already has the group among its subgroups, directly or
 * not (zerver/views/user_groups.py `add_subgroups_to_group_backend`: "User group {id} is
 * already a subgroup of one of the passed subgroups."). Synth refuses a cycle among declared
 * groups; this finds one through the organization's groups as the plan leaves them (an
 * undeclared group, or a declared one whose members are not `exact`), for each subgroup the
 * plan adds.
 */
function checkSubgroupCycles(p: Planner): void {
  const memberships = p.changes.flatMap((c) =>
    c.kind === 'userGroup' && c.action === 'membership' && c.addSubgroups.length > 0 ? [c] : [],
  );
  if (memberships.length === 0) return;
  // Groups by node: a live ID, or the name of a group the plan creates.
  const node = (id: number | null, name: string): string => (id === null ? `new:${name}` : `${id}`);
  const label = new Map<string, string>();
  // The subgroups after the plan, and those at some point of it (live ones and added ones).
  const edges = new Map<string, Set<string>>();
  const anyTime = new Map<string, Set<string>>();
  const removing = new Map<string, string>();
  for (const g of p.live.userGroups) {
    if (g.isSystemGroup) continue;
    edges.set(`${g.id}`, new Set(g.subgroups.map((id) => `${id}`)));
    anyTime.set(`${g.id}`, new Set(g.subgroups.map((id) => `${id}`)));
    label.set(`${g.id}`, g.name);
  }
  for (const c of p.changes) {
    if (c.kind !== 'userGroup' || c.action !== 'membership') continue;
    const from = node(c.liveId, c.key);
    label.set(from, c.key);
    const set = edges.get(from) ?? new Set<string>();
    const all = anyTime.get(from) ?? new Set<string>();
    if (c.removeSubgroups.length > 0) removing.set(from, c.id);
    for (const s of c.removeSubgroups) if (s.id !== null) set.delete(`${s.id}`);
    for (const s of c.addSubgroups) {
      set.add(node(s.id, s.name));
      all.add(node(s.id, s.name));
      label.set(node(s.id, s.name), s.name);
    }
    edges.set(from, set);
    anyTime.set(from, all);
  }
  for (const c of memberships) {
    const group = node(c.liveId, c.key);
    for (const s of c.addSubgroups) {
      const start = node(s.id, s.name);
      const after = reach(edges, start);
      if (!after.has(group)) {
        // A cycle only while another membership change has not yet removed a subgroup on
        // the way: Zulip checks at each request, so this one waits for those.
        const seen = reach(anyTime, start);
        if (!seen.has(group)) continue;
        const waits = [...seen.keys()].flatMap((n) => {
          const id = removing.get(n);
          return id !== undefined && id !== c.id ? [id] : [];
        });
        p.waitFor(c.id, waits);
        continue;
      }
      const cycle = [group];
      for (let x = group; x !== start;) cycle.unshift((x = after.get(x) as string));
      const names = [c.key, ...cycle.map((n) => label.get(n) ?? n)];
      p.errors.push(
        `${c.address} (${c.path}): members.groups: adding '${s.name}' makes a cycle of subgroups (${names.join(' -> ')}) after this plan; Zulip refuses it${c.liveId === null ? '' : ` ("User group ${c.liveId} is already a subgroup of one of the passed subgroups.")`}: remove '${s.name}' from the members of '${c.key}', or '${c.key}' from those of the group that holds it`,
      );
    }
  }
}

/** The groups reachable from `start` in `graph`, each with the one it was reached from. */
function reach(
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  start: string,
): Map<string, string> {
  const parent = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    for (const next of graph.get(at) ?? [])
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
  }
  return parent;
}

/** Plan errors for the groups this plan deactivates while something still uses them. */
function checkGroupDeactivations(p: Planner): void {
  const deactivated = p.changes.flatMap((c) =>
    c.kind === 'userGroup' && c.action === 'deactivate' ? [c] : [],
  );
  if (deactivated.length === 0) return;
  // The plan's changes of each live object (by kind and live ID: a renamed object's changes
  // have its new name), and of each object it creates (by address).
  const byLive = new Map<string, Change[]>();
  const byAddress = new Map<string, Change[]>();
  for (const c of p.changes) {
    const id = 'liveId' in c ? c.liveId : null;
    const key = id === null ? c.address : `${c.kind}:${id}`;
    const map = id === null ? byAddress : byLive;
    const list = map.get(key) ?? [];
    list.push(c);
    map.set(key, list);
  }
  const changesOf = (kind: string, id: number): readonly Change[] =>
    byLive.get(`${kind}:${id}`) ?? [];
  const find = (list: readonly Change[], action: Change['action']): Change | undefined =>
    list.find((c) => c.action === action);
  const removal = (list: readonly Change[]): { removedBy?: string } => {
    const r = list.find((c) => c.action === 'deactivate' || c.action === 'archive');
    return r ? { removedBy: r.id } : {};
  };
  const restored = (list: readonly Change[]): boolean =>
    list.some((c) => c.action === 'reactivate' || c.action === 'unarchive');

  // Every active object after the plan with group settings: its settings and, for a group,
  // its subgroups (live IDs and the names the plan adds).
  const objects: SettingsAfter[] = [];
  const supergroups: {
    where: string;
    removedBy?: string;
    ids: Set<number>;
    added: Set<string>;
  }[] = [];
  const groupNames = namesByWire(GROUP_PERMISSIONS);
  const channelNames = namesByWire(CHANNEL_PERMISSIONS);
  for (const g of p.live.userGroups) {
    const changes = changesOf('userGroup', g.id);
    if (g.deactivated && !restored(changes)) continue;
    const removedBy = removal(changes);
    objects.push({
      where: `user group '${g.name}'`,
      ...removedBy,
      live: g.permissions,
      planned: plannedSettings(find(changes, 'update')),
      names: groupNames,
    });
    if (g.isSystemGroup) continue;
    const m = find(changes, 'membership');
    const ids = new Set(g.subgroups);
    const added = new Set<string>();
    if (m?.action === 'membership') {
      for (const s of m.removeSubgroups) if (s.id !== null) ids.delete(s.id);
      for (const s of m.addSubgroups) added.add(s.name);
    }
    supergroups.push({ where: `user group '${g.name}'`, ...removedBy, ids, added });
  }
  for (const c of p.changes) {
    if (c.action !== 'create' || (c.kind !== 'userGroup' && c.kind !== 'channel')) continue;
    const names = c.kind === 'userGroup' ? groupNames : channelNames;
    const created = byAddress.get(c.address) ?? [];
    const planned = plannedSettings(c);
    // Settings naming a group created later go into an update after the create.
    for (const [k, v] of plannedSettings(find(created, 'update'))) planned.set(k, v);
    objects.push({
      where: c.kind === 'userGroup' ? `user group '${c.key}'` : `channel #${c.key}`,
      live: {},
      planned,
      names,
    });
    const m = find(created, 'membership');
    if (c.kind === 'userGroup' && m?.action === 'membership')
      supergroups.push({
        where: `user group '${c.key}'`,
        ids: new Set(),
        added: new Set(m.addSubgroups.map((s) => s.name)),
      });
  }
  for (const ch of p.live.channels) {
    const changes = changesOf('channel', ch.id);
    if (ch.archived && !restored(changes)) continue;
    objects.push({
      where: `channel #${ch.name}`,
      ...removal(changes),
      live: ch.permissions,
      planned: plannedSettings(find(changes, 'update')),
      names: channelNames,
    });
  }
  const realm = p.live.organizationSettings?.permissions;
  if (realm)
    objects.push({
      where: 'the organization',
      live: realm,
      planned: plannedSettings(
        p.changes.find((c) => c.kind === 'organizationSettings' && c.action === 'update'),
      ),
      names: namesByWire(ORGANIZATION_PERMISSIONS),
    });

  // Each deactivation waits for the removals of the objects that use it (removals are applied
  // by kind rank: groups before channels, and among groups in plan order).
  const waitsFor = new Map<string, Set<string>>();
  for (const c of deactivated) {
    const live = p.idx.groupsById.get(c.liveId);
    const names = [c.key, ...(live ? [live.name] : [])];
    const uses: string[] = [];
    const waits = new Set<string>();
    const use = (o: { where: string; removedBy?: string }, what: string): void => {
      if (o.removedBy === undefined || o.removedBy === c.id) uses.push(`${o.where}${what}`);
      else waits.add(o.removedBy);
    };
    for (const s of supergroups)
      if (s.ids.has(c.liveId) || names.some((n) => s.added.has(n))) use(s, ' has it as a subgroup');
    for (const o of objects) {
      const settings = settingsNaming(o, c.liveId, names);
      if (settings.length > 0) use(o, `: ${settings.join(', ')}`);
    }
    waitsFor.set(c.id, waits);
    if (uses.length === 0) continue;
    const shown = uses.slice(0, LISTED).join('; ');
    const more = uses.length > LISTED ? `; and ${uses.length - LISTED} more` : '';
    p.errors.push(
      `${c.address} (${c.path ?? 'undeclared, pruned'}): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and after this plan ${shown}${more}. Change those first (declare them without the group, or remove it from them in Zulip), or keep the group`,
    );
  }
  // Deactivations that each use another (a ring of any length): none can go first.
  const ringed = new Set<string>();
  const byId = new Map(deactivated.map((c) => [c.id, c]));
  for (const ring of cyclesOf(waitsFor)) {
    for (const id of ring) ringed.add(id);
    const first = byId.get(ring[0]!)!;
    p.errors.push(
      `${first.address} (${first.path ?? 'undeclared, pruned'}): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and this plan deactivates ${ring.map((id) => id.replace(/#[a-z]+$/, '')).join(', ')} together, each used by another of them, so none can go first. Change the settings of one of them first`,
    );
  }
  for (const c of deactivated) {
    if (!ringed.has(c.id)) p.waitFor(c.id, [...(waitsFor.get(c.id) ?? [])]);
  }
}
