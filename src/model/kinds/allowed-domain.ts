import { z } from 'zod';
import { domainKey } from '../domains';
import { entrySchema, liveSchema } from './schemas';
import type { KeyedFacts, KindSpec } from './spec';

export const AllowedDomainSchema = entrySchema({
  /** The domain as declared; Zulip stores it stripped and lower-cased. */
  domain: z.string(),
  /** Whether addresses at its subdomains may sign up too. Absent: false, Zulip's default. */
  allowSubdomains: z.boolean().optional(),
});
export type DesiredAllowedDomain = z.infer<typeof AllowedDomainSchema>;

/**
 * An allowed domain (`realm_domains` of `POST /register`). Zulip sends a domain without its ID
 * (zerver/models/realms.py `get_realm_domains`: only `domain` and `allow_subdomains`): `id` is
 * the read's own, a number derived from the domain ({@link allowedDomainIds}), the same in
 * every read, which is what the plan's `liveId` and fingerprints need of it. Requests name the
 * domain, never this number.
 */
export const LiveAllowedDomainSchema = liveSchema({
  domain: z.string(),
  allowSubdomains: z.boolean(),
});
export type LiveAllowedDomain = z.infer<typeof LiveAllowedDomainSchema>;

/**
 * An allowed domain of the organization (`/realm/domains`): with `emailsRestrictedToDomains` on,
 * only addresses at these domains may join, invited or not (zerver/lib/email_validation.py
 * `get_realm_email_validator`: sign-up, invitations, accounts an administrator creates). Keyed
 * by the domain as Zulip stores it (stripped, lower-cased: zerver/views/realm_domains.py);
 * `allowSubdomains` is changed in place (`PATCH /realm/domains/{domain}`); Zulip has no rename,
 * and deletes a domain outright. Every write needs an organization owner (`require_realm_owner`).
 */
export const allowedDomain = {
  collection: 'allowedDomains',
  construct: 'AllowedDomain',
  title: 'Allowed domains',
  nouns: ['allowed domain', 'allowed domains'],
  listOrder: 10,
  // Before the organization's settings (3): a plan that turns emailsRestrictedToDomains on
  // adds the domains first, so sign-up is never restricted to fewer domains than declared.
  rank: 2,
  compareKey: domainKey,
  removal: 'delete',
  ordered: false,
  ignorable: ['allowSubdomains'],
  actions: ['create', 'update', 'delete'],
  // zerver/actions/realm_domains.py: `realm_domains` add, change and remove.
  events: ['realm_domains'],
  sortedBy: (d: DesiredAllowedDomain) => [domainKey(d.domain)],
  // `Organization`'s `prune` option for this kind, with the documentation its users read.
  prune: {
    /** Delete undeclared allowed domains. @default false */
    allowedDomain: false,
  },
  /** Sorted by domain. Absent in desired states written before allowed domains existed. */
  desiredSchema: z.array(AllowedDomainSchema).default([]),
  /** In Zulip's order. Absent in snapshots made before allowed domains were read. */
  liveSchema: z.array(LiveAllowedDomainSchema).default([]),
  keyed: {
    key: (d) => domainKey(d.domain),
    keyProperty: 'domain',
    liveKey: (l) => l.domain,
    desired: (d) => ({ domain: domainKey(d.domain), allowSubdomains: d.allowSubdomains ?? false }),
    live: (l) => ({ domain: l.domain, allowSubdomains: l.allowSubdomains }),
    updatable: ['allowSubdomains'],
    replaces: [],
    followsRenames: false,
  } satisfies KeyedFacts<DesiredAllowedDomain, LiveAllowedDomain>,
} as const satisfies KindSpec;

/**
 * The `id` of each live allowed domain ({@link LiveAllowedDomainSchema}), by domain: a 31-bit
 * FNV-1a hash of the code points of the domain as Zulip compares it, so that a domain has the
 * same number in every read. A number by position would change when a domain listed before it is
 * deleted by hand, and apply, which finds a saved change's object by its number (whether it
 * still exists, its fingerprint), would look at another domain. A collision, which only chance
 * makes, takes the next free number, in the domains' code-point order rather than Zulip's:
 * `get_realm_domains` has no ORDER BY, and PostgreSQL's storage order changes when a PATCH
 * rewrites a row, which would swap two colliding domains' numbers between two reads.
 */
export function allowedDomainIds(domains: readonly string[]): Map<string, number> {
  const ids = new Map<string, number>();
  const taken = new Set<number>();
  for (const domain of [...domains].sort()) {
    let h = 0x811c9dc5;
    for (const ch of domainKey(domain)) {
      h ^= ch.codePointAt(0) ?? 0;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    let id = h & 0x7fffffff || 1;
    while (taken.has(id)) id = id === 0x7fffffff ? 1 : id + 1;
    taken.add(id);
    ids.set(domain, id);
  }
  return ids;
}
