import { startEmulator } from '../../emulator';
import * as engine from '../../engine';
import { ZulipClient } from '../../zulip';
import { readLiveState } from '../../provider/read-live-state';
import { ZulipApplyTarget } from '../../provider/write-target';
import type { Command } from '../command';
import { loadDesiredState, useColor } from '../plan-sources';
import { ApplyProgress, progressMode } from '../progress';
import { desiredCounts } from '../words';

const CLI = 'npx zulip-cdk';

/**
 * `zulip-cdk demo` (`npm start`): the whole loop on an embedded server, for a first-time user:
 * synthesize the example app, plan, apply with progress, plan again and show it is empty.
 */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'Plan and apply the example organization on an embedded server (npm start)',
  usage: `usage: zulip-cdk demo [--app CMD | --desired FILE|DIR] [--org ID]

Starts an embedded Zulip-compatible server with a demo organization, synthesizes the example
app ("app" of zulip-cdk.json or cdktf.json), shows the plan, applies it, and plans again to
show that nothing is left. Exit 0 when the second plan is empty, 1 otherwise.

  --app CMD            the command that synthesizes the app (default: "app" of zulip-cdk.json
                       or cdktf.json)
  --desired FILE|DIR   an already synthesized desired state instead
  --org ID             the organization when the app declares several
`,
  options: {
    app: { type: 'string' },
    desired: { type: 'string' },
    org: { type: 'string' },
  },
  async run({ values, io }) {
    const out = (s = ''): void => {
      io.stdout.write(`${s}\n`);
    };
    const color = useColor(io);
    const bold = (s: string): string => (color ? `\u001b[1m${s}\u001b[0m` : s);
    out(bold('zulip-cdk demo: a Zulip organization as code, planned and applied end to end.'));
    out();

    const z = await startEmulator({ seed: 'demo' });
    const client = ZulipClient.forEmbeddedOwner(z);
    try {
      out(
        `${bold('1.')} Started an embedded Zulip server (feature level ${z.featureLevel}) with a demo organization`,
      );
      out(`   at ${z.site}, acting as its owner ${z.owner.email}.`);
      out();

      out(`${bold('2.')} Synthesizing the example app...`);
      const desired = await loadDesiredState(values, io);
      out(`   Organization '${desired.organization.id}': ${desiredCounts(desired) || 'nothing'}.`);
      out();

      out(`${bold('3.')} The plan: what apply will change in the live organization.`);
      out();
      const live = await readLiveState(client);
      const plan = engine.plan(desired, live);
      io.stdout.write(engine.renderText(plan, { color }));
      out();

      // What the demo lets through that apply refuses without a flag, said rather than implied.
      const allowed = [
        plan.changes.some((c) => c.tags.includes('destructive')) ? '--allow-destroy' : '',
        plan.findings.some((f) => f.code === 'PRIVILEGED_CHANGE') ? '--allow-privileged' : '',
      ].filter(Boolean);
      out(
        `${bold('4.')} Applying it (a real run would ask first, or apply a reviewed plan file${allowed.length > 0 ? `; the demo applies as with ${allowed.join(' and ')}` : ''}):`,
      );
      const progress = new ApplyProgress(io, progressMode(io, false), color);
      let reread = 0;
      const result = await engine.applyPlan(plan, new ZulipApplyTarget(client, plan), {
        allowDestroy: true,
        allowPrivileged: true,
        onEvent: (e) => {
          if (e.type === 'read') reread += e.requests;
          progress.onEvent(e);
        },
      });
      out(
        `   ${plan.changes.length} changes took ${result.journal.requestCount} API requests, apply's re-read of the organization (${reread}) included.`,
      );
      out();

      out(`${bold('5.')} Planning again, to prove the organization now matches the configuration:`);
      const again = engine.plan(desired, await readLiveState(client));
      if (engine.hasChanges(again)) {
        io.stdout.write(engine.renderText(again, { color }));
        out();
        out('The second plan is not empty: apply did not reach the desired state.');
        return 1;
      }
      out(`   ${engine.planSummaryLine(again)}`);
      out();
      out(bold('What to try next:'));
      out(
        `  - Keep a server running (writes a zuliprc for the owner, keeps the organization in a file;`,
      );
      out(`    a fixed port keeps saved plans valid across restarts):`);
      out(`      ${CLI} emulator --zuliprc .zuliprc --state demo-org.json --port 9991`);
      out(`  - Edit examples/acme/organization.ts, then in another terminal:`);
      out(`      ${CLI} plan --zuliprc .zuliprc --out plan.json`);
      out(`      ${CLI} apply plan.json --zuliprc .zuliprc`);
      out(
        `    (apply refuses destructive changes, such as removing a group member, without --allow-destroy)`,
      );
      out(`  - Show the plan as a pull-request comment: add --format markdown to plan.`);
      out(`  - Read README.md and examples/README.md for the construct library and CI.`);
      return engine.exitCodeFor(result.outcome);
    } finally {
      await client.close();
      await z.close();
    }
  },
};
