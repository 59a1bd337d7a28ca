import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { emulatorCommand } from '../../src/cli/commands/emulator';
import { startEmulator } from '../../src/emulator';
import type { CliIo } from '../../src/cli/command';
import { validateResponse } from '../support/openapi-validate';

function io(cwd: string, interrupted: Promise<void>): { io: CliIo; out: () => string } {
  const stdout = new PassThrough();
  const chunks: string[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c.toString()));
  return {
    io: {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      env: {},
      cwd,
      interrupted,
    },
    out: () => chunks.join(''),
  };
}

/** Runs the command as main() would (main's lazy `import()` needs ESM support jest lacks). */
async function main(argv: string[], cliIo: CliIo): Promise<number> {
  const [, ...rest] = argv;
  let values;
  try {
    values = parseArgs({ args: rest, options: emulatorCommand.options, strict: true }).values;
  } catch {
    return 1;
  }
  try {
    return await emulatorCommand.run({ values, positionals: [], io: cliIo });
  } catch (e) {
    if (e instanceof Error && e.name === 'UsageError') return 1;
    throw e;
  }
}

describe('zulip-cdk emulator', () => {
  test('writes a zuliprc (0600), prints the site but never the key, saves state on stop', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zcdk-emu-'));
    let stop!: () => void;
    const interrupted = new Promise<void>((r) => (stop = r));
    const t = io(dir, interrupted);
    const done = main(
      ['emulator', '--zuliprc', 'z.rc', '--state', 'org.json', '--feature-level', '421'],
      t.io,
    );
    // The server runs until stop(): a failed expectation must still stop it, or jest waits
    // for it forever.
    try {
      const rc = path.join(dir, 'z.rc');
      for (let i = 0; i < 100 && !/listening on/.test(t.out()); i++)
        await new Promise((r) => setTimeout(r, 20));
      const text = readFileSync(rc, 'utf8');
      expect(statSync(rc).mode & 0o777).toBe(0o600);
      const m = /^\[api\]\nemail=(.+)\nkey=(.+)\nsite=(http:\/\/127\.0\.0\.1:\d+)\n$/.exec(text);
      expect(m).not.toBeNull();
      const [, email, key, site] = m!;
      expect(t.out()).toContain(site);
      expect(t.out()).not.toContain(key);
      const res = await fetch(`${site}/api/v1/users`, {
        headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      const users = (await res.json()) as { members: unknown[] };
      expect(users.members.length).toBeGreaterThanOrEqual(12);
      // What curl -u EMAIL:KEY …/users gets answers as Zulip would: the yaml's schema holds.
      expect(validateResponse('GET', '/users', 200, users)).toMatchObject({
        checked: true,
        errors: [],
      });
    } finally {
      stop();
    }
    expect(await done).toBe(0);
    expect(existsSync(path.join(dir, 'org.json'))).toBe(true);
  });

  test('an existing world-readable zuliprc or state file ends up 0600', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zcdk-emu-'));
    const rc = path.join(dir, 'z.rc');
    const state = path.join(dir, 'org.json');
    writeFileSync(rc, 'old\n', { mode: 0o644 });
    chmodSync(rc, 0o644);
    let stop!: () => void;
    const interrupted = new Promise<void>((r) => (stop = r));
    const t = io(dir, interrupted);
    const done = main(['emulator', '--zuliprc', 'z.rc', '--state', 'org.json'], t.io);
    let rcMode: number;
    try {
      for (let i = 0; i < 100 && !/listening on/.test(t.out()); i++)
        await new Promise((r) => setTimeout(r, 20));
      rcMode = statSync(rc).mode & 0o777;
      // Make the state file world-readable before the save on stop.
      writeFileSync(state, '{}\n', { mode: 0o644 });
      chmodSync(state, 0o644);
    } finally {
      stop();
    }
    expect(await done).toBe(0);
    expect(rcMode).toBe(0o600);
    expect(readFileSync(rc, 'utf8')).toMatch(/^\[api\]\nemail=/);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toHaveProperty('users');
    expect(readdirSync(dir).sort()).toEqual(['org.json', 'z.rc']);
  });

  test('Emulator.save makes an existing 0644 file 0600', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zcdk-emu-'));
    const file = path.join(dir, 'state.json');
    writeFileSync(file, '{}\n');
    chmodSync(file, 0o644);
    const z = await startEmulator({ rateLimit: false });
    try {
      await z.save(file);
    } finally {
      await z.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  test('rejects a --feature-level outside the modelled range, saying what the range is', async () => {
    for (const level of ['371', '479', '1']) {
      const t = io(tmpdir(), Promise.resolve());
      expect(await main(['emulator', '--feature-level', level], t.io)).toBe(1);
      const run = emulatorCommand.run({
        values: { 'feature-level': level },
        positionals: [],
        io: t.io,
      });
      await expect(run).rejects.toThrow(
        `--feature-level must be between 372 and 478 (the levels the emulator supports), got ${level}`,
      );
    }
  });

  test('startEmulator refuses a feature level it does not model', async () => {
    for (const featureLevel of [371, 479, 400.5]) {
      await expect(startEmulator({ featureLevel })).rejects.toMatchObject({
        name: 'ZulipCdkError',
        code: 'EMULATOR_FEATURE_LEVEL',
        message: `The emulator supports Zulip feature levels 372 to 478; got ${featureLevel}.`,
      });
    }
    const z = await startEmulator({ featureLevel: 372, rateLimit: false });
    await z.close();
  });

  test('rejects a bad --port', async () => {
    const t = io(tmpdir(), Promise.resolve());
    expect(await main(['emulator', '--port', 'abc'], t.io)).toBe(1);
  });
});
