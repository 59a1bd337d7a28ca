import { ORGANIZATION_PROPERTIES } from '../../model/organization-settings';
import { checkDomain, domainFits, domainKey } from '../../model/domains';
import { InternalServerError, badRequest, missingArgument } from '../errors';
import { realmProperty } from '../realm-settings';
import type { Handler, RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredRealmDomain } from '../state';
import { requireOwner } from './common';
import { setProperty } from './realm-settings';

/**
 * zerver/decorator.py `require_realm_owner`, on every write of zerver/views/realm_domains.py:
 * checked before any parameter is read.
 */
function realmOwner(handler: Handler): Handler {
  return (ctx) => {
    requireOwner(ctx);
    return handler(ctx);
  };
}

/** The allowed domains as `get_realm_domains` lists them: in the order they were added. */
export function realmDomainsToApi(org: OrgState): { domain: string; allow_subdomains: boolean }[] {
  return (org.realmDomains ?? []).map((d) => ({
    domain: d.domain,
    allow_subdomains: d.allowSubdomains,
  }));
}

/** `allow_subdomains: Json[bool]`, the first parameter of the create and the update. */
function allowSubdomains(ctx: RequestContext): boolean {
  const v = ctx.params.bool('allow_subdomains');
  if (v === undefined) throw missingArgument('allow_subdomains');
  return v;
}

/**
 * The domain of `PATCH` and `DELETE /realm/domains/{domain}`: the path's, looked up as stored
 * (`RealmDomain.objects.get(realm=..., domain=domain)`: no strip, no lower-casing).
 */
function pathDomain(ctx: RequestContext): StoredRealmDomain {
  const domain = ctx.path.domain ?? '';
  const row = (ctx.org.realmDomains ?? []).find((d) => d.domain === domain);
  if (!row) throw badRequest(`No entry found for domain ${domain}.`);
  return row;
}

/** A `realm_domains` event for every active user (zerver/actions/realm_domains.py). */
function domainsEvent(ctx: RequestContext, event: Record<string, unknown>): void {
  ctx.events.push({ users: 'all', event: { type: 'realm_domains', ...event } });
}

/** The allowed-domain routes (zerver/views/realm_domains.py). */
export const realmDomainRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/domains',
    handler: (ctx) => ({ domains: realmDomainsToApi(ctx.org) }),
  },
  {
    method: 'POST',
    path: '/realm/domains',
    // create_realm_domain: the parameters in the signature's order, then the domain stripped
    // and lower-cased, validate_domain, the uniqueness check, do_add_realm_domain.
    handler: realmOwner((ctx) => {
      const allow = allowSubdomains(ctx);
      const domain = domainKey(ctx.params.requiredString('domain'));
      const invalid = checkDomain(domain);
      if (invalid !== undefined) throw badRequest(`Invalid domain: ${invalid}`);
      const rows = (ctx.org.realmDomains ??= []);
      if (rows.some((d) => d.domain === domain))
        throw badRequest(`The domain ${domain} is already a part of your organization.`);
      // `RealmDomain.domain` is a CharField of 80, which validate_domain does not check: the
      // database refuses a longer one (DataError), which JsonErrorHandler answers with a 500.
      if (!domainFits(domain)) throw new InternalServerError();
      const row: StoredRealmDomain = { id: nextId(ctx.org), domain, allowSubdomains: allow };
      rows.push(row);
      domainsEvent(ctx, {
        op: 'add',
        realm_domain: { domain: row.domain, allow_subdomains: row.allowSubdomains },
      });
      return { new_domain: [row.id, row.domain] };
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/domains/{domain}',
    // patch_realm_domain and do_change_realm_domain, which tells everyone even when the value
    // does not change.
    handler: realmOwner((ctx) => {
      const allow = allowSubdomains(ctx);
      const row = pathDomain(ctx);
      row.allowSubdomains = allow;
      domainsEvent(ctx, {
        op: 'change',
        realm_domain: { domain: row.domain, allow_subdomains: row.allowSubdomains },
      });
      return {};
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/domains/{domain}',
    // delete_realm_domain and do_remove_realm_domain: without a domain left, a restriction to
    // the organization's domains would let nobody in, so Zulip turns it off (its realm event
    // goes before the domain's).
    handler: realmOwner((ctx) => {
      const row = pathDomain(ctx);
      const org = ctx.org;
      org.realmDomains = (org.realmDomains ?? []).filter((d) => d !== row);
      const restricted = 'emails_restricted_to_domains';
      if (org.realmDomains.length === 0 && realmProperty(org, restricted) === true)
        setProperty(ctx, ORGANIZATION_PROPERTIES.emailsRestrictedToDomains, false);
      domainsEvent(ctx, { op: 'remove', domain: row.domain });
      return {};
    }),
  },
];
