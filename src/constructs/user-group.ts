import type { Construct } from 'constructs';
import { z } from 'zod';
import type { DesiredUserGroup } from '../model/desired-state';
import type { UserGroupProperty } from '../model/ignorable';
import { MEMBERSHIP_MODES } from '../model/kinds';
import type { MembershipMode } from '../model/kinds';
import { GROUP_PERMISSIONS, GROUP_PERMISSION_NAMES } from '../model/permissions';
import type { GroupPermissionName } from '../model/permissions';
import { checkUserGroupName } from '../model/rules';
import { checkEmails, checkGroupReference, checkPermission } from './checks';
import {
  Permission,
  groupNameOf,
  isGroupReference,
  isUserGroupLike,
  resolvePermissions,
} from './permission';
import type { GroupReference, PermissionValue } from './permission';
import {
  definedProps,
  emailSchema,
  groupRefSchema,
  lifecycleShape,
  permissionShape,
} from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { SystemGroup } from './system-group';
import { resourceGuard } from './symbols';

/** The six permission settings of a group, as {@link UserGroup.setPermissions} takes them. */
export type UserGroupPermissions = {
  readonly [K in GroupPermissionName]?: PermissionValue;
};

/** Props of a {@link UserGroup}. */
export interface UserGroupProps extends ResourceOptions<UserGroupProperty> {
  /**
   * The group's name: at most 100 characters, case-sensitive, not starting with `@`,
   * `role:`, `user:`, `stream:` or `channel:`.
   */
  readonly name: string;
  /**
   * What the group is for.
   * @default '' (Zulip's default)
   */
  readonly description?: string;
  /**
   * Direct members, by e-mail address.
   * @default - no direct members
   */
  readonly members?: readonly string[];
  /**
   * Direct subgroups: their members are members of this group too.
   * @default - no subgroups
   */
  readonly subgroups?: readonly GroupReference[];
  /**
   * `exact`: members and subgroups not declared here are removed. `atLeast`: the declared ones
   * are added, others are left alone.
   * @default 'exact' when `members` or `subgroups` is given; otherwise membership is not managed
   */
  readonly membershipMode?: MembershipMode;
  /**
   * Deactivate the group (Zulip keeps its name reserved). A deactivated group cannot be used
   * as a permission value.
   * @default false
   */
  readonly deactivated?: boolean;
  /**
   * Who can add members to the group.
   * @default - Zulip's default: the group's creator (the applying account)
   */
  readonly canAddMembersGroup?: PermissionValue;
  /**
   * Who can join the group on their own.
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canJoinGroup?: PermissionValue;
  /**
   * Who can leave the group on their own.
   * @default - Zulip's default: SystemGroup.EVERYONE
   */
  readonly canLeaveGroup?: PermissionValue;
  /**
   * Who can manage the group (rename it, change its description or settings and members).
   * @default - Zulip's default: the group's creator (the applying account)
   */
  readonly canManageGroup?: PermissionValue;
  /**
   * Who can mention the group.
   * @default - Zulip's default: SystemGroup.EVERYONE
   */
  readonly canMentionGroup?: PermissionValue;
  /**
   * Who can remove members from the group.
   * @default - Zulip's default: SystemGroup.NOBODY
   */
  readonly canRemoveMembersGroup?: PermissionValue;
}

const PropsSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  members: z.array(emailSchema).optional(),
  subgroups: z.array(groupRefSchema).optional(),
  membershipMode: z.enum(MEMBERSHIP_MODES).optional(),
  deactivated: z.boolean().optional(),
  ...permissionShape(GROUP_PERMISSION_NAMES),
  ...lifecycleShape('userGroup'),
});

/**
 * A named user group: members by e-mail, subgroups, and the six group permission settings.
 *
 * @example
 * const backend = new UserGroup(org, 'backend', {
 *   name: 'backend',
 *   description: 'Backend engineers',
 *   members: ['alice@example.com', 'bob@example.com'],
 *   canManageGroup: SystemGroup.ADMINISTRATORS,
 *   canMentionGroup: SystemGroup.MEMBERS,
 * });
 * const engineering = new UserGroup(org, 'engineering', {
 *   name: 'engineering',
 *   subgroups: [backend],
 * });
 */
export class UserGroup extends KeyedResource<UserGroupProps> {
  /** True when `x` is a {@link UserGroup}. */
  public static readonly isUserGroup = resourceGuard<UserGroup>('userGroup');

  /** The group's name, its natural key. */
  public readonly groupName: string = this.props?.name;
  private readonly memberList: unknown[];
  private readonly subgroupList: unknown[];
  private readonly laterPermissions: Record<string, unknown> = {};

  public constructor(scope: Construct, id: string, props: UserGroupProps) {
    super(scope, id, 'userGroup', 'UserGroup', PropsSchema, props, 'name');
    this.memberList = [...(props?.members ?? [])];
    this.subgroupList = [...(props?.subgroups ?? [])];
  }

  /** Whether the group is declared deactivated. */
  public get deactivated(): boolean {
    return this.props.deactivated === true;
  }

  /** Direct members declared so far, by e-mail. */
  public get members(): readonly string[] {
    return this.memberList.filter((m): m is string => typeof m === 'string');
  }

