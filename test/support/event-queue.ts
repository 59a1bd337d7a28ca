/**
 * An event queue of the embedded server as a test reads it: registered through `POST /register`,
 * drained through `GET /events` without blocking.
 */
import { expectSuccess } from './emulator-client';
import type { TestClient } from './emulator-client';

/** An event as delivered: its `id`, `type`, `op` and the rest. */
export interface Ev {
  id: number;
  type: string;
  op?: string;
  [k: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Registers a queue (fetching only `realm` unless told otherwise); its ID. */
export async function register(
  c: TestClient,
  params: Record<string, unknown> = {},
): Promise<string> {
  const r = await c.post('/register', { fetch_event_types: ['realm'], ...params });
  expectSuccess(r);
  return r.body.queue_id as string;
}

/** The events of the queue since the last drain (acknowledging them). */
export function drainer(c: TestClient, queue: string): () => Promise<Ev[]> {
  let last = -1;
  return async () => {
    const r = await c.get('/events', { queue_id: queue, last_event_id: last, dont_block: true });
    expectSuccess(r);
    const events = (r.body.events as Ev[]).filter((e) => e.id > last);
    for (const e of events) last = Math.max(last, e.id);
    return events;
  };
}
