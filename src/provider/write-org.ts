import { resourceAddress } from '../model/address';
import { folderRenameStandIn } from '../model/rules';
import { ZulipCdkError } from '../model/errors';
import { ROLES, SUBSCRIPTION_PROPERTIES } from '../model/kinds';
import type { RoleName, SubscriptionPropertyName } from '../model/kinds';
import type { ApplyContext } from '../engine/apply';
import type {
  CreateChange,
  JsonValue,
  ReorderChange,
  ReplaceChange,
  UpdateChange,
} from '../engine/plan-format';
import type { LiveAllowedDomain } from '../model/live-state';
import type { ZulipClient } from '../zulip/client';
import type { SubscriptionPropertyChange } from '../zulip/wire/subscription';
import type { UpdateUserParams } from '../zulip/wire/user';
import { ORGANIZATION_PROPERTIES } from '../model/organization-settings';
import type { OrganizationPropertyInfo } from '../model/organization-settings';
import { ORGANIZATION_PERMISSIONS } from '../model/permissions';
import { DEFAULT_USER_SETTINGS, defaultUserSettingToWire } from '../model/default-user-settings';
import type { DefaultUserSettingInfo } from '../model/default-user-settings';
import type { GroupSettingUpdate } from '../zulip/wire/common';
import { text, withOld } from './write-values';
import { profileData } from './write-profile-fields';

const str = (v: JsonValue | undefined, fallback = ''): string =>
  typeof v === 'string' ? v : fallback;

function cannotWrite(kind: string, property: string): ZulipCdkError {
  return new ZulipCdkError(
    'PLAN_INVALID',
    `The plan changes a ${kind} property zulip-cdk cannot write: ${property}`,
  );
}

/**
 * An update's text properties, each sent under its own name (`name`, `description`); a
 * property not among `names` is one zulip-cdk cannot write.
 */
function textParams<N extends string>(
  change: UpdateChange,
  names: readonly N[],
  kind: string,
): { [K in N]?: string } {
  const params: { [K in N]?: string } = {};
  for (const p of change.properties) {
    if (!(names as readonly string[]).includes(p.property)) throw cannotWrite(kind, p.property);
    params[p.property as N] = text(p.after);
  }
  return params;
}

/**
 * A create's text properties, each sent under its own name (`title`, `content`); the first is
 * the natural key, the change's key when the plan lacks it.
 */
function createTextParams<N extends string>(
  change: CreateChange,
  [key, ...others]: readonly [N, ...N[]],
): Record<N, string> {
  const params = { [key]: str(change.properties[key], change.key) } as Record<N, string>;
  for (const name of others) params[name] = str(change.properties[name]);
  return params;
}

// ---------------------------------------------------------------- channel folders

export async function createFolder(client: ZulipClient, change: CreateChange): Promise<number> {
  const res = await client.createChannelFolder(createTextParams(change, ['name', 'description']));
  return res.channel_folder_id;
}

/**
 * One `PATCH /channel_folders/{id}` for name and description. A name that differs only in case
 * (`ops` to `Ops`) goes through a stand-in name first: Zulip refuses it in one step
 * (`check_channel_folder_name` finds the folder itself; see {@link folderRenameStandIn}).
 */
export async function updateFolder(client: ZulipClient, change: UpdateChange): Promise<void> {
  const params = textParams(change, ['name', 'description'], 'channel folder');
  const id = change.liveId ?? -1;
  const before = change.properties.find((p) => p.property === 'name')?.before;
  if (
    params.name !== undefined &&
    typeof before === 'string' &&
    before.toLowerCase() === params.name.toLowerCase()
  )
    await client.updateChannelFolder(id, { name: folderRenameStandIn(params.name) });
  await client.updateChannelFolder(id, params);
}

// ---------------------------------------------------------------- default channel groups

const names = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * `POST /default_stream_groups/create` (zerver/views/streams.py `create_default_stream_group`):
 * `group_name`, `description` and `stream_names`, all required. Zulip answers no ID.
 */
export async function createDefaultChannelGroup(
  client: ZulipClient,
  change: CreateChange,
): Promise<void> {
  await client.createDefaultStreamGroup({
    group_name: str(change.properties.name, change.key),
    description: str(change.properties.description),
    stream_names: names(change.properties.channels),
  });
}

/**
 * A description through `PATCH /default_stream_groups/{id}` (`new_description`); channels
 * through `PATCH /default_stream_groups/{id}/streams`, one request to add (`op: add`) and one
 * to remove (`op: remove`), by name (`update_default_stream_group_streams`). The plan's
 * `before` and `after` name the channels as they are called after the plan.
 */
