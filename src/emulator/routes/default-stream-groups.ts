/**
 * Default channel groups (zerver/views/streams.py `create_default_stream_group`,
 * `update_default_stream_group_info`, `update_default_stream_group_streams`,
 * `remove_default_stream_group`; zerver/actions/default_streams.py for the rules).
 */
import { isGuest } from '../permissions';
import { hasContentAccess } from '../permissions';
import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { OrgState, StoredChannel, StoredDefaultChannelGroup } from '../state';
import { atomic, channelByName, pathInt, requireAdmin } from './common';

/**
 * The organization's groups (absent in state files written before they existed). Reading
 * does not add the list: a state file changes only when the organization does.
 */
export function defaultChannelGroups(org: OrgState): readonly StoredDefaultChannelGroup[] {
  return org.defaultChannelGroups ?? [];
}

/** The list to change (created on the first write). */
function writableGroups(org: OrgState): StoredDefaultChannelGroup[] {
  return (org.defaultChannelGroups ??= []);
}

/**
 * `DefaultStreamGroup.to_dict` in `default_stream_groups_to_dicts_sorted`: sorted by group name,
 * each group's channel IDs sorted by channel name.
 */
export function defaultChannelGroupsToApi(org: OrgState): Record<string, unknown>[] {
  const nameOf = (id: number): string => org.channels.find((c) => c.id === id)?.name ?? '';
  return [...defaultChannelGroups(org)]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((g) => ({
      name: g.name,
      id: g.id,
      description: g.description,
      streams: [...g.channelIds].sort((a, b) => {
        const x = nameOf(a);
        const y = nameOf(b);
        return x < y ? -1 : x > y ? 1 : a - b;
      }),
    }));
}

/** `notify_default_stream_groups`: the whole list, to active users who are not guests. */
export function defaultStreamGroupsEvent(ctx: RequestContext): void {
  const users = ctx.org.users.filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  ctx.events.push({
    users,
    event: {
      type: 'default_stream_groups',
      default_stream_groups: defaultChannelGroupsToApi(ctx.org),
    },
  });
}

/**
 * A channel leaves every group when it is archived (zerver/actions/streams.py
 * `do_deactivate_stream` calls `do_remove_streams_from_default_stream_group`).
 */
export function removeChannelFromGroups(ctx: RequestContext, channelId: number): void {
  let changed = false;
  for (const g of defaultChannelGroups(ctx.org))
    if (g.channelIds.includes(channelId)) {
      g.channelIds = g.channelIds.filter((id) => id !== channelId);
      changed = true;
    }
  if (changed) defaultStreamGroupsEvent(ctx);
}

/**
 * zerver/lib/streams.py `access_stream_by_name`: an active channel of that name (the name
 * stripped and compared case-insensitively: zerver/models/streams.py `get_realm_stream`) that
 * the user can read, else "Invalid channel name" with the name as given.
 */
function accessStreamByName(ctx: RequestContext, name: string): StoredChannel {
  const ch = channelByName(ctx, name);
  if (!ch || ch.isArchived || !hasContentAccess(ctx.org, ctx.user, ch))
    throw badRequest(`Invalid channel name '${name}'`);
  return ch;
}

/** `access_default_stream_group_by_id`. */
function accessGroup(ctx: RequestContext, id: number): StoredDefaultChannelGroup {
  const g = defaultChannelGroups(ctx.org).find((x) => x.id === id);
  if (!g) throw badRequest(`Default channel group with id '${id}' does not exist.`);
  return g;
}

