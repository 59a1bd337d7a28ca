import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  loadCredentials,
  normalizeSite,
  parseIni,
  ZulipClient,
  ZulipCredentials,
} from '../../src/zulip';
import { thrownError } from '../support/errors';

const dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-creds-'));
const home = join(dir, 'home');

function zuliprc(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

const explicit = zuliprc(
  'explicit.zuliprc',
  '[api]\nemail=explicit@example.com\nkey=explicitKEY123\nsite=https://explicit.example.com\n',
);
const viaConfig = zuliprc(
  'config.zuliprc',
  '# comment\n[api]\nemail = config@example.com\nkey = configKEY123\nsite = config.example.com/\n',
);
mkdirSync(home, { recursive: true });
writeFileSync(
  join(home, '.zuliprc'),
  '[api]\nemail=home@example.com\nkey=homeKEY12345\nsite=https://home.example.com/api/v1\n',
);

const fullEnv = {
  ZULIP_EMAIL: 'env@example.com',
  ZULIP_API_KEY: 'envKEY123456',
  ZULIP_SITE: 'https://env.example.com',
};

describe('credential precedence', () => {
  it('1. an explicit --zuliprc wins over everything', () => {
    const c = loadCredentials({
      zuliprc: explicit,
      env: { ...fullEnv, ZULIP_CONFIG: viaConfig },
      homeDir: home,
    });
    expect(c.email).toBe('explicit@example.com');
    expect(c.apiKey).toBe('explicitKEY123');
    expect(c.site).toBe('https://explicit.example.com');
    expect(c.source).toEqual({ kind: 'zuliprc', path: explicit, via: 'option' });
  });

  it('2. then the three environment variables', () => {
    const c = loadCredentials({ env: { ...fullEnv, ZULIP_CONFIG: viaConfig }, homeDir: home });
    expect(c.email).toBe('env@example.com');
    expect(c.apiKey).toBe('envKEY123456');
    expect(c.site).toBe('https://env.example.com');
    expect(c.source).toEqual({ kind: 'env' });
  });

  it('3. then ZULIP_CONFIG', () => {
    const c = loadCredentials({ env: { ZULIP_CONFIG: viaConfig }, homeDir: home });
    expect(c.email).toBe('config@example.com');
    expect(c.site).toBe('https://config.example.com');
    expect(c.source).toMatchObject({ kind: 'zuliprc', via: 'ZULIP_CONFIG' });
  });

  it('4. then ~/.zuliprc', () => {
    const c = loadCredentials({ env: {}, homeDir: home });
    expect(c.email).toBe('home@example.com');
    expect(c.site).toBe('https://home.example.com');
    expect(c.source).toMatchObject({ kind: 'zuliprc', via: 'home' });
  });

  it('expands ~ in paths', () => {
    const c = loadCredentials({ zuliprc: '~/.zuliprc', env: {}, homeDir: home });
    expect(c.email).toBe('home@example.com');
  });

  it('names the missing variables when only some are set', () => {
    const e = thrownError(() =>
      loadCredentials({
        env: { ZULIP_EMAIL: 'a@b.c', ZULIP_SITE: 'x.example.com' },
        homeDir: home,
      }),
    );
    expect(e.code).toBe('CREDENTIALS_MISSING');
    expect(e.message).toContain('ZULIP_API_KEY');
    expect(e.message).toContain('ZULIP_EMAIL and ZULIP_SITE are set');
  });

  it('says what to do when nothing is found', () => {
    const e = thrownError(() => loadCredentials({ env: {}, homeDir: join(dir, 'nohome') }));
    expect(e.code).toBe('CREDENTIALS_MISSING');
    expect(e.hint).toContain('--zuliprc');
    expect(e.hint).toContain('ZULIP_CONFIG');
  });

  it('names the file and the missing fields of an incomplete zuliprc', () => {
    const p = zuliprc('incomplete.zuliprc', '[api]\nemail=a@b.c\n');
    const e = thrownError(() => loadCredentials({ zuliprc: p }));
    expect(e.code).toBe('CREDENTIALS_MISSING');
    expect(e.message).toContain(p);
    expect(e.message).toContain("'key'");
    expect(e.message).toContain("'site'");
  });

  it('names an unreadable file and whether ZULIP_CONFIG named it', () => {
    const e = thrownError(() => loadCredentials({ env: { ZULIP_CONFIG: join(dir, 'missing') } }));
    expect(e.message).toContain(join(dir, 'missing'));
    expect(e.message).toContain('ZULIP_CONFIG');
  });

  it('rejects a zuliprc without [api] and one that disables TLS verification', () => {
    expect(
      thrownError(() => loadCredentials({ zuliprc: zuliprc('noapi', 'email=x\n') })).message,
    ).toMatch(/no \[api\] section/);
    const insecure = zuliprc(
      'insecure',
      '[api]\nemail=a@b.c\nkey=k1234\nsite=x.com\ninsecure=true\n',
    );
    expect(thrownError(() => loadCredentials({ zuliprc: insecure })).code).toBe(
      'CREDENTIALS_INVALID',
    );
  });

  it('reads cert_bundle as a CA file', () => {
    const p = zuliprc('ca', '[api]\nemail=a@b.c\nkey=k1234\nsite=x.com\ncert_bundle=~/ca.pem\n');
    expect(loadCredentials({ zuliprc: p, homeDir: home }).caFile).toBe(join(home, 'ca.pem'));
  });

  it('builds a client from the environment', async () => {
    const c = ZulipClient.fromEnvironment({ env: fullEnv, homeDir: home });
    expect(c.site).toBe('https://env.example.com');
    expect(c.email).toBe('env@example.com');
    await c.close();
  });
});

describe('site normalisation', () => {
  it.each([
    ['chat.example.com', 'https://chat.example.com'],
    ['https://chat.example.com/', 'https://chat.example.com'],
    ['https://chat.example.com/api/v1', 'https://chat.example.com'],
    ['https://chat.example.com/api/v1/', 'https://chat.example.com'],
    ['https://example.com/zulip/api', 'https://example.com/zulip'],
    ['http://127.0.0.1:9991', 'http://127.0.0.1:9991'],
    ['  HTTPS://Chat.Example.com  ', 'https://chat.example.com'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeSite(input)).toBe(expected);
  });

  it('rejects user info, other schemes and empty sites', () => {
    expect(() => normalizeSite('https://u:p@x.com')).toThrow(/user info/);
    expect(() => normalizeSite('ftp://x.com')).toThrow(/https/);
    expect(() => normalizeSite('')).toThrow(/empty/);
  });
});

describe('ini', () => {
  it('parses sections, both separators and comments', () => {
    expect(parseIni('; c\n[api]\nEmail = a@b\nkey: k=v\n# x\n[other]\na=1')).toEqual({
      api: { email: 'a@b', key: 'k=v' },
      other: { a: '1' },
    });
  });
});

describe('redaction', () => {
  const c = new ZulipCredentials({ email: 'a@b.c', apiKey: 'topSECRETkey99', site: 'x.com' });
  it('hides the key from JSON.stringify, util.inspect and String()', () => {
    for (const text of [
      JSON.stringify(c),
      inspect(c),
      inspect({ nested: [c] }, { depth: 5 }),
      String(c),
    ]) {
      expect(text).not.toContain('topSECRETkey99');
    }
    expect(Object.keys(c)).not.toContain('apiKey');
  });
  it('redacts the key and the Basic credential from text', () => {
    const basic = Buffer.from('a@b.c:topSECRETkey99').toString('base64');
    expect(c.redact(`x topSECRETkey99 y ${basic}`)).toBe('x [REDACTED] y [REDACTED]');
  });
});
