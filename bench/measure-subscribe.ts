import { startEmulator } from '../src/emulator';

/** One bulk subscribe: `POST /users/me/subscriptions` creating `channels` channels at once. */
export interface SubscribeMeasurement {
  /** Channels in the call (all new: each is created and the owner subscribed). */
  readonly channels: number;
  /** From sending the request to the parsed answer. */
  readonly wallMs: number;
  /** CPU of the process (emulator and client) during that time. */
  readonly cpuMs: number;
  /** Channels the answer lists as subscribed (must be `channels`). */
  readonly subscribed: number;
  /** Events the owner's queue received (a `stream` create and a `subscription` add each). */
  readonly events: number;
  peakRssMb?: number;
}

/**
 * Subscribes the demo organization's owner to `channels` new channels in one call, with the
 * owner's event queue registered (so the events are built and delivered, as when the web app
 * is open). The emulator runs in this process: the request body is built before the clock
 * starts, so the time is the emulator's (plus the wire and parsing the answer). Issue 12: the
 * time must grow linearly with the number of channels. A warm-up call on another emulator
 * comes first (`warmUp: false` skips it).
 */
export async function measureBulkSubscribe(
  channels: number,
  options: { readonly warmUp?: boolean } = {},
): Promise<SubscribeMeasurement> {
  // A first, small call on another emulator compiles the code path, so that the measured call
  // of either size does not include the JIT's start.
  if (options.warmUp !== false && channels > 200)
    await measureBulkSubscribe(200, { warmUp: false });
  const z = await startEmulator({ rateLimit: false });
  try {
    const headers = {
      authorization: `Basic ${Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    };
    const post = async (path: string, params: Record<string, string>): Promise<unknown> => {
      const res = await fetch(`${z.url}${path}`, {
        method: 'POST',
        headers,
        body: new URLSearchParams(params).toString(),
      });
      const body: unknown = await res.json();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const queue = (await post('/register', { event_types: '["stream","subscription"]' })) as {
      queue_id: string;
    };
    const names = Array.from({ length: channels }, (_, i) => ({ name: `bulk-${i}` }));
    const params = { subscriptions: JSON.stringify(names) };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const answer = (await post('/users/me/subscriptions', params)) as {
      subscribed: Record<string, string[]>;
    };
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const ownerId = z.org.users.find((u) => u.email === z.owner.email)?.id;
    const subscribed = answer.subscribed[String(ownerId)]?.length ?? 0;
    if (subscribed !== channels)
      throw new Error(`subscribed to ${subscribed} channels of ${channels}`);
    const url = `${z.url}/events?queue_id=${queue.queue_id}&last_event_id=-1&dont_block=true`;
    const polled = (await (await fetch(url, { headers })).json()) as { events?: unknown[] };
    const events = polled.events?.length ?? 0;
    return { channels, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, subscribed, events };
  } finally {
    await z.close();
  }
}
