/**
 * `zulip-cdk/testing`: test your organization code and your bots against an embedded Zulip
 * server, in jest or vitest, without credentials or network: plan a configuration against an
 * organization in memory, apply it, plan again.
 *
 * @packageDocumentation
 */
import type { DesiredState } from '../model/desired-state';
import { Organization } from '../constructs/organization';
import { Testing as ConstructTesting } from '../constructs/testing';
import { synthesizeOrganization } from '../constructs/synthesizer';
import { startEmulator } from '../emulator';
import type { Emulator, EmulatorOptions } from '../emulator';
import { plan as makePlan } from '../engine/plan';
import type { Plan } from '../engine/plan-format';
import { applyPlan } from '../engine/apply';
import type { ApplyOptions, ApplyResult } from '../engine/apply';
import { hasChanges } from '../engine/plan-io';
import { readLiveState } from '../provider/read-live-state';
import { ZulipApplyTarget } from '../provider/write-target';
import { ZulipClient } from '../zulip/client';

export { startEmulator, closeAllEmulators } from '../emulator';
export type { Emulator, EmulatorOptions } from '../emulator';
export { PlanSchema, planJsonSchema, PLAN_FORMAT_VERSION } from '../engine/plan-format';
export type { Change, Plan, PlanSummary, PlanWarning, SafetyFinding } from '../engine/plan-format';
export { hasChanges } from '../engine/plan-io';
export { renderText, renderMarkdown } from '../engine/render';
export type { ApplyOptions, ApplyResult } from '../engine/apply';

/** What to plan: an organization construct (synthesized and validated first) or a desired state. */
export type PlanSubject = Organization | DesiredState;

/** Where {@link Testing.plan} and {@link Testing.planAndApply} run. */
export interface EmbeddedOptions {
  /**
   * A running embedded server to use (left running). Without it, a fresh one is started with
   * {@link EmbeddedOptions.server} and closed at the end.
   */
  readonly emulator?: Emulator;
  /**
   * Options of the server started when `emulator` is not given: `seed` (`'demo'`, the default,
   * or `'empty'`), `featureLevel`, `state`, `planType`, `faults`... Rate limiting is off unless
   * set here.
   */
  readonly server?: EmulatorOptions;
}

/** What {@link Testing.planAndApply} returns. */
export interface TestApplyResult {
  /** The plan that was applied. */
  readonly plan: Plan;
  /** The apply's outcome and journal. */
  readonly result: ApplyResult;
  /** The plan made again after the apply: empty (`converged`) when the apply reached the configuration. */
  readonly after: Plan;
  /** Whether {@link TestApplyResult.after} has no changes. */
  readonly converged: boolean;
}

function desiredOf(subject: PlanSubject): DesiredState {
  return subject instanceof Organization ? synthesizeOrganization(subject) : subject;
}

async function withServer<T>(
  options: EmbeddedOptions,
  run: (client: ZulipClient) => Promise<T>,
): Promise<T> {
  const own =
    options.emulator === undefined
      ? await startEmulator({ rateLimit: false, ...options.server })
      : undefined;
  const client = ZulipClient.forEmbeddedOwner(options.emulator ?? (own as Emulator));
  try {
    return await run(client);
  } finally {
    await client.close();
    await own?.close();
  }
}

/**
 * Helpers for testing your own organization code: everything of the construct library's
 * `Testing` (`Testing.synth`, `Testing.organization`, `Testing.validate`...) plus planning and
 * applying against an embedded Zulip server, acting as its owner.
 *
 * @example
 * import { Channel, SystemGroup } from 'zulip-cdk';
 * import { Testing } from 'zulip-cdk/testing';
 *
 * test('announcements: only administrators post', async () => {
 *   const org = Testing.organization('acme');
 *   new Channel(org, 'announce', { name: 'announce', canSendMessageGroup: SystemGroup.ADMINISTRATORS });
 *   const plan = await Testing.plan(org);
 *   expect(plan.changes.map((c) => c.address)).toContain('channel["announce"]');
 *   const { converged } = await Testing.planAndApply(org);
 *   expect(converged).toBe(true);
 * });
 */
export class Testing extends ConstructTesting {
  /**
   * Plans `subject` against an embedded organization (a fresh demo organization unless
   * `options.emulator` or `options.server` says otherwise): what `zulip-cdk plan` would show.
   * Throws what `plan` throws (a validation error listing every problem, a feature the server
   * lacks...).
   */
  public static async plan(subject: PlanSubject, options: EmbeddedOptions = {}): Promise<Plan> {
    const desired = desiredOf(subject);
    return withServer(options, async (client) => makePlan(desired, await readLiveState(client)));
  }

  /**
   * Plans and applies `subject` on an embedded organization, then plans again (named so
   * because a class's `apply` is `Function.prototype.apply`). Destructive
   * changes are allowed unless `apply.allowDestroy` is false (the organization is a test's).
   * Pass `options.emulator` to look at the organization afterwards (`emulator.org`) or to go on
   * with another apply or a bot.
   */
  public static async planAndApply(
    subject: PlanSubject,
    options: EmbeddedOptions & { readonly apply?: ApplyOptions } = {},
  ): Promise<TestApplyResult> {
    const desired = desiredOf(subject);
    return withServer(options, async (client) => {
      const plan = makePlan(desired, await readLiveState(client));
      const result = await applyPlan(plan, new ZulipApplyTarget(client, plan), {
        allowDestroy: true,
        ...options.apply,
      });
      const after = makePlan(desired, await readLiveState(client));
      return { plan, result, after, converged: !hasChanges(after) };
    });
  }

  protected constructor() {
    super();
  }
}
