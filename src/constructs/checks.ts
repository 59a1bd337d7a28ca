import type { PermissionSettingInfo } from '../model/permissions';
import { codePointLength } from '../model/rules';
import { disallowedSystemGroup } from '../model/permissions';
import { Permission, groupsOf, isUserGroupLike, usersOf } from './permission';
import type { GroupReference, PermissionValue } from './permission';
import { isEmail } from './props';
import type { ZulipResource } from './resource';
import { findOrganization } from './resource';
import { SystemGroup } from './system-group';

/** The problem, if Zulip would strip whitespace around `value` (the prop `prop`). */
export function whitespaceProblem(prop: string, value: string): string[] {
  return value === value.trim()
    ? []
    : [`${prop} '${value}' has leading or trailing whitespace, which Zulip strips: remove it`];
}

/**
 * The problems with a channel's or a folder's name: Zulip's refusal (`refusal`, from the
 * model's rule) and how to fix it, else the whitespace Zulip would strip from it.
 */
export function strippedNameProblems(
  name: string,
  refusal: string | undefined,
  what: string,
): string[] {
  if (refusal) return [`name '${name}': ${refusal} Fix the ${what} name.`];
  return whitespaceProblem('name', name);
}

/** The problem, if `value` is longer than `max` (counted in code points, as Zulip counts). */
export function lengthProblem(prop: string, value: string | undefined, max: number): string[] {
  const n = value === undefined ? 0 : codePointLength(value);
  return n > max
    ? [`${prop} is ${n} characters long; Zulip allows at most ${max}: shorten it`]
    : [];
}

/** Problems with a group used by `owner` (another organization's, or deactivated). */
export function checkGroupReference(
  owner: ZulipResource,
  group: GroupReference,
  what: string,
): string[] {
  if (!isUserGroupLike(group)) return [];
  const org = findOrganization(group);
  if (org !== owner.organization) {
    return [
      `${what} refers to user group ${group.node.path}, which belongs to ${
        org ? `organization '${org.node.path}'` : 'no organization'
      }: use a group of '${owner.organization.node.path}'`,
    ];
  }
  if (group.deactivated) {
    return [
      `${what} refers to user group '${group.groupName}' (${group.node.path}), which is declared deactivated: Zulip does not accept deactivated groups there; reactivate it or use another group`,
    ];
  }
  return [];
}

/** Problems with a permission value: system groups Zulip refuses, foreign groups, bad e-mails. */
export function checkPermission(
  owner: ZulipResource,
  setting: string,
  info: PermissionSettingInfo,
  value: PermissionValue,
): string[] {
  const problems: string[] = [];
  for (const g of groupsOf(value)) {
    if (SystemGroup.isSystemGroup(g)) {
      const bad = disallowedSystemGroup(info, g.groupName);
      if (bad) {
        problems.push(
          `${setting} cannot be ${bad} (Zulip: "'${info.wire}' setting cannot be set to '${bad}' group."): ${
            bad === 'role:everyone'
              ? 'use SystemGroup.MEMBERS to include every member but not guests'
              : 'choose a narrower group'
          }`,
        );
      }
    } else {
      problems.push(...checkGroupReference(owner, g, setting));
    }
  }
  if (Permission.isPermission(value)) {
    for (const p of value._problems) problems.push(`${setting}: ${p}`);
    for (const u of usersOf(value)) {
      if (typeof u !== 'string' || !isEmail(u)) {
        problems.push(
          `${setting} lists user ${JSON.stringify(u)}, which is not an e-mail address: users are named by e-mail`,
        );
      }
    }
  }
  return problems;
}

/** Problems with a list of user e-mails (added through methods after the props check). */
export function checkEmails(list: readonly unknown[], what: string): string[] {
  return list
    .filter((u) => typeof u !== 'string' || !isEmail(u))
    .map(
      (u) =>
        `${what} lists ${JSON.stringify(u)}, which is not an e-mail address: users are named by e-mail`,
    );
}
