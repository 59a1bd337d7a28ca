import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import type { Command } from '../../src/cli/command';
import { COMMANDS } from '../../src/cli/commands';

/**
 * The GitHub Actions example (examples/github-actions) may only call the CLI the way the CLI
 * accepts: every `zulip-cdk ...` line is parsed with the command's own `options`, exactly as
 * `src/cli/main.ts` parses it. The example cannot drift from the CLI.
 */

const DIR = path.join(__dirname, '../../examples/github-actions');

async function command(name: string): Promise<Pick<Command, 'options' | 'allowPositionals'>> {
  const load = COMMANDS[name];
  if (load) return load();
  throw new Error(`the example calls 'zulip-cdk ${name}', which the CLI does not have`);
}

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  environment?: string;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

function workflows(): Map<string, Workflow> {
  const out = new Map<string, Workflow>();
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.yml')))
    out.set(f, parse(readFileSync(path.join(DIR, f), 'utf8')) as Workflow);
  return out;
}

/** Splits one shell line into words: quotes removed, operators as their own words. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
      continue;
    }
    if (ch === '#' && !inWord) break;
    if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    if ('|&;<>()'.includes(ch)) {
      if (inWord) words.push(cur);
      let op = ch;
      while (i + 1 < line.length && '|&<>'.includes(line[i + 1] as string)) op += line[++i];
      words.push(op);
      cur = '';
      inWord = false;
      continue;
    }
    cur += ch;
    inWord = true;
  }
  if (quote) throw new Error(`unbalanced quote in: ${line}`);
  if (inWord) words.push(cur);
  return words;
}

const OPERATOR = /^[|&;<>()]+$/;

/** Every `zulip-cdk <command> args...` in a run script. */
export function cliCalls(script: string): { command: string; args: string[]; line: string }[] {
  const lines = script.replace(/\\\n/g, ' ').split('\n');
  const calls: { command: string; args: string[]; line: string }[] = [];
  for (const line of lines) {
    const words = shellWords(line);
    for (let i = 0; i < words.length; i++) {
      if (words[i] !== 'zulip-cdk') continue;
      const rest = words.slice(i + 1);
      const end = rest.findIndex((w) => OPERATOR.test(w) || /^\d?>/.test(w));
      const [name, ...args] = end === -1 ? rest : rest.slice(0, end);
      if (name === undefined) throw new Error(`zulip-cdk without a command: ${line}`);
      calls.push({ command: name, args, line: line.trim() });
    }
  }
  return calls;
}

const zulipYml = (): Workflow => {
  const w = workflows().get('zulip.yml');
  if (!w) throw new Error('examples/github-actions/zulip.yml is missing');
  return w;
};

const allCalls = () =>
  [...workflows()].flatMap(([file, w]) =>
    Object.entries(w.jobs).flatMap(([job, j]) =>
      j.steps.flatMap((s) =>
        s.run ? cliCalls(s.run).map((c) => ({ ...c, file, job, step: s.name ?? s.run })) : [],
      ),
    ),
  );