  /** Direct subgroups declared so far. */
  public get subgroups(): readonly GroupReference[] {
    return this.subgroupList.filter(
      (g): g is GroupReference => isUserGroupLike(g) || SystemGroup.isSystemGroup(g),
    );
  }

  /** Adds direct members, by e-mail. */
  public addMembers(...emails: string[]): this {
    this.memberList.push(...emails);
    return this;
  }

  /** Adds direct subgroups. */
  public addSubgroups(...groups: GroupReference[]): this {
    this.subgroupList.push(...groups);
    return this;
  }

  /**
   * Sets permission settings once the group exists: for a value that refers to the group itself
   * (members manage their own group) or to a group declared after it, which props cannot name.
   * A setting given here replaces the same setting given in props.
   *
   * @example
   * const leads = new UserGroup(org, 'leads', { name: 'leads', members: ['ada@example.com'] });
   * leads.setPermissions({ canManageGroup: leads, canAddMembersGroup: leads });
   */
  public setPermissions(permissions: UserGroupPermissions): this {
    for (const [name, value] of Object.entries(permissions ?? {})) {
      if (value !== undefined) this.laterPermissions[name] = value;
    }
    return this;
  }

  /** A permission setting: from {@link setPermissions}, else from props. */
  private permission(name: GroupPermissionName): PermissionValue | undefined {
    return (this.laterPermissions[name] as PermissionValue | undefined) ?? this.props[name];
  }

  protected override keyNote(): string {
    return ' (group names are case-sensitive)';
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const p = this.props;
    const nameError = checkUserGroupName(p.name);
    if (nameError) problems.push(`name '${p.name}': ${nameError} Fix the group name.`);
    problems.push(...checkEmails(this.memberList, 'members'));
    for (const g of this.subgroupList) {
      if (!isUserGroupLike(g) && !SystemGroup.isSystemGroup(g)) {
        problems.push(
          `subgroups lists ${JSON.stringify(g)}: expected a UserGroup construct or a SystemGroup`,
        );
        continue;
      }
      if (g === this) {
        problems.push(`the group is its own subgroup: remove it from subgroups`);
        continue;
      }
      if (SystemGroup.isSystemGroup(g) && g === SystemGroup.INTERNET) {
        problems.push(`subgroups lists role:internet, which has no members: remove it`);
      }
      problems.push(...checkGroupReference(this, g, 'subgroups'));
    }
    const cycle = this.findCycle();
    if (cycle) {
      problems.push(
        `subgroups form a cycle: ${cycle.join(' -> ')}; Zulip refuses cycles: remove one of these subgroups`,
      );
    }
    for (const name of Object.keys(this.laterPermissions)) {
      const v = this.laterPermissions[name];
      if (!(GROUP_PERMISSION_NAMES as readonly string[]).includes(name)) {
        problems.push(
          `setPermissions got unknown setting '${name}': use one of ${GROUP_PERMISSION_NAMES.join(', ')}`,
        );
      } else if (!isGroupReference(v) && !Permission.isPermission(v)) {
        problems.push(
          `setPermissions ${name}: expected a SystemGroup (such as SystemGroup.ADMINISTRATORS), a UserGroup construct or Permission.anyOf({users, groups})`,
        );
      }
    }
    for (const name of GROUP_PERMISSION_NAMES) {
      const v = this.permission(name);
      if (v !== undefined && (isGroupReference(v) || Permission.isPermission(v)))
        problems.push(...checkPermission(this, name, GROUP_PERMISSIONS[name], v));
    }
    return problems;
  }

  /** A path of group names from this group back to itself, if its subgroups loop. */
  private findCycle(): string[] | undefined {
    // Breadth-first from the direct subgroups, remembering how each group was reached, so a
    // diamond-shaped hierarchy is walked once, not once per path.
    const parent = new Map<UserGroup, UserGroup>();
    const queue: UserGroup[] = [];
    for (const s of this.subgroups) {
      if (isUserGroupLike(s) && s !== this && !parent.has(s)) {
        parent.set(s, this);
        queue.push(s);
      }
    }
    for (let g = queue.shift(); g; g = queue.shift()) {
      for (const s of g.subgroups) {
        if (!isUserGroupLike(s)) continue;
        if (s === this) {
          const path: UserGroup[] = [this];
          for (let at: UserGroup | undefined = g; at && at !== this; at = parent.get(at)) {
            path.unshift(at);
          }
          return [this, ...path].map((x) => x.groupName);
        }
        if (!parent.has(s)) {
          parent.set(s, g);
          queue.push(s);
        }
      }
    }
    return undefined;
  }

  /** @internal */
  public _toDesired(): DesiredUserGroup {
    const p = this.props;
    const managed =
      p.members !== undefined ||
      p.subgroups !== undefined ||
      this.memberList.length > 0 ||
      this.subgroupList.length > 0;
    return {
      ...this.desiredBase(),
      name: p.name,
      ...definedProps(p, ['description']),
      members: {
        mode: p.membershipMode ?? (managed ? 'exact' : 'atLeast'),
        users: [...new Set(this.members)].sort(),
        groups: [...new Set(this.subgroups.map(groupNameOf))].sort(),
      },
      permissions: resolvePermissions(GROUP_PERMISSION_NAMES, (n) => this.permission(n)),
      ...definedProps(p, ['deactivated']),
    };
  }
}
