import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { appEnvironment } from '../../src/synth/run-app';
import { credentialSecrets } from '../../src/zulip/credentials';
import { fakeIo } from '../support/fake-io';

/**
 * The app that synth runs (for `synth`, and for `plan` and `apply`, which synthesize first) is
 * the user's code, in CI possibly a pull request's: it must not see a Zulip credential, the
 * zuliprc's path or its contents, in its environment or its arguments.
 */

const ROOT = resolve(__dirname, '..', '..');
const TSX = JSON.stringify(join(ROOT, 'node_modules', '.bin', 'tsx'));
const LIB = JSON.stringify(join(ROOT, 'src', 'index.ts'));

/** An app that writes its environment and arguments to `dump`, then synthesizes. */
const dumpingApp = (dump: string): string => `
import { writeFileSync } from 'node:fs';
import { App, Organization, Channel } from ${LIB};
writeFileSync(${JSON.stringify(dump)}, JSON.stringify({ env: process.env, argv: process.argv }));
const app = new App();
const org = new Organization(app, 'acme');
new Channel(org, 'town', { name: 'town-square', description: 'Everyone' });
app.synth();
`;

describe('the app synth runs sees no Zulip credential', () => {
  let z: Emulator;
  let dir: string;
  let zuliprc: string;
  let contents: string;
  let dump: string;

  beforeEach(async () => {
    z = await startEmulator({ rateLimit: false });
    dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-app-env-'));
    zuliprc = join(dir, 'secret-zuliprc');
    contents = `[api]\nemail=${z.owner.email}\nkey=${z.owner.apiKey}\nsite=${z.site}\n`;
    writeFileSync(zuliprc, contents);
    dump = join(dir, 'dump.json');
    writeFileSync(join(dir, 'main.ts'), dumpingApp(dump));
  });
  afterEach(async () => {
    await z.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The environment a CI job or a shell might hand zulip-cdk. */
  const leakyEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.ZULIP_CDK_OUTDIR;
    delete env.CDKTF_OUTDIR;
    return {
      ...env,
      ZULIP_EMAIL: z.owner.email,
      ZULIP_API_KEY: z.owner.apiKey,
      ZULIP_SITE: z.site,
      ZULIP_CONFIG: zuliprc,
      ZULIPRC: zuliprc,
      // The same secrets under names nobody would guess:
      DEPLOY_TOKEN: `Bearer ${z.owner.apiKey}`,
      RC_FILE: zuliprc,
      RC_TEXT: contents,
      AUTH_HEADER: `Basic ${Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64')}`,
      KEEP_ME: 'an ordinary variable',
    };
  };

  const expectNothingLeaked = (): void => {
    const seen = JSON.parse(readFileSync(dump, 'utf8')) as {
      env: Record<string, string>;
      argv: string[];
    };
    const text = JSON.stringify(seen);
    for (const name of Object.keys(seen.env)) expect(name).not.toMatch(/^ZULIP_(?!CDK_)/);
    for (const name of ['ZULIP_API_KEY', 'ZULIP_EMAIL', 'ZULIP_SITE', 'ZULIP_CONFIG', 'ZULIPRC'])
      expect(seen.env).not.toHaveProperty(name);
    for (const secret of [
      z.owner.apiKey,
      zuliprc,
      'secret-zuliprc',
      contents,
      JSON.stringify(contents).slice(1, -1),
      Buffer.from(`${z.owner.email}:${z.owner.apiKey}`).toString('base64'),
    ])
      expect(text).not.toContain(secret);
    // Not overbroad: the rest of the environment, and the output directory, reach the app.
    expect(seen.env.KEEP_ME).toBe('an ordinary variable');
    expect(seen.env.PATH).toBe(process.env.PATH);
    expect(seen.env.ZULIP_CDK_OUTDIR).toBeDefined();
  };

  test('zulip-cdk synth', async () => {
    const io = fakeIo({ cwd: dir, env: leakyEnv() });
    const code = await main(['synth', '--app', `${TSX} main.ts`, '--output', 'out'], io);
    expect({ code, err: io.err() }).toEqual({ code: 0, err: '' });
    expectNothingLeaked();
  });

  test('zulip-cdk plan --zuliprc FILE --app CMD (synthesizes, then plans against the server)', async () => {
    const io = fakeIo({ cwd: dir, env: leakyEnv() });
    const code = await main(
      ['plan', '--zuliprc', 'secret-zuliprc', '--app', `${TSX} main.ts`, '--format', 'json'],
      io,
    );
    expect({ code, err: io.err() }).toEqual({ code: 0, err: expect.any(String) });
    // It did plan against the server with the zuliprc (the channel exists there already).
    expect(io.err()).toContain(z.site);
    expectNothingLeaked();
    expect(io.out() + io.err()).not.toContain(z.owner.apiKey);
  });

  test('zulip-cdk apply --zuliprc FILE --app CMD --auto-approve', async () => {
    const io = fakeIo({ cwd: dir, env: leakyEnv() });
    const code = await main(
      [
        'apply',
        '--zuliprc',
        zuliprc,
        '--app',
        `${TSX} main.ts`,
        '--auto-approve',
        '--journal',
        join(dir, 'journal.json'),
      ],
      io,
    );
    expect({ code, err: io.err() }).toEqual({ code: 0, err: expect.any(String) });
    expectNothingLeaked();
  });
});

describe('appEnvironment', () => {
  test('drops ZULIP* variables and any value holding a secret; keeps the rest', () => {
    const env = {
      ZULIP_API_KEY: 'k',
      zulip_email: 'e',
      ZULIP_CDK_OUTDIR: '/x',
      HOME: '/home/me',
      COPY: 'prefix-0123456789abcdef-suffix',
      PATH: '/usr/bin',
      SHORT: 'abc',
    };
    expect(appEnvironment(env, ['0123456789abcdef', 'abc'])).toEqual({
      HOME: '/home/me',
      PATH: '/usr/bin',
      // Strings shorter than 6 characters are not treated as secrets (they match too much).
      SHORT: 'abc',
    });
  });

  test('credentialSecrets: the key and path of every zuliprc zulip-cdk could read', () => {
    const files: Record<string, string> = {
      '/etc/zrc': '[api]\nemail=a@x.example\nkey=KEY-FROM-CONFIG\nsite=https://x\n',
      '/home/me/.zuliprc': '[api]\nemail=b@x.example\nkey=KEY-FROM-HOME\nsite=https://x\n',
    };
    const secrets = credentialSecrets({
      zuliprc: '~/missing-rc',
      env: { ZULIP_API_KEY: 'KEY-FROM-ENV', ZULIP_CONFIG: '/etc/zrc' },
      homeDir: '/home/me',
      readFile: (p) => {
        const t = files[p];
        if (t === undefined) throw new Error('ENOENT');
        return t;
      },
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'KEY-FROM-ENV',
        'KEY-FROM-CONFIG',
        'KEY-FROM-HOME',
        Buffer.from('a@x.example:KEY-FROM-CONFIG').toString('base64'),
        '~/missing-rc',
        '/home/me/missing-rc',
        '/etc/zrc',
        '/home/me/.zuliprc',
      ]),
    );
  });
});
