/**
 * `zulip-cdk import` end to end: import the embedded demo organization into a directory, then
 * `zulip-cdk plan --embedded --app "tsx main.ts" --detailed-exitcode` exits 0 (no changes),
 * running the generated app as a user would (a child process, through the synth runner).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main';
import { fakeIo as pipes } from '../support/fake-io';
import { REPO, writeApp } from './harness';

/** No credentials from the environment: every source is given on the command line. */
const fakeIo = (cwd: string) =>
  pipes({ cwd, env: { ...process.env, ZULIP_EMAIL: '', ZULIP_API_KEY: '', ZULIP_SITE: '' } });

test('import --embedded writes the app and the next steps; plan of it shows no change', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-cli-'));
  const io = fakeIo(cwd);
  expect(await main(['import', '--embedded', '--org-id', 'acme'], io)).toBe(0);
  const dir = path.join(cwd, 'zulip-org');
  expect(existsSync(path.join(dir, 'main.ts'))).toBe(true);
  expect(io.out()).toContain('zulip-org/main.ts');
  // The next step plans the same organization the import read, and the counts read as English.
  expect(io.out()).toContain('zulip-cdk plan --app "npx tsx zulip-org/main.ts" --embedded');
  expect(io.out()).toMatch(
    /Declared: \d+ channels, 1 channel folder, \d+ user groups, 1 linkifier,/,
  );
  expect(readFileSync(path.join(dir, 'main.ts'), 'utf8')).toContain(
    "new Organization(app, 'acme')",
  );

  // 'zulip-cdk' resolves to this repository's sources through a tsconfig, as tsx honours paths.
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    readFileSync(path.join(writeApp({}), 'tsconfig.json'), 'utf8'),
  );
  const tsx = path.join(REPO, 'node_modules/.bin/tsx');
  const planIo = fakeIo(dir);
  const code = await main(
    ['plan', '--embedded', '--app', `${tsx} main.ts`, '--detailed-exitcode'],
    planIo,
  );
  expect(planIo.err()).not.toMatch(/error/i);
  expect(planIo.out()).toMatch(/No changes/i);
  expect(code).toBe(0);
}, 120_000);

test('import refuses to overwrite files unless --force', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-cli-'));
  expect(await main(['import', '--embedded', '--out', 'org'], fakeIo(cwd))).toBe(0);
  const before = readFileSync(path.join(cwd, 'org/main.ts'), 'utf8');
  writeFileSync(path.join(cwd, 'org/main.ts'), '// mine\n');
  const io = fakeIo(cwd);
  expect(await main(['import', '--embedded', '--out', 'org'], io)).toBe(1);
  expect(io.err()).toContain('org/main.ts already exists');
  expect(readFileSync(path.join(cwd, 'org/main.ts'), 'utf8')).toBe('// mine\n');
  expect(await main(['import', '--embedded', '--out', 'org', '--force'], fakeIo(cwd))).toBe(0);
  expect(readFileSync(path.join(cwd, 'org/main.ts'), 'utf8')).toBe(before);
});

test('--include takes known kinds only; --live imports a snapshot', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-cli-'));
  const bad = fakeIo(cwd);
  expect(await main(['import', '--embedded', '--include', 'channels,emoji'], bad)).toBe(1);
  expect(bad.err()).toContain('unknown: emoji');
  expect(await main(['snapshot', '--embedded', '--out', 'live.json'], fakeIo(cwd))).toBe(0);
  const io = fakeIo(cwd);
  expect(await main(['import', '--live', 'live.json', '--include', 'linkifiers,users'], io)).toBe(
    0,
  );
  const text = readFileSync(path.join(cwd, 'zulip-org/main.ts'), 'utf8');
  expect(text).toContain('new Linkifier(');
  expect(text).not.toContain('new Channel(');
  expect(text).toContain('Not imported (--include): channels, channelFolders, userGroups');
  expect(io.out()).toContain('--live live.json');
  expect(io.out()).toContain('Declared: 1 linkifier, ');

  // An --out outside the working directory is shown as given, not as ../../...
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-out-'));
  const outside = fakeIo(cwd);
  expect(await main(['import', '--live', 'live.json', '--out', elsewhere], outside)).toBe(0);
  expect(outside.out()).toContain(`Wrote 1 file to ${elsewhere}:`);
  expect(outside.out()).not.toContain('../');
});

test('import --live with an emoji it cannot download: the next steps say to copy it first', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-emoji-'));
  expect(await main(['snapshot', '--embedded', '--out', 'live.json'], fakeIo(cwd))).toBe(0);
  const file = path.join(cwd, 'live.json');
  const live = JSON.parse(readFileSync(file, 'utf8')) as { customEmoji: unknown[] };
  live.customEmoji.push({
    id: 900,
    name: 'shipit',
    deactivated: false,
    authorId: null,
    sourceUrl: '/user_avatars/2/emoji/images/900.png',
    image: { sha256: 'a'.repeat(64), size: 10 },
  });
  writeFileSync(file, JSON.stringify(live));
  const io = fakeIo(cwd);
  expect(await main(['import', '--live', 'live.json', '--include', 'customEmoji'], io)).toBe(0);
  expect(io.out()).toContain('Not downloaded (1 emoji image;');
  expect(io.out()).toContain(
    `2. Copy the emoji images listed above into ${path.join('zulip-org', 'emoji')}, then check it:`,
  );
});
