import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/command';
import { main } from '../../src/cli/main';
import { parseJournal } from '../../src/cli/journal-file';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { newClient } from './helpers';

function capture(cwd: string, env: NodeJS.ProcessEnv, o: { tty?: boolean; input?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => {
    const s = new PassThrough() as PassThrough & { isTTY?: boolean };
    s.on('data', (b: Buffer) => sink.push(b.toString()));
    if (o.tty) s.isTTY = true;
    return s;
  };
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (o.tty) stdin.isTTY = true;
  if (o.input !== undefined) stdin.end(o.input);
  const io: CliIo = { stdout: stream(out), stderr: stream(err), stdin, env, cwd };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

function desired(description: string, extra: (d: DesiredState) => void = () => {}): DesiredState {
  const d = emptyDesiredState('cli');
  d.channels.push({
    path: 'cli/town',
    name: 'town-square',
    description,
    permissions: {},
    subscribers: { mode: 'atLeast', users: ['alice@zulip-cdk.example'], groups: [] },
  });
  d.userGroups.push({
    path: 'cli/crew',
    name: 'crew',
    description: 'Crew',
    members: { mode: 'exact', users: ['bob@zulip-cdk.example'], groups: [] },
    permissions: { canManageGroup: 'role:administrators' },
  });
  extra(d);
  return d;
}

describe('zulip-cdk apply (in-process CLI)', () => {
  let z: Emulator;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-apply-cli-'));
  const file = (name: string, d: DesiredState): string => {
    const p = path.join(dir, name);
    writeFileSync(p, JSON.stringify(d));
    return p;
  };
  const noSecrets = (...texts: string[]) => {
    for (const t of texts) expect(t).not.toContain(z.owner.apiKey);
  };

  beforeEach(async () => {
    z = await startEmulator({ rateLimit: false });
    env = { ZULIP_EMAIL: z.owner.email, ZULIP_API_KEY: z.owner.apiKey, ZULIP_SITE: z.site };
  });
  afterEach(() => z.close());

  it('refuses to ask for confirmation without a terminal, and says what to do', async () => {
    const c = capture(dir, env);
    const code = await main(['apply', '--desired', file('a.json', desired('A'))], c.io);
    expect(code).toBe(1);
    expect(c.err()).toContain('CONFIRMATION_REQUIRED');
    expect(c.err()).toContain('--auto-approve');
    expect(z.requestLog).toHaveLength(0);
  });

  it('plan --out, then apply PLAN_FILE: exit 0, progress lines, a journal, no secrets anywhere', async () => {
    const planFile = path.join(dir, 'plan.json');
    const p = capture(dir, env);
    expect(
      await main(['plan', '--desired', file('b.json', desired('B')), '--out', planFile], p.io),
    ).toBe(0);
    const journal = path.join(dir, 'out', 'journal.json'); // a directory that does not exist yet
    const c = capture(dir, { ...env, CI: 'true' });
    const code = await main(
      [
        'apply',
        planFile,
        '--journal',
        journal,
        '--verify',
        '--desired',
        file('b2.json', desired('B')),
      ],
      c.io,
    );
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const out = c.out();
    expect(out).toContain('✓ create channel["town-square"]');
    expect(out).toContain(
      '✓ membership channel["town-square"] (sent with channel["town-square"]#create)',
    );
    expect(out).toMatch(/Apply complete: \d+ applied; \d+ API requests\./);
    expect(out).toContain('Verified: the next plan is empty.');
    expect(out).not.toContain('[#'); // no progress bar in CI
    const j = parseJournal(readFileSync(journal, 'utf8'));
    expect(j.end?.outcome).toBe('applied');
    expect(j.header.planDigest).toEqual(JSON.parse(readFileSync(planFile, 'utf8')).digest);
    expect(j.events.filter((e) => e.type === 'change').length).toBeGreaterThan(0);
    noSecrets(
      out,
      c.err(),
      p.out(),
      p.err(),
      readFileSync(journal, 'utf8'),
      readFileSync(planFile, 'utf8'),
    );
  });

  it('plan in every format (the Markdown PR comment included), the saved plan and errors: no secrets', async () => {
    const basic = Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64');
    const planFile = path.join(dir, 'secret-plan.json');
    const texts: string[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const c = capture(dir, env);
      const d = file(`s-${format}.json`, desired('S'));
      expect(
        await main(['plan', '--desired', d, '--format', format, '--out', planFile], c.io),
      ).toBe(0);
      expect(c.out()).toContain('town-square');
      texts.push(c.out(), c.err(), readFileSync(planFile, 'utf8'));
    }
    // A server that refuses the key: the error names the problem, not the key.
    const wrongKey = 'Zz9WrongKey0123456789abcdefABCDEF';
    const w = capture(dir, { ...env, ZULIP_API_KEY: wrongKey });
    expect(await main(['plan', '--desired', file('s-w.json', desired('S'))], w.io)).toBe(1);
    // authenticated_rest_api_view re-raises every credential failure as 401 UNAUTHORIZED.
    expect(w.err()).toContain('UNAUTHORIZED, HTTP 401');
    expect(w.err() + w.out()).not.toContain(wrongKey);
    for (const t of texts) {
      expect(t).not.toContain(z.owner.apiKey);
      expect(t).not.toContain(basic);
    }
  });

  it('--json: one JSON event per line on stdout, and no secrets', async () => {
    const c = capture(dir, env);
    const code = await main(
      [
        'apply',
        '--desired',
        file('c.json', desired('C')),
        '--auto-approve',
        '--json',
        '--journal',
        path.join(dir, 'j2.json'),
      ],
      c.io,
    );
    expect(code).toBe(0);
    const lines = c.out().trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { type: string; digest?: string });
    expect(events[0]!.type).toBe('start');
    // Named as `plan` prints it and `--expect-digest` takes it.
    expect(events[0]!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(events.at(-1)!.type).toBe('finish');
    expect(events.filter((e) => e.type === 'change').length).toBeGreaterThan(1);
    noSecrets(c.out(), c.err());
    // Again: nothing to do, exit 0, and the journal says so.
    const again = capture(dir, env);
    const j = path.join(dir, 'j2b.json');
    expect(
      await main(
        ['apply', '--desired', file('c.json', desired('C')), '--auto-approve', '--journal', j],
        again.io,
      ),
    ).toBe(0);
    expect(again.out()).toContain('No changes.');
    expect(again.out()).toContain('Nothing to apply');
    expect(parseJournal(readFileSync(j, 'utf8')).end).toMatchObject({
      outcome: 'no-changes',
      requestCount: 0,
    });
  });

  it('on a terminal: asks, applies on "yes" with a progress bar; "no" cancels', async () => {
    const no = capture(dir, env, { tty: true, input: 'no\n' });
    expect(await main(['apply', '--desired', file('d.json', desired('D'))], no.io)).toBe(1);
    expect(no.out()).toContain('Apply cancelled.');
    const yes = capture(dir, env, { tty: true, input: 'yes\n' });
    const code = await main(
      ['apply', '--desired', file('d.json', desired('D')), '--journal', path.join(dir, 'j3.json')],
      yes.io,
    );
    expect(code).toBe(0);
    expect(yes.out()).toContain('Only "yes" will be accepted');
    expect(yes.out()).toMatch(/\[#+-*\] \d+\/\d+/);
    expect(yes.out()).toContain('Apply complete');
  });

  it('exit 3 when an object changed since the plan; exit 4 for destructive changes without --allow-destroy', async () => {
    const planFile = path.join(dir, 'plan2.json');
    await main(
      [
        'apply',
        '--desired',
        file('e.json', desired('E')),
        '--auto-approve',
        '--journal',
        path.join(dir, 'j4.json'),
      ],
      capture(dir, env).io,
    );
    await main(
      [
        'plan',
        '--desired',
        file(
          'e2.json',
          desired('E2', (d) => {
            d.userGroups[0]!.description = 'Crew 2';
          }),
        ),
        '--out',
        planFile,
      ],
      capture(dir, env).io,
    );
    const client = newClient(z);
    const town = (await client.getStreams()).streams.find((s) => s.name === 'town-square')!;
    await client.updateStream(town.stream_id, { description: 'By hand' });
    await client.close();
    const c = capture(dir, env);
    expect(await main(['apply', planFile, '--journal', path.join(dir, 'j5.json')], c.io)).toBe(3);
    expect(c.out()).toContain(
      'Not written because it changed since the plan: channel["town-square"]',
    );

    const destroy = file(
      'f.json',
      desired('E2', (d) => {
        d.userGroups[0]!.members.users = [];
      }),
    );
    const r = capture(dir, env);
    expect(
      await main(
        ['apply', '--desired', destroy, '--auto-approve', '--journal', path.join(dir, 'j6.json')],
        r.io,
      ),
    ).toBe(4); // refused by a safety rule
    expect(r.err()).toContain('DESTROY_NOT_ALLOWED');
    const j = capture(dir, env);
    await main(
      [
        'apply',
        '--desired',
        destroy,
        '--auto-approve',
        '--json',
        '--journal',
        path.join(dir, 'j6b.json'),
      ],
      j.io,
    );
    expect(JSON.parse(j.out().trim().split('\n').at(-1)!)).toMatchObject({
      type: 'error',
      code: 'DESTROY_NOT_ALLOWED',
    });
    expect(parseJournal(readFileSync(path.join(dir, 'j6.json'), 'utf8')).end).toMatchObject({
      outcome: 'nothing',
      error: { code: 'DESTROY_NOT_ALLOWED' },
    });
    expect(
      await main(
        [
          'apply',
          '--desired',
          destroy,
          '--auto-approve',
          '--allow-destroy',
          '--journal',
          path.join(dir, 'j7.json'),
        ],
        capture(dir, env).io,
      ),
    ).toBe(0);
  });

  it('a fault in the middle: the key and the Basic credential appear in no output, event or journal', async () => {
    const basic = Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64');
    z.setFaults({
      rules: [{ kind: 'server-error', method: 'POST', path: '/user_groups/create', nth: 1 }],
    });
    const journal = path.join(dir, 'j9.json');
    const c = capture(dir, env);
    const d = desired('H', (x) => {
      x.userGroups[0]!.members.users = ['bob@zulip-cdk.example', 'carol@zulip-cdk.example'];
    });
    const code = await main(
      ['apply', '--desired', file('h.json', d), '--auto-approve', '--json', '--journal', journal],
      c.io,
    );
    z.setFaults(undefined);
    expect(code).toBe(0); // the failed create was re-checked and sent again
    const text = readFileSync(journal, 'utf8');
    expect(c.out()).toContain('check-create');
    for (const t of [c.out(), c.err(), text]) {
      expect(t).not.toContain(z.owner.apiKey);
      expect(t).not.toContain(basic);
    }
  });

  it('in CI, a 429 storm shows as plain "waiting" lines; --embedded with a plan file is a usage error', async () => {
    z.setFaults({
      rules: [{ kind: 'rate-limit', path: '/user_groups/create', nth: [1, 2], retryAfter: 0.01 }],
    });
    const c = capture(dir, { ...env, CI: 'true' });
    const code = await main(
      [
        'apply',
        '--desired',
        file('i.json', desired('I')),
        '--auto-approve',
        '--journal',
        path.join(dir, 'j10.json'),
      ],
      c.io,
    );
    z.setFaults(undefined);
    expect(code).toBe(0);
    expect(c.out()).toMatch(/rate limited, waiting 0\.0 s \(attempt 1\)/);
    const u = capture(dir, env);
    expect(await main(['apply', 'plan.json', '--embedded'], u.io)).toBe(1);
    expect(u.err()).toContain('--embedded starts a fresh server');
  });

  it('a failure half-way: each line says it once, and the end says how to finish', async () => {
    const planFile = path.join(dir, 'plan-fail.json');
    await main(
      ['plan', '--desired', file('f.json', desired('F')), '--out', planFile],
      capture(dir, env).io,
    );
    z.setFaults({ rules: [{ kind: 'server-error', method: 'POST', path: '/user_groups/create' }] });
    const c = capture(dir, env);
    const code = await main(['apply', planFile, '--journal', path.join(dir, 'jf.json')], c.io);
    const out = c.out();
    expect(code).toBe(1);
    // Before: "failed: [BAD_REQUEST] ... (BAD_REQUEST, HTTP 500)" and "skipped: not run: ...".
    expect(out).toMatch(
      /✗ create userGroup\["crew"\]: failed: POST \S+ failed: .*\(BAD_REQUEST, HTTP 500\)\n/,
    );
    expect(out).toMatch(
      /- create channel\["town-square"\]: not run: apply stopped after a failure/,
    );
    expect(out).not.toContain('skipped: not run');
    expect(out).toContain(
      `Not finished: 1 failed, 3 not run. Once the cause is fixed or gone, apply ${planFile} again: changes that landed are found and reported as done, not sent again (zulip-cdk plan shows what is left).`,
    );
    noSecrets(out, c.err());
  });

  it('--verify fails (exit 2) when the configuration has more than the plan applied', async () => {
    const planFile = path.join(dir, 'plan3.json');
    await main(
      ['plan', '--desired', file('g.json', desired('G')), '--out', planFile],
      capture(dir, env).io,
    );
    const more = file(
      'g2.json',
      desired('G', (d) => {
        d.userGroups[0]!.description = 'More';
      }),
    );
    const c = capture(dir, env);
    expect(
      await main(
        ['apply', planFile, '--verify', '--desired', more, '--journal', path.join(dir, 'j8.json')],
        c.io,
      ),
    ).toBe(2);
    expect(c.out()).toContain('Verification failed');
  });
});

describe('zulip-cdk demo (npm start)', () => {
  it('plans and applies the example app on an embedded server; the second plan is empty', async () => {
    const root = path.resolve(__dirname, '../..');
    const c = capture(root, { ...process.env, CI: 'true', NO_COLOR: '1' });
    const code = await main(['demo'], c.io);
    const out = c.out();
    expect(code).toBe(0);
    expect(out).toContain('zulip-cdk demo:');
    expect(out).toMatch(/at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain('zulip-cdk will perform the following actions:');
    expect(out).toMatch(/Apply complete: \d+ applied; \d+ API requests\./);
    // The example removes a group member: the demo says it applies as --allow-destroy would.
    expect(out).toContain(
      'Applying it (a real run would ask first, or apply a reviewed plan file; the demo applies as with --allow-destroy):',
    );
    expect(out).toMatch(
      /\d+ changes took \d+ API requests, apply's re-read of the organization \(2\) included\./,
    );
    expect(out).toContain('No changes. The organization matches the configuration.');
    expect(out).toContain('What to try next:');
  }, 60_000);
});
