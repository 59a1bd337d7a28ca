import type { Construct } from 'constructs';
import { AllowedDomainSchema } from '../model/desired-state';
import type { DesiredAllowedDomain } from '../model/desired-state';
import { checkDomain, domainFits, domainKey } from '../model/domains';
import type { AllowedDomainProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import { PlainResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/**
 * Props of an {@link AllowedDomain}. No `renamedFrom`: Zulip cannot rename a domain (declare
 * the new one; the old one is deleted when `prune: { allowedDomain: true }`).
 */
export interface AllowedDomainProps extends Omit<
  ResourceOptions<AllowedDomainProperty>,
  'renamedFrom'
> {
  /**
   * The e-mail domain, such as `example.com`: labels of lower-case letters, digits and `-` (not
   * at either end) separated by dots, at least one dot, at most 80 characters. Zulip strips and
   * lower-cases it (`Example.COM` is `example.com`), and so does the comparison with the live one.
   */
  readonly domain: string;
  /**
   * Whether addresses at its subdomains may sign up too (`example.com` then lets in
   * `alice@eu.example.com`).
   * @default false (Zulip's default)
   */
  readonly allowSubdomains?: boolean;
}

/**
 * A domain people may sign up from when the organization restricts sign-up to e-mail domains
 * (`OrganizationSettings`' `emailsRestrictedToDomains`; Zulip's "Allowed domains for new
 * users"). Every change needs an organization owner's account: the plan refuses it otherwise.
 * Undeclared live domains are reported; `prune: { allowedDomain: true }` deletes them. Deleting
 * the last one makes Zulip turn `emailsRestrictedToDomains` off.
 *
 * @example
 * new AllowedDomain(org, 'acme-domain', { domain: 'acme.example', allowSubdomains: true });
 * new OrganizationSettings(org, 'settings', { emailsRestrictedToDomains: true });
 */
export class AllowedDomain extends PlainResource<AllowedDomainProps, DesiredAllowedDomain> {
  /** True when `x` is an {@link AllowedDomain}. */
  public static readonly isAllowedDomain = resourceGuard<AllowedDomain>('allowedDomain');

  /** The domain as Zulip stores it: stripped and lower-cased. */
  public readonly domain: string =
    typeof this.props?.domain === 'string' ? domainKey(this.props.domain) : '';

  public constructor(scope: Construct, id: string, props: AllowedDomainProps) {
    super(scope, id, 'allowedDomain', AllowedDomainSchema, props);
  }

  protected override describeKey(): string {
    return `allowed domain '${domainKey(this.props.domain)}'`;
  }

  protected override keyNote(): string {
    return ' (domains are compared as Zulip stores them: stripped and lower-cased)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    if ((this.props as ResourceOptions<AllowedDomainProperty>).renamedFrom !== undefined)
      problems.push(
        'renamedFrom is not supported for allowed domains: Zulip cannot rename a domain; declare the new one (and prune the old one)',
      );
    const domain = domainKey(this.props.domain);
    const invalid = checkDomain(domain);
    if (invalid !== undefined)
      problems.push(
        `domain '${this.props.domain}': Zulip refuses it ("Invalid domain: ${invalid}"): write an e-mail domain such as example.com (labels of letters, digits and '-', not at either end, separated by dots)`,
      );
    else if (!domainFits(domain))
      problems.push(
        `domain '${this.props.domain}' has ${[...domain].length} characters; Zulip stores at most ${LIMITS.allowedDomain} (a longer one fails with a server error): allow a shorter parent domain with allowSubdomains: true`,
      );
    return problems;
  }
}
