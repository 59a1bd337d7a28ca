export { renderText } from './text';
export type { TextRenderOptions } from './text';
export { renderMarkdown } from './markdown';
export type { MarkdownRenderOptions } from './markdown';
export { renderJson } from './json';
export { planSummaryLine, summaryLine, sideEffects, permissionEffect } from './describe';
export type { SideEffectContext } from './describe';
