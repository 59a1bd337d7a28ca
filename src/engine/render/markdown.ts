import { KIND_SPECS, RESOURCE_KINDS } from '../../model/kinds';
import type { ChangeContext } from '../change-tags';
import type { Change, Plan } from '../plan-format';
import { planDigest } from '../plan-io';
import {
  VERBS,
  abilityList,
  applyCostLine,
  digestLine,
  effectMoves,
  holdersText,
  planSummaryLine,
  riskyChanges,
  sideEffects,
  whoGains,
} from './describe';
import type { ChangeReason } from './describe';
import { joinAnd } from '../words';
import { changeLines, findingFlags } from './text';
import { ORIGIN_SECTIONS, changesByOrigin } from '../origins';

/** Options of {@link renderMarkdown}. */
export interface MarkdownRenderOptions {
  /** A heading for the comment; default `zulip-cdk plan`. */
  readonly title?: string;
  /** Open the `<details>` blocks; default false (closed, so long plans stay readable). */
  readonly open?: boolean;
  /**
   * Longest output in characters; default 60,000 (GitHub refuses comments over 65,536).
   * Past it, diffs, side effects and warnings are cut with a note; the summary and the
   * safety findings always stay.
   */
  readonly maxLength?: number;
}

/** Lines under a character budget; the rest are counted, not shown. */
class Budget {
  public cut = 0;
  public constructor(private left: number) {}
  public take(text: string): boolean {
    if (text.length + 1 > this.left) {
      this.cut += 1;
      this.left = 0;
      return false;
    }
    this.left -= text.length + 1;
    return true;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes Markdown inline text (outside code blocks). */
function escapeMd(s: string): string {
  return (
    escapeHtml(s)
      .replace(/([\\`*_[\]|])/g, '\\$1')
      // A name or description that starts a word with `@` would mention (and notify) a user or
      // team in the pull-request comment: a zero-width space after it keeps it plain text.
      // E-mail addresses (a letter before the `@`) are left as they are.
      .replace(/(^|[^\p{L}\p{N}_.+-])@(?=[\p{L}\p{N}_-])/gu, '$1@\u200b')
  );
}

/** A code fence longer than any run of backticks in the content (snippets may hold fences). */
function fence(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** GitHub colours diff lines by their first character: `+` green, `-` red, `!` orange. */
function diffLines(c: Change, context: ChangeContext): string[] {
  const plain = (s: string): string => s;
  return changeLines(c, plain, (_style, s) => s, context).map((line) => {
    const m = /^(\s*)([+\-~±])(\s.*)$/.exec(line);
    if (!m) return ` ${line}`;
    const symbol = m[2] === '~' || m[2] === '±' ? '!' : (m[2] ?? ' ');
    // The symbol moves to column 0; the indentation under it is kept, two columns less.
    return `${symbol}${(m[1] ?? '').slice(2)}${m[3] ?? ''}`;
  });
}

function countsByAction(changes: readonly Change[]): string {
  const counts = new Map<string, number>();
  for (const c of changes) counts.set(VERBS[c.action], (counts.get(VERBS[c.action]) ?? 0) + 1);
  return [...counts].map(([verb, n]) => `${n} ${verb}`).join(', ');
}

/** A list of changes and why, at most `max` of them (they stay when the rest is cut). */
function reasonList(items: readonly ChangeReason[], max = 30): string[] {
  const out = items.slice(0, max).map((x) => `- \`${x.change.address}\`: ${escapeMd(x.why)}`);
  if (items.length > max) out.push(`- … and ${items.length - max} more`);
  return out;
}

const cell = (s: string): string => escapeMd(s).replace(/\n/g, ' ');

/**
 * The "Who gains / who loses" table, shown first and never collapsed: one row per object and
 * set of people (at most `maxRows`), each naming at most 10 people per side. When everyone
 * named has an address at the same domain, the table shows the part before the `@`.
 */
function whoGainsTable(plan: Plan, maxRows = 20): string[] {
  const effects = plan.permissions?.effects ?? [];
  if (effects.length === 0) return [];
  const { rows, uncounted } = whoGains(plan.permissions);
  const still = effects.filter((e) => !effectMoves(e)).length;
  const out = ['#### Who gains / who loses', ''];
  if (rows.length > 0) {
    const shown = rows.slice(0, maxRows);
    const domains = new Set(
      shown.flatMap((r) => [...r.gained.users, ...r.lost.users]).map((e) => e.split('@')[1]),
    );
    const domain = domains.size === 1 ? [...domains][0] : undefined;
    const short = (h: { count: number; users: readonly string[] }): string =>
      cell(
        holdersText(
          domain ? { count: h.count, users: h.users.map((u) => u.split('@')[0] ?? u) } : h,
        ),
      );
    out.push('| On | May | Gains | Loses |', '| --- | --- | --- | --- |');
    for (const r of shown) {
      const gains = r.gained.count > 0 ? short(r.gained) : '—';
      const loses = r.lost.count > 0 ? short(r.lost) : '—';
      out.push(
        `| \`${r.address}\`${r.isNew ? ' (new)' : ''} | ${cell(joinAnd(r.abilities))} | ${gains} | ${loses} |`,
      );
    }
    out.push('');
    const notes: string[] = [];
    if (domain) notes.push(`Everyone named has an address at ${cell(domain)}.`);
    if (rows.length > maxRows)
      notes.push(`${rows.length - maxRows} more rows are in "every permission" below.`);
    if (notes.length > 0) out.push(notes.join(' '), '');
  }
  if (uncounted.length > 0)
    out.push(
      `Not counted: whoever the organization's ${uncounted.map((w) => `\`${w}\``).join(', ')} ${uncounted.length === 1 ? 'lets' : 'let'} through besides (the organization's settings were not read: a snapshot made before they were).`,
      '',
    );
  if (still > 0) {
    // "Other" only when the table above lists the settings that do move someone.
    const which =
      rows.length > 0
        ? still === 1
          ? 'One other changed setting changes'
          : `${still} other changed settings change`
        : still === 1
          ? 'No one gains or loses anything: the changed setting changes'
          : `No one gains or loses anything: the ${still} changed settings change`;
    out.push(
      `${which} nothing in who holds ${still === 1 ? 'it' : 'them'} (nested groups, role groups and organization administrators counted).`,
      '',
    );
  }
  return out;
}

/** Every permission and every person, collapsed below the table, within the budget. */
function whoGainsDetails(plan: Plan, open: string, budget: Budget): string[] {
  const perms = plan.permissions;
  if (!perms || perms.effects.length === 0) return [];
  const lines: string[] = [];
  for (const e of perms.effects) {
    const counts = e.before === null ? `new, ${e.after}` : `${e.before} → ${e.after}`;
    const moves: string[] = [];
    if (e.gained.count > 0) moves.push(`gains: ${holdersText(e.gained)}`);
    if (e.lost.count > 0) moves.push(`loses: ${holdersText(e.lost)}`);
    const uncounted = e.notCounted?.length
      ? `; not counted: whoever the organization's ${e.notCounted.join(', ')} lets through`
      : '';
    const line = `- \`${e.address}\`: ${escapeMd(e.ability)} (${e.permission}), ${counts} users${moves.length ? `; ${escapeMd(moves.join('; '))}` : ''}${escapeMd(uncounted)}; because of ${e.changes.map((c) => `\`${c}\``).join(', ')}.`;
    if (budget.take(line)) lines.push(line);
  }
  const people: string[] = [];
  for (const u of perms.users) {
    const parts: string[] = [];
    if (u.gainsCount > 0) parts.push(`may now: ${abilityList(u.gains, u.gainsCount)}`);
    if (u.losesCount > 0) parts.push(`may no longer: ${abilityList(u.loses, u.losesCount)}`);
    const line = `- ${escapeMd(u.email)} ${escapeMd(parts.join('. It '))}.`;
    if (budget.take(line)) people.push(line);
  }
  if (perms.usersCount > perms.users.length)
    people.push(`- … and ${perms.usersCount - perms.users.length} more people`);
  return [
    `<details${open}><summary>Who gains / who loses: every permission (${perms.effects.length}) and every person (${perms.usersCount})</summary>`,
    '',
    ...lines,
    '',
    ...people,
    '',
    '</details>',
    '',
  ];
}

/**
 * The changes per kind, in the order the comment shows them; with `--base`, once per section
 * (this pull request's changes, then reverted drift), each section's heading with its first kind.
 */
function kindSections(
  plan: Plan,
): { kind: (typeof RESOURCE_KINDS)[number]; changes: Change[]; heading: string[] }[] {
  const sections = changesByOrigin(plan.changes);
  const groups: [string[], readonly Change[]][] = sections
    ? (['change', 'drift'] as const).map((o) => [
        [
          `#### ${escapeMd(ORIGIN_SECTIONS[o])} (${sections[o].length})`,
          '',
          ...(sections[o].length === 0 ? ['None.', ''] : []),
        ],
        sections[o],
      ])
    : [[[], plan.changes]];
  return groups.flatMap(([heading, all]) =>
    RESOURCE_KINDS.map((kind, i) => ({
      kind,
      changes: all.filter((c) => c.kind === kind),
      heading: i === 0 ? heading : [],
    })),
  );
}

