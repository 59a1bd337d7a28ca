import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator } from '../../src/emulator';
import type { Emulator, FaultRule } from '../../src/emulator';
import { emptyDesiredState } from '../../src/model';
import { fakeIo } from '../support/fake-io';

// The CLI reads the organization through transient faults (issue 13, item 5), with the
// client's default backoff (0.5 s base), and says on stderr why a read is slow.

describe('zulip-cdk plan and apply read through transient faults', () => {
  let z: Emulator;
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-read-retry-'));
  const desiredFile = path.join(dir, 'desired.json');
  const d = emptyDesiredState('retry');
  d.channels.push({
    path: 'retry/town',
    name: 'retry-town',
    description: 'Read through faults',
    permissions: {},
    subscribers: { mode: 'atLeast', users: [], groups: [] },
  });
  writeFileSync(desiredFile, JSON.stringify(d));

  const start = async (rules: FaultRule[]) => {
    z = await startEmulator({ rateLimit: false, faults: { rules } });
    return fakeIo({
      cwd: dir,
      env: { ZULIP_EMAIL: z.owner.email, ZULIP_API_KEY: z.owner.apiKey, ZULIP_SITE: z.site },
    });
  };
  afterEach(() => z.close());
  const registers = () => z.requestLog.filter((r) => r.path === '/register').map((r) => r.status);

  it('plan succeeds when the first POST /register gets a 500, and stderr says it retried', async () => {
    const io = await start([{ kind: 'server-error', method: 'POST', path: '/register', nth: 1 }]);
    expect(await main(['plan', '--desired', desiredFile], io)).toBe(0);
    expect(registers()).toEqual([500, 200]);
    expect(io.out()).toContain('retry-town');
    expect(io.err()).toMatch(
      /… POST \/register: the server answered HTTP 500, waiting \d\.\d s \(attempt 1\)/,
    );
    expect(io.err()).not.toContain('Error');
    expect(io.out() + io.err()).not.toContain(z.owner.apiKey);
  });

  it('apply reads through a 503 on POST /register and applies', async () => {
    const io = await start([
      { kind: 'server-error', method: 'POST', path: '/register', nth: 1, status: 503 },
    ]);
    const journal = path.join(dir, 'journal.json');
    expect(
      await main(['apply', '--desired', desiredFile, '--auto-approve', '--journal', journal], io),
    ).toBe(0);
    expect(io.err()).toMatch(/POST \/register: the server answered HTTP 503, waiting/);
    expect(z.org.channels.some((c) => c.name === 'retry-town')).toBe(true);
  });

  it('plan fails after 4 attempts with an error that does not blame the site', async () => {
    const io = await start([
      { kind: 'server-error', method: 'POST', path: '/register', status: 502 },
    ]);
    expect(await main(['plan', '--desired', desiredFile], io)).toBe(1);
    expect(registers()).toEqual([502, 502, 502, 502]);
    const err = io.err();
    expect(err).toMatch(
      /Error \[SERVER_UNAVAILABLE\].*: POST \/api\/v1\/register: the server answered HTTP 502 to 4 attempts over \d+\.\d s\./,
    );
    expect(err).toContain('hint: It may be restarting or overloaded; try again later.');
    expect(err).not.toMatch(/Zulip server|site URL/);
    expect(err.match(/the server answered HTTP 502, waiting/g)).toHaveLength(3);
    expect(io.out() + err).not.toContain(z.owner.apiKey);
  });
});
