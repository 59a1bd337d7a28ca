import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ZulipCdkError } from '../../model/errors';
import { runApp } from '../../synth/run-app';
import { credentialSecrets } from '../../zulip/credentials';
import { UsageError } from '../command';
import type { Command } from '../command';
import { desiredCounts, shownPath } from '../words';

interface CdktfJson {
  app?: unknown;
  output?: unknown;
}

/** The project file: `zulip-cdk.json`, else `cdktf.json` (same keys: `app`, `output`). */
function readCdktfJson(cwd: string): CdktfJson {
  for (const name of ['zulip-cdk.json', 'cdktf.json']) {
    const file = path.join(cwd, name);
    if (!existsSync(file)) continue;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as CdktfJson;
    } catch (e) {
      throw new ZulipCdkError('BAD_CONFIG', `${file} is not valid JSON`, { cause: e });
    }
  }
  return {};
}

/** `zulip-cdk synth`: run the app and say where each organization's desired state went. */
export const synthCommand: Command = {
  name: 'synth',
  summary: 'Run the app and write each organization’s desired state',
  usage: `usage: zulip-cdk synth [--app CMD] [--output DIR]

Runs the app (a program that builds Organizations and calls app.synth()), which validates
every construct and writes one desired state per organization, <org>.zulip.json, and lists
where each went. No request is made to any Zulip server.

  --app CMD      the command that runs the app (default: "app" from ./zulip-cdk.json or
                 ./cdktf.json)
  --output DIR   the output directory (default: "output" from the same file, else zulip.out)
`,
  options: {
    app: { type: 'string' },
    output: { type: 'string' },
  },
  async run({ values, io }) {
    const config = readCdktfJson(io.cwd);
    const app = typeof values.app === 'string' ? values.app : config.app;
    if (typeof app !== 'string' || app.trim() === '') {
      throw new UsageError(
        'no app to run: pass --app CMD, or add "app" to ./zulip-cdk.json or ./cdktf.json',
      );
    }
    const output =
      typeof values.output === 'string'
        ? values.output
        : typeof config.output === 'string'
          ? config.output
          : 'zulip.out';
    // The app runs without any Zulip credential in its environment (see appEnvironment).
    const result = await runApp({
      app,
      outdir: output,
      cwd: io.cwd,
      env: io.env,
      secrets: credentialSecrets({ env: io.env }),
    });
    if (result.stdout)
      io.stderr.write(result.stdout.endsWith('\n') ? result.stdout : `${result.stdout}\n`);
    if (result.organizations.length === 0) {
      io.stderr.write(`The app declared no organization; nothing written to ${output}.\n`);
      return 0;
    }
    for (const org of result.organizations) {
      const s = org.state;
      const counts = desiredCounts(s);
      const shown = shownPath(io.cwd, org.file);
      io.stdout.write(`${org.path} -> ${shown} (${counts || 'empty'})\n`);
    }
    return 0;
  },
};
