import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { ZulipCdkError } from '../model/errors';

/** Where credentials came from, for messages (never the key itself). */
export type CredentialSource =
  | {
      readonly kind: 'zuliprc';
      readonly path: string;
      readonly via: 'option' | 'ZULIP_CONFIG' | 'home';
    }
  | { readonly kind: 'env' }
  | { readonly kind: 'explicit' };

const REDACTED = '[REDACTED]';

/**
 * An API identity: email, API key and site. The key is held privately: `JSON.stringify`,
 * `util.inspect` and `toString` show `[REDACTED]` in its place.
 */
export class ZulipCredentials {
  /** The API email address (the HTTP Basic username). */
  public readonly email: string;
  /** The normalised site origin, e.g. `https://chat.example.com` (no `/api/v1`, no trailing slash). */
  public readonly site: string;
  /** Where these credentials came from. */
  public readonly source: CredentialSource;
  /** A CA bundle path (zuliprc `cert_bundle`), added to the trusted CAs. */
  public readonly caFile: string | undefined;
  readonly #apiKey: string;

  public constructor(args: {
    email: string;
    apiKey: string;
    site: string;
    source?: CredentialSource;
    caFile?: string | undefined;
  }) {
    this.email = args.email;
    this.#apiKey = args.apiKey;
    this.site = normalizeSite(args.site);
    this.source = args.source ?? { kind: 'explicit' };
    this.caFile = args.caFile;
  }

  /** The API key. Only the HTTP layer should read it. */
  public get apiKey(): string {
    return this.#apiKey;
  }

