import type { SystemGroupName } from '../model/kinds';
import { SYSTEM_GROUP, brand, brandGuard } from './symbols';

/**
 * One of Zulip's eight built-in role groups. Use them wherever a group is expected: as a
 * permission value, as a subgroup, or as channel subscribers.
 *
 * System groups exist in every organization; they cannot be created, renamed or edited.
 *
 * @example
 * new Channel(org, 'announcements', {
 *   name: 'announcements',
 *   canSendMessageGroup: SystemGroup.ADMINISTRATORS,
 * });
 */
export class SystemGroup {
  /** Everyone on the internet, logged in or not. No group-valued setting allows it. */
  public static readonly INTERNET = new SystemGroup('role:internet');
  /** Every user of the organization, guests included. */
  public static readonly EVERYONE = new SystemGroup('role:everyone');
  /** Members, moderators, administrators and owners (no guests). */
  public static readonly MEMBERS = new SystemGroup('role:members');
  /** Members whose account is old enough (the organization's waiting period), and above. */
  public static readonly FULL_MEMBERS = new SystemGroup('role:fullmembers');
  /** Moderators, administrators and owners. */
  public static readonly MODERATORS = new SystemGroup('role:moderators');
  /** Administrators and owners. */
  public static readonly ADMINISTRATORS = new SystemGroup('role:administrators');
  /** Organization owners. */
  public static readonly OWNERS = new SystemGroup('role:owners');
  /** Nobody. */
  public static readonly NOBODY = new SystemGroup('role:nobody');

  /** All eight, from the widest to the narrowest. */
  public static readonly ALL: readonly SystemGroup[] = [
    SystemGroup.INTERNET,
    SystemGroup.EVERYONE,
    SystemGroup.MEMBERS,
    SystemGroup.FULL_MEMBERS,
    SystemGroup.MODERATORS,
    SystemGroup.ADMINISTRATORS,
    SystemGroup.OWNERS,
    SystemGroup.NOBODY,
  ];

  /** True when `x` is a {@link SystemGroup}. */
  public static readonly isSystemGroup = brandGuard<SystemGroup>(SYSTEM_GROUP);

  /** Zulip's name for the group, such as `role:administrators`. */
  public readonly groupName: SystemGroupName;

  private constructor(groupName: SystemGroupName) {
    this.groupName = groupName;
    brand(this, SYSTEM_GROUP);
    Object.freeze(this);
  }

  /** Zulip's name for the group, as in {@link SystemGroup.groupName}. */
  public toString(): string {
    return this.groupName;
  }
}
