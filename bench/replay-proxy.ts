import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A recording proxy in front of the emulator. In `record` mode it forwards every request and
 * keeps the response; in `replay` mode it answers a request it has seen (same method, URL,
 * credentials and body) from memory without asking the emulator.
 *
 * Why: the time the emulator takes to compute a response says nothing about a client.
 * Replaying the recorded responses measures what
 * each read strategy costs on the client and the wire with a server that answers instantly,
 * the best case for the strategy that sends many requests.
 */
export interface ReplayProxy {
  readonly site: string;
  setMode(mode: 'record' | 'replay'): void;
  /** The largest `POST /register` response body recorded, if any. */
  registerBody(): Buffer | undefined;
  /** Requests answered from memory, and forwarded, since the start. */
  readonly stats: { replayed: number; forwarded: number };
  close(): Promise<void>;
}

interface Recorded {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A path the proxy answers itself with the largest register response body it recorded. */
export const REGISTER_BODY_PATH = '/__bench/register-body';

/** Starts the proxy on 127.0.0.1 in front of `upstream` (e.g. `http://127.0.0.1:1234`). */
export async function startReplayProxy(upstream: string): Promise<ReplayProxy> {
  const target = new URL(upstream);
  const cache = new Map<string, Recorded>();
  let mode: 'record' | 'replay' = 'record';
  const stats = { replayed: 0, forwarded: 0 };

  const forward = (req: IncomingMessage, body: Buffer): Promise<Recorded> =>
    new Promise((resolve, reject) => {
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });

  const largestRegister = (): Buffer | undefined => {
    let best: Buffer | undefined;
    for (const [key, rec] of cache)
      if (key.startsWith('POST ') && key.split(' ')[1]?.endsWith('/register'))
        if (!best || rec.body.length > best.length) best = rec.body;
    return best;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    if (req.method === 'GET' && req.url === REGISTER_BODY_PATH) {
      // The wire's floor (child.ts): the recorded register body alone, as it is replayed.
      const b = largestRegister() ?? Buffer.alloc(0);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length });
      res.end(b);
      return;
    }
    const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body.toString('latin1')}`;
    let rec = mode === 'replay' ? cache.get(key) : undefined;
    if (rec) stats.replayed += 1;
    else {
      rec = await forward(req, body);
      stats.forwarded += 1;
      cache.set(key, rec);
    }
    const headers = { ...rec.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    headers['content-length'] = String(rec.body.length);
    res.writeHead(rec.status, headers);
    res.end(rec.body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`replay proxy: ${String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    site: `http://127.0.0.1:${port}`,
    setMode(m) {
      mode = m;
    },
    stats,
    registerBody: largestRegister,
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
