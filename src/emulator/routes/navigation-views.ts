import { ApiError, badRequest, missingArgument } from '../errors';
import type { RequestContext, Route } from '../router';
import type { StoredNavigationView } from '../state';

/**
 * Navigation views (FL 390). Built-in views exist for everyone; a user's rows override their
 * pinning. The error texts here are not in the 10.2 yaml or NOTES: they follow the documented
 * codes (`BAD_REQUEST`, `NOT_FOUND`) with wording of our own.
 */
export const BUILT_IN_VIEWS = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'scheduled',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'narrow/has/reaction/sender/me',
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

const notFound = (): ApiError =>
  new ApiError('Navigation view does not exist.', { status: 404, code: 'NOT_FOUND' });

function toApi(v: StoredNavigationView): Record<string, unknown> {
  return { fragment: v.fragment, is_pinned: v.isPinned, name: v.name };
}

/** The caller's navigation views (zerver/lib/navigation_views.py get_navigation_views_for_user). */
export function navigationViewsOf(ctx: RequestContext): Record<string, unknown>[] {
  return views(ctx)
    .filter((v) => v.userId === ctx.user.id)
    .map(toApi);
}

/** Navigation-view routes. */
export const navigationViewRoutes: Route[] = [
  {
    method: 'GET',
    path: '/navigation_views',
    minLevel: 390,
    handler: (ctx) => ({ navigation_views: navigationViewsOf(ctx) }),
  },
  {
    method: 'POST',
    path: '/navigation_views',
    minLevel: 390,
    handler: (ctx) => {
      const fragment = ctx.params.requiredString('fragment', { strip: true });
      const isPinned = ctx.params.bool('is_pinned');
      if (isPinned === undefined) throw missingArgument('is_pinned');
      const name = ctx.params.string('name', { strip: true }) ?? null;
      if (fragment === '') throw badRequest('fragment cannot be blank');
      if (isBuiltIn(fragment) && name !== null)
        throw badRequest('Built-in views cannot have a custom name.');
      if (!isBuiltIn(fragment) && (name === null || name === ''))
        throw badRequest('Custom views must have a name.');
      if (mine(ctx, fragment)) throw badRequest('Navigation view already exists.');
      views(ctx).push({ userId: ctx.user.id, fragment, isPinned, name });
      return {};
    },
  },
  {
    method: 'PATCH',
    path: '/navigation_views/{fragment*}',
    minLevel: 390,
    handler: (ctx) => {
      const fragment = ctx.path.fragment ?? '';
      const isPinned = ctx.params.bool('is_pinned');
      const name = ctx.params.string('name', { strip: true });
      if (name !== undefined && isBuiltIn(fragment))
        throw badRequest('Built-in views cannot have a custom name.');
      let v = mine(ctx, fragment);
      if (!v) {
        if (!isBuiltIn(fragment)) throw notFound();
        v = { userId: ctx.user.id, fragment, isPinned: true, name: null };
        views(ctx).push(v);
      }
      if (isPinned !== undefined) v.isPinned = isPinned;
      if (name !== undefined) v.name = name;
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/navigation_views/{fragment*}',
    minLevel: 390,
    handler: (ctx) => {
      const fragment = ctx.path.fragment ?? '';
      const v = mine(ctx, fragment);
      if (!v) throw notFound();
      ctx.org.navigationViews = views(ctx).filter((x) => x !== v);
      return {};
    },
  },
];
