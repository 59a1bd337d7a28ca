import type { Construct } from 'constructs';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  NOT_IN_SUMMARY,
  PROFILE_FIELD_LIMITS,
  checkUrlPattern,
  isDefaultExternalAccount,
} from '../model/custom-profile-fields';
import type { ExternalAccountSubtype, ProfileFieldType } from '../model/custom-profile-fields';
import { CustomProfileFieldSchema } from '../model/desired-state';
import type { DesiredCustomProfileField } from '../model/desired-state';
import type { CustomProfileFieldProperty } from '../model/ignorable';
import { codePointLength } from '../model/rules';
import { propsSchema } from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/** An external account field's kind of account. */
export interface ExternalAccountOptions {
  /**
   * `twitter` and `github`: Zulip names the field itself ('Twitter username', 'GitHub
   * username') and links to the account; `custom`: any site, through `urlPattern`.
   */
  readonly subtype: ExternalAccountSubtype;
  /**
   * For `custom` only: the link to a user's account, with `%(username)s` exactly once, such as
   * `https://gitlab.com/%(username)s`.
   */
  readonly urlPattern?: string;
}

/** Props of a {@link CustomProfileField}. */
export interface CustomProfileFieldProps extends ResourceOptions<CustomProfileFieldProperty> {
  /** The field's label, its natural key: at most 40 characters, unique in the organization. */
  readonly name: string;
  /**
   * What users fill in: `short-text` (50 characters), `long-text` (500, Markdown), `choice`
   * (one of `choices`), `date`, `link` (a URL), `user` (people of the organization),
   * `external-account` (a user name on another site), `pronouns`. Zulip cannot change a
   * field's type: a new type deletes the field, with every user's value, and creates it again.
   */
  readonly type: ProfileFieldType;
  /**
   * Help text shown with the field: at most 80 characters.
   * @default ''
   */
  readonly hint?: string;
  /**
   * A `choice` field's choices, in display order. Removing a choice deletes the values of the
   * users who chose it.
   */
  readonly choices?: readonly string[];
  /** An `external-account` field's kind of account. */
  readonly externalAccount?: ExternalAccountOptions;
  /**
   * Show the field in the summary of a user's profile (at most 2 fields in the organization;
   * never a `long-text` or `user` field).
   * @default false
   */
  readonly displayInProfileSummary?: boolean;
  /**
   * Ask every user to fill the field in (Zulip shows a banner to users who have not).
   * @default false
   */
  readonly required?: boolean;
  /**
   * Whether users may edit their own value (administrators always may).
   * @default true
   */
  readonly editableByUser?: boolean;
}

const PropsSchema = propsSchema('customProfileField', CustomProfileFieldSchema);

/**
 * A custom profile field of the organization: something every user's profile can show (a
 * team, a phone number, a manager). Fields are shown in declaration order within the
 * organization. Users' values are declared on each {@link User}'s `profile`, by the field's
 * label (`field.name`).
 *
 * Checked offline: Zulip's rules on the label, hint, choices and external account, at most 2
 * fields in the profile summary. Deleting a field (pruning) or changing its type deletes every
 * user's value of it: the plan tags such changes destructive and irreversible.
 *
 * @example
 * const team = new CustomProfileField(org, 'team', {
 *   name: 'Team',
 *   type: 'choice',
 *   choices: ['Engineering', 'Sales', 'Support'],
 *   displayInProfileSummary: true,
 * });
 * new CustomProfileField(org, 'gitlab', {
 *   name: 'GitLab',
 *   type: 'external-account',
 *   externalAccount: { subtype: 'custom', urlPattern: 'https://gitlab.com/%(username)s' },
 * });
 * new User(org, 'alice', { email: 'alice@example.com', profile: { [team.name]: 'Engineering' } });
 */
export class CustomProfileField extends KeyedResource<CustomProfileFieldProps> {
  /** True when `x` is a {@link CustomProfileField}. */
  public static readonly isCustomProfileField =
    resourceGuard<CustomProfileField>('customProfileField');

  /** The label, the natural key (what a user's `profile` names the field by). */
  public readonly name: string = this.props?.name;

  public constructor(scope: Construct, id: string, props: CustomProfileFieldProps) {
    super(scope, id, 'customProfileField', 'CustomProfileField', PropsSchema, props, 'name');
  }

  /** @internal The props as given (a {@link User}'s profile values are checked against them). */
  public get _props(): CustomProfileFieldProps {
    return this.props;
  }

  /** The field's type. */
  public get type(): ProfileFieldType {
    return this._props.type;
  }

  protected override describeKey(): string {
    return `custom profile field '${this.name}'`;
  }

