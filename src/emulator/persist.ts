import { writePrivateFile } from './private-file';
import type { OrgState } from './state';

/**
 * Keeps a state file in step with the organization (`startEmulator({ state: FILE, persist:
 * true })`, `zulip-cdk emulator --state FILE`): the server awaits {@link StateFile.flush} after
 * each request that may have changed the organization and before answering it, so a killed
 * server loses nothing it acknowledged.
 *
 * - Atomic: each write goes to a new file in the same directory, renamed over the state file
 *   (`writePrivateFile`, mode 0600), so the file is always a whole organization, the old one or
 *   the new one. Not fsynced: it survives the process being killed, not the machine crashing.
 * - Coalesced: requests that finish while a write is under way share the next write (one
 *   serialisation covers every change made before it starts); none is answered before the
 *   write that covers it has completed.
 * - Cheap when nothing changed: the text is compared with the last one written, and a request
 *   that changed nothing (a rolled-back error, `POST /register`) writes nothing. The JSON is
 *   compact: a 100,000-subscription organization serialises in about 150 ms, 220 ms indented.
 */
export class StateFile {
  private lastText: string | undefined;
  /** Flushes asked for, and the number of the last one a completed write covers. */
  private requested = 0;
  private written = 0;
  private writing: Promise<void> | undefined;
  /** Files written so far (tests). */
  public writes = 0;

  public constructor(
    public readonly file: string,
    private readonly org: () => OrgState,
  ) {}

  /** Resolves once the organization as it is now is in the file; rejects if the write fails. */
  public async flush(): Promise<void> {
    this.requested += 1;
    const want = this.requested;
    while (this.written < want) {
      this.writing ??= this.write().finally(() => {
        this.writing = undefined;
      });
      await this.writing;
    }
  }

  /** Waits for a write under way, if any (failures were reported to the requests). */
  public async idle(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
  }

  private async write(): Promise<void> {
    // Serialised before the first await: covers every flush asked for until now.
    const covers = this.requested;
    const text = `${JSON.stringify(this.org())}\n`;
    if (text !== this.lastText) {
      await writePrivateFile(this.file, text);
      this.writes += 1;
      this.lastText = text;
    }
    this.written = covers;
  }
}
