import path from 'node:path';
import * as engine from '../../engine';
import type { Plan } from '../../engine';
import type { DesiredState } from '../../model/desired-state';
import {
  REFUSAL_ERROR_CODES,
  ZulipCdkError,
  isErrorCode,
  isZulipCdkError,
} from '../../model/errors';
import type { ErrorCode } from '../../model/errors';
import { ZulipApplyTarget } from '../../provider/write-target';
import { readJson } from '../../synth/json-file';
import type { ZulipClient } from '../../zulip';
import { UsageError } from '../command';
import type { CliIo, Command, ParsedOptions } from '../command';
import {
  GUARD_OPTIONS,
  GUARD_USAGE,
  TARGET_OPTIONS,
  guardOverrides,
  connect,
  checkOneDesiredSource,
  loadDesiredState,
  readLiveShowingRetries,
  useColor,
} from '../plan-sources';
import { JOURNAL_FORMAT_VERSION, JournalFile } from '../journal-file';
import { ApplyProgress, progressMode } from '../progress';

/** Exit code when `--verify` finds changes left after the apply. */
export const VERIFY_FAILED_EXIT = 2;

/** Exit code when apply refuses: a safety rule, or a plan that is tampered, stale or not the one reviewed. */
export const REFUSED_EXIT = 4;

/** The errors that are refusals (exit 4) rather than failures (exit 1). */
export const REFUSAL_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(REFUSAL_ERROR_CODES);

const DEFAULT_JOURNAL = 'zulip-cdk.journal.jsonl';

/** `--expect-digest` as given (`sha256:` prefix and case allowed), or a usage error. */
function expectedDigest(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hex = value
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new UsageError(
      `--expect-digest must be the 64 hexadecimal digits of a plan digest (as the plan shows it), got '${value}'`,
    );
  return hex;
}

/** Refuses any plan but the one reviewed. */
function checkDigest(plan: Plan, expected: string | undefined): void {
  if (expected === undefined || plan.digest === expected) return;
  throw new ZulipCdkError(
    'PLAN_DIGEST_MISMATCH',
    `The plan's digest is ${plan.digest}, not the one reviewed (${expected}): the plan is not the one that was reviewed. Nothing was applied.`,
    {
      hint: 'The configuration or the organization changed since the review: plan again, review the new plan, and apply with its digest.',
    },
  );
}

function readPlanFile(file: string): Plan {
  const data = readJson(file, 'PLAN_UNREADABLE', 'Make it with `zulip-cdk plan --out FILE`.');
  return engine.parsePlan(data, file);
}

/** Reads one line from stdin (the confirmation). */
function readLine(io: CliIo): Promise<string> {
  return new Promise((resolve) => {
    let buf = '';
    const done = (): void => {
      io.stdin.removeListener('data', onData);
      io.stdin.removeListener('end', done);
      io.stdin.pause();
      resolve(buf.split('\n')[0]?.trim() ?? '');
    };
    const onData = (chunk: Buffer | string): void => {
      buf += chunk.toString();
      if (buf.includes('\n')) done();
    };
    io.stdin.on('data', onData);
    io.stdin.once('end', done);
    io.stdin.resume();
  });
}

/**
 * Plans again after the apply; true when nothing is left. Prints what is left otherwise.
 */
async function verify(
  client: ZulipClient,
  desired: DesiredState,
  plan: Plan,
  io: CliIo,
  json: boolean,
): Promise<boolean> {
  const live = await readLiveShowingRetries(client, io);
  const again = engine.plan(desired, live, plan.targets ? { targets: plan.targets } : {});
  const left = again.changes.length;
  if (json)
    io.stdout.write(
      `${JSON.stringify({ type: 'verify', ok: left === 0, changesLeft: again.changes.map((c) => c.id) })}\n`,
    );
  else if (left === 0)
    io.stdout.write(
      'Verified: the next plan is empty. The organization matches the configuration.\n',
    );
  else
    io.stdout.write(
      `Verification failed: the next plan still has ${left} change(s):\n${engine.renderText(again, { color: useColor(io) })}`,
    );
  return left === 0;
}

