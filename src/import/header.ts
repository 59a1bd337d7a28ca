/** The comment at the top of an imported app: what was imported, how, and what was left out. */
import { commentLines } from './code';
import type { ImportKind, SkippedObject, SubscriberPolicy } from './options';

/** What the header says: facts gathered by the import. */
export interface ImportFacts {
  readonly realmName: string;
  readonly featureLevel: number;
  /** The e-mail of the account that imports (and will apply). */
  readonly me: string;
  readonly subscriberPolicy: SubscriberPolicy;
  /** The kinds `--include` left out. */
  readonly excluded: readonly ImportKind[];
  /** Objects imported because something imported refers to them. */
  readonly pulled: readonly string[];
  readonly skipped: readonly SkippedObject[];
}

/** The header's comment lines (`// ...`). */
export function importHeader(facts: ImportFacts): string[] {
  const me = facts.me;
  const lines: string[] = [];
  const p = (text: string): void => {
    lines.push(...commentLines(text));
  };
  const item = (text: string): void => {
    lines.push(
      ...commentLines(text, 0, '// - ').map((l, i) => (i === 0 ? l : l.replace('// - ', '//   '))),
    );
  };
  p(
    `${JSON.stringify(facts.realmName)} as zulip-cdk constructs, imported from feature level ${facts.featureLevel} as ${me}.`,
  );
  p('`zulip-cdk plan` shows no change until you edit this code.');
  lines.push('//');
  p('How it was imported:');
  item(
    "values equal to Zulip's defaults are left out, except the organization's settings and permissions: all of them are declared, for review;",
  );
  item(
    facts.subscriberPolicy === 'private'
      ? "subscribers of private channels are declared exactly (mode 'exact'); who follows a public channel is left to each person;"
      : facts.subscriberPolicy === 'all'
        ? "subscribers of every channel are declared exactly (mode 'exact');"
        : 'subscribers are not managed;',
  );
  item(
    'user groups are declared with their exact members; roles only for users who are not plain members or have custom profile field values (full names are left to their owners);',
  );
  item(
    `saved snippets and subscription settings are those of ${me}, the account that applies (not the colours of its subscriptions).`,
  );
  lines.push('//');
  p('Not managed by zulip-cdk, so not imported:');
  item(
    'authentication methods, video call and GIF providers, push notification settings, icons and logos, invitations;',
  );
  item(
    "other users' saved snippets and subscription settings, bots and their settings, user settings;",
  );
  item('deactivated users, and messages.');
  const excluded = facts.excluded;
  if (excluded.length > 0) {
    lines.push('//');
    p(`Not imported (--include): ${excluded.join(', ')}.`);
  }
  if (facts.pulled.length > 0) {
    lines.push('//');
    p('Imported because something imported refers to them:');
    for (const x of facts.pulled) item(x);
  }
  if (facts.skipped.length > 0) {
    lines.push('//');
    p('Left out or left as they are:');
    for (const s of facts.skipped) item(`${s.kind} ${JSON.stringify(s.name)}: ${s.reason}`);
  }
  return lines;
}
