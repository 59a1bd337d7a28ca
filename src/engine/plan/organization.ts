/**
 * The organization's settings and permissions: one `update` of `organizationSettings`, made of
 * the declared properties and permission settings that differ from the live organization.
 * Only declared ones are managed (an organization has no "default" to return to that anyone
 * would want without saying so).
 *
 * A function of the planner's phases (see `Planner` in `./planner.ts`): it reads
 * `desiredChannels`/`channelMatch` (a channel-valued setting may name a channel this plan
 * creates) and `desiredGroups`/`groupMatch` (through `checkGroupRef`), so it runs after
 * `planChannels`.
 */
import { channelNameKey, resourceAddress } from '../../model/address';
import type { FeatureName } from '../../model/features';
import { ROLES, isSystemGroupName } from '../../model/kinds';
import {
  ORGANIZATION_PROPERTIES,
  ORGANIZATION_PROPERTY_NAMES,
  ORGANIZATION_SETTINGS_KEY,
  organizationPropertyProblem,
} from '../../model/organization-settings';
import type { OrganizationPropertyInfo } from '../../model/organization-settings';
import {
  ORGANIZATION_PERMISSIONS,
  ORGANIZATION_PERMISSION_NAMES,
  disallowedSystemGroup,
} from '../../model/permissions';
import type { PermissionSettingInfo } from '../../model/permissions';
import type { PropertyChange } from '../plan-format';
import { updatePermissions } from './permissions';
import type { Planner } from './planner';
import { groupAddress, groupsIn, jsonEqual } from './planner';

/** `Realm.PLAN_TYPE_SELF_HOSTED` and `PLAN_TYPE_PLUS`: where guests' user access may be limited. */
const PLANS_WITH_LIMITED_ACCESS = [1, 10];

/** The id of the plan's update of the organization's settings, when it has one. */
export const ORGANIZATION_UPDATE = `${resourceAddress('organizationSettings', ORGANIZATION_SETTINGS_KEY)}#update`;

