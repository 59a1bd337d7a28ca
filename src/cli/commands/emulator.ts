import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../command';
import type { Command } from '../command';
import { EMULATOR_FEATURE_LEVELS, startEmulator, writePrivateFile } from '../../emulator';

function intOption(value: unknown, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value) || n < min)
    throw new UsageError(
      `${flag} must be an integer of at least ${min}, got '${JSON.stringify(value)}'`,
    );
  return n;
}

/** `zulip-cdk emulator`: runs the embedded Zulip-compatible server with a demo organization. */
export const emulatorCommand: Command = {
  name: 'emulator',
  summary: 'Run the embedded Zulip-compatible server (a demo organization) on 127.0.0.1',
  usage: `usage: zulip-cdk emulator [--port N] [--state FILE] [--zuliprc PATH] [--feature-level N] [--rate-limit N]

Runs a Zulip-compatible server on 127.0.0.1 with a demo organization, until Ctrl-C.

  --port N            port to listen on (default: picked by the OS)
  --state FILE        load the organization from FILE if it exists; save it there after
                      every change (before answering the request) and on exit
  --zuliprc PATH      write the owner's credentials as a zuliprc (mode 0600)
  --feature-level N   behave as this Zulip feature level, 372 to 478 (372 = 10.2, 421 = 11.0;
                      default 478)
  --rate-limit N      requests per minute per user (default 200; 0 switches it off)
`,
  options: {
    port: { type: 'string' },
    state: { type: 'string' },
    zuliprc: { type: 'string' },
    'feature-level': { type: 'string' },
    'rate-limit': { type: 'string' },
  },
  async run({ values, io }) {
    const port = intOption(values.port, '--port', 0);
    const featureLevel = intOption(values['feature-level'], '--feature-level', 1);
    const { min, max } = EMULATOR_FEATURE_LEVELS;
    if (featureLevel !== undefined && (featureLevel < min || featureLevel > max))
      throw new UsageError(
        `--feature-level must be between ${min} and ${max} (the levels the emulator supports), got ${featureLevel}`,
      );
    const rate = intOption(values['rate-limit'], '--rate-limit', 0);
    const statePath =
      typeof values.state === 'string' ? path.resolve(io.cwd, values.state) : undefined;
    const existed = statePath !== undefined && existsSync(statePath);
    const z = await startEmulator({
      ...(port === undefined ? {} : { port }),
      ...(featureLevel === undefined ? {} : { featureLevel }),
      ...(rate === undefined ? {} : { rateLimit: rate === 0 ? false : rate }),
      ...(statePath === undefined ? {} : { state: statePath, persist: true }),
      seed: 'demo',
    });
    try {
      if (statePath !== undefined)
        io.stdout.write(
          existed
            ? `Loaded the organization from ${statePath}; every change is saved there\n`
            : `Started the demo organization, saved to ${statePath} with every change\n`,
        );
      if (typeof values.zuliprc === 'string') {
        const rc = path.resolve(io.cwd, values.zuliprc);
        // 0600 even when the file already exists with a wider mode.
        await writePrivateFile(
          rc,
          `[api]\nemail=${z.owner.email}\nkey=${z.owner.apiKey}\nsite=${z.site}\n`,
        );
        io.stdout.write(`Wrote the owner's credentials (${z.owner.email}) to ${rc}\n`);
      }
      io.stdout.write(
        `Zulip emulator (feature level ${z.featureLevel}) listening on ${z.site}\nPress Ctrl-C to stop.\n`,
      );
      await (io.interrupted ?? new Promise<void>(() => undefined));
    } finally {
      await z.close();
      if (statePath !== undefined) {
        await z.save(statePath);
        io.stdout.write(`Saved the organization to ${statePath}\n`);
      }
    }
    return 0;
  },
};