  protected validateResource(): string[] {
    const p = this._props;
    const problems: string[] = [];
    const name = p.name;
    if (name.trim() === '')
      problems.push('name is empty (Zulip: "Label cannot be blank."): give the field a label');
    else if (name !== name.trim())
      problems.push(
        `name '${name}' has leading or trailing whitespace, which Zulip strips: remove it`,
      );
    if (codePointLength(name.trim()) > PROFILE_FIELD_LIMITS.name)
      problems.push(
        `name is ${codePointLength(name.trim())} characters long; Zulip allows at most ${PROFILE_FIELD_LIMITS.name} ("name is too long (limit: 40 characters)"): shorten it`,
      );
    if (p.hint !== undefined && codePointLength(p.hint) > PROFILE_FIELD_LIMITS.hint)
      problems.push(
        `hint is ${codePointLength(p.hint)} characters long; Zulip allows at most ${PROFILE_FIELD_LIMITS.hint} ("hint is too long (limit: 80 characters)"): shorten it`,
      );
    problems.push(...this.checkChoices(), ...this.checkExternalAccount());
    if (p.displayInProfileSummary === true) {
      if (NOT_IN_SUMMARY.includes(p.type))
        problems.push(
          `displayInProfileSummary is not possible for a ${p.type} field (Zulip: "Field type not supported for display in profile summary."): remove it`,
        );
      const before = this.organization
        ._resources()
        .filter(
          (r): r is CustomProfileField =>
            CustomProfileField.isCustomProfileField(r) &&
            r._propsValid &&
            r._sequence < this._sequence &&
            r._props.displayInProfileSummary === true,
        );
      if (before.length >= PROFILE_FIELD_LIMITS.summaryFields)
        problems.push(
          `displayInProfileSummary: ${before.map((r) => r.node.path).join(' and ')} are already in the profile summary; Zulip allows at most ${PROFILE_FIELD_LIMITS.summaryFields} fields there ("Only 2 custom profile fields can be displayed in the profile summary."): remove it from one of them`,
        );
    }
    return problems;
  }

  private checkChoices(): string[] {
    const p = this._props;
    if (p.type !== 'choice')
      return p.choices !== undefined
        ? [`choices are for choice fields only; this is a ${p.type} field: remove them`]
        : [];
    const choices = p.choices ?? [];
    if (choices.length === 0)
      return [
        'a choice field needs choices (Zulip: "Field must have at least one choice."): list them',
      ];
    const problems: string[] = [];
    choices.forEach((c, i) => {
      if (c.trim() === '')
        problems.push(
          `choices[${i}] is empty (Zulip: 'field_data["text"] cannot be blank.'): remove it or give it a text`,
        );
    });
    const dup = choices.find((c, i) => choices.indexOf(c) !== i);
    if (dup !== undefined)
      problems.push(
        `choices has '${dup}' twice (Zulip: "Field must not have duplicate choices."): keep one`,
      );
    return problems;
  }

  private checkExternalAccount(): string[] {
    const p = this._props;
    const e = p.externalAccount;
    if (p.type !== 'external-account')
      return e !== undefined
        ? [
            `externalAccount is for external-account fields only; this is a ${p.type} field: remove it`,
          ]
        : [];
    if (!e)
      return [
        "an external-account field needs externalAccount: { subtype: 'github' }, { subtype: 'twitter' } or { subtype: 'custom', urlPattern: 'https://example.com/%(username)s' }",
      ];
    if (isDefaultExternalAccount(e.subtype)) {
      const fixed = DEFAULT_EXTERNAL_ACCOUNTS[e.subtype];
      const problems: string[] = [];
      if (e.urlPattern !== undefined)
        problems.push(
          `externalAccount.urlPattern is Zulip's own for ${e.subtype} (${fixed.urlPattern}): remove it, or use subtype 'custom'`,
        );
      if (p.name !== fixed.name)
        problems.push(
          `name '${p.name}': Zulip names a ${e.subtype} account field '${fixed.name}' itself (it ignores the label sent, and refuses to change it: "Default custom field cannot be updated."): declare name: '${fixed.name}', or use subtype 'custom' with a urlPattern`,
        );
      if (p.hint !== undefined && p.hint !== fixed.hint)
        problems.push(
          `hint: Zulip gives a ${e.subtype} account field no hint and refuses to change it ("Default custom field cannot be updated."): remove hint, or use subtype 'custom'`,
        );
      return problems;
    }
    if (e.urlPattern === undefined)
      return [
        'externalAccount: a custom account needs urlPattern (Zulip: "Custom external account must define URL pattern"), such as \'https://example.com/%(username)s\'',
      ];
    const problem = checkUrlPattern(e.urlPattern);
    return problem
      ? [
          `externalAccount.urlPattern '${e.urlPattern}': Zulip refuses it ("${problem}"): write a full URL with %(username)s exactly once, such as https://example.com/%(username)s`,
        ]
      : [];
  }

  /** @internal */
  public _toDesired(): DesiredCustomProfileField {
    const p = this._props;
    return {
      ...this.desiredBase(),
      name: p.name,
      type: p.type,
      ...(p.hint !== undefined && { hint: p.hint }),
      ...(p.choices !== undefined && { choices: [...p.choices] }),
      ...(p.externalAccount !== undefined && {
        externalAccount: {
          subtype: p.externalAccount.subtype,
          ...(p.externalAccount.urlPattern !== undefined && {
            urlPattern: p.externalAccount.urlPattern,
          }),
        },
      }),
      ...(p.displayInProfileSummary !== undefined && {
        displayInProfileSummary: p.displayInProfileSummary,
      }),
      ...(p.required !== undefined && { required: p.required }),
      ...(p.editableByUser !== undefined && { editableByUser: p.editableByUser }),
    };
  }
}
