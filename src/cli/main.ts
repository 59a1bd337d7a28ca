import { parseArgs } from 'node:util';
import { isZulipCdkError } from '../model/errors';
import { UsageError } from './command';
import type { CliIo, Command } from './command';
import { closest, editDistance } from '../model/spelling';
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

/** The commands and what each does (their `summary`: this loads them all). */
async function overview(): Promise<string> {
  const lines = ['usage: zulip-cdk <command> [options]', '', 'Commands:'];
  const names = Object.keys(COMMANDS).sort();
  const width = Math.max(...names.map((n) => n.length)) + 2;
  for (const name of names) {
    const command = await load(name);
    lines.push(`  ${name.padEnd(width)}${command?.summary ?? ''}`.trimEnd());
  }
  lines.push('', 'Run `zulip-cdk help <command>` for the options of one command.');
  return lines.join('\n') + '\n';
}

/** `unknown command 'plann' (did you mean 'plan'?)`. */
async function unknownCommand(name: string): Promise<string> {
  const near = closest(name, Object.keys(COMMANDS), 2);
  return `zulip-cdk: unknown command '${name}'${near.length > 0 ? ` (did you mean ${near.map((n) => `'${n}'`).join(' or ')}?)` : ''}\n\n${await overview()}`;
}

/**
 * A parseArgs error in our words: an unknown option with the closest one the command has
 * (Node's own text suggests quoting it after `--`, which is never what was meant).
 */
function argumentError(e: Error & { code?: string }, command: Command): string {
  // Node's "Option '--target <value>' argument missing".
  const missing = /^Option '(--[\w-]+) <value>' argument missing$/.exec(e.message);
  if (missing) return `${missing[1]} needs a value`;
  if (e.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return e.message;
  const given = /'([^']+)'/.exec(e.message)?.[1] ?? e.message;
  const known = Object.keys(command.options).map((o) => `--${o}`);
  // At most one edit per three letters of the option: `--bogus` is not a typo of `--out`.
  const near = closest(given, known, 3).filter(
    (o) => editDistance(given.toLowerCase(), o.toLowerCase()) * 3 <= o.length - 2,
  );
  return `unknown option ${given}${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
}

async function load(name: string): Promise<Command | undefined> {
  const loader = COMMANDS[name];
  return loader ? loader() : undefined;
}

/** Runs the CLI with the given arguments; resolves to the process exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout.write(await overview());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`zulip-cdk ${version}\n`);
    return 0;
  }
  if (name === 'help') {
    if (rest[0] === undefined) {
      io.stdout.write(await overview());
      return 0;
    }
    const cmd = await load(rest[0]);
    if (!cmd) {
      io.stderr.write(await unknownCommand(rest[0]));
      return 1;
    }
    io.stdout.write(`${cmd.usage.trimEnd()}\n`);
    return 0;
  }
  const command = await load(name);
  if (!command) {
    io.stderr.write(await unknownCommand(name));
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
      throw new UsageError(argumentError(e as Error, command));
    }
    return await command.run({ values: parsed.values, positionals: parsed.positionals, io });
  } catch (e) {
    if (e instanceof UsageError) {
      // The one line that says what is wrong, not buried under the whole usage.
      io.stderr.write(
        `zulip-cdk ${name}: ${e.message}\nRun \`zulip-cdk ${name} --help\` for its options.\n`,
      );
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
