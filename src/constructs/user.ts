import type { Construct } from 'constructs';
import { UserSchema } from '../model/desired-state';
import type { DesiredUser } from '../model/desired-state';
import type { UserProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import type { RoleName } from '../model/kinds';
import { NAME_INVALID_CHARS, checkFullName, firstUnprintablePosition } from '../model/rules';
import type { FullNameProblem } from '../model/rules';
import { lengthProblem, whitespaceProblem } from './checks';
import { definedProps, emailSchema, propsSchema } from './props';
import { KeyedResource, ZulipResource } from './resource';
import type { ResourceOptions } from './resource';

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
}

const PropsSchema = propsSchema('user', UserSchema, { email: emailSchema });

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
  public static isUser(x: unknown): x is User {
    return ZulipResource.isZulipResource(x) && x.resourceKind === 'user';
  }

  /** The user's e-mail, the natural key. */
  public readonly email: string;

  public constructor(scope: Construct, id: string, props: UserProps) {
    super(scope, id, 'user', 'User', PropsSchema, props, 'email');
    this.email = props?.email;
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
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredUser {
    const p = this.props;
    return {
      ...this.desiredBase(),
      email: p.email,
      ...definedProps(p, ['role', 'fullName', 'active']),
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
