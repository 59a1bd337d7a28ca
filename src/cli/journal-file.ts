import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The journal's format: JSON Lines. */
export const JOURNAL_FORMAT_VERSION = 2;

/** How often at most the journal is flushed to disk while apply runs (and always at the end). */
const SYNC_EVERY_MS = 100;

/**
 * The apply journal, written as apply goes: one JSON object per line, appended with a plain
 * `write` the moment it is known, so an apply killed at any point (even with SIGKILL) leaves a
 * journal that is true up to its last request; flushed to disk (fsync) at most every 100 ms and
 * at the end, so that even a machine that loses power keeps all but the last moments. The first
 * line is the header (`type: "journal"`), then the apply's events (`start`, `read`, `batch`,
 * `conflict`, `change`...), and last an `end` line with the outcome; a journal without `end` is
 * that of an apply that was killed. A hand-written writer (rather than a logging library): it
 * is thirty lines and must be synchronous, so that nothing is buffered when the process dies.
 */
export class JournalFile {
  readonly #fd: number;
  #lastSync = 0;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  public constructor(public readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.#fd = openSync(file, 'w');
  }

  /** Appends one line. */
  public write(record: object): void {
    if (this.#closed) return;
    writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    this.#dirty = true;
    const now = Date.now();
    if (now - this.#lastSync >= SYNC_EVERY_MS) this.#sync();
    else this.#timer ??= setTimeout(() => this.#sync(), SYNC_EVERY_MS).unref();
  }

  /** Flushes and closes the file. */
  public close(): void {
    if (this.#closed) return;
    this.#sync();
    this.#closed = true;
    closeSync(this.#fd);
  }

  #sync(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#dirty || this.#closed) return;
    fsyncSync(this.#fd);
    this.#dirty = false;
    this.#lastSync = Date.now();
  }
}

/** A journal read back: its header, its events in order, and its end (absent if killed). */
export interface JournalRead {
  readonly header: Record<string, unknown> & { type: 'journal' };
  readonly events: readonly (Record<string, unknown> & { type: string })[];
  readonly end?: Record<string, unknown> & { type: 'end'; outcome: string };
}

/**
 * Reads a journal's text. A last line cut short (the process died while writing it) is left
 * out; any other line that is not JSON is an error.
 */
export function parseJournal(text: string): JournalRead {
  const lines = text.split('\n');
  const records: (Record<string, unknown> & { type: string })[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as Record<string, unknown> & { type: string });
    } catch (e) {
      if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim() !== ''))
        throw new Error(`journal line ${i + 1} is not JSON: ${(e as Error).message}`);
    }
  });
  const [header, ...rest] = records;
  if (header?.type !== 'journal') throw new Error('not a zulip-cdk journal (no header line)');
  const last = rest.at(-1);
  const end = last?.type === 'end' ? (last as JournalRead['end']) : undefined;
  return {
    header: header as JournalRead['header'],
    events: end ? rest.slice(0, -1) : rest,
    ...(end ? { end } : {}),
  };
}
