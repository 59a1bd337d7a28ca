import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_KINDS, IMPORT_LAYOUTS, SUBSCRIBER_POLICIES, generateApp } from '../../import';
import type { GeneratedApp, ImportKind, ImportLayout, SubscriberPolicy } from '../../import';
import type { LiveState } from '../../model/live-state';
import { UsageError, oneOf } from '../command';
import type { Command } from '../command';
import { LIVE_SOURCE_OPTIONS, loadLiveWithFiles } from '../plan-sources';
import { count, resourceCounts, shownPath } from '../words';

function parseInclude(value: unknown): ImportKind[] | undefined {
  if (value === undefined) return undefined;
  const raw = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
  const kinds = raw.map((k) => k.trim()).filter((k) => k !== '');
  const bad = kinds.filter((k) => !(IMPORT_KINDS as readonly string[]).includes(k));
  if (bad.length > 0 || kinds.length === 0)
    throw new UsageError(
      `--include takes kinds separated by commas (${IMPORT_KINDS.join(', ')}); ${
        bad.length > 0 ? `unknown: ${bad.join(', ')}` : 'none given'
      }`,
    );
  return [...new Set(kinds)] as ImportKind[];
}

/** Quotes a path for a shell command line when it needs it. */
function shellPath(p: string): string {
  return /^[\w./-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`;
}

/** The flags that plan the organization this import read (the next step it suggests). */
function sameSource(values: Record<string, unknown>): string {
  if (typeof values.live === 'string') return ` --live ${shellPath(values.live)}`;
  if (values.embedded === true) return ' --embedded';
  if (typeof values.zuliprc === 'string') return ` --zuliprc ${shellPath(values.zuliprc)}`;
  return '';
}

/** `items` joined by commas, wrapped before `width` columns, continued at `indent` spaces. */
function wrapList(items: readonly string[], indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const [i, item] of items.entries()) {
    const word = i < items.length - 1 ? `${item},` : item;
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  // The first line follows the option's own text: it gets a line of its own.
  return `\n${lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n')}`;
}

/** `zulip-cdk import`: turn the live organization into a zulip-cdk app. */
export const importCommand: Command = {
  name: 'import',
  summary: 'Write the live organization as a zulip-cdk TypeScript app',
  usage: `usage: zulip-cdk import [--zuliprc PATH | --embedded | --live FILE] [--out DIR]
                        [--include KINDS] [--org-id ID] [--layout auto|single|split]
                        [--subscribers private|all|none] [--force]

Reads the live organization and writes TypeScript that declares it with the construct library
(main.ts, and one file per kind for a large organization). Synthesizing it and planning against
the same organization shows no change: commit it, and make every later change through review.

  --zuliprc PATH      credentials (default: ZULIP_EMAIL/ZULIP_API_KEY/ZULIP_SITE, then
                      ZULIP_CONFIG, then ~/.zuliprc)
  --embedded          import a fresh embedded server with the demo organization
  --live FILE         import a snapshot (zulip-cdk snapshot --out FILE)
  --out DIR           where to write (default ./zulip-org)
  --include KINDS     only these kinds, separated by commas (objects they refer to are
                      imported too):${wrapList(IMPORT_KINDS, 22, 92)}
  --org-id ID         the Organization construct's id (default: from the organization's name)
  --layout L          auto (default: one file per kind above 30 constructs), single or split
  --subscribers S     whose subscribers to declare (mode 'exact'): private channels (default),
                      all channels, or none
  --force             overwrite files that already exist in DIR
`,
  options: {
    ...LIVE_SOURCE_OPTIONS,
    out: { type: 'string' },
    include: { type: 'string', multiple: true },
    'org-id': { type: 'string' },
    layout: { type: 'string' },
    subscribers: { type: 'string' },
    force: { type: 'boolean' },
  },
  async run({ values, io }) {
    const include = parseInclude(values.include);
    const layout = oneOf<ImportLayout>('layout', values.layout, IMPORT_LAYOUTS);
    const subscribers = oneOf<SubscriberPolicy>(
      'subscribers',
      values.subscribers,
      SUBSCRIBER_POLICIES,
    );
    const orgId = values['org-id'];
    if (
      orgId !== undefined &&
      (typeof orgId !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(orgId))
    )
      throw new UsageError(
        "--org-id names the synthesized file: letters, digits, '.', '_' and '-', starting with a letter or digit",
      );
    const outArg = typeof values.out === 'string' ? values.out : 'zulip-org';
    const dir = path.resolve(io.cwd, outArg);
    let generated: GeneratedApp | undefined;
    const generate = (live: LiveState): GeneratedApp =>
      (generated ??= generateApp(live, {
        ...(include && { include }),
        ...(layout && { layout }),
        ...(subscribers && { subscribers }),
        ...(typeof orgId === 'string' && { orgId }),
      }));
    // Emoji images are downloaded while the connection is open (the embedded server's go with it).
    const { live, files, failed } = await loadLiveWithFiles(values, io, (l) =>
      generate(l).assets.map((a) => a.url),
    );
    const app = generate(live);
    const names = Object.keys(app.files).sort();
    const existing = names.filter((n) => existsSync(path.join(dir, n)));
    if (existing.length > 0 && values.force !== true) {
      io.stderr.write(
        `Not written: ${existing.map((n) => path.join(outArg, n)).join(', ')} already exist${
          existing.length === 1 ? 's' : ''
        }. Choose another --out, or overwrite with --force.\n`,
      );
      return 1;
    }
    await mkdir(dir, { recursive: true });
    for (const n of names) await writeFile(path.join(dir, n), app.files[n] ?? '');
    const missing: string[] = [];
    for (const a of app.assets) {
      const bytes = files.get(a.url);
      const sha = bytes && createHash('sha256').update(bytes).digest('hex');
      if (!bytes || sha !== a.sha256) {
        missing.push(
          `  ${path.join(outArg, a.file)}: ${failed.get(a.url) ?? 'the image changed while it was read'}`,
        );
        continue;
      }
      await mkdir(path.dirname(path.join(dir, a.file)), { recursive: true });
      await writeFile(path.join(dir, a.file), bytes);
    }
    const shown = shownPath(io.cwd, dir);
    const counts = resourceCounts(app.counts);
    io.stdout.write(`Wrote ${count(names.length, 'file')} to ${shown}:\n`);
    for (const n of names) io.stdout.write(`  ${path.join(shown, n)}\n`);
    io.stdout.write(`Declared: ${counts || 'nothing'}.\n`);
    if (app.skipped.length > 0)
      io.stdout.write(
        `${count(app.skipped.length, 'object or setting', 'objects or settings')} left out or left as they are: see the comment at the top of main.ts.\n`,
      );
    if (app.assets.length > 0)
      io.stdout.write(
        `Wrote ${count(app.assets.length - missing.length, 'emoji image')} to ${path.join(shown, 'emoji')}.\n`,
      );
    if (missing.length > 0)
      io.stdout.write(
        `Not downloaded (${count(missing.length, 'emoji image')}; synth stops at each until the file is there: copy the image from the organization):\n${missing.join('\n')}\n`,
      );
    const main = shellPath(path.join(shown, 'main.ts'));
    io.stdout.write(
      `\nNext steps:\n` +
        `  1. Read the code; commit it.\n` +
        (missing.length > 0
          ? `  2. Copy the emoji images listed above into ${path.join(shown, 'emoji')}, then check it:\n` +
            `     zulip-cdk plan --app "npx tsx ${main}"${sameSource(values)}  (expect no changes)\n`
          : `  2. Check it: zulip-cdk plan --app "npx tsx ${main}"${sameSource(values)}  (expect no changes)\n`) +
        `  3. From now on, change the organization by changing this code, reviewed in pull requests.\n`,
    );
    return 0;
  },
};
