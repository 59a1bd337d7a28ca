import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { UsageError } from '../../src/cli/command';
import type { CliIo, Command } from '../../src/cli/command';
import { planCommand } from '../../src/cli/commands/plan';
import { snapshotCommand } from '../../src/cli/commands/snapshot';
import { isZulipCdkError } from '../../src/model';
import { parsePlan } from '../../src/engine';
import { LiveStateSchema } from '../../src/model';
import { LiveBuilder, dChannel, desired } from './fixtures';

/**
 * Runs a command the way src/cli/main.ts does (parse, run, map errors to exit 1). main() itself
 * loads commands with a dynamic import(), which jest cannot run without VM modules.
 */
async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  const commands: Record<string, Command> = { plan: planCommand, snapshot: snapshotCommand };
  const command = commands[name!]!;
  try {
    const parsed = (() => {
      try {
        return parseArgs({
          args: rest,
          options: command.options,
          strict: true,
          allowPositionals: false,
        });
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    })();
    return await command.run({ values: parsed.values, positionals: parsed.positionals, io });
  } catch (e) {
    if (e instanceof UsageError) io.stderr.write(`usage: ${e.message}\n`);
    else if (isZulipCdkError(e)) io.stderr.write(`Error [${e.code}]: ${e.message}\n`);
    else throw e;
    return 1;
  }
}

