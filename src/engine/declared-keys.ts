import { resourceAddress } from '../model/address';
import type { DesiredState, DesiredUser } from '../model/desired-state';
import type { LiveUser } from '../model/live-state';
import { ZulipCdkError } from '../model/errors';
import { KIND_SPECS, RESOURCE_KINDS } from '../model/kinds';
import type { KindSpec, ResourceKind } from '../model/kinds';

/** The natural key of a declared object of a kind without keyed facts (users: below). */
const OTHER_KEYS: Partial<
  Record<ResourceKind, { key: (d: never) => string; compare: (k: string) => string }>
> = {
  // One entry a channel, its name compared as Zulip compares channel names.
  subscriptionSettings: {
    key: (d: { channel: string }) => d.channel,
    compare: KIND_SPECS.channel.compareKey,
  },
};

/**
 * Two declared objects of a kind with the same natural key, as Zulip compares it (a channel's
 * name case-insensitively, a domain as Zulip stores it): synth refuses them on their constructs,
 * but a desired state can come from elsewhere (`plan --desired`, the library's `plan()`), and the
 * plan would then hold two changes with one address, the second refused by Zulip at apply.
 * Users are told apart by the live user each address finds (`liveUsers`, in `desired.users`'
 * order: the address as Zulip compares it, case-insensitively), which costs a mark per user
 * where a map of 100,000 lower-cased addresses cost 45 ms at the bench's scale 10; an address
 * that finds no user is a plan error of its own. Throws `DESIRED_STATE_INVALID` listing every
 * such pair, before any change is planned.
 */
export function checkDeclaredKeys(
  desired: DesiredState,
  liveUsers: readonly (LiveUser | undefined)[],
): void {
  const problems = duplicateUsers(desired.users, liveUsers);
  for (const kind of RESOURCE_KINDS) {
    const spec: KindSpec = KIND_SPECS[kind];
    const facts = spec.keyed ? { key: spec.keyed.key, compare: spec.compareKey } : OTHER_KEYS[kind];
    if (!facts) continue;
    const list = (desired as unknown as Record<string, readonly { path: string }[]>)[
      spec.collection
    ];
    const seen = new Map<string, { path: string; key: string }>();
    for (const d of list ?? []) {
      const key = facts.key(d as never);
      const compared = facts.compare(key);
      const first = seen.get(compared);
      if (first)
        problems.push(
          `${resourceAddress(kind, key)} (${d.path}) duplicates ${resourceAddress(kind, first.key)} (${first.path}): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one`,
        );
      else seen.set(compared, { path: d.path, key });
    }
  }
  if (problems.length > 0)
    throw new ZulipCdkError(
      'DESIRED_STATE_INVALID',
      `The desired state declares some objects twice:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      {
        hint: 'Synth refuses this on the constructs; a desired state written or edited by other means must keep natural keys unique.',
      },
    );
}

function duplicateUsers(
  users: readonly DesiredUser[],
  lives: readonly (LiveUser | undefined)[],
): string[] {
  const problems: string[] = [];
  const firstAt = new Map<number, number>();
  lives.forEach((l, i) => {
    if (!l) return;
    const first = firstAt.get(l.id);
    if (first === undefined) {
      firstAt.set(l.id, i);
      return;
    }
    const [a, b] = [users[first] as DesiredUser, users[i] as DesiredUser];
    problems.push(
      `${resourceAddress('user', b.email)} (${b.path}) duplicates ${resourceAddress('user', a.email)} (${a.path}): the same key, as zulip-cdk matches declared objects to live ones (as Zulip compares names). Keep one`,
    );
  });
  return problems;
}
