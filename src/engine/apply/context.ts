import { channelNameKey, resourceAddress } from '../../model/address';
import { ZulipCdkError } from '../../model/errors';
import type { LiveState, WireGroupSettingValue } from '../../model/live-state';
import { LiveIndex } from '../live-index';
import type { Change, JsonValue } from '../plan-format';

/**
 * What an apply knows while it runs: the live state as re-read before writing, and the IDs of
 * objects the plan names by natural key (created or renamed during this apply). Turns the
 * plan's natural-key values (group names, emails, folder names) into wire IDs.
 */
export class ApplyContext {
  #live: LiveState;
  #idx: LiveIndex;
  /** Address (desired name) → live ID, for objects the plan touches or creates. */
  readonly #ids = new Map<string, number>();

  public constructor(live: LiveState, changes: readonly Change[]) {
    this.#live = live;
    this.#idx = new LiveIndex(live);
    for (const c of changes)
      if ('liveId' in c && c.liveId !== null) this.#ids.set(c.address, c.liveId);
  }

  /** The live state as last read. */
  public get live(): LiveState {
    return this.#live;
  }

  public get index(): LiveIndex {
    return this.#idx;
  }

  public get featureLevel(): number {
    return this.#live.server.featureLevel;
  }

  public get me(): LiveState['me'] {
    return this.#live.me;
  }

  /** After a re-read. IDs recorded so far stay. */
  public setLive(live: LiveState): void {
    this.#live = live;
    this.#idx = new LiveIndex(live);
  }

  /** Records the ID of an object created (or found) during the apply. */
  public record(address: string, id: number): void {
    this.#ids.set(address, id);
  }

  /** The ID recorded for an address, if any. */
  public idOf(address: string): number | undefined {
    return this.#ids.get(address);
  }

  public userId(email: string): number {
    const u = this.#idx.user(email);
    if (!u) throw unresolved(`user ${email}`);
    return u.id;
  }

  public groupId(name: string): number {
    const recorded = this.#ids.get(resourceAddress('userGroup', name));
    if (recorded !== undefined) return recorded;
    const g = this.#idx.groupsByName.get(name);
    if (!g) throw unresolved(`user group '${name}'`);
    return g.id;
  }

  public channelId(name: string): number {
    const recorded = this.#ids.get(resourceAddress('channel', name));
    if (recorded !== undefined) return recorded;
    const key = channelNameKey(name);
    for (const [address, id] of this.#ids)
      if (address.startsWith('channel[') && channelNameKey(keyOf(address)) === key) return id;
    const c = this.#idx.channelsByKey.get(key);
    if (!c) throw unresolved(`channel '${name}'`);
    return c.id;
  }

  public folderId(name: string): number {
    const key = channelNameKey(name);
    for (const [address, id] of this.#ids)
      if (address.startsWith('channelFolder[') && channelNameKey(keyOf(address)) === key) return id;
    const f = this.#idx.foldersByKey.get(key);
    if (!f) throw unresolved(`channel folder '${name}'`);
    return f.id;
  }

  /** A natural-key group-setting value (a group name or `{users, groups}`) on the wire. */
  public wireGroupSetting(value: JsonValue): WireGroupSettingValue {
    if (typeof value === 'string') return this.groupId(value);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const users = Array.isArray(value.users) ? value.users : [];
      const groups = Array.isArray(value.groups) ? value.groups : [];
      return {
        direct_members: users
          .map((u) => this.userId(typeof u === 'string' ? u : JSON.stringify(u)))
          .sort((a, b) => a - b),
        direct_subgroups: groups
          .map((g) => this.groupId(typeof g === 'string' ? g : JSON.stringify(g)))
          .sort((a, b) => a - b),
      };
    }
    throw new ZulipCdkError(
      'PLAN_INVALID',
      `A group-setting value in the plan is neither a group nor a set: ${JSON.stringify(value)}`,
    );
  }
}

function keyOf(address: string): string {
  const m = /^[a-zA-Z]+\[(".*")\]$/.exec(address);
  return m?.[1] ? (JSON.parse(m[1]) as string) : address;
}

function unresolved(what: string): ZulipCdkError {
  return new ZulipCdkError(
    'UNRESOLVED_REFERENCE',
    `The plan refers to ${what}, which does not exist in the organization (any more).`,
    { hint: 'Plan again: the organization changed since the plan was made.' },
  );
}
