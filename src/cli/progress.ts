import { KIND_SPECS } from '../model/kinds';
import type { ApplyEvent, JournalEntry } from '../engine';
import type { CliIo } from './command';
import { count } from './words';

/** How apply shows progress: a bar and lines on a terminal, plain lines in CI, JSON lines. */
export const PROGRESS_MODES = ['tty', 'plain', 'json'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/** `json` when asked; `tty` on a terminal outside CI; `plain` otherwise (CI, pipes, files). */
export function progressMode(io: CliIo, json: boolean): ProgressMode {
  if (json) return 'json';
  const ci = io.env.CI !== undefined && io.env.CI !== '' && io.env.CI !== 'false';
  return io.stdout.isTTY === true && !ci ? 'tty' : 'plain';
}

const MARKS: Record<JournalEntry['status'], string> = {
  applied: '✓',
  done: '=',
  conflict: '!',
  failed: '✗',
  skipped: '-',
};

const COLORS: Record<JournalEntry['status'], number> = {
  applied: 32,
  done: 36,
  conflict: 33,
  failed: 31,
  skipped: 2,
};

/** One line for a finished change, e.g. `✓ create channel["eng"]`. */
export function changeLine(entry: JournalEntry, color = false): string {
  const mark = color
    ? `\u001b[${COLORS[entry.status]}m${MARKS[entry.status]}\u001b[0m`
    : MARKS[entry.status];
  const what =
    entry.action === 'reorder'
      ? `reorder ${KIND_SPECS[entry.kind].nouns[1]}`
      : `${entry.action} ${entry.address}`;
  const tail =
    entry.status === 'applied'
      ? entry.via
        ? ` (${entry.via})`
        : entry.message
          ? ` (${entry.message})`
          : ''
      : entry.status === 'done'
        ? `: ${entry.message ?? 'already done'}`
        : entry.status === 'failed'
          ? `: failed: ${failure(entry)}`
          : entry.status === 'conflict'
            ? `: changed since the plan: ${(entry.message ?? '').replace(/^changed since the plan: /, '')}`
            : `: ${notRun(entry.message)}`;
  return `${mark} ${what}${tail}`;
}

/** A failure's message, with its code in front unless the message names it already. */
function failure(entry: JournalEntry): string {
  const message = entry.error?.message ?? entry.message ?? '';
  const code = entry.error?.code;
  return code === undefined || message.includes(code) ? message : `[${code}] ${message}`;
}

/** Why a change was skipped: apply's reasons start with "not run" already. */
function notRun(message: string | undefined): string {
  if (message === undefined) return 'not run';
  return message.startsWith('not run') ? message : `not run: ${message}`;
}

/** What the CLI shows of a client `retry` event. */
export interface RetryNotice {
  readonly reason: string;
  readonly endpoint: string;
  readonly attempt: number;
  readonly delayMs: number;
  readonly status?: number;
  readonly errorCode?: string;
}

/**
 * One line for a request the client is about to repeat, e.g.
 * `  … POST /register: the server answered HTTP 503, waiting 0.4 s (attempt 1)`.
 */
export function retryLine(e: RetryNotice): string {
  const why =
    e.reason === 'rate-limit'
      ? 'rate limited'
      : e.reason === 'server-error'
        ? `the server answered HTTP ${e.status ?? '5xx'}`
        : e.reason === 'connection'
          ? `connection trouble${e.errorCode === undefined ? '' : ` (${e.errorCode})`}`
          : `${e.reason} trouble`;
  return `  … ${e.endpoint}: ${why}, waiting ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt})`;
}

/**
 * Renders apply events. `json`: one event per line on stdout, nothing else. `plain`: a line per
 * event. `tty`: the same lines, with a progress bar redrawn below them.
 */
export class ApplyProgress {
  private barShown = false;
  private done = 0;
  private total = 0;

  public constructor(
    private readonly io: CliIo,
    public readonly mode: ProgressMode,
    private readonly color = false,
  ) {}

  public readonly onEvent = (event: ApplyEvent): void => {
    if (this.mode === 'json') {
      this.io.stdout.write(`${JSON.stringify(event)}\n`);
      return;
    }
    switch (event.type) {
      case 'start':
        this.total = event.total;
        this.line(
          `Applying ${count(event.total, 'change')} to ${event.site} as ${event.account} (plan ${event.digest.slice(0, 12)})`,
        );
        break;
      case 'read':
        this.line(
          event.reason === 'verify'
            ? `Read the organization again (${count(event.requests, 'request')}) and planned again from the plan's own configuration, to find what already landed and what was edited meanwhile`
            : `Re-read the organization (${count(event.requests, 'request')}) to see whether a change that failed or got no answer was made`,
        );
        break;
      case 'conflict':
        // The change's own line says it.
        break;
      case 'batch':
        if (event.changes.length > 1)
          this.line(`  ${event.what}: ${count(event.changes.length, 'change')} in one request`);
        break;
      case 'change':
        this.done = event.done;
        this.total = event.total;
        this.line(
          `${this.counter(event.done, event.total)} ${changeLine(event.entry, this.color)}`,
        );
        break;
      case 'finish': {
        this.clearBar();
        const c = event.counts;
        const parts = [`${c.applied} applied`];
        if (c.done) parts.push(`${c.done} already done`);
        if (c.conflict) parts.push(`${c.conflict} changed since the plan (not written)`);
        if (c.failed) parts.push(`${c.failed} failed`);
        if (c.skipped) parts.push(`${c.skipped} not run`);
        const head =
          event.outcome === 'applied'
            ? 'Apply complete'
            : event.outcome === 'no-changes'
              ? 'Nothing to apply'
              : event.outcome === 'partial'
                ? 'Apply partly done'
                : 'Nothing applied';
        this.io.stdout.write(
          `${head}: ${parts.join(', ')}; ${count(event.requestCount, 'API request')}.\n`,
        );
        break;
      }
    }
  };

  /** A request the client is about to repeat (a 429 waited out, a 5xx or a dropped connection). */
  public retry(e: RetryNotice): void {
    if (this.mode === 'json') {
      this.io.stdout.write(
        `${JSON.stringify({ type: 'retry', reason: e.reason, endpoint: e.endpoint, attempt: e.attempt, delayMs: e.delayMs, ...(e.status === undefined ? {} : { status: e.status }), ...(e.errorCode === undefined ? {} : { errorCode: e.errorCode }) })}\n`,
      );
      return;
    }
    this.line(retryLine(e));
  }

  /** The client waits for the rate-limit budget (issue 17: paced, not a 429). */
  public pace(e: {
    readonly endpoint: string;
    readonly delayMs: number;
    readonly limit: number | undefined;
  }): void {
    if (this.mode === 'json') {
      this.io.stdout.write(
        `${JSON.stringify({ type: 'pace', endpoint: e.endpoint, delayMs: e.delayMs, ...(e.limit === undefined ? {} : { limit: e.limit }) })}\n`,
      );
      return;
    }
    this.line(
      `  … rate limit budget spent${e.limit === undefined ? '' : ` (${e.limit} requests a minute)`}: waiting ${(e.delayMs / 1000).toFixed(1)} s as the server's X-RateLimit-Reset says`,
    );
  }

  private counter(done: number, total: number): string {
    const w = String(total).length;
    return `[${String(done).padStart(w)}/${total}]`;
  }

  private line(text: string): void {
    this.clearBar();
    this.io.stdout.write(`${text}\n`);
    if (this.mode === 'tty' && this.total > 0) this.drawBar();
  }

  private drawBar(): void {
    const width = 30;
    const filled = Math.round((this.done / Math.max(1, this.total)) * width);
    this.io.stdout.write(
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total}`,
    );
    this.barShown = true;
  }

  private clearBar(): void {
    if (!this.barShown) return;
    this.io.stdout.write('\r\u001b[2K');
    this.barShown = false;
  }
}
