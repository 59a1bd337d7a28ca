/** `PATCH /navigation_views/{fragment}` parameters (FL 390; not in the 10.2 yaml). */
export interface UpdateNavigationViewParams {
  /** true: pinned; false: hidden in the menu. */
  readonly is_pinned?: boolean | undefined;
  /** Custom views only. */
  readonly name?: string | undefined;
}