export function planOrganizationSettings(p: Planner): void {
  const d = p.desired.organizationSettings[0];
  if (!d) return;
  const key = ORGANIZATION_SETTINGS_KEY;
  const address = resourceAddress('organizationSettings', key);
  const base = { kind: 'organizationSettings' as const, address, key, path: d.path };
  const live = p.live.organizationSettings;
  const err = (m: string): void => {
    p.errors.push(`${address} (${d.path}): ${m}`);
  };
  if (!live) {
    err(
      'the live state has no organization settings (a snapshot made by an older zulip-cdk); take a new snapshot, or plan against the organization',
    );
    return;
  }
  const upgrade = 'Available on Zulip Cloud Standard. Upgrade to access.';
  const props: PropertyChange[] = [];
  const refs: string[] = [];
  const ownerOnly: string[] = [];
  /** Changes the update waits for: playground deletes that would undo a declared setting. */
  const waits: string[] = [];
  const needs = (name: string, info: { feature?: FeatureName }): boolean => {
    const lacking = p.lacks(name, info.feature);
    if (lacking !== undefined) err(lacking);
    return lacking === undefined;
  };

  for (const name of ORGANIZATION_PROPERTY_NAMES) {
    const value = d.properties[name];
    if (value === undefined) continue;
    const info: OrganizationPropertyInfo = ORGANIZATION_PROPERTIES[name];
    if (!needs(name, info)) continue;
    const problem = organizationPropertyProblem(info, value);
    if (problem !== undefined) {
      err(`${name}: ${problem}`);
      continue;
    }
    let after = value;
    if (info.type === 'channel' && typeof value === 'string') {
      const resolved = resolveChannel(p, value);
      if (resolved === undefined) {
        err(`${name} names channel '${value}', which does not exist: declare it, or fix the name`);
        continue;
      }
      after = resolved.name;
      if (resolved.created) refs.push(resourceAddress('channel', resolved.name));
      else if (!p.desiredChannels.has(channelNameKey(value)))
        p.referenced.add(resourceAddress('channel', resolved.name));
    }
    const before = p.idx.organizationProperty(name);
    if (before === undefined) continue;
    if (name === 'defaultCodeBlockLanguage') {
      const deletes = playgroundDeletes(p, after);
      waits.push(...deletes);
      // The deletes reset it to none first: it is set again.
      if (deletes.length > 0 && jsonEqual(before, after)) {
        props.push({ property: name, before: '', after });
        continue;
      }
    }
    const same =
      info.type === 'channel' && typeof before === 'string' && typeof after === 'string'
        ? channelNameKey(before) === channelNameKey(after)
        : jsonEqual(before, after);
    if (same) continue;
    // update_realm: "Invalid video_chat_provider N" unless the server offers it
    // (`Realm.get_enabled_video_chat_providers`: Zoom and BigBlueButton need its configuration).
    const offered = p.live.server.videoChatProviders;
    if (
      name === 'videoChatProvider' &&
      typeof after === 'string' &&
      offered &&
      !offered.includes(after)
    ) {
      err(
        `videoChatProvider '${after}' is not offered by this server, which offers ${offered.map((o) => `'${o}'`).join(', ')} (Zulip refuses it: "Invalid video_chat_provider ${info.choices?.[after] ?? after}"): configure it on the server (its Zoom or BigBlueButton settings), or choose one it offers`,
      );
      continue;
    }
    // `do_set_realm_moderation_request_channel`: the channel must be private when it is set.
    // Its privacy after the plan's change of it counts, so the setting waits for that change.
    if (name === 'moderationRequestChannel' && typeof after === 'string') {
      const privacy = privacyAfter(p, after);
      if (privacy.madeBy !== undefined) waits.push(privacy.madeBy);
      if (!privacy.private)
        err(
          `moderationRequestChannel names channel '${after}', which is public, and Zulip refuses a public moderation request channel ("Moderation request channel must be private."): declare the channel private, or name a private one`,
        );
    }
    props.push({ property: name, before, after });
    // `ensure_not_on_limited_plan` in `update_realm`, for what is sent.
    if (
      p.limitedPlan() &&
      (name === 'messageRetentionDays' || (name === 'enableSpectatorAccess' && after === true))
    )
      err(
        `Zulip Cloud Free does not set ${name} ("${upgrade}"): upgrade the organization's plan, or remove it`,
      );
    if (info.ownerOnly === true) ownerOnly.push(name);
  }

  const declared: Record<string, PermissionSettingInfo> = {};
  for (const name of ORGANIZATION_PERMISSION_NAMES) {
    const value = d.permissions[name];
    if (value === undefined) continue;
    const info: PermissionSettingInfo = ORGANIZATION_PERMISSIONS[name];
    if (!needs(name, info)) continue;
    const problems = organizationPermissionProblems(name, info, value);
    problems.forEach(err);
    if (problems.length === 0) declared[name] = info;
  }
  const meta = { refs: [] as string[], releases: [] as string[] };
  const permissionChanges: PropertyChange[] = [];
  updatePermissions(
    p,
    declared,
    d.permissions,
    live,
    null,
    undefined,
    address,
    d.path,
    permissionChanges,
    meta,
  );
  for (const c of permissionChanges) {
    props.push(c);
    const name = c.property.slice('permissions.'.length);
    const info: PermissionSettingInfo | undefined = declared[name];
    if (info?.ownerOnly === true) ownerOnly.push(name);
    if (name === 'canCreateGroups' && p.limitedPlan())
      err(
        `Zulip Cloud Free does not set canCreateGroups ("${upgrade}"): upgrade the organization's plan, or remove it`,
      );
    if (
      name === 'canAccessAllUsersGroup' &&
      p.live.server.planType !== null &&
      !PLANS_WITH_LIMITED_ACCESS.includes(p.live.server.planType)
    )
      err(
        'only Zulip Cloud Plus and self-hosted organizations set canAccessAllUsersGroup ("Available on Zulip Cloud Plus. Upgrade to access."): remove it',
      );
  }
  if (props.length === 0) return;
  if (p.live.me.role > ROLES.administrator)
    p.accountError(
      `${address} (${d.path}): changing organization settings (PATCH /realm) needs an organization administrator ("Must be an organization administrator"), and the applying account ${p.live.me.email} is not one. Apply with an administrator's API key`,
    );
  else if (ownerOnly.length > 0) {
    const it = ownerOnly.length === 1 ? 'it' : 'them';
    p.needsOwner(
      `changing ${ownerOnly.join(', ')}`,
      address,
      d.path,
      `leave ${it} as in Zulip (left out of OrganizationSettings, or declared as ${ownerOnly.length === 1 ? 'it is' : 'they are'}): Zulip would refuse the whole PATCH /realm, the other settings' changes with ${it}`,
    );
  }
  p.addUpdate(base, 0, props, {
    refs: [...refs, ...meta.refs.map(groupAddress)],
    releases: meta.releases.map(groupAddress),
  });
  p.waitFor(ORGANIZATION_UPDATE, waits);
}