/** `zulip-cdk apply`: make the live organization match, from a saved plan or a fresh one. */
export const applyCommand: Command = {
  name: 'apply',
  summary: 'Apply a plan to the live organization (batched, optimistic, safe to interrupt)',
  usage: `usage: zulip-cdk apply [PLAN_FILE] [--app CMD | --desired FILE|DIR] [--org ID]
                       [--zuliprc PATH | --embedded] [--auto-approve] [--allow-destroy]
                       [--force] [--keep-going] [--verify] [--json] [--journal FILE]
                       [--expect-digest DIGEST] [guard flags]

Applies a saved plan (zulip-cdk plan --out FILE), or plans, shows the plan and asks before
applying it. Apply plans again from the plan's own desired state first: changes that already
landed (an interrupted apply, another apply, by hand) are reported as done and not sent again,
objects changed since the plan are not written (reported, exit 3), and a plan that does not
follow from its desired state is refused (PLAN_TAMPERED, exit ${REFUSED_EXIT}).

  PLAN_FILE          a plan saved by \`zulip-cdk plan --out\`; without it, apply plans first
  --app CMD          the command that synthesizes the app (default: "app" of zulip-cdk.json
                     or cdktf.json)
  --desired FILE|DIR an already synthesized desired state (*.zulip.json) instead
  --org ID           the organization when the app declares several
  --zuliprc PATH     credentials (default: ZULIP_EMAIL/ZULIP_API_KEY/ZULIP_SITE, then
                     ZULIP_CONFIG, then ~/.zuliprc)
  --embedded         apply to a fresh embedded server with the demo organization (to try it out;
                     the organization is discarded at exit)
  --auto-approve     do not ask for confirmation (needed without a terminal)
  --allow-destroy    allow archive, deactivate, delete, unsubscribing, removing members, demotions
  --force            apply although the plan has safety findings (not privileged changes)
  --keep-going       after a failure, go on with the changes that do not depend on it
  --verify           plan again at the end; exit ${VERIFY_FAILED_EXIT} if anything is left
  --json             print machine-readable events, one JSON object per line
  --journal FILE     where to write the journal, JSON Lines written as apply goes
                     (default: ${DEFAULT_JOURNAL})
  --expect-digest DIGEST
                     apply only a plan with this digest (the one the reviewed plan shows);
                     anything else is refused before any write

Guards on the blast radius (override the organization's \`guards\` and the plan's own for this
run; apply checks the plan with them after reading the organization again):
${GUARD_USAGE}

Exit codes: 0 all applied or already done (or nothing to do), 1 nothing applied (or an
error), 3 partly applied (failures, or objects changed since the plan), ${REFUSED_EXIT} refused (a
safety finding without --force, privileged changes without --allow-privileged, destructive
changes without --allow-destroy, a tampered plan, a plan for another server or account, a
digest other than --expect-digest), ${VERIFY_FAILED_EXIT} --verify found changes left.
`,
  allowPositionals: true,
  options: {
    app: { type: 'string' },
    desired: { type: 'string' },
    org: { type: 'string' },
    ...TARGET_OPTIONS,
    'auto-approve': { type: 'boolean' },
    'allow-destroy': { type: 'boolean' },
    force: { type: 'boolean' },
    'keep-going': { type: 'boolean' },
    verify: { type: 'boolean' },
    json: { type: 'boolean' },
    journal: { type: 'string' },
    'expect-digest': { type: 'string' },
    ...GUARD_OPTIONS,
  },
  exitCodeFor(e) {
    return isZulipCdkError(e) && isErrorCode(e.code) && REFUSAL_CODES.has(e.code)
      ? REFUSED_EXIT
      : 1;
  },
  async run(args) {
    try {
      return await run(args);
    } catch (e) {
      // Machine readers of --json get the error as the last event too.
      if (args.values.json === true && isZulipCdkError(e))
        args.io.stdout.write(
          `${JSON.stringify({ type: 'error', code: e.code, message: e.message })}\n`,
        );
      throw e;
    }
  },
};