/** `check_default_stream_group_name`. */
function checkName(name: string): void {
  if (name.trim() === '') throw badRequest(`Invalid default channel group name '${name}'`);
  if ([...name].length > 60)
    throw badRequest('Default channel group name too long (limit: 60 characters)');
  if (name.includes('\0'))
    throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

/** A default channel cannot join a group (`do_create_default_stream_group`, `do_add_...`). */
function refuseDefaultChannel(ctx: RequestContext, ch: StoredChannel, groupName: string): void {
  if (ctx.org.defaultChannelIds.includes(ch.id))
    throw badRequest(`'${ch.name}' is a default channel and cannot be added to '${groupName}'`);
}

function streamNames(ctx: RequestContext): string[] {
  const names = ctx.params.stringList('stream_names');
  if (names === undefined) throw missingArgument('stream_names');
  return names;
}

function create(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  // Parameters in the view's order: description, group_name, stream_names.
  const description = ctx.params.requiredString('description');
  const name = ctx.params.requiredString('group_name');
  const names = streamNames(ctx);
  const channels = names.map((n) => accessStreamByName(ctx, n));
  for (const ch of channels) refuseDefaultChannel(ctx, ch, name);
  checkName(name);
  const groups = writableGroups(ctx.org);
  // get_or_create(name, realm, description): a group of that name exists. (Zulip answers a
  // server error when it exists with another description; "already exists" here.)
  if (groups.some((g) => g.name === name))
    throw badRequest(`Default channel group '${name}' already exists`);
  groups.push({
    id: nextId(ctx.org),
    name,
    description,
    channelIds: [...new Set(channels.map((c) => c.id))],
  });
  defaultStreamGroupsEvent(ctx);
  return {};
}

function updateInfo(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const description = ctx.params.string('new_description');
  const name = ctx.params.string('new_group_name');
  if (!name && !description)
    throw badRequest('You must pass "new_description" or "new_group_name".');
  const g = accessGroup(ctx, pathInt(ctx, 'group_id'));
  return atomic(ctx, () => {
    if (name !== undefined) {
      // do_change_default_stream_group_name: no name check beyond these two.
      if (g.name === name)
        throw badRequest(`This default channel group is already named '${name}'`);
      if (defaultChannelGroups(ctx.org).some((x) => x.name === name))
        throw badRequest(`Default channel group '${name}' already exists`);
      g.name = name;
      defaultStreamGroupsEvent(ctx);
    }
    if (description !== undefined) {
      g.description = description;
      defaultStreamGroupsEvent(ctx);
    }
    return {};
  });
}

function updateStreams(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const op = ctx.params.requiredString('op');
  const names = streamNames(ctx);
  const g = accessGroup(ctx, pathInt(ctx, 'group_id'));
  const channels = names.map((n) => accessStreamByName(ctx, n));
  if (op === 'add') {
    // do_add_streams_to_default_stream_group: one by one, each saved as it is added (the view
    // is not atomic), so a refusal keeps the channels before it; the event only on success.
    for (const ch of channels) {
      refuseDefaultChannel(ctx, ch, g.name);
      if (g.channelIds.includes(ch.id))
        throw badRequest(
          `Channel '${ch.name}' is already present in default channel group '${g.name}'`,
        );
      g.channelIds.push(ch.id);
    }
    defaultStreamGroupsEvent(ctx);
    return {};
  }
  if (op === 'remove') {
    for (const ch of channels)
      if (!g.channelIds.includes(ch.id))
        throw badRequest(
          `Channel '${ch.name}' is not present in default channel group '${g.name}'`,
        );
    const gone = new Set(channels.map((c) => c.id));
    g.channelIds = g.channelIds.filter((id) => !gone.has(id));
    defaultStreamGroupsEvent(ctx);
    return {};
  }
  throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
}

function remove(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const g = accessGroup(ctx, pathInt(ctx, 'group_id'));
  ctx.org.defaultChannelGroups = defaultChannelGroups(ctx.org).filter((x) => x !== g);
  defaultStreamGroupsEvent(ctx);
  return {};
}

/** Default channel group routes (`check_if_user_can_manage_default_streams`: administrators). */
export const defaultStreamGroupRoutes: Route[] = [
  { method: 'POST', path: '/default_stream_groups/create', handler: create },
  { method: 'PATCH', path: '/default_stream_groups/{group_id}', handler: updateInfo },
  { method: 'PATCH', path: '/default_stream_groups/{group_id}/streams', handler: updateStreams },
  { method: 'DELETE', path: '/default_stream_groups/{group_id}', handler: remove },
];
