import type { Construct } from 'constructs';
import { z } from 'zod';
import { UserSchema } from '../model/desired-state';
import type { DesiredUser } from '../model/desired-state';
import type { UserProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import type { RoleName } from '../model/kinds';
import { NAME_INVALID_CHARS, checkFullName, firstUnprintablePosition } from '../model/rules';
import type { FullNameProblem } from '../model/rules';
import { checkProfileTextValue } from '../model/custom-profile-fields';
import { lengthProblem, whitespaceProblem } from './checks';
import { CustomProfileField } from './custom-profile-field';
import { definedProps, emailSchema, propsSchema, resourceRefSchema } from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/**
 * Props of a {@link User}. No `renamedFrom`: the e-mail address is the user's key, and
 * zulip-cdk does not change e-mail addresses.
 */
export interface UserProps extends Omit<ResourceOptions<UserProperty>, 'renamedFrom'> {
  /** The e-mail address of an existing user (zulip-cdk never creates users). */
  readonly email: string;
  /**
   * The user's role.
   * @default - the role is not managed
   */
  readonly role?: RoleName;
  /**
   * The user's full name: at most 100 characters, none of `*`, backquote, `\\`, `>`, `"` and
   * `@` (Zulip's mention syntax uses them), and not ending in `|` and digits.
   * @default - the name is not managed
   */
  readonly fullName?: string;
  /**
   * Whether the account is active: `false` offboards the user through review (Zulip's
   * `DELETE /users/{id}`: the user is logged out everywhere, the bots they own are deactivated
   * too, invitations they sent are revoked; their messages are kept, and their subscriptions
   * and group memberships stay for a reactivation); `true` reactivates a deactivated account.
   * Never the applying account, never the organization's last owner (the plan refuses both).
   * @default - not managed
   */
  readonly active?: boolean;
  /**
   * The user's values of custom profile fields, by the field's label (`{ [team.name]:
   * 'Engineering' }`): text; a `choice` field's choice by its text; a `date` as `YYYY-MM-DD`;
   * a `link` as a URL; a `user` field's people as e-mail addresses or {@link User}s; null (or
   * `''`, `[]`) clears the value. Each field must be declared ({@link CustomProfileField}) in
   * the same organization. A field left out is not managed.
   * @default - no value is managed
   */
  readonly profile?: Readonly<Record<string, ProfileValue>>;
}

/** A value of a custom profile field on a {@link User}: text, people (for a user field), or null. */
export type ProfileValue = string | readonly (string | User)[] | null;

const PropsSchema = propsSchema('user', UserSchema, {
  email: emailSchema,
  profile: z
    .record(
      z.string(),
      z.union([
        z.string(),
        z.array(z.union([z.string(), resourceRefSchema<User>('user', 'a User')])),
        z.null(),
      ]),
    )
    .optional(),
});

/**
 * The role and name of an EXISTING user, by e-mail. Users are not created: they sign up or
 * are invited; the configuration manages what they may do.
 *
 * Checked offline: the e-mail shape, the name, duplicates. Checked by `plan` against the live
 * organization: that the user exists, that the organization keeps at least one owner (Zulip
 * refuses to demote the only owner), and that granting or removing the owner role is done
 * with an owner's account (other role changes need an administrator).
 *
 * @example
 * new User(org, 'carol', { email: 'carol@example.com', role: 'administrator' });
 * new User(org, 'dave', { email: 'dave@example.com', role: 'moderator', fullName: 'Dave Lee' });
 * new User(org, 'erin', { email: 'erin@example.com', active: false }); // offboarded
 */
export class User extends KeyedResource<UserProps> {
  /** True when `x` is a {@link User}. */
  public static readonly isUser = resourceGuard<User>('user');

  /** The user's e-mail, the natural key. */
  public readonly email: string = this.props?.email;

  public constructor(scope: Construct, id: string, props: UserProps) {
    super(scope, id, 'user', 'User', PropsSchema, props, 'email');
  }

  /** The declared role, if any. */
  public get role(): RoleName | undefined {
    return this.props.role;
  }

  protected override describeKey(): string {
    return `user '${this.email}'`;
  }

  protected override keyNote(): string {
    return ' (e-mail addresses are compared case-insensitively)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    if ((this.props as ResourceOptions<UserProperty>).renamedFrom !== undefined) {
      problems.push(
        "renamedFrom is not supported for users: the e-mail address is the user's key and zulip-cdk does not change it; declare the user under its current e-mail address",
      );
    }
    const name = this.props.fullName;
    if (name !== undefined) {
      const before = problems.length;
      if (name.trim() === '') problems.push('fullName is empty: give a name or leave it out');
      else {
        const long = lengthProblem('fullName', name, LIMITS.userFullName);
        problems.push(...(long.length > 0 ? long : whitespaceProblem('fullName', name)));
      }
      const pos = firstUnprintablePosition(name);
      if (pos !== undefined) {
        problems.push(`fullName has an invalid character at position ${pos}: remove it`);
      }
      // What the checks above leave to Zulip's own rule (the one the server applies).
      const refused = problems.length === before ? checkFullName(name) : undefined;
      if (refused !== undefined) problems.push(fullNameRefusal(name, refused));
    }
    problems.push(...this.checkProfile());
    return problems;
  }

  /** Each value against its declared field (Zulip's `validate_user_custom_profile_field`). */
  private checkProfile(): string[] {
    const profile = this.props.profile;
    if (!profile) return [];
    const fields = this.organization._memo('profile-fields', () => {
      const byName = new Map<string, CustomProfileField>();
      for (const r of this.organization._resources())
        if (CustomProfileField.isCustomProfileField(r) && r._propsValid) byName.set(r.name, r);
      return byName;
    });
    const problems: string[] = [];
    for (const [label, value] of Object.entries(profile)) {
      const field = fields.get(label);
      if (!field) {
        const known = [...fields.keys()].map((n) => `'${n}'`).join(', ');
        problems.push(
          `profile['${label}']: no custom profile field '${label}' is declared in this organization${known ? ` (declared: ${known})` : ''}: declare it with CustomProfileField, or fix the label`,
        );
        continue;
      }
      const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
      if (empty) continue;
      if (field.type === 'user') {
        if (typeof value === 'string')
          problems.push(
            `profile['${label}'] is a user field: give a list of people (e-mail addresses or Users), not '${value}'`,
          );
        continue;
      }
      if (typeof value !== 'string') {
        problems.push(`profile['${label}'] is a ${field.type} field: give text, not a list`);
        continue;
      }
      const choices = field._props.choices ?? [];
      const refused =
        field.type === 'choice'
          ? choices.includes(value)
            ? undefined
            : `'${value}' is not a valid choice for '${label}'.`
          : checkProfileTextValue(field.type, label, value);
      if (refused !== undefined)
        problems.push(
          `profile['${label}'] = '${value}': Zulip refuses it ("${refused}")${field.type === 'choice' ? `: use one of ${choices.map((c) => `'${c}'`).join(', ')}` : field.type === 'date' ? ': write it as YYYY-MM-DD' : field.type === 'link' ? ': write a full URL such as https://example.com' : ': shorten it'}`,
        );
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredUser {
    const p = this.props;
    return {
      ...this.desiredBase(),
      email: p.email,
      ...definedProps(p, ['role', 'fullName', 'active']),
      ...(p.profile !== undefined && {
        profile: Object.fromEntries(
          Object.entries(p.profile).map(([k, v]): [string, string | string[] | null] => [
            k,
            typeof v === 'string' || v === null
              ? v
              : v.map((x) => (typeof x === 'string' ? x : x.email)),
          ]),
        ),
      }),
    };
  }
}

/** The synth problem for a full name Zulip's `check_full_name` refuses: Zulip's message, and how to fix it. */
function fullNameRefusal(name: string, refused: FullNameProblem): string {
  const zulip = `Zulip refuses it ("${refused.message}")`;
  switch (refused.reason) {
    case 'invalid-character':
      return `fullName '${name}' contains ${JSON.stringify(refused.character)}: ${zulip}; a name may not contain any of ${NAME_INVALID_CHARS.join(' ')}: remove it`;
    case 'format':
      return `fullName '${name}' ends in '|' and digits: ${zulip}, as it would read as a mention by user id: change the end`;
    default:
      return `fullName '${name}': ${zulip}`;
  }
}
