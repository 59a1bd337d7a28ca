import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readVersion(): string {
  // src/zulip and dist/zulip are both two levels below the package root.
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The zulip-cdk version, read once from package.json. */
export const CLIENT_VERSION: string = readVersion();

/** The User-Agent every request carries. */
export const USER_AGENT = `zulip-cdk/${CLIENT_VERSION}`;
