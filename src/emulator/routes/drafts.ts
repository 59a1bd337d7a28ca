import { badRequest, missingArgument, notFound } from '../errors';
import { expectDict, expectInt, expectList, expectString } from '../params';
import { hasContentAccess } from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredDraft } from '../state';
import { pathInt } from './common';

const TYPES = ['', 'stream', 'private'] as const;

/** `DraftData` plus `further_validated_draft_dict` (zerver/lib/drafts.py). */
function parseDraft(
  ctx: RequestContext,
  raw: unknown,
  name: string,
): Omit<StoredDraft, 'id' | 'userId'> {
  const d = expectDict(raw, name);
  for (const k of Object.keys(d))
    if (!['type', 'to', 'topic', 'content', 'timestamp', 'id'].includes(k))
      throw badRequest(`Argument "${k}" at ${name} is unexpected`);
  for (const f of ['type', 'to', 'topic', 'content'])
    if (d[f] === undefined) throw badRequest(`${name}["${f}"] field is missing: Field required`);
  const type = expectString(d.type, `${name}["type"]`);
  if (!(TYPES as readonly string[]).includes(type)) throw badRequest(`Invalid ${name}["type"]`);
  const to = expectList(d.to, `${name}["to"]`).map((x, i) => expectInt(x, `${name}["to"][${i}]`));
  let topic = expectString(d.topic, `${name}["topic"]`);
  const content = expectString(d.content, `${name}["content"]`);
  const timestamp =
    d.timestamp === undefined
      ? Math.floor(ctx.now / 1000)
      : Math.floor(Number(expectInt(d.timestamp, `${name}["timestamp"]`)));
  if (content.includes('\u0000')) throw badRequest('Content must not contain null bytes');
  let recipients: number[] = [];
  if (type === 'stream') {
    if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
    if (to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    const ch = ctx.org.channels.find((c) => c.id === to[0]);
    if (!ch || !hasContentAccess(ctx.org, ctx.user, ch)) throw badRequest('Invalid channel ID');
    recipients = to;
  } else if (type === 'private') {
    topic = '';
    for (const id of to)
      if (!ctx.org.users.some((u) => u.id === id && u.isActive))
        throw badRequest(`Invalid user ID ${id}`);
    recipients = [...new Set(to)].sort((a, b) => a - b);
  } else {
    topic = '';
  }
  return { type: type as StoredDraft['type'], to: recipients, topic, content, timestamp };
}

function drafts(ctx: RequestContext): StoredDraft[] {
  ctx.org.drafts ??= [];
  return ctx.org.drafts;
}

function mine(ctx: RequestContext): StoredDraft {
  const id = pathInt(ctx, 'draft_id');
  const d = drafts(ctx).find((x) => x.id === id && x.userId === ctx.user.id);
  if (!d) throw notFound('Draft does not exist');
  return d;
}

const toApi = (d: StoredDraft): Record<string, unknown> => ({
  id: d.id,
  type: d.type,
  to: d.to,
  topic: d.topic,
  content: d.content,
  timestamp: d.timestamp,
});

/**
 * The caller's drafts as register's `drafts` gives them: newest edit first, at most 1000
 * (zerver/lib/events.py fetch_initial_state_data, `MAX_DRAFTS_IN_REGISTER_RESPONSE`).
 */
export function draftsForRegister(ctx: RequestContext): Record<string, unknown>[] {
  return drafts(ctx)
    .filter((d) => d.userId === ctx.user.id)
    .sort((a, b) => b.timestamp - a.timestamp)
    .slice(0, 1000)
    .map(toApi);
}

/** Draft routes (the caller's own drafts). */
export const draftRoutes: Route[] = [
  {
    method: 'GET',
    path: '/drafts',
    handler: (ctx) => {
      const list = drafts(ctx).filter((d) => d.userId === ctx.user.id);
      return { count: list.length, drafts: list.map(toApi) };
    },
  },
  {
    method: 'POST',
    path: '/drafts',
    handler: (ctx) => {
      const raw = ctx.params.json('drafts') ?? [];
      const parsed = expectList(raw, 'drafts').map((d, i) => parseDraft(ctx, d, `drafts[${i}]`));
      const ids: number[] = [];
      for (const p of parsed) {
        const id = nextId(ctx.org);
        drafts(ctx).push({ id, userId: ctx.user.id, ...p });
        ids.push(id);
      }
      return { ids };
    },
  },
  {
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    handler: (ctx) => {
      const raw = ctx.params.json('draft');
      if (raw === undefined) throw missingArgument('draft');
      const d = mine(ctx);
      Object.assign(d, parseDraft(ctx, raw, 'draft'));
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    handler: (ctx) => {
      const d = mine(ctx);
      ctx.org.drafts = drafts(ctx).filter((x) => x !== d);
      return {};
    },
  },
];