/**
 * Markdown for a pull-request comment: the summary first, safety findings, destructive and
 * irreversible changes where nobody can miss them, then one collapsible section per kind with a
 * `diff` block and the side effects spelled out (archiving is not deleting, who gets notified,
 * who gains or loses a permission), and last the plan's digest.
 */
export function renderMarkdown(plan: Plan, options: MarkdownRenderOptions = {}): string {
  const out: string[] = [];
  const open = options.open ? ' open' : '';
  out.push(`### ${escapeMd(options.title ?? 'zulip-cdk plan')}`, '');
  out.push(
    `Organization \`${plan.server.site}\` (Zulip ${escapeMd(plan.server.version)}, feature level ${plan.server.featureLevel}), applied as \`${plan.account.email}\`.`,
    '',
  );
  out.push(`**${planSummaryLine(plan)}**`, '');
  const cost = applyCostLine(plan);
  if (cost !== undefined) out.push(cost, '');
  out.push(...whoGainsTable(plan));
  if (plan.findings.length > 0) {
    out.push(`#### :no_entry: Safety findings (${plan.findings.length})`, '');
    out.push(
      `Apply refuses this plan unless it is run with ${findingFlags(plan)
        .split(/(--[a-z-]+)/)
        .map((part) => (part.startsWith('--') ? `\`${part}\`` : part))
        .join('')}:`,
      '',
    );
    for (const f of plan.findings)
      out.push(
        `- **${f.code}**${f.address ? ` \`${f.address}\`` : ''}: ${escapeMd(f.message)}${f.path ? ` (\`${f.path}\`)` : ''}`,
      );
    out.push('');
  }
  const risky = riskyChanges(plan);
  for (const [title, note, reasons] of [
    [
      'Destructive changes',
      'Apply refuses this plan unless it is run with `--allow-destroy`:',
      risky.destructive,
    ],
    ['Irreversible changes', 'Zulip cannot undo these once applied:', risky.irreversible],
  ] as const)
    if (reasons.length > 0)
      out.push(`#### ${title} (${reasons.length})`, '', note, '', ...reasonList(reasons), '');
  const digest = digestLine(planDigest(plan), (s) => `\`${s}\``);
  // Reserve room for the section frames, the truncation note and the digest.
  const budget = new Budget(
    (options.maxLength ?? 60000) -
      out.join('\n').length -
      600 -
      digest.length -
      200 * RESOURCE_KINDS.length,
  );
  let cutChanges = 0;
  for (const { kind, changes, heading } of kindSections(plan)) {
    out.push(...heading);
    if (changes.length === 0) continue;
    out.push(
      `<details${open}><summary><b>${escapeHtml(KIND_SPECS[kind].title)}</b>: ${escapeHtml(countsByAction(changes))}</summary>`,
      '',
    );
    const blocks: string[] = [];
    for (const c of changes) {
      const block = diffLines(c, plan.server).join('\n');
      if (budget.take(block + '\n')) blocks.push(block);
      else cutChanges += 1;
    }
    if (blocks.length > 0) {
      const body = blocks.join('\n\n');
      const f = fence(body);
      out.push(`${f}diff`, body, f, '');
    }
    // Each effect names its object: "4 new subscriber(s) ..." alone does not say where.
    const effects = changes.flatMap((c) =>
      sideEffects(c, {
        ...plan.server,
        changes: plan.changes,
        permissions: plan.permissions,
      }).map((e) => `- \`${c.address}\`: ${escapeMd(e)}`),
    );
    const shown = effects.filter((e) => budget.take(e));
    if (shown.length > 0) out.push('Side effects:', '', ...shown, '');
    out.push('</details>', '');
  }
  if (plan.ignoredDrift !== undefined) {
    out.push(`#### ${escapeMd(ORIGIN_SECTIONS.ignored)} (${plan.ignoredDrift.length})`, '');
    const lines = plan.ignoredDrift
      .map((d) => `- \`${d.address}\`: ${escapeMd(d.message)}`)
      .filter((l) => budget.take(l));
    if (lines.length > 0)
      out.push(
        `<details${open}><summary>Left as they are in Zulip</summary>`,
        '',
        ...lines,
        '',
        '</details>',
      );
    else out.push('None.');
    out.push('');
  }
  out.push(...whoGainsDetails(plan, open, budget));
  if (plan.warnings.length > 0) {
    const lines = plan.warnings
      .map((w) => `- ${w.address ? `\`${w.address}\`: ` : ''}${escapeMd(w.message)} (${w.code})`)
      .filter((l) => budget.take(l));
    out.push(`<details${open}><summary>:warning: Warnings (${plan.warnings.length})</summary>`, '');
    out.push(...lines, '', '</details>', '');
  }
  if (budget.cut > 0)
    out.push(
      `> [!NOTE]\n> The plan is too long for a comment: ${cutChanges} change(s) and ${budget.cut - cutChanges} other line(s) are not shown. Save the full plan with \`zulip-cdk plan --out plan.json\`.`,
      '',
    );
  out.push(digest, '');
  return out.join('\n');
}
