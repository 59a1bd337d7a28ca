import { FEATURES } from '../../model/features';
import { ApiError, badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import type { StoredNavigationView } from '../state';

/**
 * Navigation views (FL 390; zerver/views/navigation_views.py). A user has only the rows they
 * added; a built-in fragment takes no name, a custom one needs one; names are unique per user.
 * `BUILT_IN_VIEW_FRAGMENTS` as of FL 442 (with "reminders").
 */
export const BUILT_IN_VIEWS = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
] as const;

function views(ctx: RequestContext): StoredNavigationView[] {
  ctx.org.navigationViews ??= [];
  return ctx.org.navigationViews;
}

function mine(ctx: RequestContext, fragment: string): StoredNavigationView | undefined {
  return views(ctx).find((v) => v.userId === ctx.user.id && v.fragment === fragment);
}

const isBuiltIn = (fragment: string): boolean =>
  (BUILT_IN_VIEWS as readonly string[]).includes(fragment);

/**
 * get_navigation_view: the caller's view of `fragment`, else `ResourceNotFoundError` (404,
 * code BAD_REQUEST).
 */
function existing(ctx: RequestContext, fragment: string): StoredNavigationView {
  const v = mine(ctx, fragment);
  if (!v) throw new ApiError('Navigation view does not exist.', { status: 404 });
  return v;
}

/** A name as `StringConstraints(strip_whitespace=True, min_length=1)` takes it. */
function nameParam(ctx: RequestContext): string | undefined {
  const name = ctx.params.string('name', { strip: true });
  if (name === '') throw badRequest('name cannot be blank');
  return name;
}

const nameTaken = (ctx: RequestContext, name: string): boolean =>
  views(ctx).some((v) => v.userId === ctx.user.id && v.name === name);

function toApi(v: StoredNavigationView): Record<string, unknown> {
  return { fragment: v.fragment, is_pinned: v.isPinned, name: v.name };
}

/** The caller's navigation views (zerver/lib/navigation_views.py get_navigation_views_for_user). */
export function navigationViewsOf(ctx: RequestContext): Record<string, unknown>[] {
  return views(ctx)
    .filter((v) => v.userId === ctx.user.id)
    .map(toApi);
}

/** The navigation-view routes, before their feature level. */
const routes: Route[] = [
  {
    method: 'GET',
    path: '/navigation_views',
    handler: (ctx) => ({ navigation_views: navigationViewsOf(ctx) }),
  },
  {
    method: 'POST',
    path: '/navigation_views',
    handler: (ctx) => {
      const fragment = ctx.params.requiredString('fragment', { strip: true });
      if (fragment === '') throw badRequest('fragment cannot be blank');
      const isPinned = ctx.params.bool('is_pinned');
      if (isPinned === undefined) throw missingArgument('is_pinned');
      const name = nameParam(ctx) ?? null;
      if (isBuiltIn(fragment)) {
        if (name !== null) throw badRequest('Built-in views cannot have a custom name.');
      } else if (name === null) throw badRequest('Custom views must have a valid name.');
      if (mine(ctx, fragment)) throw badRequest('Navigation view already exists.');
      if (name !== null && nameTaken(ctx, name))
        throw badRequest('Navigation view already exists.');
      views(ctx).push({ userId: ctx.user.id, fragment, isPinned, name });
      return {};
    },
  },
  {
    method: 'PATCH',
    path: '/navigation_views/{fragment*}',
    handler: (ctx) => {
      const fragment = ctx.path.fragment ?? '';
      const isPinned = ctx.params.bool('is_pinned');
      const name = nameParam(ctx);
      if (name !== undefined && isBuiltIn(fragment))
        throw badRequest('Built-in views cannot have a custom name.');
      if (name !== undefined && nameTaken(ctx, name))
        throw badRequest('Navigation view already exists.');
      const v = existing(ctx, fragment);
      if (isPinned !== undefined) v.isPinned = isPinned;
      if (name !== undefined) v.name = name;
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/navigation_views/{fragment*}',
    handler: (ctx) => {
      const fragment = ctx.path.fragment ?? '';
      const v = existing(ctx, fragment);
      ctx.org.navigationViews = views(ctx).filter((x) => x !== v);
      return {};
    },
  },
];

/** Navigation-view routes: every one from feature level 390. */
export const navigationViewRoutes: Route[] = routes.map((route) => ({
  ...route,
  minLevel: FEATURES.navigationViews.level,
}));