export async function updateDefaultChannelGroup(
  client: ZulipClient,
  change: UpdateChange,
): Promise<void> {
  const id = change.liveId ?? -1;
  for (const p of change.properties) {
    if (p.property === 'description') {
      await client.updateDefaultStreamGroupInfo(id, { new_description: text(p.after) });
    } else if (p.property === 'channels') {
      const key = (n: string): string => n.trim().toLowerCase();
      const before = names(p.before);
      const after = names(p.after);
      const had = new Set(before.map(key));
      const wants = new Set(after.map(key));
      const add = after.filter((n) => !had.has(key(n)));
      const remove = before.filter((n) => !wants.has(key(n)));
      if (remove.length > 0)
        await client.updateDefaultStreamGroupStreams(id, { op: 'remove', stream_names: remove });
      if (add.length > 0)
        await client.updateDefaultStreamGroupStreams(id, { op: 'add', stream_names: add });
    } else throw cannotWrite('default channel group', p.property);
  }
}

// ---------------------------------------------------------------- linkifiers

export async function createLinkifier(client: ZulipClient, change: CreateChange): Promise<number> {
  const res = await client.addLinkifier({
    pattern: str(change.properties.pattern, change.key),
    url_template: str(change.properties.urlTemplate),
  });
  return res.id;
}

/** `PATCH /realm/filters/{id}` needs both fields: the other one comes from the fresh read. */
export async function updateLinkifier(
  client: ZulipClient,
  id: number,
  ctx: ApplyContext,
  values: { pattern?: string; urlTemplate?: string },
): Promise<void> {
  const live = ctx.live.linkifiers.find((l) => l.id === id);
  const pattern = values.pattern ?? live?.pattern;
  const urlTemplate = values.urlTemplate ?? live?.urlTemplate;
  if (pattern === undefined || urlTemplate === undefined)
    throw new ZulipCdkError('UNRESOLVED_REFERENCE', `Linkifier ${id} no longer exists.`, {
      hint: 'Plan again.',
    });
  await client.updateLinkifier(id, { pattern, url_template: urlTemplate });
}

// ---------------------------------------------------------------- playgrounds

export async function createPlayground(
  client: ZulipClient,
  properties: Record<string, JsonValue>,
): Promise<number> {
  const res = await client.addPlayground({
    name: str(properties.name),
    pygments_language: str(properties.pygmentsLanguage),
    url_template: str(properties.urlTemplate),
  });
  return res.id;
}

/** Zulip has no playground update: delete, then create. */
export async function replacePlayground(
  client: ZulipClient,
  change: ReplaceChange,
): Promise<number> {
  await client.removePlayground(change.liveId);
  return createPlayground(client, change.after);
}

// ---------------------------------------------------------------- allowed domains

/**
 * The domain a change names as Zulip stores it: `PATCH` and `DELETE /realm/domains/{domain}` look
 * it up as is (zerver/views/realm_domains.py: no strip, no lower-casing), so the live one's
 * spelling, else the change's key (what Zulip made of the declared one).
 */
export function storedDomain(
  change: { readonly liveId: number | null; readonly key: string },
  ctx: ApplyContext,
): string {
  const live =
    change.liveId === null
      ? undefined
      : (ctx.index.byId('allowedDomain', change.liveId) as LiveAllowedDomain | undefined);
  return live?.domain ?? change.key;
}

/**
 * `POST /realm/domains`. Zulip answers with the new row's ID, which nothing reads again (a read
 * gives domains no ID): the create returns none.
 */
export async function createAllowedDomain(
  client: ZulipClient,
  change: CreateChange,
): Promise<void> {
  await client.addRealmDomain({
    domain: str(change.properties.domain, change.key),
    allow_subdomains: change.properties.allowSubdomains === true,
  });
}

/** `PATCH /realm/domains/{domain}`: `allow_subdomains`, the only property Zulip changes. */
export async function updateAllowedDomain(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  let allow = false;
  for (const p of change.properties) {
    if (p.property !== 'allowSubdomains') throw cannotWrite('allowed domain', p.property);
    allow = p.after === true;
  }
  await client.updateRealmDomain(storedDomain(change, ctx), { allow_subdomains: allow });
}

// ---------------------------------------------------------------- saved snippets

export async function createSnippet(client: ZulipClient, change: CreateChange): Promise<number> {
  const res = await client.createSavedSnippet(createTextParams(change, ['title', 'content']));
  return res.saved_snippet_id;
}

export async function updateSnippet(client: ZulipClient, change: UpdateChange): Promise<void> {
  const params = textParams(change, ['title', 'content'], 'saved snippet');
  await client.updateSavedSnippet(change.liveId ?? -1, params);
}

// ---------------------------------------------------------------- users

/** One `PATCH /users/{id}` for role, full name and custom profile field values (`profile_data`). */
export async function updateUser(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  const params: { -readonly [K in keyof UpdateUserParams]: UpdateUserParams[K] } = {};
  const profile = profileData(change, ctx);
  if (profile.length > 0) params.profile_data = profile;
  for (const p of change.properties) {
    if (p.property.startsWith('profile.')) continue;
    if (p.property === 'role') {
      const role = ROLES[text(p.after) as RoleName] as number | undefined;
      if (role === undefined) throw cannotWrite('user', `role ${JSON.stringify(p.after)}`);
      params.role = role;
    } else if (p.property === 'fullName') params.full_name = text(p.after);
    else throw cannotWrite('user', p.property);
  }
  await client.updateUser(change.liveId ?? -1, params);
}

// ---------------------------------------------------------------- subscription settings

