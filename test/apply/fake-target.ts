import type {
  ApplyContext,
  ApplyTarget,
  Change,
  MembershipChange,
  SubscribeCall,
  UnsubscribeCall,
  UpdateChange,
} from '../../src/engine';
import { ZulipCdkError } from '../../src/model';
import type { LiveState } from '../../src/model';
import { ZulipApiError } from '../../src/zulip';
import { LiveBuilder } from '../engine/fixtures';

/**
 * How a request of the fake target goes wrong, as the HTTP client reports it:
 * `refused` a 400 (`BAD_REQUEST`), `no-answer` a dropped connection after sending
 * (`REQUEST_OUTCOME_UNKNOWN`), `server-error` a 500 the client did not repeat, `mismatch`
 * Zulip's `EXPECTATION_MISMATCH` (a value changed since it was read).
 */
export type Fault = 'refused' | 'no-answer' | 'server-error' | 'mismatch';

/** One failing request: with `landed`, what it asked for is written before it fails. */
export interface FaultStep {
  readonly fault: Fault;
  readonly landed?: boolean;
}

/** The calls of the target other than `applyChange`, to give them faults. */
export type BatchCall = 'subscribe' | 'unsubscribe' | 'settings';

function errorFor(fault: Fault, what: string): Error {
  const api = (code: string, status: number, msg: string): ZulipApiError =>
    new ZulipApiError({
      code,
      status,
      endpoint: 'fake',
      request: `fake ${what}`,
      zulipMessage: msg,
      data: {},
    });
  switch (fault) {
    case 'refused':
      return api('BAD_REQUEST', 400, 'refused by the fake target');
    case 'mismatch':
      return api('EXPECTATION_MISMATCH', 400, 'the value changed');
    case 'server-error':
      return api('BAD_REQUEST', 500, 'internal server error');
    case 'no-answer':
      return new ZulipCdkError('REQUEST_OUTCOME_UNKNOWN', `fake ${what}: no answer`);
  }
}

/**
 * An in-memory {@link ApplyTarget} over a {@link LiveBuilder} organization: every request
 * (reads included) counts as one, is recorded in `calls` in a readable form, and writes what
 * it asks for into the organization, so that a re-read sees it. Tests make chosen requests
 * fail (`fail`) and act at chosen points (`onCall`).
 */
export class FakeTarget implements ApplyTarget {
  public readonly site: string;
  /** `read`, `create channel["x"] + a@…,b@…`, `subscribe a,b ← 3,4`, … in order. */
  public readonly calls: string[] = [];
  /** Runs at every request, after it is recorded and before it is answered. */
  public onCall: (call: string) => void = () => {};
  #requests = 0;
  readonly #faults = new Map<string, FaultStep[]>();

  public constructor(public readonly org: LiveBuilder = new LiveBuilder()) {
    this.site = org.state.server.site;
  }

  /** The next requests for a change id (or a {@link BatchCall}) fail, one step each. */
  public fail(key: string, ...steps: (Fault | FaultStep)[]): this {
    const list = this.#faults.get(key) ?? [];
    list.push(...steps.map((s) => (typeof s === 'string' ? { fault: s } : s)));
    this.#faults.set(key, list);
    return this;
  }

  /** The calls that wrote (everything but reads). */
  public get writes(): string[] {
    return this.calls.filter((c) => c !== 'read');
  }

  public requestCount(): number {
    return this.#requests;
  }

  public readLive(): Promise<LiveState> {
    this.#request('read');
    return Promise.resolve(this.org.build());
  }

  public applyChange(
    change: Change,
    ctx: ApplyContext,
    fold?: MembershipChange,
  ): Promise<number | void> {
    const who = fold ? ` + ${fold.add.map((u) => u.email).join(',')}` : '';
    return this.#run(`${change.action} ${change.address}${who}`, change.id, () =>
      this.#write(change, ctx, fold),
    );
  }

  public subscribe(call: SubscribeCall): Promise<void> {
    return this.#run(
      `subscribe ${call.channels.join(',')} ← ${call.principals.join(',')}${call.notify ? ' (notify)' : ''}`,
      'subscribe',
      () => {
        for (const name of call.channels) {
          const ch = this.#channel(name);
          ch.subscribers = [...new Set([...(ch.subscribers ?? []), ...call.principals])];
        }
      },
    );
  }

  public unsubscribe(call: UnsubscribeCall): Promise<void> {
    return this.#run(
      `unsubscribe ${call.channels.join(',')} ← ${call.principals.join(',')}`,
      'unsubscribe',
      () => {
        for (const name of call.channels) {
          const ch = this.#channel(name);
          ch.subscribers = (ch.subscribers ?? []).filter((u) => !call.principals.includes(u));
        }
      },
    );
  }

  public updateSubscriptionSettings(changes: readonly UpdateChange[]): Promise<void> {
    return this.#run(`settings ${changes.map((c) => c.key).join(',')}`, 'settings', () => {
      for (const c of changes) {
        const s = this.org.state.subscriptionSettings.find((x) => x.channelId === c.liveId);
        if (!s) throw new Error(`the fake target has no subscription settings for ${c.key}`);
        for (const p of c.properties) (s as Record<string, unknown>)[p.property] = p.after;
      }
    });
  }

  #request(call: string): void {
    this.#requests += 1;
    this.calls.push(call);
    this.onCall(call);
  }

  async #run<T>(call: string, key: string, write: () => T): Promise<T> {
    await Promise.resolve();
    this.#request(call);
    const step = this.#faults.get(key)?.shift();
    if (!step) return write();
    if (step.landed === true) write();
    throw errorFor(step.fault, call);
  }

  #channel(name: string): LiveState['channels'][number] {
    const ch = this.org.state.channels.find((c) => c.name === name);
    if (!ch) throw new Error(`the fake target has no channel ${name}`);
    return ch;
  }

  /** Writes what a change asks for; only what these tests use. */
  #write(c: Change, ctx: ApplyContext, fold?: MembershipChange): number | void {
    const ids = (m?: MembershipChange): number[] => (m?.add ?? []).map((u) => u.id);
    if (c.action === 'create') {
      const p = c.properties as Record<string, string | undefined>;
      switch (c.kind) {
        case 'channel':
          return this.org.channel(String(p.name), {
            description: p.description ?? '',
            subscribers: ids(fold),
          }).id;
        case 'userGroup':
          return this.org.group(String(p.name), {
            members: ids(fold),
            subgroups: (fold?.addSubgroups ?? []).map((g) => ctx.groupId(g.name)),
          }).id;
        case 'linkifier':
          return this.org.linkifier(String(p.pattern), String(p.urlTemplate));
        default:
          break;
      }
    }
    if (c.action === 'update' && c.kind === 'channel') {
      const ch = this.org.state.channels.find((x) => x.id === c.liveId);
      for (const p of c.properties) {
        const record = ch as Record<string, unknown> | undefined;
        if (!record || typeof record[p.property] !== typeof p.after)
          throw new Error(`the fake target cannot set ${p.property} of ${c.address}`);
        record[p.property] = p.after;
      }
      return;
    }
    if (c.action === 'membership' && c.kind === 'userGroup') {
      const g = this.org.state.userGroups.find((x) => x.id === (c.liveId ?? ctx.idOf(c.address)));
      if (!g) throw new Error(`the fake target has no group ${c.key}`);
      const removed = new Set(c.remove.map((u) => u.id));
      g.members = [...new Set([...g.members.filter((u) => !removed.has(u)), ...ids(c)])];
      return;
    }
    throw new Error(`the fake target cannot ${c.action} ${c.kind}`);
  }
}
