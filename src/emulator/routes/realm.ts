import { FEATURES, supports } from '../../model/features';
import { LIMITS } from '../../model/kinds';
import { ORGANIZATION_PROPERTIES } from '../../model/organization-settings';
import {
  codePointLength,
  compileRe2,
  isValidUriTemplate,
  pyStrip,
  uriTemplateVariables,
} from '../../model/rules';
import { InternalServerError, badRequest, missingArgument } from '../errors';
import type { Handler, RequestContext, Route } from '../router';
import { nextId } from '../state';
import type { StoredLinkifier } from '../state';
import { linkifierToApi, sortedLinkifiers } from '../views';
import { pathInt, requireAdmin } from './common';
import { setProperty } from './realm-settings';

/** Django's `full_clean` errors, by key in the order Django collects them. */
type CleanErrors = Record<string, string[]>;

function addError(errors: CleanErrors, key: string, msg: string): void {
  (errors[key] ??= []).push(msg);
}

/**
 * `ValidationFailureError` (zerver/lib/exceptions.py): the first message of Django's
 * `ValidationError(message_dict)`, with the whole dict as `errors`.
 */
function throwIfErrors(errors: CleanErrors): void {
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw badRequest(first, { errors });
}

/**
 * `RealmFilter.full_clean()` (zerver/models/linkifiers.py), as Django runs it: field checks
 * first (blank `pattern`; blank or invalid `url_template`), then the model's `clean()` (RE2
 * compilation, then named groups against template variables, skipped when the template is
 * invalid) under `__all__`, then the `(realm, pattern)` uniqueness unless `pattern` failed.
 * The first message is the one the API reports.
 */
function validateLinkifier(
  ctx: RequestContext,
  pattern: string,
  urlTemplate: string,
  except?: number,
): void {
  const errors: CleanErrors = {};
  if (pattern === '') addError(errors, 'pattern', 'This field cannot be blank.');
  if (urlTemplate === '') addError(errors, 'url_template', 'This field cannot be blank.');
  else if (!isValidUriTemplate(urlTemplate))
    addError(errors, 'url_template', 'Invalid URL template.');
  const compiled = compileRe2(pattern);
  if ('error' in compiled) addError(errors, '__all__', `Bad regular expression: ${compiled.error}`);
  else {
    const variables = uriTemplateVariables(urlTemplate);
    if (variables !== undefined) {
      const groups = new Set(compiled.groups);
      const vars = new Set(variables);
      const missingInPattern = [...vars].filter((v) => !groups.has(v)).sort()[0];
      const missingInTemplate = [...groups].filter((g) => !vars.has(g)).sort()[0];
      if (missingInPattern !== undefined)
        addError(
          errors,
          '__all__',
          `Group '${missingInPattern}' in URL template is not present in linkifier pattern.`,
        );
      else if (missingInTemplate !== undefined)
        addError(
          errors,
          '__all__',
          `Group '${missingInTemplate}' in linkifier pattern is not present in URL template.`,
        );
    }
  }
  if (
    errors.pattern === undefined &&
    ctx.org.linkifiers.some((l) => l.pattern === pattern && l.id !== except)
  )
    addError(errors, '__all__', 'Realm filter with this Realm and Pattern already exists.');
  throwIfErrors(errors);
}

/**
 * A linkifier's fields as `POST /realm/filters` and `PATCH /realm/filters/{id}` read them:
 * the pattern and the URL template stripped (zerver/actions/realm_linkifiers.py
 * `do_add_linkifier` and `do_update_linkifier` strip both before `full_clean`), then the
 * examples and alternative templates of the server's feature level.
 */
