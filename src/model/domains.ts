/**
 * Zulip's allowed domains (`RealmDomain`, the e-mail domains people may sign up from when the
 * organization's `emails_restricted_to_domains` is on): how Zulip spells a domain it stores and
 * the rules it checks one against, with Zulip's messages. Used by the kind's spec, the
 * construct (synth) and the embedded server, so that the three treat a domain alike.
 */
import { LIMITS } from './kinds/vocabulary';
import { pyStrip } from './py-strip';

/**
 * A domain as Zulip stores and compares it: stripped and lower-cased (zerver/views/realm_domains.py
 * `create_realm_domain`: `domain.strip().lower()`, before `validate_domain`).
 */
export function domainKey(domain: string): string {
  return pyStrip(domain).toLowerCase();
}

/**
 * zerver/lib/domains.py `validate_domain`, on a domain already stripped and lower-cased
 * ({@link domainKey}): Zulip's message, in Zulip's order, or undefined when it accepts the
 * domain. The view reports it as `Invalid domain: <message>`. Each label is matched with
 * Python's `re.match(r"^[a-z0-9-]*$")`, whose `$` also matches before a final newline.
 */
export function checkDomain(domain: string): string | undefined {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if ([...domain].length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.'))
    return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-'))
      return "Subdomains cannot start or end with a '-'.";
    const body = label.endsWith('\n') ? label.slice(0, -1) : label;
    if (!/^[a-z0-9-]*$/.test(body)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return undefined;
}

/**
 * Whether Zulip can store the domain: `RealmDomain.domain` holds {@link LIMITS.allowedDomain}
 * characters, and a longer domain that `validate_domain` accepts (up to 255) fails in the
 * database, which Zulip answers with a 500.
 */
export function domainFits(domain: string): boolean {
  return [...domain].length <= LIMITS.allowedDomain;
}
