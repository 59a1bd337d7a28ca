/** Shared steps of the import tests: read an embedded org, write the app, synth it, check it. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { startEmulator } from '../../src/emulator';
import { yamlCheck } from '../emulator/yaml-check';
import type { OrgState } from '../../src/emulator';
import { DesiredStateSchema } from '../../src/model/desired-state';
import type { DesiredState } from '../../src/model/desired-state';
import type { LiveState } from '../../src/model/live-state';
import { ZulipClient } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';

export const REPO = path.resolve(__dirname, '../..');

/** Reads an embedded organization through the API, as `import --embedded` does. */
export async function readEmbedded(opts: {
  featureLevel: number;
  state?: OrgState;
  seed?: 'demo' | 'empty';
  /** Changes made through the API before the read. */
  prepare?: (client: ZulipClient) => Promise<void>;
}): Promise<LiveState> {
  const check = yamlCheck();
  const z = await startEmulator({
    observe: check.observe,
    featureLevel: opts.featureLevel,
    rateLimit: false,
    ...(opts.state ? { state: opts.state } : { seed: opts.seed ?? 'demo' }),
  });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    if (opts.prepare) await opts.prepare(client);
    const { requestCount: _n, ...live } = await readLiveState(client);
    if (check.problems.length > 0)
      throw new Error(`responses that do not match zulip.yaml:\n${check.problems.join('\n')}`);
    return live;
  } finally {
    await client.close();
    await z.close();
  }
}

/** The repo's compiler options, with 'zulip-cdk' mapped to the sources. */
function compilerOptionsJson(): Record<string, unknown> {
  const repo = JSON.parse(readFileSync(path.join(REPO, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const { outDir: _o, rootDir: _r, ...options } = repo.compilerOptions;
  return {
    ...options,
    noEmit: true,
    types: ['node'],
    typeRoots: [path.join(REPO, 'node_modules/@types')],
    paths: { 'zulip-cdk': [path.join(REPO, 'src/index.ts')] },
  };
}

/** Writes the generated files to a fresh directory under the OS temp directory. */
export function writeApp(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-import-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: compilerOptionsJson(), include: ['*.ts'] }, null, 2),
  );
  return dir;
}

/** Runs the generated main.ts in this process and reads what `app.synth()` wrote. */
export function synthInProcess(dir: string): DesiredState[] {
  const outdir = path.join(dir, 'out');
  const before = process.env.ZULIP_CDK_OUTDIR;
  process.env.ZULIP_CDK_OUTDIR = outdir;
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- runs the generated app
      require(path.join(dir, 'main.ts'));
    });
  } finally {
    if (before === undefined) delete process.env.ZULIP_CDK_OUTDIR;
    else process.env.ZULIP_CDK_OUTDIR = before;
  }
  return readdirSync(outdir)
    .filter((f) => f.endsWith('.zulip.json'))
    .map((f) => DesiredStateSchema.parse(JSON.parse(readFileSync(path.join(outdir, f), 'utf8'))));
}

/** Type errors of the generated files under the repo's strict options. */
export function typeErrors(dir: string): string[] {
  const parsed = ts.parseJsonConfigFileContent(
    { compilerOptions: compilerOptionsJson(), include: ['*.ts'] },
    ts.sys,
    dir,
  );
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((m) => m);
}

/**
 * Lints the generated files with the repo's own ESLint configuration (type-checked rules),
 * pointed at the directory's tsconfig. Returns ESLint's output (empty when clean).
 */
export function lint(dir: string): { status: number | null; output: string } {
  writeFileSync(
    path.join(dir, 'eslint.config.mjs'),
    `import repo from ${JSON.stringify(path.join(REPO, 'eslint.config.mjs'))};
export default [
  ...repo,
  {
    languageOptions: {
      parserOptions: { projectService: false, project: './tsconfig.json', tsconfigRootDir: ${JSON.stringify(dir)} },
    },
  },
];
`,
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const r = spawnSync(
    process.execPath,
    [
      path.join(REPO, 'node_modules/eslint/bin/eslint.js'),
      '--config',
      'eslint.config.mjs',
      ...files,
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/**
 * What prettier (the repo's configuration) would change in the files of `dir`, as a line diff
 * per file; empty when every file is already formatted. Prettier runs as a child process: its
 * API loads plugins with a dynamic import, which jest's CommonJS runtime refuses.
 */
export function prettierDiffs(dir: string): string[] {
  const bin = path.join(REPO, 'node_modules/prettier/bin/prettier.cjs');
  const config = path.join(REPO, '.prettierrc.json');
  const out: string[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const r = spawnSync(process.execPath, [bin, '--config', config, name], {
      cwd: dir,
      encoding: 'utf8',
    });
    const text = readFileSync(path.join(dir, name), 'utf8');
    if (r.status !== 0) {
      out.push(`${name}: prettier failed: ${r.stderr}`);
      continue;
    }
    if (r.stdout === text) continue;
    const a = text.split('\n');
    const b = r.stdout.split('\n');
    const lines: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length) && lines.length < 40; i++)
      if (a[i] !== b[i]) lines.push(`${i + 1}: - ${a[i] ?? ''}`, `${i + 1}: + ${b[i] ?? ''}`);
    out.push(`${name}\n${lines.join('\n')}`);
  }
  return out;
}
