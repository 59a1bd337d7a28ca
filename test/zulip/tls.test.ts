import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ZulipCdkError } from '../../src/model/errors';
import { ZulipClient, ZulipCredentials } from '../../src/zulip';
import type { ClientEvent } from '../../src/zulip';

const CERT_FILE = join(__dirname, 'fixtures', 'localhost-cert.pem');
const cert = readFileSync(CERT_FILE);
const key = readFileSync(join(__dirname, 'fixtures', 'localhost-key.pem'));

let server: Server;
let site: string;
let hits = 0;

beforeAll(async () => {
  server = createServer({ cert, key }, (req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: 'success', msg: '', streams: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const creds = (caFile?: string) =>
  new ZulipCredentials({ email: 'a@example.com', apiKey: 'key12345678', site, caFile });

it('verifies TLS: an unknown CA fails with a hint, and is not retried', async () => {
  const events: ClientEvent[] = [];
  const client = new ZulipClient({ credentials: creds(), onEvent: (e) => events.push(e) });
  const before = hits;
  try {
    const e = await client.getStreams().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ZulipCdkError);
    expect((e as ZulipCdkError).code).toBe('NETWORK_ERROR');
    expect((e as ZulipCdkError).message).toMatch(/TLS/);
    expect((e as ZulipCdkError).hint).toMatch(/cert_bundle/);
    expect(events.filter((x) => x.type === 'retry')).toEqual([]);
    expect(hits).toBe(before);
  } finally {
    await client.close();
  }
});

it('trusts a custom CA given as an option', async () => {
  const client = new ZulipClient({ credentials: creds(), ca: cert });
  try {
    await expect(client.getStreams()).resolves.toMatchObject({ streams: [] });
  } finally {
    await client.close();
  }
});

it("trusts a custom CA given as the zuliprc's cert_bundle", async () => {
  const client = new ZulipClient({ credentials: creds(CERT_FILE) });
  try {
    await expect(client.getStreams()).resolves.toMatchObject({ streams: [] });
  } finally {
    await client.close();
  }
});
