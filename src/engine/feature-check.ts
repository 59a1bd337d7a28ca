import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { FEATURES, MIN_FEATURE_LEVEL, releaseWith, supports } from '../model/features';
import type { FeatureName } from '../model/features';
import {
  ORGANIZATION_PROPERTIES,
  ORGANIZATION_PROPERTY_NAMES,
  ORGANIZATION_SETTINGS_KEY,
} from '../model/organization-settings';
import type { OrganizationPropertyInfo } from '../model/organization-settings';
import {
  DEFAULT_USER_SETTINGS,
  DEFAULT_USER_SETTING_NAMES,
  DEFAULT_USER_SETTINGS_KEY,
  defaultUserSettingValueFeature,
} from '../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../model/default-user-settings';
import {
  CHANNEL_PERMISSIONS,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
} from '../model/permissions';
import type { PermissionSettingInfo } from '../model/permissions';
import { resourceAddress } from '../model/address';
import type { ServerInfo } from '../model/live-state';

/** One thing the configuration uses that the server lacks. */
export interface FeatureProblem {
  readonly feature: FeatureName;
  readonly needs: number;
  readonly address: string;
  readonly path: string;
  readonly message: string;
}

/**
 * Everything in `desired` that the server's feature level lacks, collected (not just the
 * first) so one run tells the user all of it.
 */
export function findUnsupportedFeatures(
  desired: DesiredState,
  server: Pick<ServerInfo, 'featureLevel' | 'version'>,
): FeatureProblem[] {
  const problems: FeatureProblem[] = [];
  const fl = server.featureLevel;
  const need = (feature: FeatureName, address: string, path: string, detail?: string): void => {
    if (supports(fl, feature)) return;
    const f = FEATURES[feature];
    problems.push({
      feature,
      needs: f.level,
      address,
      path,
      message:
        `${address} (${path}): ${detail ?? f.what} needs Zulip feature level ${f.level} (${releaseWith(f.level)}); ` +
        `the server is at ${fl} (Zulip ${server.version})`,
    });
  };
  const perms = (
    table: Record<string, PermissionSettingInfo>,
    declared: Record<string, unknown>,
    address: string,
    path: string,
  ): void => {
    for (const [name, value] of Object.entries(declared)) {
      const info = table[name];
      if (value === undefined || !info?.feature) continue;
      need(info.feature, address, path, info.wire);
    }
  };

  for (const f of desired.channelFolders)
    need('channelFolders', resourceAddress('channelFolder', f.name), f.path);
  for (const g of desired.userGroups) {
    const address = resourceAddress('userGroup', g.name);
    perms(GROUP_PERMISSIONS, g.permissions, address, g.path);
    if (g.deactivated === true) need('groupDeactivation', address, g.path);
  }
  for (const c of desired.channels) {
    const address = resourceAddress('channel', c.name);
    perms(CHANNEL_PERMISSIONS, c.permissions, address, c.path);
    if (typeof c.folder === 'string') need('channelFolders', address, c.path, 'folder');
    if (c.topicsPolicy !== undefined) need('topicsPolicy', address, c.path);
    if (c.topicsPolicy === 'empty_topic_only') need('emptyTopicOnly', address, c.path);
  }
  for (const s of desired.savedSnippets)
    need('savedSnippets', resourceAddress('savedSnippet', s.title), s.path);
  for (const o of desired.organizationSettings) {
    const address = resourceAddress('organizationSettings', ORGANIZATION_SETTINGS_KEY);
    for (const name of ORGANIZATION_PROPERTY_NAMES) {
      const info: OrganizationPropertyInfo = ORGANIZATION_PROPERTIES[name];
      if (o.properties[name] !== undefined && info.feature)
        need(info.feature, address, o.path, name);
    }
    perms(ORGANIZATION_PERMISSIONS, o.permissions, address, o.path);
  }
  for (const o of desired.defaultUserSettings) {
    const address = resourceAddress('defaultUserSettings', DEFAULT_USER_SETTINGS_KEY);
    for (const name of DEFAULT_USER_SETTING_NAMES) {
      const info: DefaultUserSettingInfo = DEFAULT_USER_SETTINGS[name];
      const value = o.properties[name];
      if (value === undefined) continue;
      if (info.feature) need(info.feature, address, o.path, name);
      const newer = defaultUserSettingValueFeature(info, value);
      if (newer) need(newer, address, o.path, `${name} '${String(value)}'`);
    }
  }
  return problems;
}