function readLinkifier(
  ctx: RequestContext,
): Pick<StoredLinkifier, 'pattern' | 'urlTemplate'> & Partial<StoredLinkifier> {
  const p = ctx.params;
  const out: Pick<StoredLinkifier, 'pattern' | 'urlTemplate'> & Partial<StoredLinkifier> = {
    pattern: pyStrip(p.requiredString('pattern')),
    urlTemplate: pyStrip(p.requiredString('url_template')),
  };
  if (supports(ctx.featureLevel, 'linkifierExamples')) {
    const example = p.string('example_input');
    const reverse = p.string('reverse_template');
    if (example !== undefined) out.exampleInput = example;
    if (reverse !== undefined) out.reverseTemplate = reverse;
  }
  if (supports(ctx.featureLevel, 'linkifierAlternativeUrlTemplates')) {
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

/**
 * zerver/views/realm_playgrounds.py `check_pygments_language`, on the raw value: length, then
 * Zulip's character class (`re.match`, whose `$` also matches before a final newline). The
 * length check is `check_capped_string`, which raises Django's `ValidationError`: inside the
 * parameter's pydantic `AfterValidator` that is neither a pydantic error nor a `JsonableError`,
 * so it escapes the view and zerver/middleware.py `JsonErrorHandler` answers 500.
 */
function checkLanguage(raw: string): string {
  if (codePointLength(raw) > LIMITS.playgroundLanguage) throw new InternalServerError();
  const body = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  // The character class is Zulip's own; `+-.` is a range that also admits a comma.
  if (!/^[ a-zA-Z0-9_+-./#]*$/.test(body))
    throw badRequest('Invalid characters in pygments language');
  return raw;
}

/**
 * `RealmPlayground.full_clean()` (zerver/models/realm_playgrounds.py): field checks in model
 * order (url_template, name, pygments_language), then `clean()` (the template's only variable
 * must be `code`), then the `(realm, pygments_language, name)` uniqueness.
 */
function validatePlayground(
  ctx: RequestContext,
  name: string,
  language: string,
  urlTemplate: string,
): void {
  const errors: CleanErrors = {};
  const blank = 'This field cannot be blank.';
  if (urlTemplate === '') addError(errors, 'url_template', blank);
  else if (!isValidUriTemplate(urlTemplate))
    addError(errors, 'url_template', 'Invalid URL template.');
  if (name === '') addError(errors, 'name', blank);
  if (language === '') addError(errors, 'pygments_language', blank);
  const variables = uriTemplateVariables(urlTemplate);
  if (variables !== undefined) {
    if (!variables.includes('code'))
      addError(errors, '__all__', 'Missing the required variable "code" in the URL template');
    else if (variables.length !== 1)
      addError(errors, '__all__', '"code" should be the only variable present in the URL template');
  }
  if (
    errors.name === undefined &&
    errors.pygments_language === undefined &&
    ctx.org.playgrounds.some((x) => x.pygmentsLanguage === language && x.name === name)
  )
    addError(
      errors,
      '__all__',
      'Realm playground with this Realm, Pygments language and Name already exists.',
    );
  throwIfErrors(errors);
}

/**
 * zerver/decorator.py `require_realm_admin`, which every view of zerver/views/realm_linkifiers.py
 * and realm_playgrounds.py but the linkifiers' GET has: the handler runs for an organization
 * administrator only.
 */
function realmAdmin(handler: Handler): Handler {
  return (ctx) => {
    requireAdmin(ctx);
    return handler(ctx);
  };
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
  {
    method: 'PATCH',
    path: '/realm/linkifiers',
    handler: realmAdmin(reorderLinkifiers),
    minLevel: FEATURES.linkifierReorder.level,
  },
  {
    method: 'POST',
    path: '/realm/filters',
    handler: realmAdmin((ctx) => {
      const { pattern, urlTemplate, ...extras } = readLinkifier(ctx);
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
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    handler: realmAdmin((ctx) => {
      // zerver/actions/realm_linkifiers.py do_update_linkifier: strip, look the linkifier up,
      // then full_clean (the linkifier itself is excluded from the uniqueness check).
      const fields = readLinkifier(ctx);
      const l = findLinkifier(ctx);
      validateLinkifier(ctx, fields.pattern, fields.urlTemplate, l.id);
      Object.assign(l, fields);
      linkifiersEvent(ctx);
      return {};
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    handler: realmAdmin((ctx) => {
      const l = findLinkifier(ctx);
      ctx.org.linkifiers = ctx.org.linkifiers.filter((x) => x !== l);
      linkifiersEvent(ctx);
      return {};
    }),
  },
  {
    method: 'POST',
    path: '/realm/playgrounds',
    handler: realmAdmin((ctx) => {
      // zerver/views/realm_playgrounds.py add_realm_playground: the raw language is checked
      // (`check_pygments_language`), then the stripped values go through full_clean.
      const name = pyStrip(ctx.params.requiredString('name'));
      const language = pyStrip(checkLanguage(ctx.params.requiredString('pygments_language')));
      const urlTemplate = pyStrip(ctx.params.requiredString('url_template'));
      validatePlayground(ctx, name, language, urlTemplate);
      const id = nextId(ctx.org);
      ctx.org.playgrounds.push({ id, name, pygmentsLanguage: language, urlTemplate });
      playgroundsEvent(ctx);
      return { id };
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    handler: realmAdmin((ctx) => {
      const id = pathInt(ctx, 'playground_id');
      const pg = ctx.org.playgrounds.find((x) => x.id === id);
      if (!pg) throw badRequest('Invalid playground');
      // zerver/views/realm_playgrounds.py delete_realm_playground: the organization's default
      // code block language of the playground's language goes first (do_set_realm_property,
      // with its event), then the playground (do_remove_realm_playground).
      if (ctx.org.realm.defaultCodeBlockLanguage === pg.pygmentsLanguage)
        setProperty(ctx, ORGANIZATION_PROPERTIES.defaultCodeBlockLanguage, '');
      ctx.org.playgrounds = ctx.org.playgrounds.filter((x) => x !== pg);
      playgroundsEvent(ctx);
      return {};
    }),
  },
];