async function run({
  values,
  positionals,
  io,
}: {
  values: ParsedOptions;
  positionals: string[];
  io: CliIo;
}): Promise<number> {
  if (positionals.length > 1) throw new UsageError('give at most one plan file');
  checkOneDesiredSource(values);
  const planFile = positionals[0];
  if (planFile !== undefined && values.embedded === true)
    throw new UsageError(
      '--embedded starts a fresh server, which no saved plan was made for; use it without a plan file',
    );
  const json = values.json === true;
  const expected = expectedDigest(values['expect-digest']);
  const guards = guardOverrides(values);
  const autoApprove = values['auto-approve'] === true;
  const journalFile = path.resolve(
    io.cwd,
    typeof values.journal === 'string' ? values.journal : DEFAULT_JOURNAL,
  );
  // Without a plan file we ask before applying: refuse early, before any work, when nobody
  // can answer.
  if (planFile === undefined && !autoApprove && io.stdin.isTTY !== true)
    throw new ZulipCdkError(
      'CONFIRMATION_REQUIRED',
      'apply would ask for confirmation, but stdin is not a terminal.',
      {
        hint: 'Pass --auto-approve, or apply a reviewed plan file (zulip-cdk plan --out plan.json; zulip-cdk apply plan.json).',
      },
    );
  const info = (s: string): void => {
    (json ? io.stderr : io.stdout).write(s);
  };

  let desired: DesiredState | undefined;
  let plan: Plan;
  if (planFile !== undefined) {
    plan = readPlanFile(path.resolve(io.cwd, planFile));
    checkDigest(plan, expected);
  } else desired = await loadDesiredState(values, io);

  const conn = await connect(values, io);
  try {
    if (planFile === undefined) {
      const live = await readLiveShowingRetries(conn.client, io);
      plan = engine.plan(desired!, live, {
        createdAt: new Date().toISOString(),
        ...(guards ? { guards } : {}),
      });
      info(engine.renderText(plan, { color: useColor(io) && !json }));
      checkDigest(plan, expected);
      // With nothing to do there is nothing to confirm; the journal still says so.
      if (engine.hasChanges(plan) && !autoApprove) {
        io.stdout.write(
          '\nDo you want to apply these changes?\n  Only "yes" will be accepted to approve.\n\n  Enter a value: ',
        );
        const answer = await readLine(io);
        if (answer !== 'yes') {
          io.stdout.write('\nApply cancelled.\n');
          return 1;
        }
      }
    } else {
      plan = plan!;
      info(
        `Applying ${planFile} (digest ${plan.digest.slice(0, 12)}): ${engine.planSummaryLine(plan)}\n`,
      );
    }

    const progress = new ApplyProgress(io, progressMode(io, json), useColor(io));
    const journal = new JournalFile(journalFile);
    journal.write({
      type: 'journal',
      formatVersion: JOURNAL_FORMAT_VERSION,
      startedAt: new Date().toISOString(),
      ...(planFile !== undefined ? { planFile } : {}),
      planDigest: plan.digest,
      desiredDigest: plan.desiredDigest,
      server: { site: plan.server.site, featureLevel: plan.server.featureLevel },
      account: plan.account,
    });
    const stopRetries = conn.client.onEvent((e) => {
      if (e.type === 'retry') progress.retry(e);
      if (e.type === 'pace') progress.pace(e);
    });
    // Ctrl-C stops between two requests; the journal says what was sent.
    const abort = new AbortController();
    void io.interrupted?.then(() => {
      abort.abort();
      if (!json) io.stderr.write('\nInterrupted: stopping after the request in flight.\n');
    });
    let result: engine.ApplyResult;
    try {
      result = await engine.applyPlan(
        plan,
        new ZulipApplyTarget(conn.client, plan, { baseDir: io.cwd }),
        {
          allowDestroy: values['allow-destroy'] === true,
          force: values.force === true,
          allowPrivileged: values['allow-privileged'] === true,
          ...(guards ? { guards } : {}),
          keepGoing: values['keep-going'] === true,
          onEvent: (event) => {
            journal.write(event);
            progress.onEvent(event);
          },
          signal: abort.signal,
        },
      );
    } catch (e) {
      // Refused or failed before writing: the journal says that nothing was applied, and why.
      journal.write({
        type: 'end',
        finishedAt: new Date().toISOString(),
        outcome: 'nothing',
        error: isZulipCdkError(e)
          ? { code: e.code, message: e.message }
          : { code: 'UNEXPECTED_ERROR', message: (e as Error).message },
      });
      journal.close();
      throw e;
    } finally {
      stopRetries();
    }
    const j = result.journal;
    journal.write({
      type: 'end',
      finishedAt: j.finishedAt,
      outcome: j.outcome,
      counts: j.counts,
      requestCount: j.requestCount,
      ...(j.error ? { error: j.error } : {}),
    });
    journal.close();
    info(`Journal: ${journalFile}\n`);
    for (const e of result.journal.entries)
      if (e.status === 'conflict' && !json)
        io.stdout.write(
          `Not written because it changed since the plan: ${e.address} (plan again to review it).\n`,
        );
    const { failed, skipped } = j.counts;
    // An embedded organization is gone at exit: there is nothing to finish.
    if (!json && failed + skipped > 0 && values.embedded !== true)
      io.stdout.write(
        `Not finished: ${[failed > 0 ? `${failed} failed` : '', skipped > 0 ? `${skipped} not run` : ''].filter(Boolean).join(', ')}. Once the cause is fixed or gone, ${planFile === undefined ? 'run this apply again' : `apply ${planFile} again`}: changes that landed are found and reported as done, not sent again (zulip-cdk plan shows what is left).\n`,
      );
    let code = engine.exitCodeFor(result.outcome);
    if (values.verify === true) {
      desired ??= await loadDesiredState(values, io);
      // The plan's desired state as read (a plan of an older zulip-cdk lacks the newest kinds'
      // collections in its file, and in its recorded digest).
      if (engine.desiredStateDigest(desired) !== engine.desiredStateDigest(plan.desired))
        info(
          'Note: the configuration differs from the one the plan was made from; verifying against the configuration.\n',
        );
      const ok = await verify(conn.client, desired, plan, io, json);
      if (!ok && code === 0) code = VERIFY_FAILED_EXIT;
    }
    return code;
  } finally {
    await conn.close();
  }
}
