import { FEATURES } from '../../model/features';
import { LIMITS } from '../../model/kinds';
import { checkBoundedText } from '../../model/rules';
import { badRequest } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredSnippet } from '../state';
import { ownItem } from './common';

function text(
  ctx: RequestContext,
  name: 'title' | 'content',
  required: boolean,
): string | undefined {
  const v = required ? ctx.params.requiredString(name) : ctx.params.string(name);
  if (v === undefined) return undefined;
  const max = name === 'title' ? LIMITS.savedSnippetTitle : LIMITS.savedSnippetContent;
  const problem = checkBoundedText(name, v, max);
  if (problem) throw badRequest(problem);
  return v.trim();
}

function mine(ctx: RequestContext): StoredSnippet {
  const path = { param: 'saved_snippet_id', missing: 'Saved snippet does not exist.' };
  return ownItem(ctx, ctx.org.snippets, path, (s) => s.userId);
}

const snippetToApi = (s: StoredSnippet): Record<string, unknown> => ({
  id: s.id,
  title: s.title,
  content: s.content,
  date_created: s.dateCreated,
});

/** Saved-snippet routes (FL 297; PATCH FL 368). The caller's own snippets only. */
export const savedSnippetRoutes: Route[] = [
  {
    method: 'GET',
    path: '/saved_snippets',
    minLevel: FEATURES.savedSnippets.level,
    handler: (ctx) => ({
      saved_snippets: ctx.org.snippets.filter((s) => s.userId === ctx.user.id).map(snippetToApi),
    }),
  },
  {
    method: 'POST',
    path: '/saved_snippets',
    minLevel: FEATURES.savedSnippets.level,
    handler: (ctx) => {
      // typed_endpoint reads the view's parameters in order: content, then title.
      const content = text(ctx, 'content', true) as string;
      const title = text(ctx, 'title', true) as string;
      const s: StoredSnippet = {
        id: nextId(ctx.org),
        userId: ctx.user.id,
        title,
        content,
        dateCreated: Math.floor(ctx.now / 1000),
      };
      ctx.org.snippets.push(s);
      ctx.events.push({
        users: [ctx.user.id],
        event: { type: 'saved_snippets', op: 'add', saved_snippet: snippetToApi(s) },
      });
      return { saved_snippet_id: s.id };
    },
  },
  {
    method: 'PATCH',
    path: '/saved_snippets/{saved_snippet_id}',
    minLevel: FEATURES.savedSnippetEdit.level,
    handler: (ctx) => {
      // zerver/views/saved_snippets.py edit_saved_snippet: content, then title; with neither,
      // success before the snippet is even looked up.
      const content = text(ctx, 'content', false);
      const title = text(ctx, 'title', false);
      if (title === undefined && content === undefined) return {};
      const s = mine(ctx);
      if (title !== undefined) s.title = title;
      if (content !== undefined) s.content = content;
      ctx.events.push({
        users: [ctx.user.id],
        event: { type: 'saved_snippets', op: 'update', saved_snippet: snippetToApi(s) },
      });
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    minLevel: FEATURES.savedSnippets.level,
    handler: (ctx) => {
      const s = mine(ctx);
      ctx.org.snippets = ctx.org.snippets.filter((x) => x !== s);
      ctx.events.push({
        users: [ctx.user.id],
        event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: s.id },
      });
      return {};
    },
  },
];
