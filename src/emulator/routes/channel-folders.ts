import { FEATURES, supports } from '../../model/features';
import { LIMITS } from '../../model/kinds';
import { codePointLength, firstUnprintablePosition } from '../../model/rules';
import { InternalServerError, badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredFolder } from '../state';
import { folderToApi, sortedFolders } from '../views';
import { pathInt, requireAdmin } from './common';

/** `MAX_NAME_LENGTH`: 100 in the first model (FL 389), 60 once folders had an order (FL 414). */
export function folderNameLimit(fl: number): number {
  return supports(fl, 'channelFolderOrder') ? LIMITS.channelFolderName : 100;
}

/**
 * `name` and `description` as the views declare them (zerver/views/channel_folders.py:
 * `StringConstraints(max_length=...)`, no stripping): typed_endpoint checks the raw length, and
 * the value is stored exactly as sent.
 */
function boundedParam(
  ctx: RequestContext,
  name: 'name' | 'description',
  max: number,
  required = false,
): string | undefined {
  const v = ctx.params.string(name);
  if (v === undefined && required) throw missingArgument(name);
  if (v !== undefined && codePointLength(v) > max)
    throw badRequest(`${name} is too long (limit: ${max} characters)`);
  return v;
}

/**
 * zerver/lib/channel_folders.py `check_channel_folder_name`: blank after strip, unprintable
 * characters, then a case-insensitive clash with any folder that is not archived. The folder
 * being renamed is not excluded, so a case-only rename of an active folder fails ("Channel
 * folder name already in use"); the name is checked and kept as given, never stripped.
 */
function checkName(ctx: RequestContext, name: string): void {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  const pos = firstUnprintablePosition(name);
  if (pos !== undefined)
    throw badRequest(`Invalid character in channel folder name, at position ${pos}.`);
  const key = name.toLowerCase();
  if (ctx.org.folders.some((f) => !f.isArchived && f.name.toLowerCase() === key))
    throw badRequest('Channel folder name already in use');
}

/** A `channel_folder` event, to everyone. */
function folderEvent(ctx: RequestContext, event: Record<string, unknown>): void {
  ctx.events.push({ users: 'all', event: { type: 'channel_folder', ...event } });
}

function findFolder(ctx: RequestContext): StoredFolder {
  const id = pathInt(ctx, 'channel_folder_id');
  const f = ctx.org.folders.find((x) => x.id === id);
  if (!f) throw badRequest('Invalid channel folder ID');
  return f;
}

/** Channel-folder routes (FL 389; reorder FL 414). */
export const channelFolderRoutes: Route[] = [
  {
    method: 'GET',
    path: '/channel_folders',
    minLevel: FEATURES.channelFolders.level,
    handler: (ctx) => {
      const includeArchived = ctx.params.bool('include_archived') ?? false;
      const folders = ctx.org.folders.filter((f) => includeArchived || !f.isArchived);
      return {
        channel_folders: sortedFolders(ctx.featureLevel, folders).map((f) =>
          folderToApi(ctx.featureLevel, f),
        ),
      };
    },
  },
  {
    // zerver/views/channel_folders.py create_channel_folder
    method: 'POST',
    path: '/channel_folders/create',
    minLevel: FEATURES.channelFolders.level,
    handler: (ctx) => {
      requireAdmin(ctx);
      // typed_endpoint reads the parameters in the view's order: description, then name.
      const description = boundedParam(
        ctx,
        'description',
        LIMITS.channelFolderDescription,
        true,
      ) as string;
      const name = boundedParam(ctx, 'name', folderNameLimit(ctx.featureLevel), true) as string;
      checkName(ctx, name);
      const id = nextId(ctx.org);
      // zerver/actions/channel_folders.py check_add_channel_folder: order = id (last).
      const folder: StoredFolder = {
        id,
        name,
        description,
        order: id,
        isArchived: false,
        creatorId: ctx.user.id,
        dateCreated: Math.floor(ctx.now / 1000),
      };
      ctx.org.folders.push(folder);
      folderEvent(ctx, { op: 'add', channel_folder: folderToApi(ctx.featureLevel, folder) });
      return { channel_folder_id: id };
    },
  },
  {
    // zerver/views/channel_folders.py update_channel_folder: not atomic, each change is its
    // own transaction (name, then description, then archiving), each with its own event.
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    minLevel: FEATURES.channelFolders.level,
    handler: (ctx) => {
      requireAdmin(ctx);
      const description = boundedParam(ctx, 'description', LIMITS.channelFolderDescription);
      const isArchived = ctx.params.bool('is_archived');
      const name = boundedParam(ctx, 'name', folderNameLimit(ctx.featureLevel));
      const f = findFolder(ctx);
      if (name !== undefined && name !== f.name) {
        checkName(ctx, name);
        f.name = name;
        folderEvent(ctx, { op: 'update', channel_folder_id: f.id, data: { name } });
      }
      if (description !== undefined && description !== f.description) {
        f.description = description;
        const rendered = folderToApi(ctx.featureLevel, f).rendered_description;
        folderEvent(ctx, {
          op: 'update',
          channel_folder_id: f.id,
          data: { description, rendered_description: rendered },
        });
      }
      if (isArchived !== undefined && isArchived !== f.isArchived) {
        // `check_channel_folder_in_use`: any channel, archived ones included.
        if (isArchived && ctx.org.channels.some((c) => c.folderId === f.id))
          throw badRequest('You need to remove all the channels from this folder to archive it.');
        // do_unarchive_channel_folder checks no name: a live folder of the same name (case
        // aside) violates the model's `unique_realm_folder_name_when_not_archived` constraint,
        // an IntegrityError that Zulip answers with a 500.
        const key = f.name.toLowerCase();
        if (
          !isArchived &&
          ctx.org.folders.some((x) => x !== f && !x.isArchived && x.name.toLowerCase() === key)
        )
          throw new InternalServerError();
        f.isArchived = isArchived;
        folderEvent(ctx, {
          op: 'update',
          channel_folder_id: f.id,
          data: { is_archived: isArchived },
        });
      }
      return {};
    },
  },
  {
    // zerver/actions/channel_folders.py try_reorder_realm_channel_folders: every folder of the
    // realm (archived ones included) must be in `order`; IDs that are not folders and repeated
    // IDs are accepted, a repeated folder takes the position of its last occurrence.
    method: 'PATCH',
    path: '/channel_folders',
    minLevel: FEATURES.channelFolderOrder.level,
    handler: (ctx) => {
      requireAdmin(ctx);
      const order = ctx.params.intList('order');
      if (order === undefined) throw missingArgument('order');
      const position = new Map<number, number>();
      order.forEach((id, i) => position.set(id, i));
      if (!ctx.org.folders.every((f) => position.has(f.id)))
        throw badRequest('Invalid order mapping.');
      for (const f of ctx.org.folders) f.order = position.get(f.id) ?? f.order;
      if (supports(ctx.featureLevel, 'channelFolderReorderEvent'))
        folderEvent(ctx, { op: 'reorder', order });
      return {};
    },
  },
];
