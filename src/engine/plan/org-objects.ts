/**
 * Linkifiers, saved snippets and allowed domains: organization objects keyed by one string,
 * planned by the generic keyed planner from their specs' facts (`src/model/kinds/`) and what is
 * here: Zulip strips patterns, several snippets may share a title, and deleting the last
 * allowed domain changes an organization setting. Code playgrounds need nothing more than their
 * spec: they have no entry (`planOf` in `./kinds.ts`).
 */
import { resourceAddress } from '../../model/address';
import { ORGANIZATION_SETTINGS_KEY } from '../../model/organization-settings';
import type { DesiredLinkifier, DesiredSavedSnippet } from '../../model/desired-state';
import type { LiveLinkifier, LiveSavedSnippet } from '../../model/live-state';
import type { KeyedPlan } from './keyed';
import { planKeyed, trimRenames } from './keyed';
import type { Planner } from './planner';
import type { RemoveChange } from '../plan-format';

export const linkifiers: KeyedPlan<DesiredLinkifier, LiveLinkifier> = {
  kind: 'linkifier',
  // Zulip strips patterns: a `renamedFrom` pattern names what Zulip stored.
  declared: (p) => trimRenames(p.desired.linkifiers),
  // Zulip appends new linkifiers; the order after creates and deletes is live order + created.
  live: (p) => p.live.linkifiers,
};

export const savedSnippets: KeyedPlan<DesiredSavedSnippet, LiveSavedSnippet> = {
  kind: 'savedSnippet',
  declared: (p) => p.desired.savedSnippets,
  live: (p) => [...p.live.savedSnippets].sort((a, b) => a.id - b.id),
  // Several live snippets may share a title: the oldest is the one managed.
  index: (p, live) => {
    const byTitle = new Map<string, LiveSavedSnippet>();
    for (const l of live) {
      const first = byTitle.get(l.title);
      if (!first) byTitle.set(l.title, l);
      else
        p.warn(
          'DUPLICATE_SNIPPET',
          `several live snippets have this title; the oldest (id ${first.id}) is the one managed`,
          resourceAddress('savedSnippet', l.title),
        );
    }
    return byTitle;
  },
  // Duplicates get their id in the key so each has its own address.
  undeclaredKey: (p, l) =>
    p.live.savedSnippets.some((s) => s.title === l.title && s.id < l.id)
      ? `${l.title}#${l.id}`
      : l.title,
};

/**
 * Allowed domains: the generic keyed planner, then what deleting the last one does.
 * zerver/actions/realm_domains.py `do_remove_realm_domain` turns `emails_restricted_to_domains`
 * off when no domain is left (a restriction to no domain would let nobody sign up). Deletes wait
 * for the creates, so no domain is left only when the plan creates none and deletes every live
 * one. Declared on, the setting cannot stay on: a plan error. Not declared and on: the reviewer
 * is told that sign-up opens up, on the delete that runs last. The orders make a targeted plan
 * (`--target`, which keeps what a change waits for) and `--keep-going` (which skips what waits
 * for a failed change) keep them true: a delete comes with the creates, and the last delete with
 * the others.
 */
export function planAllowedDomains(p: Planner): void {
  planKeyed(p, { kind: 'allowedDomain' });
  const mine = p.changes.filter((c) => c.kind === 'allowedDomain');
  const creates = mine.filter((c) => c.action === 'create').map((c) => c.id);
  const deletes = mine.filter((c): c is RemoveChange => c.action === 'delete');
  for (const c of deletes) p.waitFor(c.id, creates);
  // Turning the restriction on waits for the new domains (organization settings are planned
  // before; their rank alone would order them, but not keep them in a targeted plan).
  const turnsOn = p.changes.find(
    (c) =>
      c.kind === 'organizationSettings' &&
      c.action === 'update' &&
      c.properties.some((x) => x.property === 'emailsRestrictedToDomains' && x.after === true),
  );
  if (turnsOn) p.waitFor(turnsOn.id, creates);
  warnClosedSignUp(p, p.live.allowedDomains.length + creates.length - deletes.length);
  if (creates.length > 0 || deletes.length === 0) return;
  const deleted = new Set(deletes.map((c) => c.liveId));
  if (p.live.allowedDomains.some((l) => !deleted.has(l.id))) return;
  const last = deletes[deletes.length - 1] as (typeof deletes)[number];
  p.waitFor(
    last.id,
    deletes.slice(0, -1).map((c) => c.id),
  );
  const settings = p.desired.organizationSettings[0];
  const declared = settings?.properties.emailsRestrictedToDomains;
  const address = resourceAddress('organizationSettings', ORGANIZATION_SETTINGS_KEY);
  const why =
    'this plan deletes every allowed domain, and Zulip turns emailsRestrictedToDomains off when it deletes the last one';
  if (settings && declared === true)
    p.errors.push(
      `${address} (${settings.path}): emailsRestrictedToDomains is declared on, but ${why}: declare the domains people may sign up from (AllowedDomain), or emailsRestrictedToDomains: false`,
    );
  else if (
    declared === undefined &&
    p.live.organizationSettings?.properties.emails_restricted_to_domains === true
  )
    p.warn(
      'DOMAIN_RESTRICTION_OFF',
      `${why}: then anyone with an e-mail address may sign up, unless an invitation is required. Declare emailsRestrictedToDomains: false (OrganizationSettings) to make it part of the configuration, or keep a domain`,
      last.address,
      last.path ?? undefined,
    );
}

/**
 * `emails_restricted_to_domains` turned on by this plan while no allowed domain is left after it:
 * Zulip accepts it (zerver/views/realm.py `update_realm` does not look at the domains), and then
 * refuses every new account, invited or not (zerver/lib/email_validation.py
 * `get_realm_email_validator`).
 */
function warnClosedSignUp(p: Planner, domainsAfter: number): void {
  const settings = p.desired.organizationSettings[0];
  if (domainsAfter > 0 || settings?.properties.emailsRestrictedToDomains !== true) return;
  if (p.live.organizationSettings?.properties.emails_restricted_to_domains !== false) return;
  p.warn(
    'NO_ALLOWED_DOMAIN',
    'emailsRestrictedToDomains turns on, and the organization has no allowed domain after this plan: Zulip then refuses every new account, invited or not. Declare the domains people may sign up from (AllowedDomain)',
    resourceAddress('organizationSettings', ORGANIZATION_SETTINGS_KEY),
    settings.path,
  );
}
