import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App as CdktfApp, TerraformStack } from 'cdktf';
import { Channel, Organization, SystemGroup, Testing, readManifest } from 'zulip-cdk';
import { acme } from '../../examples/acme/organization';

describe('cdktf interop', () => {
  let outdir: string;
  beforeEach(() => {
    outdir = mkdtempSync(join(tmpdir(), 'zulip-cdk-cdktf-'));
  });
  afterEach(() => rmSync(outdir, { recursive: true, force: true }));

  test("cdktf's app.synth() writes each organization into its stack's folder", () => {
    const app = new CdktfApp({ outdir });
    const chat = new TerraformStack(app, 'chat');
    acme(chat);
    const other = new TerraformStack(app, 'other');
    const org = new Organization(other, 'beta');
    new Channel(org, 'general', { name: 'general' });
    app.synth();

    const file = join(outdir, 'stacks', 'chat', 'acme.zulip.json');
    expect(existsSync(join(outdir, 'stacks', 'chat', 'cdk.tf.json'))).toBe(true);
    // The same bytes as our own synth, apart from the construct paths under the stack.
    const ours = Testing.synthJson(acme(Testing.app())).replace(/"acme(\/|")/g, '"chat/acme$1');
    expect(readFileSync(file, 'utf8')).toBe(ours.replace('"id": "chat/acme"', '"id": "acme"'));
    expect(readManifest(outdir)).toEqual({
      formatVersion: 1,
      organizations: [
        { id: 'acme', path: 'chat/acme', file: 'stacks/chat/acme.zulip.json' },
        { id: 'beta', path: 'other/beta', file: 'stacks/other/beta.zulip.json' },
      ],
    });
  });

  test('examples/cdktf/main.ts, run as a user runs it, writes acme into the chat stack', () => {
    const root = join(__dirname, '..', '..');
    execFileSync(process.execPath, [require.resolve('tsx/cli'), 'examples/cdktf/main.ts'], {
      cwd: root,
      env: { ...process.env, CDKTF_OUTDIR: outdir },
      stdio: 'pipe',
    });
    expect(existsSync(join(outdir, 'stacks', 'chat', 'cdk.tf.json'))).toBe(true);
    const ours = Testing.synthJson(acme(Testing.app())).replace(/"acme(\/|")/g, '"chat/acme$1');
    expect(readFileSync(join(outdir, 'stacks', 'chat', 'acme.zulip.json'), 'utf8')).toBe(
      ours.replace('"id": "chat/acme"', '"id": "acme"'),
    );
    expect(readManifest(outdir)?.organizations).toEqual([
      { id: 'acme', path: 'chat/acme', file: 'stacks/chat/acme.zulip.json' },
    ]);
  });

  test('validation problems stop cdktf synth, with construct paths', () => {
    const app = new CdktfApp({ outdir });
    const stack = new TerraformStack(app, 'chat');
    const org = new Organization(stack, 'acme');
    new Channel(org, 'bad', { name: 'bad', canSubscribeGroup: SystemGroup.EVERYONE });
    new Channel(org, 'worse', { name: 'worse', private: true, defaultChannel: true });
    expect(() => app.synth()).toThrow(
      /\[chat\/acme\/bad\] canSubscribeGroup cannot be role:everyone[\s\S]*\[chat\/acme\/worse\] a default channel cannot be private/,
    );
    expect(existsSync(join(outdir, 'stacks', 'chat', 'acme.zulip.json'))).toBe(false);
  });

  test('an organization directly in a cdktf App (not in a stack) is an error', () => {
    const app = new CdktfApp({ outdir });
    const org = new Organization(app, 'acme');
    expect(Testing.validate(org)).toEqual([
      { path: 'acme', message: expect.stringMatching(/must be inside a TerraformStack/) },
    ]);
  });
});

describe('cdktf stays optional', () => {
  test('no file of the library imports cdktf', () => {
    const { readdirSync, statSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(join(__dirname, '..', '..', 'src'));
    expect(files.length).toBeGreaterThan(20);
    const importers = files.filter((f) =>
      /(from\s+|require\(|import\()['"]cdktf(\/[^'"]*)?['"]/.test(readFileSync(f, 'utf8')),
    );
    expect(importers).toEqual([]);
  });
});