describe('examples/github-actions', () => {
  it('splits shell lines the way the workflow uses them', () => {
    expect(shellWords(`npx zulip-cdk apply "$PLAN" --verify > out/plan.md # why`)).toEqual([
      'npx',
      'zulip-cdk',
      'apply',
      '$PLAN',
      '--verify',
      '>',
      'out/plan.md',
    ]);
    expect(
      cliCalls('set +e\nnpx zulip-cdk plan --live a.json \\\n  --detailed-exitcode > d.md\n'),
    ).toEqual([
      {
        command: 'plan',
        args: ['--live', 'a.json', '--detailed-exitcode'],
        line: 'npx zulip-cdk plan --live a.json    --detailed-exitcode > d.md',
      },
    ]);
  });

  it('calls every zulip-cdk command only with flags the CLI defines', async () => {
    const calls = allCalls();
    expect(calls.length).toBeGreaterThanOrEqual(6);
    for (const call of calls) {
      const cmd = await command(call.command);
      const where = `${call.file} job ${call.job}, step "${call.step}": ${call.line}`;
      expect(() =>
        parseArgs({
          args: call.args,
          options: cmd.options,
          allowPositionals: cmd.allowPositionals ?? false,
          strict: true,
        }),
      ).not.toThrow();
      const format = call.args[call.args.indexOf('--format') + 1];
      if (call.args.includes('--format'))
        expect({ where, format }).toEqual({
          where,
          format: expect.stringMatching(/^(text|markdown|json)$/),
        });
      // A clearer message than parseArgs' when it fails:
      for (const a of call.args.filter((x) => x.startsWith('--'))) {
        const flag = a.slice(2).split('=')[0] as string;
        if (!(flag in cmd.options)) throw new Error(`unknown flag --${flag} in ${where}`);
      }
    }
  });

  it('a flag the CLI does not define is caught (the check can fail)', async () => {
    const plan = await command('plan');
    expect(() =>
      parseArgs({
        args: ['--format', 'markdown', '--no-such-flag'],
        options: plan.options,
        strict: true,
      }),
    ).toThrow(/no-such-flag/);
  });

  it('plans pull requests in Markdown and saves the plan; forks plan against a snapshot without secrets', () => {
    const job = zulipYml().jobs.plan!;
    expect(job.if).toContain('pull_request');
    expect(job.permissions).not.toHaveProperty('pull-requests', 'write');
    const planSteps = job.steps.filter(
      (s) => s.run && cliCalls(s.run).some((c) => c.command === 'plan'),
    );
    expect(planSteps).toHaveLength(2);
    for (const s of planSteps) {
      const [call] = cliCalls(s.run!);
      expect(call!.args).toEqual(expect.arrayContaining(['--format', 'markdown', '--out']));
    }
    const fork = planSteps.find((s) => cliCalls(s.run!)[0]!.args.includes('--live'))!;
    expect(fork.if).toContain('!=');
    // No secret reaches a step that runs a fork's code.
    expect(JSON.stringify(fork)).not.toMatch(/secrets\./);
    expect(job.steps.some((s) => s.uses?.startsWith('actions/upload-artifact'))).toBe(true);
  });

  it('the snapshot for forks is made by the trusted scheduled job and kept as an artifact', () => {
    const job = zulipYml().jobs.drift!;
    expect(job.if).toContain('schedule');
    const snap = allCalls().filter((c) => c.command === 'snapshot');
    expect(snap).toHaveLength(1);
    expect(snap[0]!.job).toBe('drift');
    expect(snap[0]!.args).toEqual(['--out', 'snapshot/live.json']);
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.with?.name).toBe('zulip-live-snapshot');
    const download = zulipYml().jobs.plan!.steps.find((s) =>
      s.run?.includes('zulip-live-snapshot'),
    );
    expect(download?.run).toContain('snapshot');
  });

  it('applies on merge to main in one concurrency group that is never cancelled', () => {
    const w = zulipYml();
    expect(w.on).toHaveProperty('push');
    const apply = w.jobs.apply!;
    expect(apply.if).toContain('push');
    expect(apply.concurrency).toEqual({ group: 'zulip-organization', 'cancel-in-progress': false });
    // The drift check waits for an apply instead of reporting its half-done state.
    expect(w.jobs.drift!.concurrency).toEqual(apply.concurrency);
    const applies = allCalls().filter((c) => c.command === 'apply');
    expect(applies.every((c) => c.job === 'apply')).toBe(true);
    // The reviewed plan file, or a fresh plan with --auto-approve; both verify afterwards.
    expect(applies.some((c) => c.args[0] === '$PLAN')).toBe(true);
    expect(applies.some((c) => c.args.includes('--auto-approve'))).toBe(true);
    expect(applies.every((c) => c.args.includes('--verify'))).toBe(true);
    // The journal is written where the upload step looks for it.
    expect(applies.every((c) => c.args.join(' ').includes('--journal out/journal.json'))).toBe(
      true,
    );
    const upload = apply.steps.find((s) => s.with?.name === 'zulip-apply-journal');
    expect(upload).toMatchObject({ if: 'always()', with: { path: 'out/journal.json' } });
  });

  it('checks for drift on a schedule with --detailed-exitcode and reports it in an issue', () => {
    const w = zulipYml();
    expect(w.on).toHaveProperty('schedule');
    const drift = w.jobs.drift!;
    const check = drift.steps.find((s) => s.run?.includes('--detailed-exitcode'))!;
    expect(check.run).toContain('code=$?');
    const issue = drift.steps.find((s) => s.if?.includes("exitcode == '2'"));
    expect(issue?.run).toMatch(/gh issue (create|edit)/);
    expect(drift.permissions).toHaveProperty('issues', 'write');
  });

  it('passes the credentials only as the three environment variables, and never prints them', () => {
    for (const [file, w] of workflows()) {
      expect(w.permissions).toEqual({ contents: 'read' });
      for (const [job, j] of Object.entries(w.jobs))
        for (const s of j.steps) {
          const where = `${file} ${job} ${s.name ?? s.run ?? s.uses}`;
          // Secrets appear only as env values, each under its own name.
          for (const [k, v] of Object.entries(s.env ?? {}))
            if (String(v).includes('secrets.'))
              expect({ where, k, v }).toEqual({ where, k, v: `\${{ secrets.${k} }}` });
          expect({ where, run: s.run ?? '' }).not.toEqual({
            where,
            run: expect.stringMatching(/secrets\.|ZULIP_API_KEY|set -x/),
          });
        }
    }
  });

  it('the comment workflow posts the plan without running anything from the pull request', () => {
    const w = workflows().get('zulip-comment.yml')!;
    expect(w.on).toHaveProperty('workflow_run');
    const steps = w.jobs.comment!.steps;
    expect(steps.some((s) => s.uses?.startsWith('actions/checkout'))).toBe(false);
    expect(steps.some((s) => s.run?.includes('npm'))).toBe(false);
    expect(steps.some((s) => s.run?.includes('gh pr comment'))).toBe(true);
  });
});
