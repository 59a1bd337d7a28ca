import { parseArgs } from 'node:util';
import { isZulipCdkError } from '../model/errors';
import { UsageError } from './command';
import type { CliIo, Command } from './command';
import { COMMANDS } from './commands';
import { version } from './version';

function defaultIo(): CliIo {
  const interrupted = new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    interrupted,
  };
}

function overview(): string {
  const lines = ['usage: zulip-cdk <command> [options]', '', 'Commands:'];
  const names = Object.keys(COMMANDS).sort();
  for (const name of names) lines.push(`  ${name}`);
  lines.push('', 'Run `zulip-cdk help <command>` for the options of one command.');
  return lines.join('\n') + '\n';
}

async function load(name: string): Promise<Command | undefined> {
  const loader = COMMANDS[name];
  return loader ? loader() : undefined;
}

/** Runs the CLI with the given arguments; resolves to the process exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout.write(overview());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`zulip-cdk ${version}\n`);
    return 0;
  }
  if (name === 'help') {
    const cmd = rest[0] ? await load(rest[0]) : undefined;
    io.stdout.write(cmd ? `${cmd.usage.trimEnd()}\n` : overview());
    return 0;
  }
  const command = await load(name);
  if (!command) {
    io.stderr.write(`zulip-cdk: unknown command '${name}'\n\n${overview()}`);
    return 1;
  }
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${command.usage.trimEnd()}\n`);
      return 0;
    }
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: command.options,
        allowPositionals: command.allowPositionals ?? false,
        strict: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    return await command.run({ values: parsed.values, positionals: parsed.positionals, io });
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`zulip-cdk ${name}: ${e.message}\n\n${command.usage.trimEnd()}\n`);
      return 1;
    }
    if (isZulipCdkError(e)) {
      const where = e.where ? ` (${e.where})` : '';
      const hint = e.hint ? `\n  hint: ${e.hint}` : '';
      io.stderr.write(`Error [${e.code}]${where}: ${e.message}${hint}\n`);
      return command.exitCodeFor?.(e) ?? 1;
    }
    io.stderr.write(`zulip-cdk ${name}: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
