import { KIND_SPECS } from '../../model/kinds';
import type { ChangeContext } from '../change-tags';
import type { Change, Plan } from '../plan-format';
import { planDigest } from '../plan-io';
import { ORIGIN_SECTIONS, changesByOrigin } from '../origins';
import {
  SYMBOLS,
  changeLabels,
  applyCostLine,
  digestLine,
  holdersText,
  formatValue,
  planSummaryLine,
  riskyChanges,
  sideEffects,
  whoGains,
} from './describe';
import type { ChangeReason } from './describe';
import { countOf, joinAnd } from '../words';

/** Options of {@link renderText}. */
export interface TextRenderOptions {
  /** ANSI colours; the CLI turns them on for a terminal without `NO_COLOR`. Default false. */
  readonly color?: boolean;
  /**
   * Warnings shown per code before the rest are counted in one line (an organization with
   * thousands of undeclared channels would bury the plan). Default 20; `Infinity` shows all.
   */
  readonly maxWarningsPerCode?: number;
}

const ANSI = { green: 32, yellow: 33, red: 31, magenta: 35, bold: 1, dim: 2, cyan: 36 } as const;
export type Style = keyof typeof ANSI;

function symbolStyle(symbol: string): Style {
  if (symbol === '+') return 'green';
  if (symbol === '-') return 'red';
  if (symbol === '±') return 'magenta';
  return 'yellow';
}

/** Reasons listed under a heading, at most `max` of them. */
function reasonLines(items: readonly ChangeReason[], bullet: string, max = 50): string[] {
  const out = items.slice(0, max).map((x) => `  ${bullet} ${x.change.address}: ${x.why}`);
  if (items.length > max) out.push(`  ${bullet} ... and ${items.length - max} more (see above)`);
  return out;
}

/**
 * Terraform-like text: one block per change (destructive and irreversible ones labelled),
 * warnings, findings, what apply will need, a `Plan: ...` footer and the plan's digest.
 */
export function renderText(plan: Plan, options: TextRenderOptions = {}): string {
  const paint = (style: Style, s: string): string =>
    options.color ? `\u001b[${ANSI[style]}m${s}\u001b[0m` : s;
  const sym = (s: string): string => paint(symbolStyle(s), s);
  const lines: string[] = [];
  const header = `zulip-cdk plan for ${plan.server.site} (Zulip ${plan.server.version}, feature level ${plan.server.featureLevel}) as ${plan.account.email}`;
  lines.push(paint('bold', header));
  if (plan.targets?.length) lines.push(`Targets: ${plan.targets.join(', ')}`);
  lines.push('');
  const block = (c: Change): void => {
    lines.push(...changeLines(c, sym, paint, plan.server));
    // What Zulip does besides the change (messages, notices, what archiving keeps). Sentences
    // that restate the diff lines above (permissions, roles, removals) are the Markdown's.
    const context = { ...plan.server, changes: plan.changes, restateDiff: false };
    for (const note of sideEffects(c, context))
      lines.push(`      ${paint('yellow', 'Note:')} ${note}`);
    lines.push('');
  };
  // With --base: this change apart from drift, in sections.
  const sections = changesByOrigin(plan.changes);
  if (sections) {
    for (const o of ['change', 'drift'] as const) {
      lines.push(paint('bold', `${ORIGIN_SECTIONS[o]} (${sections[o].length}):`), '');
      if (sections[o].length === 0) lines.push('  (none)', '');
      sections[o].forEach(block);
    }
  } else if (plan.changes.length > 0) {
    lines.push('zulip-cdk will perform the following actions:', '');
    plan.changes.forEach(block);
  }
  if (plan.ignoredDrift !== undefined) {
    const max = options.maxWarningsPerCode ?? 20;
    lines.push(paint('bold', `${ORIGIN_SECTIONS.ignored} (${plan.ignoredDrift.length}):`));
    if (plan.ignoredDrift.length === 0) lines.push('  (none)');
    for (const d of plan.ignoredDrift.slice(0, max))
      lines.push(
        `  ${paint('dim', '=')} ${d.address}: ${d.message}${d.path ? paint('dim', `  (${d.path})`) : ''}`,
      );
    if (plan.ignoredDrift.length > max)
      lines.push(`  ${paint('dim', '=')} ... and ${plan.ignoredDrift.length - max} more`);
    lines.push('');
  }
  lines.push(...whoGainsLines(plan, paint));
  if (plan.warnings.length > 0) {
    lines.push(paint('yellow', `Warnings (${plan.warnings.length}):`));
    const max = options.maxWarningsPerCode ?? 20;
    const seen = new Map<string, number>();
    for (const w of plan.warnings) {
      const n = (seen.get(w.code) ?? 0) + 1;
      seen.set(w.code, n);
      if (n <= max)
        lines.push(
          `  ${paint('yellow', '!')} ${w.address ? `${w.address}: ` : ''}${w.message} [${w.code}]`,
        );
    }
    for (const [code, n] of seen)
      if (n > max) lines.push(`  ${paint('yellow', '!')} ... and ${n - max} more [${code}]`);
    lines.push('');
  }
  if (plan.findings.length > 0) {
    lines.push(
      paint(
        'red',
        `Safety findings (${plan.findings.length}; apply refuses them without ${findingFlags(plan)}):`,
      ),
    );
    for (const f of plan.findings)
      lines.push(
        `  ${paint('red', '✗')} ${f.address ? `${f.address}: ` : ''}${f.message} [${f.code}]${f.path ? paint('dim', `  (${f.path})`) : ''}`,
      );
    lines.push('');
  }
  const risky = riskyChanges(plan);
  if (risky.destructive.length > 0) {
    lines.push(
      paint(
        'red',
        `Destructive changes (${risky.destructive.length}; apply refuses them without --allow-destroy):`,
      ),
      ...reasonLines(risky.destructive, paint('red', '-')),
      '',
    );
  }
  if (risky.irreversible.length > 0) {
    lines.push(
      paint('red', `Irreversible changes (${risky.irreversible.length}; Zulip cannot undo them):`),
      ...reasonLines(risky.irreversible, paint('red', '!')),
      '',
    );
  }
  lines.push(paint('bold', planSummaryLine(plan)));
  const cost = applyCostLine(plan);
  if (cost !== undefined) lines.push(cost);
  lines.push(digestLine(planDigest(plan)));
  return lines.join('\n') + '\n';
}

