import { checkLinkifier, checkPlaygroundTemplate, checkPygmentsLanguage } from '../../model/rules';
import { badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredLinkifier } from '../state';
import { linkifierToApi, sortedLinkifiers } from '../views';
import { pathInt, requireAdmin } from './common';

/** Linkifier validation as Zulip's `full_clean` reports it (first error, with `errors`). */
function validateLinkifier(
  ctx: RequestContext,
  pattern: string,
  urlTemplate: string,
  except?: number,
): void {
  const problem = checkLinkifier(pattern, urlTemplate);
  if (problem) {
    const field =
      problem.startsWith('Bad regular') || (problem.startsWith('This field') && pattern === '')
        ? 'pattern'
        : 'url_template';
    throw badRequest(problem, { errors: { [field]: [problem] } });
  }
  if (ctx.org.linkifiers.some((l) => l.pattern === pattern && l.id !== except)) {
    const msg = 'Realm filter with this Realm and Pattern already exists.';
    throw badRequest(msg, { errors: { __all__: [msg] } });
  }
}

function readLinkifierExtras(ctx: RequestContext): Partial<StoredLinkifier> {
  const p = ctx.params;
  const out: Partial<StoredLinkifier> = {};
  if (ctx.featureLevel >= 471) {
    const example = p.string('example_input');
    const reverse = p.string('reverse_template');
    if (example !== undefined) out.exampleInput = example;
    if (reverse !== undefined) out.reverseTemplate = reverse;
  }
  if (ctx.featureLevel >= 478) {
    const alts = p.stringList('alternative_url_templates');
    if (alts !== undefined) out.alternativeUrlTemplates = alts;
  }
  return out;
}

function findLinkifier(ctx: RequestContext): StoredLinkifier {
  const id = pathInt(ctx, 'filter_id');
  const l = ctx.org.linkifiers.find((x) => x.id === id);
  if (!l) throw badRequest('Linkifier not found.');
  return l;
}

function reorderLinkifiers(ctx: RequestContext): Record<string, unknown> {
  requireAdmin(ctx);
  const ids = ctx.params.intList('ordered_linkifier_ids');
  if (ids === undefined) throw missingArgument('ordered_linkifier_ids');
  if (new Set(ids).size !== ids.length)
    throw badRequest('The ordered list must not contain duplicated linkifiers');
  const existing = new Set(ctx.org.linkifiers.map((l) => l.id));
  if (ids.length !== existing.size || !ids.every((id) => existing.has(id)))
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  ids.forEach((id, i) => {
    const l = ctx.org.linkifiers.find((x) => x.id === id);
    if (l) l.order = i;
  });
  if (ids.length > 0) linkifiersEvent(ctx);
  return {};
}

/** The `realm_linkifiers` event: the whole ordered list, to clients that understand templates. */
function linkifiersEvent(ctx: RequestContext): void {
  ctx.events.push({
    users: 'all',
    capability: 'linkifier_url_template',
    event: {
      type: 'realm_linkifiers',
      realm_linkifiers: sortedLinkifiers(ctx.org).map((l) => linkifierToApi(ctx.featureLevel, l)),
    },
  });
}

/** The `realm_playgrounds` event: the whole list. */
function playgroundsEvent(ctx: RequestContext): void {
  ctx.events.push({
    users: 'all',
    event: {
      type: 'realm_playgrounds',
      realm_playgrounds: ctx.org.playgrounds.map((pg) => ({
        id: pg.id,
        name: pg.name,
        pygments_language: pg.pygmentsLanguage,
        url_template: pg.urlTemplate,
      })),
    },
  });
}

/** Linkifier and playground routes. */
export const realmRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/linkifiers',
    handler: (ctx) => ({
      linkifiers: sortedLinkifiers(ctx.org).map((l) => linkifierToApi(ctx.featureLevel, l)),
    }),
  },
  { method: 'PATCH', path: '/realm/linkifiers', handler: reorderLinkifiers, minLevel: 202 },
  {
    method: 'POST',
    path: '/realm/filters',
    handler: (ctx) => {
      requireAdmin(ctx);
      const pattern = ctx.params.requiredString('pattern');
      const urlTemplate = ctx.params.requiredString('url_template');
      const extras = readLinkifierExtras(ctx);
      validateLinkifier(ctx, pattern, urlTemplate);
      const order = Math.max(-1, ...ctx.org.linkifiers.map((l) => l.order)) + 1;
      const l: StoredLinkifier = {
        id: nextId(ctx.org),
        pattern,
        urlTemplate,
        order,
        exampleInput: null,
        reverseTemplate: null,
        alternativeUrlTemplates: [],
        ...extras,
      };
      ctx.org.linkifiers.push(l);
      linkifiersEvent(ctx);
      return { id: l.id };
    },
  },
  {
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    handler: (ctx) => {
      requireAdmin(ctx);
      const pattern = ctx.params.requiredString('pattern');
      const urlTemplate = ctx.params.requiredString('url_template');
      const extras = readLinkifierExtras(ctx);
      const l = findLinkifier(ctx);
      validateLinkifier(ctx, pattern, urlTemplate, l.id);
      Object.assign(l, { pattern, urlTemplate, ...extras });
      linkifiersEvent(ctx);
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    handler: (ctx) => {
      requireAdmin(ctx);
      const l = findLinkifier(ctx);
      ctx.org.linkifiers = ctx.org.linkifiers.filter((x) => x !== l);
      linkifiersEvent(ctx);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/realm/playgrounds',
    handler: (ctx) => {
      requireAdmin(ctx);
      const name = ctx.params.requiredString('name', { strip: true });
      const language = ctx.params.requiredString('pygments_language', { strip: true });
      const urlTemplate = ctx.params.requiredString('url_template', { strip: true });
      const problem = checkPygmentsLanguage(language) ?? checkPlaygroundTemplate(urlTemplate);
      if (problem) throw badRequest(problem);
      if (ctx.org.playgrounds.some((x) => x.pygmentsLanguage === language && x.name === name))
        throw badRequest(
          'Realm playground with this Realm, Pygments language and Name already exists.',
        );
      const id = nextId(ctx.org);
      ctx.org.playgrounds.push({ id, name, pygmentsLanguage: language, urlTemplate });
      playgroundsEvent(ctx);
      return { id };
    },
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    handler: (ctx) => {
      requireAdmin(ctx);
      const id = pathInt(ctx, 'playground_id');
      const pg = ctx.org.playgrounds.find((x) => x.id === id);
      if (!pg) throw badRequest('Invalid playground');
      ctx.org.playgrounds = ctx.org.playgrounds.filter((x) => x !== pg);
      if (ctx.org.realm.defaultCodeBlockLanguage === pg.pygmentsLanguage)
        ctx.org.realm.defaultCodeBlockLanguage = '';
      playgroundsEvent(ctx);
      return {};
    },
  },
];
