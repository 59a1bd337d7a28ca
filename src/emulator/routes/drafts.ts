import { badRequest, missingArgument } from '../errors';
import { JsonFloat } from '../json-parse';
import { expectDict, expectIntList, expectList, expectString } from '../params';
import { hasContentAccess } from '../permissions';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredDraft } from '../state';
import { ownItem } from './common';
import { normalizeBody, truncateTopic } from './message-send';

const TYPES = ['', 'stream', 'private'] as const;
const FIELDS = ['type', 'to', 'topic', 'content', 'timestamp'];

/** A draft as `DraftData` parsed it. */
interface DraftData {
  type: StoredDraft['type'];
  to: number[];
  topic: string;
  content: string;
  timestamp: number | undefined;
}

/**
 * `DraftData` (zerver/lib/drafts.py: a pydantic model with `extra="forbid"`, errors in field
 * order, then unexpected keys), checked while the request is parsed: every draft of a batch
 * before any is validated further.
 */
function parseDraftData(raw: unknown, name: string): DraftData {
  const d = expectDict(raw, name);
  const at = (f: string): string => `${name}["${f}"]`;
  // Pydantic reports the first field (in the model's order) that fails, missing or not.
  const field = (f: string): unknown => {
    if (d[f] === undefined) throw badRequest(`${at(f)} field is missing: Field required`);
    return d[f];
  };
  const typeRaw = field('type');
  if (typeof typeRaw !== 'string' || !(TYPES as readonly string[]).includes(typeRaw))
    throw badRequest(`Invalid ${at('type')}`);
  const type = typeRaw as StoredDraft['type'];
  const to = expectIntList(field('to'), at('to'));
  const topicRaw = expectString(field('topic'), at('topic'));
  // RequiredStringConstraint: stripped, then not blank.
  const stripped = expectString(field('content'), at('content')).trim();
  if (stripped === '') throw badRequest(`${at('content')} cannot be blank`);
  let timestamp: number | undefined;
  if (d.timestamp !== undefined && d.timestamp !== null) {
    // `int | float | None`: a float (`1.5`, `1.0`) is taken; the union's first member names the
    // error.
    if (d.timestamp instanceof JsonFloat) timestamp = d.timestamp.value;
    else if (typeof d.timestamp === 'number') timestamp = d.timestamp;
    else throw badRequest(`${at('timestamp')}["int"] is not an integer`);
  }
  // extra="forbid": unexpected keys come after the fields' errors.
  for (const k of Object.keys(d))
    if (!FIELDS.includes(k)) throw badRequest(`Argument "${k}" at ${name}["${k}"] is unexpected`);
  return { type, to, topic: topicRaw, content: stripped, timestamp };
}

/** zerver/lib/drafts.py `further_validated_draft_dict`. */
function furtherValidated(ctx: RequestContext, d: DraftData): Omit<StoredDraft, 'id' | 'userId'> {
  const { type, to, timestamp } = d;
  const content = normalizeBody(d.content);
  const ts = timestamp ?? ctx.now / 1000;
  if (ts < 0) throw badRequest('Timestamp must not be negative.');
  if (type === 'stream') {
    const topic = truncateTopic(d.topic);
    if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
    if (to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    const ch = ctx.org.channels.find((c) => c.id === to[0]);
    if (!ch || !hasContentAccess(ctx.org, ctx.user, ch)) throw badRequest('Invalid channel ID');
    return { type, to, topic, content, timestamp: Math.floor(ts) };
  }
  if (type === 'private' && to.length > 0) {
    // get_user_profiles_by_ids, then the recipient's IDs as Draft.to_dict gives them
    // (zerver/lib/display_recipient.py get_recipient_ids: the others, or the user alone).
    const ids = [...new Set(to)].sort((a, b) => a - b);
    for (const id of ids)
      if (!ctx.org.users.some((u) => u.id === id)) throw badRequest(`Invalid user ID ${id}`);
    const others = ids.filter((id) => id !== ctx.user.id);
    return {
      type,
      to: others.length > 0 ? others : ids,
      topic: '',
      content,
      timestamp: Math.floor(ts),
    };
  }
  // No recipient: the draft's type is "" (get_recipient_ids).
  return { type: '', to: [], topic: '', content, timestamp: Math.floor(ts) };
}

function drafts(ctx: RequestContext): StoredDraft[] {
  ctx.org.drafts ??= [];
  return ctx.org.drafts;
}

function mine(ctx: RequestContext): StoredDraft {
  return ownItem(
    ctx,
    drafts(ctx),
    { param: 'draft_id', missing: 'Draft does not exist' },
    (d) => d.userId,
  );
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
      const parsed = expectList(raw, 'drafts')
        .map((d, i) => parseDraftData(d, `drafts[${i}]`))
        .map((d) => furtherValidated(ctx, d));
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
      const data = parseDraftData(raw, 'draft');
      const d = mine(ctx);
      Object.assign(d, furtherValidated(ctx, data));
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
