import { z } from 'zod';
import { successWith } from './common';

/**
 * An allowed domain as Zulip sends it (`realm_domains` of `POST /register`, `domains` of
 * `GET /realm/domains`: zerver/models/realms.py `get_realm_domains`). No ID: Zulip sends only
 * these two fields.
 */
export const WireRealmDomainSchema = z.looseObject({
  domain: z.string(),
  allow_subdomains: z.boolean(),
});
/** An allowed domain as Zulip sends it, as parsed by {@link WireRealmDomainSchema}. */
export type WireRealmDomain = z.infer<typeof WireRealmDomainSchema>;

/**
 * `POST /realm/domains` parameters (zerver/views/realm_domains.py `create_realm_domain`): the
 * domain as a plain string, which Zulip strips and lower-cases; `allow_subdomains` is required
 * (`Json[bool]`, sent as `true`/`false`).
 */
export interface AddRealmDomainParams {
  readonly domain: string;
  readonly allow_subdomains: boolean;
}

/** `PATCH /realm/domains/{domain}` parameters (`patch_realm_domain`). */
export interface UpdateRealmDomainParams {
  readonly allow_subdomains: boolean;
}

/**
 * The {@link ZulipClient.addRealmDomain} response: `new_domain` is the new row's ID and the
 * domain as stored.
 */
export const AddRealmDomainResponseSchema = successWith({
  new_domain: z.tuple([z.number().int(), z.string()]),
});
/** The {@link ZulipClient.addRealmDomain} response (`POST /realm/domains`), as parsed. */
export type AddRealmDomainResponse = z.infer<typeof AddRealmDomainResponseSchema>;