/** The flags apply needs for the plan's findings: `--force`, `--allow-privileged`, or both. */
export function findingFlags(plan: Pick<Plan, 'findings'>): string {
  const privileged = plan.findings.filter((f) => f.code === 'PRIVILEGED_CHANGE').length;
  if (privileged === 0) return '--force';
  if (privileged === plan.findings.length) return '--allow-privileged';
  return '--force, and privileged changes without --allow-privileged';
}

/**
 * Who gains and who loses each permission whose holders change, one line each (at most 50),
 * from the plan's effective permissions.
 */
function whoGainsLines(plan: Plan, paint: (style: Style, s: string) => string): string[] {
  const { rows, uncounted } = whoGains(plan.permissions);
  if (rows.length === 0) return [];
  const max = 50;
  const people = plan.permissions?.usersCount ?? 0;
  const out = [paint('bold', `Who gains / who loses (${countOf(people, 'person', 'people')}):`)];
  for (const r of rows.slice(0, max)) {
    const what = joinAnd(r.abilities);
    const parts: string[] = [];
    if (r.gained.count > 0)
      parts.push(
        `${paint('green', '+')} ${holdersText(r.gained)} may${r.isNew ? '' : ' now'} ${what}`,
      );
    if (r.lost.count > 0)
      parts.push(
        `${paint('red', '-')} ${holdersText(r.lost)} may no longer${r.gained.count > 0 ? '' : ` ${what}`}`,
      );
    out.push(`  ${r.address}${r.isNew ? ' (new)' : ''}: ${parts.join('; ')}`);
  }
  if (rows.length > max)
    out.push(`  ... and ${rows.length - max} more (plan --format json has them all)`);
  if (uncounted.length > 0)
    out.push(
      `  Not counted: whoever the organization's ${uncounted.join(', ')} ${uncounted.length === 1 ? 'lets' : 'let'} through besides.`,
    );
  out.push('');
  return out;
}

/** The lines of one change, as {@link renderText} shows them (also used by the Markdown diff). */
export function changeLines(
  c: Change,
  sym: (s: string) => string,
  paint: (style: Style, s: string) => string,
  context: ChangeContext = {},
): string[] {
  const s = SYMBOLS[c.action];
  const where = c.path ? paint('dim', `  (${c.path})`) : '';
  const labels = changeLabels(c, context);
  const marks = labels.length > 0 ? ` ${paint('red', `[${labels.join(', ')}]`)}` : '';
  const head = (what: string): string => `  ${sym(s)} ${c.address} ${what}${marks}${where}`;
  const out: string[] = [];
  switch (c.action) {
    case 'create':
      out.push(head('will be created'));
      for (const [k, v] of Object.entries(c.properties))
        out.push(`      ${sym('+')} ${k} = ${formatValue(v)}`);
      break;
    case 'update':
      out.push(head('will be updated in place'));
      for (const p of c.properties)
        out.push(
          `      ${sym('~')} ${p.property}: ${formatValue(p.before)} -> ${formatValue(p.after)}`,
        );
      break;
    case 'rename':
      out.push(head(`will be renamed from ${JSON.stringify(c.from)}`));
      break;
    case 'unarchive':
    case 'reactivate':
      out.push(head(`will be ${c.action}d`));
      break;
    case 'archive':
    case 'deactivate':
    case 'delete': {
      const why =
        c.reason === 'prune'
          ? 'not in the configuration; pruning is on'
          : 'the configuration says so';
      out.push(head(`will be ${c.action === 'delete' ? 'deleted' : `${c.action}d`} (${why})`));
      break;
    }
    case 'replace':
      out.push(head('will be replaced (deleted, then created)'));
      for (const k of Object.keys(c.after))
        if (JSON.stringify(c.before[k]) !== JSON.stringify(c.after[k]))
          out.push(
            `      ${sym('~')} ${k}: ${formatValue(c.before[k])} -> ${formatValue(c.after[k])}`,
          );
      break;
    case 'reorder':
      out.push(`  ${sym(s)} ${KIND_SPECS[c.kind].nouns[1]} will be reordered${where}`);
      c.after.forEach((e, i) => {
        const was = c.before.indexOf(e.key);
        const note = e.id === null ? ' (new)' : was === i ? '' : ` (was ${was + 1})`;
        out.push(`      ${i + 1}. ${e.key}${note}`);
      });
      break;
    case 'membership': {
      const what = c.collection === 'subscribers' ? 'subscribers' : 'members';
      out.push(head(`${what} will change (${c.mode})`));
      for (const u of c.add) out.push(`      ${sym('+')} ${u.email}`);
      for (const g of c.addSubgroups) out.push(`      ${sym('+')} group ${g.name}`);
      for (const u of c.remove) out.push(`      ${sym('-')} ${u.email}`);
      for (const g of c.removeSubgroups) out.push(`      ${sym('-')} group ${g.name}`);
      break;
    }
  }
  return out;
}
