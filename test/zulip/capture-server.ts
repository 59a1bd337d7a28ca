import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Captured {
  readonly method: string;
  readonly url: string;
  /** The path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The form body (empty for GET). */
  readonly form: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the server answers: a JSON (or text) response, a dropped connection after reading the request, or nothing. */
export type Reply =
  | {
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly body?: unknown;
    }
  | 'drop'
  | 'hang';

/** A local HTTP server on 127.0.0.1 (OS-picked port) that records requests and plays queued replies. */
export class CaptureServer {
  public readonly requests: Captured[] = [];
  public readonly replies: Reply[] = [];
  public defaultReply: Reply = { body: { result: 'success', msg: '' } };
  private constructor(private readonly server: Server) {}

  public static async start(port = 0): Promise<CaptureServer> {
    const holder: { self?: CaptureServer } = {};
    const server = createServer((req, res) => {
      void holder.self?.handle(req, res);
    });
    const self = new CaptureServer(server);
    holder.self = self;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return self;
  }

  public get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  public get site(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The only request, failing when there is not exactly one. */
  public only(): Captured {
    if (this.requests.length !== 1) {
      throw new Error(`expected 1 request, got ${this.requests.length}`);
    }
    return this.requests[0]!;
  }

  public async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    this.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(body),
      headers: req.headers,
      body,
    });
    const reply = this.replies.shift() ?? this.defaultReply;
    if (reply === 'hang') return;
    if (reply === 'drop') {
      req.socket.destroy();
      return;
    }
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, {
      'content-type': typeof reply.body === 'string' ? 'text/html' : 'application/json',
      ...reply.headers,
    });
    res.end(text);
  }
}
