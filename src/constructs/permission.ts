import { canonicalGroupSetting } from '../model/group-setting';
import type { GroupSettingValue } from '../model/desired-state';
import { SystemGroup } from './system-group';
import { PERMISSION, brand, brandGuard, isResourceOf } from './symbols';
import type { UserGroup } from './user-group';

/** A group: a {@link UserGroup} construct or a {@link SystemGroup}. */
export type GroupReference = UserGroup | SystemGroup;

/**
 * Who holds a permission: a group ({@link SystemGroup} or {@link UserGroup}), or an explicit set
 * of users and groups made with {@link Permission.anyOf}.
 */
export type PermissionValue = GroupReference | Permission;

/** The users (by email) and groups of an explicit permission set. */
export interface PermissionSetProps {
  /**
   * Users by email address.
   * @default - no users
   */
  readonly users?: readonly string[];
  /**
   * Groups whose members hold the permission.
   * @default - no groups
   */
  readonly groups?: readonly GroupReference[];
}

/**
 * An explicit set of users and groups holding a permission (Zulip's anonymous group).
 *
 * @example
 * new Channel(org, 'releases', {
 *   name: 'releases',
 *   canSendMessageGroup: Permission.anyOf({
 *     users: ['release-bot@example.com'],
 *     groups: [releaseManagers, SystemGroup.ADMINISTRATORS],
 *   }),
 * });
 */
export class Permission {
  /**
   * Anyone who is one of `users` or a member of one of `groups`. A set with a single group is
   * that group, and an empty set is {@link SystemGroup.NOBODY}, as Zulip canonicalises them.
   */
  public static anyOf(props: PermissionSetProps): Permission {
    const problems: string[] = [];
    const raw = (props ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(raw)) {
      if (key !== 'users' && key !== 'groups') {
        problems.push(`Permission.anyOf got unknown property '${key}': use users and groups`);
      }
    }
    const users = Array.isArray(raw.users) ? (raw.users as unknown[]) : [];
    const groups = Array.isArray(raw.groups) ? (raw.groups as unknown[]) : [];
    if (raw.users !== undefined && !Array.isArray(raw.users)) {
      problems.push('Permission.anyOf users must be an array of e-mail addresses');
    }
    if (raw.groups !== undefined && !Array.isArray(raw.groups)) {
      problems.push('Permission.anyOf groups must be an array of groups');
    }
    for (const g of groups) {
      if (!isGroupReference(g)) {
        problems.push(
          `Permission.anyOf groups lists ${JSON.stringify(g)}: expected a UserGroup construct or a SystemGroup; groups are referenced by object, not by name`,
        );
      }
    }
    return new Permission(users as string[], groups.filter(isGroupReference), problems);
  }

  /** True when `x` is a {@link Permission} set. */
  public static readonly isPermission = brandGuard<Permission>(PERMISSION);

  /** Users by email. */
  public readonly users: readonly string[];
  /** Groups. */
  public readonly groups: readonly GroupReference[];

  /** @internal Mistakes in the `anyOf` call, reported at synth with the setting's path. */
  public readonly _problems: readonly string[];

  private constructor(
    users: readonly string[],
    groups: readonly GroupReference[],
    problems: readonly string[],
  ) {
    this.users = [...users];
    this.groups = [...groups];
    this._problems = [...problems];
    brand(this, PERMISSION);
    Object.freeze(this);
  }
}

/** True when `x` is a {@link UserGroup} construct (without importing it). */
export function isUserGroupLike(x: unknown): x is UserGroup {
  return isResourceOf(x, 'userGroup');
}

/** True when `x` is a group reference. */
export function isGroupReference(x: unknown): x is GroupReference {
  return isUserGroupLike(x) || SystemGroup.isSystemGroup(x);
}

/** The natural key of a group: its name. */
export function groupNameOf(g: GroupReference): string {
  return g.groupName;
}

/** Every group a permission value refers to. */
export function groupsOf(value: PermissionValue): GroupReference[] {
  if (Permission.isPermission(value)) return [...value.groups];
  return [value];
}

/** Every user a permission value names. */
export function usersOf(value: PermissionValue): string[] {
  return Permission.isPermission(value) ? [...value.users] : [];
}

/**
 * The permission settings among `names` that are declared (`valueOf` gives undefined for the
 * others), resolved to their natural-key form: a desired entry's `permissions`.
 */
export function resolvePermissions<K extends string>(
  names: readonly K[],
  valueOf: (name: K) => PermissionValue | undefined,
): Partial<Record<K, GroupSettingValue>> {
  const out: Partial<Record<K, GroupSettingValue>> = {};
  for (const name of names) {
    const v = valueOf(name);
    if (v !== undefined) out[name] = resolvePermission(v);
  }
  return out;
}

/** Resolves a permission value to its natural-key form, canonicalised as Zulip does. */
export function resolvePermission(value: PermissionValue): GroupSettingValue {
  if (Permission.isPermission(value)) {
    return canonicalGroupSetting({
      users: [...value.users],
      groups: value.groups.map(groupNameOf),
    });
  }
  return groupNameOf(value);
}