/** Whether the configuration declares the organization's spectator access on. */
export function turnsSpectatorAccessOn(desired: DesiredState): boolean {
  return desired.organizationSettings.some((o) => o.properties.enableSpectatorAccess === true);
}

/**
 * `address (path)` of every channel declared `webPublic: true` when the server does not allow
 * web-public channels (Zulip refuses with "Web-public channels are not enabled."). The
 * configuration may turn the organization's spectator access on where the server allows them:
 * the plan makes that change before the channels (`realm.web_public_streams_enabled()` is
 * checked at each request).
 */
export function findWebPublicDisabled(
  desired: DesiredState,
  server: Pick<ServerInfo, 'webPublicChannelsEnabled' | 'webPublicChannelsAllowed'>,
): string[] {
  if (server.webPublicChannelsEnabled) return [];
  if (server.webPublicChannelsAllowed === true && turnsSpectatorAccessOn(desired)) return [];
  return desired.channels
    .filter((c) => c.webPublic === true)
    .map((c) => `${resourceAddress('channel', c.name)} (${c.path})`);
}

/**
 * Throws `UNSUPPORTED_FEATURE` listing every feature the configuration uses that the server
 * lacks (and `SERVER_TOO_OLD` below zulip-cdk's minimum), then `WEB_PUBLIC_DISABLED` listing
 * every web-public channel when the server has web-public channels off.
 */
export function checkFeatures(
  desired: DesiredState,
  server: Pick<
    ServerInfo,
    'featureLevel' | 'version' | 'site' | 'webPublicChannelsEnabled' | 'webPublicChannelsAllowed'
  >,
): void {
  if (server.featureLevel < MIN_FEATURE_LEVEL)
    throw new ZulipCdkError(
      'SERVER_TOO_OLD',
      `The server is at feature level ${server.featureLevel} (Zulip ${server.version}); zulip-cdk needs ${MIN_FEATURE_LEVEL} (Zulip 10.2) or newer`,
      { where: server.site, hint: 'Upgrade the Zulip server.' },
    );
  const problems = findUnsupportedFeatures(desired, server);
  if (problems.length === 0) {
    checkWebPublic(desired, server);
    return;
  }
  throw new ZulipCdkError(
    'UNSUPPORTED_FEATURE',
    `The configuration uses ${problems.length} feature(s) the server lacks:\n` +
      problems.map((p) => `  - ${p.message}`).join('\n'),
    {
      where: server.site,
      hint: 'Remove these settings from the configuration, or upgrade the Zulip server.',
    },
  );
}

function checkWebPublic(
  desired: DesiredState,
  server: Pick<ServerInfo, 'site' | 'webPublicChannelsEnabled' | 'webPublicChannelsAllowed'>,
): void {
  const channels = findWebPublicDisabled(desired, server);
  if (channels.length === 0) return;
  throw new ZulipCdkError(
    'WEB_PUBLIC_DISABLED',
    `The configuration declares ${channels.length} web-public channel(s), but web-public channels are not enabled on this server:\n` +
      channels.map((c) => `  - ${c}: webPublic: true`).join('\n'),
    {
      where: server.site,
      hint:
        'Enable spectator access in the organization settings (enable_spectator_access) and ' +
        "set WEB_PUBLIC_STREAMS_ENABLED = True in the server's /etc/zulip/settings.py, " +
        'or drop webPublic from these channels.',
    },
  );
}
