import type { Change } from '../src/engine';

/**
 * The fewest write requests Zulip's API allows for a plan's changes (issue 17, target 4): what
 * any tool would have to send, however well it batched. Reads are not counted. Per change:
 *
 * | change                                            | requests                                       |
 * | ------------------------------------------------- | ---------------------------------------------- |
 * | create (a new channel or group with its members)   | 1 (`POST /channels/create`, `/user_groups/create` take the members) |
 * | update and rename of one object                    | 1 per object: one `PATCH` takes every field (`PATCH /streams/{id}`, `/user_groups/{id}`, `/users/{id}`, `/channel_folders/{id}`, `/realm`) |
 * | subscription settings of the applying account      | 1 for all (`POST /users/me/subscriptions/properties`) |
 * | group members and subgroups, added and removed     | 1 per group (`POST /user_groups/{id}/members`) |
 * | channel subscribers added / removed                | one `POST` / `DELETE /users/me/subscriptions` per distinct principal set or per distinct channel set, whichever is fewer (a call subscribes every principal to every channel it names, so only channels whose principals agree share one); notifying and silent additions never share a call |
 * | archive, deactivate, delete, unarchive, reactivate | 1 each (Zulip has no bulk form)                |
 * | replace (a playground)                             | 2 (Zulip has no update: delete, create)        |
 * | reorder                                            | 1                                              |
 *
 * A membership of an object the plan creates costs nothing more: it goes with the create.
 */
export interface RequestFloor {
  readonly total: number;
  /** By kind of request, e.g. `subscribe`, `update`, `create`. */
  readonly byKind: Readonly<Record<string, number>>;
}

/** Fewest calls covering (channel, user) pairs when each call is all its channels × all its users. */
function pairCalls(pairs: readonly { channel: string; user: number; notify: boolean }[]): number {
  let calls = 0;
  for (const notify of [false, true]) {
    const usersOf = new Map<string, number[]>();
    const channelsOf = new Map<number, string[]>();
    for (const p of pairs) {
      if (p.notify !== notify) continue;
      let users = usersOf.get(p.channel);
      if (!users) usersOf.set(p.channel, (users = []));
      users.push(p.user);
      let channels = channelsOf.get(p.user);
      if (!channels) channelsOf.set(p.user, (channels = []));
      channels.push(p.channel);
    }
    const distinct = (lists: Iterable<readonly (string | number)[]>): number =>
      new Set([...lists].map((l) => JSON.stringify([...l].sort()))).size;
    calls += Math.min(distinct(usersOf.values()), distinct(channelsOf.values()));
  }
  return calls;
}

export function requestFloor(changes: readonly Change[]): RequestFloor {
  const byKind: Record<string, number> = {};
  const count = (k: string, n = 1): void => {
    if (n > 0) byKind[k] = (byKind[k] ?? 0) + n;
  };
  const creates = new Set(changes.filter((c) => c.action === 'create').map((c) => c.address));
  const patched = new Set<string>();
  let settings = false;
  const adds: { channel: string; user: number; notify: boolean }[] = [];
  const removes: { channel: string; user: number; notify: boolean }[] = [];
  for (const c of changes) {
    switch (c.action) {
      case 'create':
        count('create');
        break;
      case 'update':
      case 'rename':
        if (c.kind === 'subscriptionSettings') settings = true;
        else patched.add(c.address);
        break;
      case 'membership':
        if (c.liveId === null && creates.has(c.address)) break;
        if (c.kind === 'userGroup') count('group members');
        else {
          for (const u of c.add) adds.push({ channel: c.key, user: u.id, notify: c.notify });
          for (const u of c.remove) removes.push({ channel: c.key, user: u.id, notify: false });
        }
        break;
      case 'replace':
        count('replace', 2);
        break;
      case 'archive':
      case 'deactivate':
      case 'delete':
      case 'unarchive':
      case 'reactivate':
        count(c.action);
        break;
      case 'reorder':
        count('reorder');
        break;
    }
  }
  count('update', patched.size);
  if (settings) count('subscription settings');
  count('subscribe', pairCalls(adds));
  count('unsubscribe', pairCalls(removes));
  return { total: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}
