import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readVersion(): string {
  // src/cli and dist/cli are both two levels below the package root.
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The package version, read once from package.json. */
export const version: string = readVersion();
