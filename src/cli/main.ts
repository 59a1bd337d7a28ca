import { version } from './version';

/** Runs the CLI with the given arguments; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  await Promise.resolve();
  if (argv[0] === '--version' || argv[0] === 'version') {
    process.stdout.write(`zulip-cdk ${version}\n`);
    return 0;
  }
  process.stderr.write('usage: zulip-cdk <command> [options]\n');
  return 1;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
