import { KIND_SPECS, RESOURCE_KINDS } from '../../model/kinds';
import type { ChangeContext } from '../change-tags';
import type { Change, Plan } from '../plan-format';
import { planDigest } from '../plan-io';
import {
  VERBS,
  applyCostLine,
  digestLine,
  planSummaryLine,
  riskyChanges,
  sideEffects,
} from './describe';
import type { ChangeReason } from './describe';
import { changeLines } from './text';

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
  if (plan.findings.length > 0) {
    out.push(`#### :no_entry: Safety findings (${plan.findings.length})`, '');
    out.push('Apply refuses this plan unless it is run with `--force`:', '');
    for (const f of plan.findings)
      out.push(`- **${f.code}**${f.address ? ` \`${f.address}\`` : ''}: ${escapeMd(f.message)}`);
    out.push('');
  }
  const risky = riskyChanges(plan);
  if (risky.destructive.length > 0)
    out.push(
      `#### Destructive changes (${risky.destructive.length})`,
      '',
      'Apply refuses this plan unless it is run with `--allow-destroy`:',
      '',
      ...reasonList(risky.destructive),
      '',
    );
  if (risky.irreversible.length > 0)
    out.push(
      `#### Irreversible changes (${risky.irreversible.length})`,
      '',
      'Zulip cannot undo these once applied:',
      '',
      ...reasonList(risky.irreversible),
      '',
    );
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
  for (const kind of RESOURCE_KINDS) {
    const changes = plan.changes.filter((c) => c.kind === kind);
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
      sideEffects(c, { ...plan.server, changes: plan.changes }).map(
        (e) => `- \`${c.address}\`: ${escapeMd(e)}`,
      ),
    );
    const shown = effects.filter((e) => budget.take(e));
    if (shown.length > 0) out.push('Side effects:', '', ...shown, '');
    out.push('</details>', '');
  }
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
