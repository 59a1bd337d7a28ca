import { supports } from '../../model/features';
import { checkChannelFolderName, codePointLength } from '../../model/rules';
import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredFolder } from '../state';
import { folderToApi, sortedFolders } from '../views';
import { pathInt, requireAdmin } from './common';

/** `MAX_NAME_LENGTH`: 100 in the first model (FL 389), 60 once folders had an order (FL 414). */
export function folderNameLimit(fl: number): number {
  return supports(fl, 'channelFolderOrder') ? 60 : 100;
}
const MAX_DESCRIPTION = 1024;

function checkName(ctx: RequestContext, name: string, except?: StoredFolder): string {
  const stripped = name.trim();
  const problem = checkChannelFolderName(stripped, folderNameLimit(ctx.featureLevel));
  if (problem) throw badRequest(problem);
  const key = stripped.toLowerCase();
  if (ctx.org.folders.some((f) => f !== except && f.name.toLowerCase() === key))
    throw badRequest('Channel folder name already in use');
  return stripped;
}

function checkDescription(description: string): string {
  if (codePointLength(description) > MAX_DESCRIPTION)
    throw badRequest(`description is too long (limit: ${MAX_DESCRIPTION} characters)`);
  return description.trim();
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
    minLevel: 389,
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
    method: 'POST',
    path: '/channel_folders/create',
    minLevel: 389,
    handler: (ctx) => {
      requireAdmin(ctx);
      const name = ctx.params.requiredString('name');
      const description = ctx.params.requiredString('description');
      const stripped = checkName(ctx, name);
      const id = nextId(ctx.org);
      const folder: StoredFolder = {
        id,
        name: stripped,
        description: checkDescription(description),
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
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    minLevel: 389,
    handler: (ctx) => {
      requireAdmin(ctx);
      const name = ctx.params.string('name');
      const description = ctx.params.string('description');
      const isArchived = ctx.params.bool('is_archived');
      const f = findFolder(ctx);
      const data: Record<string, unknown> = {};
      if (name !== undefined) {
        f.name = checkName(ctx, name, f);
        data.name = f.name;
      }
      if (description !== undefined) {
        f.description = checkDescription(description);
        data.description = f.description;
        data.rendered_description = folderToApi(ctx.featureLevel, f).rendered_description;
      }
      if (isArchived === true && !f.isArchived) {
        if (ctx.org.channels.some((c) => c.folderId === f.id))
          throw badRequest('You need to remove all the channels from this folder to archive it.');
        f.isArchived = true;
        data.is_archived = true;
      } else if (isArchived === false && f.isArchived) {
        f.isArchived = false;
        data.is_archived = false;
      }
      if (Object.keys(data).length > 0)
        folderEvent(ctx, { op: 'update', channel_folder_id: f.id, data });
      return {};
    },
  },
  {
    method: 'PATCH',
    path: '/channel_folders',
    minLevel: 414,
    handler: (ctx) => {
      requireAdmin(ctx);
      const order = ctx.params.intList('order');
      if (order === undefined) throw missingArgument('order');
      const ids = new Set(ctx.org.folders.map((f) => f.id));
      if (
        order.length !== ids.size ||
        new Set(order).size !== order.length ||
        !order.every((id) => ids.has(id))
      )
        throw badRequest('Invalid order mapping.');
      order.forEach((id, i) => {
        const f = ctx.org.folders.find((x) => x.id === id);
        if (f) f.order = i;
      });
      if (ctx.featureLevel >= 418) folderEvent(ctx, { op: 'reorder', order });
      return {};
    },
  },
];