function capture(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => {
    const s = new PassThrough();
    s.on('data', (b: Buffer) => sink.push(b.toString()));
    return s;
  };
  const io: CliIo = {
    stdout: stream(out),
    stderr: stream(err),
    stdin: new PassThrough(),
    env,
    cwd,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('zulip-cdk plan and snapshot', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-cli-'));
  const liveFile = path.join(dir, 'live.json');
  const desiredFile = path.join(dir, 'acme.zulip.json');
  const b = new LiveBuilder();
  b.channel('general');
  writeFileSync(liveFile, JSON.stringify(b.build()));
  writeFileSync(
    desiredFile,
    JSON.stringify(desired((d) => d.channels.push(dChannel('general'), dChannel('new')))),
  );

  it('plans a desired-state file against a snapshot, with detailed exit codes', async () => {
    const c = capture(dir);
    const code = await main(
      [
        'plan',
        '--desired',
        'acme.zulip.json',
        '--live',
        'live.json',
        '--detailed-exitcode',
        '--out',
        'plan.json',
      ],
      c.io,
    );
    expect(c.err()).toContain('Saved the plan');
    expect(code).toBe(2);
    expect(c.out()).toContain('+ channel["new"] will be created');
    expect(c.out()).toContain('Plan: 1 to create, 0 to update, 0 to archive/delete.');
    expect(c.out()).not.toContain('\u001b[');
    const saved = parsePlan(JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')));
    expect(saved.changes.map((x) => x.id)).toEqual(['channel["new"]#create']);
    expect(saved.createdAt).toMatch(/^\d{4}-/);
  });

  it('exits 0 without changes, and 0 with changes unless --detailed-exitcode', async () => {
    const same = path.join(dir, 'same.zulip.json');
    writeFileSync(same, JSON.stringify(desired((d) => d.channels.push(dChannel('general')))));
    const c = capture(dir);
    expect(
      await main(['plan', '--desired', same, '--live', liveFile, '--detailed-exitcode'], c.io),
    ).toBe(0);
    expect(c.out()).toContain('No changes.');
    expect(
      await main(['plan', '--desired', desiredFile, '--live', liveFile], capture(dir).io),
    ).toBe(0);
  });

  it('exits 2 with --detailed-exitcode when the only differences are changes left out (no content access)', async () => {
    // A private channel the applying account (an owner) is not subscribed to: Zulip refuses it
    // subscribing anyone, so the plan has no change, but the organization does not match.
    const lb = new LiveBuilder();
    lb.channel('secret', { private: true, subscribers: [3] });
    const live = path.join(dir, 'secret-live.json');
    writeFileSync(live, JSON.stringify(lb.build()));
    const want = path.join(dir, 'secret.zulip.json');
    writeFileSync(
      want,
      JSON.stringify(
        desired((d) =>
          d.channels.push(
            dChannel('secret', {
              private: true,
              subscribers: { mode: 'atLeast', users: ['bob@example.com'], groups: [] },
            }),
          ),
        ),
      ),
    );
    for (const format of ['text', 'markdown', 'json']) {
      const c = capture(dir);
      expect(
        await main(
          ['plan', '--desired', want, '--live', live, '--detailed-exitcode', '--format', format],
          c.io,
        ),
      ).toBe(2);
      if (format === 'json') {
        const p = parsePlan(JSON.parse(c.out()));
        expect(p.changes).toEqual([]);
        expect(p.warnings.map((w) => w.code)).toContain('NO_CONTENT_ACCESS');
      } else {
        expect(c.out()).toContain('No changes can be applied');
        expect(c.out()).toContain('the organization does not match the configuration');
        expect(c.out()).not.toContain('The organization matches the configuration');
      }
    }
    // Without --detailed-exitcode a plan that worked exits 0, as before.
    expect(await main(['plan', '--desired', want, '--live', live], capture(dir).io)).toBe(0);
  });

  it('renders markdown and json; limits to targets', async () => {
    const md = capture(dir);
    await main(
      ['plan', '--desired', desiredFile, '--live', liveFile, '--format', 'markdown'],
      md.io,
    );
    expect(md.out()).toContain('<details><summary><b>Channels</b>');
    const js = capture(dir);
    await main(
      [
        'plan',
        '--desired',
        desiredFile,
        '--live',
        liveFile,
        '--format',
        'json',
        '--target',
        'channel["general"]',
      ],
      js.io,
    );
    expect(parsePlan(JSON.parse(js.out())).changes).toEqual([]);
  });

  it('a target that names nothing is an error, never "no changes"', async () => {
    const run = async (target: string) => {
      const c = capture(dir);
      const code = await main(
        [
          'plan',
          '--desired',
          desiredFile,
          '--live',
          liveFile,
          '--detailed-exitcode',
          '--target',
          target,
        ],
        c.io,
      );
      return { code, text: c.out() + c.err() };
    };
    // A kind mistyped, checked before anything is read.
    const kind = await run('chanel');
    expect(kind.code).toBe(1);
    expect(kind.text).toContain("'chanel' is not a kind (did you mean 'channel'?)");
    // An object neither declared nor in the organization.
    const missing = await run('channel["nwe"]');
    expect(missing.code).toBe(1);
    expect(missing.text).toContain(
      `'channel["nwe"]': no channel with that name is declared or in the organization (did you mean channel["new"]?)`,
    );
    expect((await run('channel[new]')).text).toContain('is neither a kind nor an address');
    // The same channel in other case: Zulip compares channel names without case.
    const other = await run('channel["NEW"]');
    expect(other.code).toBe(2);
    expect(other.text).toContain('+ channel["new"] will be created');
    // A target in sync says what was compared.
    const inSync = await run('channel["general"]');
    expect(inSync.code).toBe(0);
    expect(inSync.text).toContain(
      'No changes within the targets (channel["general"]): what they name matches the configuration. The rest of the organization was not compared.',
    );
  });

  it('colours only on a terminal without NO_COLOR', async () => {
    const c = capture(dir);
    (c.io.stdout as PassThrough & { isTTY?: boolean }).isTTY = true;
    await main(['plan', '--desired', desiredFile, '--live', liveFile], c.io);
    expect(c.out()).toContain('\u001b[');
    const n = capture(dir, { NO_COLOR: '1' });
    (n.io.stdout as PassThrough & { isTTY?: boolean }).isTTY = true;
    await main(['plan', '--desired', desiredFile, '--live', liveFile], n.io);
    expect(n.out()).not.toContain('\u001b[');
  });

  it('reports usage errors and bad files with exit 1', async () => {
    const c = capture(dir);
    expect(
      await main(['plan', '--desired', desiredFile, '--live', liveFile, '--format', 'yaml'], c.io),
    ).toBe(1);
    expect(c.err()).toContain('--format must be one of');
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"formatVersion":1}');
    const d = capture(dir);
    expect(await main(['plan', '--desired', desiredFile, '--live', bad], d.io)).toBe(1);
    expect(d.err()).toContain('LIVE_STATE_INVALID');
    const e = capture(dir);
    expect(
      await main(['plan', '--desired', desiredFile, '--live', liveFile, '--embedded'], e.io),
    ).toBe(1);
  });

  it('snapshots the embedded server (no secrets) and plans against the snapshot', async () => {
    const c = capture(dir);
    expect(await main(['snapshot', '--embedded', '--out', 'snap.json'], c.io)).toBe(0);
    const text = readFileSync(path.join(dir, 'snap.json'), 'utf8');
    const snap = LiveStateSchema.parse(JSON.parse(text));
    expect(snap.channels.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/api_?key/i);
    const p = capture(dir);
    expect(
      await main(
        ['plan', '--desired', desiredFile, '--live', 'snap.json', '--format', 'json'],
        p.io,
      ),
    ).toBe(0);
    expect(parsePlan(JSON.parse(p.out())).server.site).toBe(snap.server.site);
    const e = capture(dir);
    expect(
      await main(['plan', '--desired', desiredFile, '--embedded', '--format', 'json'], e.io),
    ).toBe(0);
  });

  it('synthesizes the app of cdktf.json (the acme example) and plans it against the embedded server', async () => {
    const repo = path.resolve(__dirname, '../..');
    const c = capture(repo, { ...process.env, NO_COLOR: '1' });
    expect(
      await main(['plan', '--embedded', '--detailed-exitcode', '--format', 'json'], c.io),
    ).toBe(2);
    const p = parsePlan(JSON.parse(c.out()));
    expect(p.changes.map((x) => x.id)).toContain('channel["escalations"]#create');
    expect(p.findings).toEqual([]);
  }, 60000);
});
