import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as engine from '../../engine';
import { oneOf } from '../command';
import type { Command } from '../command';
import {
  GUARD_OPTIONS,
  GUARD_USAGE,
  LIVE_SOURCE_OPTIONS,
  guardOverrides,
  loadBase,
  checkOneDesiredSource,
  loadDesiredState,
  loadLiveState,
  useColor,
} from '../plan-sources';

const FORMATS = ['text', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** `zulip-cdk plan`: diff the configuration against the live organization. */
export const planCommand: Command = {
  name: 'plan',
  summary: 'Show what apply would change in the live organization',
  usage: `usage: zulip-cdk plan [--app CMD | --desired FILE|DIR] [--org ID]
                      [--zuliprc PATH | --embedded | --live FILE]
                      [--out FILE] [--format text|markdown|json] [--detailed-exitcode]
                      [--target ADDRESS ...] [--base FILE|DIR] [guard flags]

Reads the live organization, diffs it against the configuration and prints the plan.

  --app CMD            the command that synthesizes the app (default: "app" of zulip-cdk.json
                       or cdktf.json)
  --desired FILE|DIR   plan an already synthesized desired state (*.zulip.json) instead
  --org ID             the organization to plan when the app declares several
  --zuliprc PATH       credentials (default: ZULIP_EMAIL/ZULIP_API_KEY/ZULIP_SITE, then
                       ZULIP_CONFIG, then ~/.zuliprc)
  --embedded           plan against a fresh embedded server with the demo organization
  --live FILE          plan against a snapshot (zulip-cdk snapshot --out FILE); no credentials
  --out FILE           save the plan (JSON) for \`zulip-cdk apply FILE\`
  --format F           text (default), markdown (for a pull-request comment) or json
  --detailed-exitcode  exit 0 when the organization matches the configuration, 2 when it does not
                       (changes, or changes left out because Zulip would refuse them), 1 on errors
  --target ADDRESS     limit the plan to an address such as 'channel["eng"]', or a kind such as
                       'channel' (repeatable); what those changes depend on is kept. A target
                       that names no declared or live object is an error
  --base FILE|DIR      the desired state of the base branch (synth output, or a *.zulip.json):
                       the plan then shows this change apart from drift (what applying reverts
                       of changes made by hand in Zulip) and from drift it leaves alone
                       (ignoreChanges, undeclared objects); the digest is the same

Guards on the blast radius (override the organization's \`guards\` for this run; a plan beyond
one has a safety finding, which apply refuses without --force or --allow-privileged):
${GUARD_USAGE}

Exit codes: 0 success, 1 error; with --detailed-exitcode 0 no differences, 2 differences.
`,
  options: {
    app: { type: 'string' },
    desired: { type: 'string' },
    org: { type: 'string' },
    ...LIVE_SOURCE_OPTIONS,
    out: { type: 'string' },
    format: { type: 'string' },
    'detailed-exitcode': { type: 'boolean' },
    target: { type: 'string', multiple: true },
    base: { type: 'string' },
    ...GUARD_OPTIONS,
  },
  async run({ values, io }) {
    const format: Format = oneOf('format', values.format, FORMATS) ?? 'text';
    checkOneDesiredSource(values);
    const targets = Array.isArray(values.target)
      ? values.target.filter((t) => typeof t === 'string')
      : [];
    engine.checkTargetForms(targets);
    const guards = guardOverrides(values);
    const desired = await loadDesiredState(values, io);
    const base = loadBase(values, io, desired.organization.id);
    const live = await loadLiveState(values, io);
    const plan = engine.plan(desired, live, {
      ...(targets.length > 0 ? { targets } : {}),
      ...(guards ? { guards } : {}),
      ...(base ? { base } : {}),
      createdAt: new Date().toISOString(),
    });
    if (typeof values.out === 'string') {
      const file = path.resolve(io.cwd, values.out);
      await writeFile(file, engine.renderJson(plan));
      io.stderr.write(`Saved the plan to ${file} (digest ${plan.digest}).\n`);
    }
    const output =
      format === 'json'
        ? engine.renderJson(plan)
        : format === 'markdown'
          ? engine.renderMarkdown(plan)
          : engine.renderText(plan, { color: useColor(io) });
    io.stdout.write(output);
    // Changes left out because Zulip would refuse them are differences too: exiting 0 would
    // tell a pipeline that the organization matches the configuration.
    if (values['detailed-exitcode'] === true) return engine.hasDifferences(plan) ? 2 : 0;
    return 0;
  },
};