  /** The value of the `Authorization` header. */
  public authorizationHeader(): string {
    return `Basic ${Buffer.from(`${this.email}:${this.#apiKey}`).toString('base64')}`;
  }

  /** Replaces every occurrence of the key (and of the Basic credential) in `text`. */
  public redact(text: string): string {
    return redactSecrets(text, [
      this.#apiKey,
      Buffer.from(`${this.email}:${this.#apiKey}`).toString('base64'),
    ]);
  }

  public toJSON(): Record<string, unknown> {
    return { email: this.email, site: this.site, apiKey: REDACTED, source: this.source };
  }

  public toString(): string {
    return `ZulipCredentials(${this.email} @ ${this.site})`;
  }

  public [inspect.custom](): string {
    return `ZulipCredentials { email: ${JSON.stringify(this.email)}, site: ${JSON.stringify(this.site)}, apiKey: '${REDACTED}' }`;
  }
}

/** Replaces each non-empty secret in `text` with `[REDACTED]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join(REDACTED);
  }
  return out;
}

/**
 * Normalises a Zulip site: adds `https://` when no scheme is given, and strips a trailing
 * slash and a trailing `/api/v1` (or `/api`). Rejects URLs with user info, query or fragment.
 */
export function normalizeSite(site: string): string {
  let s = site.trim();
  if (s === '') throw new ZulipCdkError('CREDENTIALS_INVALID', 'The Zulip site is empty.');
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(s)) s = `https://${s}`;
  let url: URL;
  try {
    url = new URL(s);
  } catch (cause) {
    throw new ZulipCdkError(
      'CREDENTIALS_INVALID',
      `The Zulip site ${JSON.stringify(site)} is not a valid URL.`,
      {
        cause,
        hint: 'Use the organization URL, e.g. https://chat.example.com.',
      },
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ZulipCdkError(
      'CREDENTIALS_INVALID',
      `The Zulip site must use https:// (or http:// for a local server), got ${url.protocol}//.`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ZulipCdkError(
      'CREDENTIALS_INVALID',
      'The Zulip site must be a plain URL without user info, query or fragment.',
      {
        hint: 'Put the email and API key in the zuliprc or the ZULIP_EMAIL / ZULIP_API_KEY variables.',
      },
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/api\/v1$/, '').replace(/\/api$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** A parsed INI file: section name → key → value. */
export type IniFile = Record<string, Record<string, string>>;

/** Parses the INI dialect of zuliprc files (`[section]`, `key = value` or `key: value`, `#`/`;` comments). */
export function parseIni(text: string): IniFile {
  const out: IniFile = {};
  let section: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const sec = /^\[([^\]]+)\]$/.exec(line);
    if (sec?.[1] !== undefined) {
      const name = sec[1].trim();
      section = out[name] ?? (out[name] = {});
      continue;
    }
    const kv = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (kv?.[1] !== undefined && section !== undefined) section[kv[1].toLowerCase()] = kv[2] ?? '';
  }
  return out;
}

/** Options of {@link loadCredentials}. */
export interface LoadCredentialsOptions {
  /** An explicit zuliprc path (`--zuliprc PATH`); wins over everything else. */
  readonly zuliprc?: string | undefined;
  /** The environment; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The home directory for `~/.zuliprc` and `~` expansion; defaults to `os.homedir()`. */
  readonly homeDir?: string;
  /** Reads a file; defaults to `fs.readFileSync(path, 'utf8')`. */
  readonly readFile?: (path: string) => string;
}

const ENV_VARS = ['ZULIP_EMAIL', 'ZULIP_API_KEY', 'ZULIP_SITE'] as const;

/** Expands `~` (to `home`) and makes a path absolute, as the zuliprc options are read. */
function pathExpander(home: string): (p: string) => string {
  return (p) => {
    const e = p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
    return isAbsolute(e) ? e : resolve(e);
  };
}

/**
 * Finds the credentials to use. Precedence, first match wins:
 *
 * 1. an explicit zuliprc path (`--zuliprc PATH`, option `zuliprc`);
 * 2. the variables `ZULIP_EMAIL`, `ZULIP_API_KEY` and `ZULIP_SITE`, all three set
 *    (setting only some of them is an error naming the missing ones, so a half-set
 *    environment never silently falls back to a file);
 * 3. the zuliprc named by `ZULIP_CONFIG`;
 * 4. `~/.zuliprc`.
 *
 * A zuliprc has an `[api]` section with `email`, `key` and `site` (and optionally
 * `cert_bundle`, a CA bundle to trust). `insecure = true` is refused: TLS verification stays on.
 */
export function loadCredentials(options: LoadCredentialsOptions = {}): ZulipCredentials {
  const env = options.env ?? process.env;
  const home = options.homeDir ?? homedir();
  const read = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const expand = pathExpander(home);

  if (options.zuliprc !== undefined && options.zuliprc !== '') {
    return fromZuliprc(expand(options.zuliprc), 'option', read, expand);
  }
  const set = ENV_VARS.filter((v) => (env[v] ?? '') !== '');
  if (set.length === ENV_VARS.length) {
    return new ZulipCredentials({
      email: env.ZULIP_EMAIL ?? '',
      apiKey: env.ZULIP_API_KEY ?? '',
      site: env.ZULIP_SITE ?? '',
      source: { kind: 'env' },
    });
  }
  if (set.length > 0) {
    const missing = ENV_VARS.filter((v) => !set.includes(v));
    throw new ZulipCdkError(
      'CREDENTIALS_MISSING',
      `${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not.`,
      {
        where: 'environment',
        hint: 'Set all three of ZULIP_EMAIL, ZULIP_API_KEY and ZULIP_SITE, or none of them and use a zuliprc (--zuliprc PATH or ZULIP_CONFIG).',
      },
    );
  }
  const config = env.ZULIP_CONFIG;
  if (config !== undefined && config !== '') {
    return fromZuliprc(expand(config), 'ZULIP_CONFIG', read, expand);
  }
  const dflt = join(home, '.zuliprc');
  let text: string | undefined;
  try {
    text = read(dflt);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new ZulipCdkError('CREDENTIALS_MISSING', 'No Zulip credentials found.', {
      hint: `Pass --zuliprc PATH, set ZULIP_EMAIL, ZULIP_API_KEY and ZULIP_SITE, set ZULIP_CONFIG to a zuliprc, or create ${dflt}.`,
    });
  }
  return parseZuliprc(text, dflt, 'home', expand);
}

function fromZuliprc(
  path: string,
  via: 'option' | 'ZULIP_CONFIG',
  read: (p: string) => string,
  expand: (p: string) => string,
): ZulipCredentials {
  let text: string;
  try {
    text = read(path);
  } catch (cause) {
    throw new ZulipCdkError(
      'CREDENTIALS_MISSING',
      `Cannot read the zuliprc ${path}${via === 'ZULIP_CONFIG' ? ' (named by ZULIP_CONFIG)' : ''}.`,
      {
        where: path,
        cause,
        hint: 'Check the path; download a zuliprc from your Zulip personal settings (Account & privacy, API key).',
      },
    );
  }
  return parseZuliprc(text, path, via, expand);
}

/** Parses zuliprc text; `path` is for messages. */
export function parseZuliprc(
  text: string,
  path: string,
  via: 'option' | 'ZULIP_CONFIG' | 'home' = 'option',
  expand: (p: string) => string = (p) => p,
): ZulipCredentials {
  const ini = parseIni(text);
  const api = ini.api;
  if (api === undefined) {
    throw new ZulipCdkError('CREDENTIALS_INVALID', `The zuliprc ${path} has no [api] section.`, {
      where: path,
      hint: 'A zuliprc looks like: [api] / email=... / key=... / site=https://...',
    });
  }
  const missing = (['email', 'key', 'site'] as const).filter((k) => (api[k] ?? '').trim() === '');
  if (missing.length > 0) {
    throw new ZulipCdkError(
      'CREDENTIALS_MISSING',
      `The zuliprc ${path} is missing ${missing.map((m) => `'${m}'`).join(', ')} in its [api] section.`,
      { where: path },
    );
  }
  if (/^(1|true|yes|on)$/i.test((api.insecure ?? '').trim())) {
    throw new ZulipCdkError(
      'CREDENTIALS_INVALID',
      `The zuliprc ${path} sets insecure=true; zulip-cdk always verifies TLS.`,
      {
        where: path,
        hint: 'Remove insecure and set cert_bundle to your CA bundle instead.',
      },
    );
  }
  const cert = (api.cert_bundle ?? '').trim();
  return new ZulipCredentials({
    email: (api.email ?? '').trim(),
    apiKey: (api.key ?? '').trim(),
    site: (api.site ?? '').trim(),
    source: { kind: 'zuliprc', path, via },
    caFile: cert === '' ? undefined : expand(cert),
  });
}

/**
 * Every string that would give away a Zulip credential if a child process saw it: the value of
 * `ZULIP_API_KEY`, and for each zuliprc zulip-cdk could read (the `zuliprc` option as given and
 * expanded, `ZULIP_CONFIG`, `~/.zuliprc`) its path and, when it is readable, its API key and its
 * Basic credential. `runApp` drops every environment variable whose value contains one of them,
 * so that the app a plan synthesizes cannot learn the key or where it is kept (for example
 * through a variable a CI system set to the same value). Unreadable or malformed files add only
 * their path. Reading the files here never passes anything to the app.
 */
export function credentialSecrets(options: LoadCredentialsOptions = {}): string[] {
  const env = options.env ?? process.env;
  const home = options.homeDir ?? homedir();
  const read = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const expand = pathExpander(home);
  const out = new Set<string>();
  const addKey = (key: string | undefined, email: string | undefined): void => {
    const k = (key ?? '').trim();
    if (k === '') return;
    out.add(k);
    if (email) out.add(Buffer.from(`${email.trim()}:${k}`).toString('base64'));
  };
  addKey(env.ZULIP_API_KEY, env.ZULIP_EMAIL);
  const files = [options.zuliprc, env.ZULIP_CONFIG, join(home, '.zuliprc')];
  for (const given of files) {
    if (given === undefined || given === '') continue;
    const path = expand(given);
    out.add(given);
    out.add(path);
    let text: string;
    try {
      text = read(path);
    } catch {
      continue;
    }
    const api = parseIni(text).api;
    addKey(api?.key, api?.email);
  }
  return [...out];
}
