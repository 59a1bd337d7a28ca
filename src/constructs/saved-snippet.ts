import type { Construct } from 'constructs';
import { SavedSnippetSchema } from '../model/desired-state';
import type { DesiredSavedSnippet } from '../model/desired-state';
import type { SavedSnippetProperty } from '../model/ignorable';
import { LIMITS } from '../model/kinds';
import { checkBoundedText } from '../model/rules';
import { PlainResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/** Props of a {@link SavedSnippet}. */
export interface SavedSnippetProps extends ResourceOptions<SavedSnippetProperty> {
  /** The title (at most 60 characters), unique among the declared snippets. */
  readonly title: string;
  /** The Markdown content (at most 10000 characters). */
  readonly content: string;
}

/**
 * A saved snippet (feature level 297). Zulip keeps snippets per user: they are created for
 * the APPLYING ACCOUNT only (Zulip has no API to give snippets to others).
 *
 * @example
 * new SavedSnippet(org, 'triage', {
 *   title: 'Triage reply',
 *   content: 'Thanks! We track this in the issue tracker; we will follow up there.',
 * });
 */
export class SavedSnippet extends PlainResource<SavedSnippetProps, DesiredSavedSnippet> {
  /** True when `x` is a {@link SavedSnippet}. */
  public static readonly isSavedSnippet = resourceGuard<SavedSnippet>('savedSnippet');

  /** The title, its natural key. */
  public readonly title: string = this.props?.title;

  public constructor(scope: Construct, id: string, props: SavedSnippetProps) {
    super(scope, id, 'savedSnippet', SavedSnippetSchema, props);
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const { title, content } = this.props;
    const t = checkBoundedText('title', title, LIMITS.savedSnippetTitle);
    if (t)
      problems.push(
        `title '${title}': ${t}: write a title of 1 to ${LIMITS.savedSnippetTitle} characters`,
      );
    const c = checkBoundedText('content', content, LIMITS.savedSnippetContent);
    if (c) problems.push(`${c}: write 1 to ${LIMITS.savedSnippetContent} characters`);
    if (!t && title !== title.trim()) {
      problems.push(
        `title '${title}' has leading or trailing whitespace, which Zulip strips: remove it`,
      );
    }
    if (!c && content !== content.trim()) {
      problems.push(
        'content has leading or trailing whitespace (a final newline, say), which Zulip strips: trim it',
      );
    }
    return problems;
  }
}