/** Every setting change of the applying account in one `POST /users/me/subscriptions/properties`. */
export async function updateSubscriptionSettings(
  client: ZulipClient,
  changes: readonly UpdateChange[],
  ctx: ApplyContext,
): Promise<void> {
  const data: SubscriptionPropertyChange[] = [];
  for (const c of changes) {
    const streamId = c.liveId ?? ctx.channelId(c.key);
    for (const p of c.properties) {
      const wire = (SUBSCRIPTION_PROPERTIES as Record<string, string | undefined>)[p.property];
      if (wire === undefined) throw cannotWrite('subscription', p.property);
      if (wire === 'color') {
        data.push({ stream_id: streamId, property: 'color', value: text(p.after) });
      } else if (typeof p.after === 'boolean') {
        data.push({
          stream_id: streamId,
          property: wire as Exclude<
            (typeof SUBSCRIPTION_PROPERTIES)[SubscriptionPropertyName],
            'color'
          >,
          value: p.after,
        });
      }
    }
  }
  if (data.length > 0) await client.updateSubscriptionSettings(data);
}

// ---------------------------------------------------------------- reorders

/** The full order, IDs of objects created by this apply filled in. */
export function reorderIds(change: ReorderChange, ctx: ApplyContext): number[] {
  return change.after.map((e) => {
    const id = e.id ?? ctx.idOf(resourceAddress(change.kind, e.key));
    if (id === undefined)
      throw new ZulipCdkError(
        'UNRESOLVED_REFERENCE',
        `Cannot reorder: ${resourceAddress(change.kind, e.key)} was not created.`,
      );
    return id;
  });
}

export async function reorder(
  client: ZulipClient,
  change: ReorderChange,
  ctx: ApplyContext,
): Promise<void> {
  const ids = reorderIds(change, ctx);
  if (change.kind === 'linkifier') await client.reorderLinkifiers(ids);
  else if (change.kind === 'customProfileField') await client.reorderCustomProfileFields(ids);
  else await client.reorderChannelFolders(ids);
}

// ---------------------------------------------------------------- the organization

/**
 * One `PATCH /realm` with only the settings that change (zerver/views/realm.py
 * `update_realm`): properties as Zulip takes them (a channel by ID or -1 for none, 'unlimited'
 * for an unlimited time limit or retention), group settings as `{new, old}`, so a hand change
 * after review fails with `EXPECTATION_MISMATCH` instead of being overwritten.
 */
export async function updateOrganizationSettings(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  const params: Record<string, string | number | boolean | GroupSettingUpdate> = {};
  for (const p of change.properties) {
    if (p.property.startsWith('permissions.')) {
      const name = p.property.slice('permissions.'.length);
      const info = (ORGANIZATION_PERMISSIONS as Record<string, { wire: string } | undefined>)[name];
      if (info === undefined) throw cannotWrite('organization', p.property);
      params[info.wire] = { new: ctx.wireGroupSetting(p.after), ...withOld(p.old) };
      continue;
    }
    const info = (ORGANIZATION_PROPERTIES as Record<string, OrganizationPropertyInfo | undefined>)[
      p.property
    ];
    if (info === undefined) throw cannotWrite('organization', p.property);
    params[info.wire] = organizationPropertyParam(info, p.after, ctx);
  }
  await client.updateRealm(params);
}

function organizationPropertyParam(
  info: OrganizationPropertyInfo,
  value: JsonValue,
  ctx: ApplyContext,
): string | number | boolean {
  if (info.type === 'channel') return value === null ? -1 : ctx.channelId(text(value, 'channel'));
  // zerver/views/realm.py: `Realm.JITSI_SERVER_SPECIAL_VALUES_MAP` ("default" is none).
  if (info.type === 'url' && value === null) return 'default';
  if (info.type === 'choice' && typeof value === 'string' && info.choices) {
    const n = info.choices[value];
    if (n !== undefined) return n;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  throw new ZulipCdkError(
    'PLAN_INVALID',
    `The plan has ${JSON.stringify(value)} for the organization's ${info.wire}.`,
  );
}

/**
 * One `PATCH /realm/user_settings_defaults` with only the settings that change
 * (zerver/views/realm.py `update_realm_user_settings_defaults`): an integer choice as its
 * number, booleans and integers JSON-encoded, the string choices plain. Zulip checks every
 * parameter before it writes any.
 */
export async function updateDefaultUserSettings(
  client: ZulipClient,
  change: UpdateChange,
): Promise<void> {
  const params: Record<string, string | number | boolean> = {};
  for (const p of change.properties) {
    const info = (DEFAULT_USER_SETTINGS as Record<string, DefaultUserSettingInfo | undefined>)[
      p.property
    ];
    const v = p.after;
    if (info === undefined) throw cannotWrite('default user settings', p.property);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new ZulipCdkError(
        'PLAN_INVALID',
        `The plan has ${JSON.stringify(v)} for the default user setting ${info.wire}.`,
      );
    params[info.wire] = defaultUserSettingToWire(info, v);
  }
  await client.updateRealmUserSettingsDefaults(params);
}
