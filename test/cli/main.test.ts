import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main';
import { emptyDesiredState } from '../../src/model/desired-state';
import { fakeIo } from '../support/fake-io';

describe('zulip-cdk main', () => {
  it('loads every command lazily and shows its usage', async () => {
    for (const name of [
      'emulator',
      'synth',
      'plan',
      'snapshot',
      'apply',
      'import',
      'demo',
      'watch',
    ]) {
      const io = fakeIo();
      expect(await main([name, '--help'], io)).toBe(0);
      expect(io.out()).toContain(`zulip-cdk ${name}`);
      // Readable in a terminal of 100 columns (import's --include line was 281 long).
      const wide = io
        .out()
        .split('\n')
        .filter((l) => l.length > 100 && !l.startsWith('usage: '));
      expect({ name, wide }).toEqual({ name, wide: [] });
    }
  });

  it('rejects an unknown command and an unknown flag with exit code 1', async () => {
    const io = fakeIo();
    expect(await main(['nope'], io)).toBe(1);
    expect(io.err()).toContain("unknown command 'nope'");
    const io2 = fakeIo();
    expect(await main(['synth', '--bogus'], io2)).toBe(1);
    expect(io2.err()).toMatch(/bogus/);
  });

  it('says what was meant: the closest command and option, and one line instead of the usage', async () => {
    const cmd = fakeIo();
    expect(await main(['plann'], cmd)).toBe(1);
    expect(cmd.err()).toContain("unknown command 'plann' (did you mean 'plan'?)");
    const opt = fakeIo();
    expect(await main(['apply', '--auto-aprove'], opt)).toBe(1);
    expect(opt.err()).toBe(
      'zulip-cdk apply: unknown option --auto-aprove (did you mean --auto-approve?)\nRun `zulip-cdk apply --help` for its options.\n',
    );
    // A word three edits from a three-letter option is no typo of it (before: "did you mean --out?").
    const far = fakeIo();
    expect(await main(['plan', '--bogus'], far)).toBe(1);
    expect(far.err()).toBe(
      'zulip-cdk plan: unknown option --bogus\nRun `zulip-cdk plan --help` for its options.\n',
    );
    const near = fakeIo();
    expect(await main(['plan', '--formt'], near)).toBe(1);
    expect(near.err()).toContain('unknown option --formt (did you mean --format?)');
    // Before: Node's "Option '--target <value>' argument missing".
    const bare = fakeIo();
    expect(await main(['plan', '--target'], bare)).toBe(1);
    expect(bare.err()).toBe(
      'zulip-cdk plan: --target needs a value\nRun `zulip-cdk plan --help` for its options.\n',
    );
    const help = fakeIo();
    expect(await main(['help', 'nosuch'], help)).toBe(1);
    expect(help.err()).toContain("unknown command 'nosuch'");
  });

  it('lists every command with what it does', async () => {
    const io = fakeIo();
    expect(await main(['--help'], io)).toBe(0);
    for (const name of [
      'apply',
      'demo',
      'emulator',
      'import',
      'plan',
      'snapshot',
      'synth',
      'watch',
    ])
      expect(io.out()).toMatch(new RegExp(`^  ${name} +[A-Z]`, 'm'));
  });

  it('says what is wrong with zulip-cdk.json', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-config-'));
    writeFileSync(path.join(dir, 'zulip-cdk.json'), '{"app": 5}');
    const io = fakeIo({ cwd: dir });
    expect(await main(['plan', '--embedded'], io)).toBe(1);
    expect(io.err()).toContain(
      'zulip-cdk.json: "app" must be the command that runs your app, as a string (such as "npx tsx main.ts"), not 5',
    );
    writeFileSync(path.join(dir, 'zulip-cdk.json'), '{"app": ');
    const broken = fakeIo({ cwd: dir });
    expect(await main(['plan', '--embedded'], broken)).toBe(1);
    expect(broken.err()).toContain('zulip-cdk.json is not JSON (');
  });

  it('prints its version', async () => {
    const io = fakeIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^zulip-cdk \d+\.\d+\.\d+/);
  });
});

describe('what to plan: --app or --desired', () => {
  it.each(['plan', 'apply', 'watch'])(
    '%s refuses both at once, before reading or running anything',
    async (name) => {
      const io = fakeIo();
      // Neither the command nor the file exists: the usage error comes first.
      const args = [name, '--app', 'no-such-command', '--desired', '/no/such/file.zulip.json'];
      expect(await main(args, io)).toBe(1);
      expect(io.err()).toContain('use only one of --app and --desired');
    },
  );

  it('apply refuses both even with a plan file (which needs no desired state to plan)', async () => {
    const io = fakeIo();
    const args = ['apply', '/no/such/plan.json', '--app', 'x', '--desired', 'y'];
    expect(await main(args, io)).toBe(1);
    expect(io.err()).toContain('use only one of --app and --desired');
  });
});

describe('files zulip-cdk reads back', () => {
  it.each([
    ['plan', '--live', 'LIVE_STATE_UNREADABLE'],
    ['plan', '--desired', 'DESIRED_STATE_UNREADABLE'],
  ])('%s %s with a file that is not JSON: %s, naming the file', async (name, flag, code) => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-main-'));
    try {
      const file = join(dir, 'x.json');
      writeFileSync(file, '{');
      const desired = join(dir, 'acme.zulip.json');
      writeFileSync(desired, JSON.stringify(emptyDesiredState('acme')));
      const io = fakeIo();
      const args =
        flag === '--live' ? [name, '--desired', desired, '--live', file] : [name, flag, file];
      expect(await main(args, io)).toBe(1);
      expect(io.err()).toContain(code);
      expect(io.err()).toContain(`Cannot read ${file}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