/**
 * The plan's playground deletes (a replace deletes too) that reset the organization's default
 * code block language once it is `language`: `delete_realm_playground`
 * (zerver/views/realm_playgrounds.py) sets it to none when it is the deleted playground's
 * language, whatever playgrounds of that language remain. A declared language is therefore set
 * after them, and set again when the plan would otherwise leave it as it is.
 */
function playgroundDeletes(p: Planner, language: unknown): string[] {
  if (typeof language !== 'string' || language === '') return [];
  return p.changes
    .filter(
      (c) =>
        c.kind === 'playground' &&
        (c.action === 'delete' || c.action === 'replace') &&
        c.before.pygmentsLanguage === language,
    )
    .map((c) => c.id);
}

/** A channel a setting names: declared (maybe created by this plan) or live and not archived. */
function resolveChannel(p: Planner, name: string): { name: string; created: boolean } | undefined {
  const k = channelNameKey(name);
  const declared = p.desiredChannels.get(k);
  if (declared) {
    if (declared.archived === true) return undefined;
    return { name: declared.name, created: p.channelMatch.get(k) === null };
  }
  const l = p.idx.channelsByKey.get(k);
  if (!l || l.archived) return undefined;
  return { name: l.name, created: false };
}

/**
 * Whether a channel the plan resolved is private once the plan's changes of it are applied, and
 * the change that makes it so (its create, or an update of its privacy; undefined when the plan
 * leaves its privacy as it is live, `ignoreChanges` included).
 */
function privacyAfter(p: Planner, name: string): { private: boolean; madeBy?: string } {
  const k = channelNameKey(name);
  const declared = p.desiredChannels.get(k);
  const l = declared ? p.channelMatch.get(k) : p.idx.channelsByKey.get(k);
  if (declared && !l) return { private: declared.private === true }; // Created (refs wait for it).
  const id = `${resourceAddress('channel', declared?.name ?? name)}#update`;
  const change = p.changes.find((c) => c.id === id);
  const made =
    change?.action === 'update'
      ? change.properties.find((x) => x.property === 'private')
      : undefined;
  if (made !== undefined) return { private: made.after === true, madeBy: id };
  return { private: l?.private !== false };
}

/**
 * What Zulip refuses in an organization permission value, before any lookup
 * (zerver/lib/user_groups.py `access_user_group_api_value_for_setting`,
 * `check_setting_configuration_for_system_groups`), in Zulip's words.
 */
export function organizationPermissionProblems(
  name: string,
  info: PermissionSettingInfo,
  value: unknown,
): string[] {
  const problems: string[] = [];
  const single = typeof value === 'string' ? value : undefined;
  if (info.requireSystemGroup === true && (single === undefined || !isSystemGroupName(single)))
    problems.push(
      `${name} must be a system group ("'${info.wire}' must be a system user group."): use one of ${(info.allowedSystemGroups ?? []).join(', ')}`,
    );
  for (const g of groupsIn(value as never)) {
    if (!isSystemGroupName(g)) continue;
    // Zulip checks a named group only; a system group inside a set is not refused.
    if (single === undefined) continue;
    const bad = disallowedSystemGroup(info, g);
    if (bad)
      problems.push(
        `${name} cannot be ${bad} ("'${info.wire}' setting cannot be set to '${bad}' group.")${info.allowedSystemGroups ? `: use one of ${info.allowedSystemGroups.join(', ')}` : ''}`,
      );
  }
  return problems;
}
