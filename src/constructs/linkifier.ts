import type { Construct } from 'constructs';
import { LinkifierSchema } from '../model/desired-state';
import type { DesiredLinkifier } from '../model/desired-state';
import type { LinkifierProperty } from '../model/ignorable';
import { checkLinkifier } from '../model/rules';
import { PlainResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/** Props of a {@link Linkifier}. */
export interface LinkifierProps extends ResourceOptions<LinkifierProperty> {
  /**
   * An RE2 regular expression. Its named groups (`(?P<id>[0-9]+)`) must be exactly the
   * variables of `urlTemplate`.
   */
  readonly pattern: string;
  /** An RFC 6570 URL template, such as `https://github.com/acme/app/issues/{id}`. */
  readonly urlTemplate: string;
}

/**
 * A linkifier: turns text matching a pattern into a link. Zulip applies linkifiers in order;
 * they are applied in declaration order within the organization.
 *
 * @example
 * new Linkifier(org, 'issues', {
 *   pattern: '#(?P<id>[0-9]+)',
 *   urlTemplate: 'https://github.com/acme/app/issues/{id}',
 * });
 */
export class Linkifier extends PlainResource<LinkifierProps, DesiredLinkifier> {
  /** True when `x` is a {@link Linkifier}. */
  public static readonly isLinkifier = resourceGuard<Linkifier>('linkifier');

  /** The pattern, its natural key. */
  public readonly pattern: string = this.props?.pattern;

  public constructor(scope: Construct, id: string, props: LinkifierProps) {
    super(scope, id, 'linkifier', LinkifierSchema, props);
  }

  protected validateResource(): string[] {
    const error = checkLinkifier(this.props.pattern, this.props.urlTemplate);
    if (!error) return [];
    if (error === 'This field cannot be blank.') {
      // Zulip's message does not say which field is blank: name it.
      return this.props.pattern === ''
        ? [`pattern is empty (Zulip: "${error}"): write the regular expression to linkify`]
        : [
            `urlTemplate is empty (Zulip: "${error}"): write the URL, such as https://example.com/{id}`,
          ];
    }
    const fix = error.startsWith('Bad regular expression')
      ? 'fix the pattern (RE2 syntax: no look-around or back-references; named groups are (?P<name>...))'
      : error.startsWith('Group')
        ? "make the pattern's named groups and the template's variables the same set"
        : error === 'Invalid URL template.'
          ? 'fix urlTemplate (RFC 6570: variables in braces, such as {id})'
          : 'fix it';
    return [`pattern '${this.props.pattern}': ${error} ${fix[0]?.toUpperCase()}${fix.slice(1)}.`];
  }
}
