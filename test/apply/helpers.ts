import { startEmulator } from '../../src/emulator';
import type { Emulator, FaultOptions } from '../../src/emulator';
import { applyPlan, plan, planDigest } from '../../src/engine';
import { summarise } from '../../src/engine/plan-finish';
import type { ApplyEvent, ApplyOptions, ApplyResult, Plan } from '../../src/engine';
import type { DesiredState } from '../../src/model';
import { ZulipCdkError } from '../../src/model/errors';
import { ZulipClient, ZulipCredentials } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipApplyTarget } from '../../src/provider/write-target';
import { yamlCheck } from '../emulator/yaml-check';

/**
 * A plan edited as someone who knows the format would: its summary and digest made to match
 * the edited changes, so only the checks against its desired state and the organization can
 * tell.
 */
export function resign(p: Plan): Plan {
  const base = { ...p, summary: summarise(p.changes) };
  return { ...base, digest: planDigest(base) };
}

/** An embedded server with a client logged in as its owner; fast retries for fault tests. */
export interface Harness {
  readonly z: Emulator;
  readonly client: ZulipClient;
  /** Plans the desired state against a fresh read. */
  plan(desired: DesiredState): Promise<Plan>;
  /** Applies a plan with a fresh client (request counts start at 0). */
  apply(
    p: Plan,
    options?: ApplyOptions,
  ): Promise<ApplyResult & { events: ApplyEvent[]; requests: string[] }>;
  /** Plans and applies (allowDestroy), and returns the plan made afterwards. */
  converge(desired: DesiredState): Promise<{ first: Plan; result: ApplyResult; after: Plan }>;
  /** Stops the server; throws if any of its responses did not match zulip.yaml. */
  close(): Promise<void>;
}

/**
 * The plan error of `d` planned against a fresh read as the user `email` (the owner when
 * absent), checking that nothing but the read was sent.
 */
export async function planErrorAs(h: Harness, d: DesiredState, email?: string): Promise<string> {
  const u = email === undefined ? undefined : h.z.org.users.find((x) => x.email === email)!;
  const client = u
    ? new ZulipClient({
        credentials: new ZulipCredentials({ email: u.email, apiKey: u.apiKey, site: h.z.site }),
      })
    : h.client;
  try {
    const live = await readLiveState(client);
    const before = h.z.requestLog.length;
    let error: unknown;
    try {
      plan(d, live, {});
    } catch (e) {
      error = e;
    }
    expect(h.z.requestLog.length).toBe(before);
    expect(error).toBeInstanceOf(ZulipCdkError);
    return (error as ZulipCdkError).message;
  } finally {
    if (client !== h.client) await client.close();
  }
}

export function newClient(z: Emulator): ZulipClient {
  return ZulipClient.forEmbeddedOwner(z, {
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRateLimitRetries: 50 },
  });
}

export async function harness(
  o: { featureLevel?: number; seed?: 'demo' | 'empty'; faults?: FaultOptions } = {},
): Promise<Harness> {
  const check = yamlCheck();
  const z = await startEmulator({
    observe: check.observe,
    featureLevel: o.featureLevel ?? 478,
    seed: o.seed ?? 'demo',
    rateLimit: false,
    ...(o.faults ? { faults: o.faults } : {}),
  });
  const client = newClient(z);
  const h: Harness = {
    z,
    client,
    async plan(desired) {
      return plan(desired, await readLiveState(client));
    },
    async apply(p, options = {}) {
      const c = newClient(z);
      const events: ApplyEvent[] = [];
      const logStart = z.requestLog.length;
      try {
        const result = await applyPlan(p, new ZulipApplyTarget(c, p), {
          ...options,
          onEvent: (e) => {
            events.push(e);
            options.onEvent?.(e);
          },
        });
        return {
          ...result,
          events,
          requests: z.requestLog
            .slice(logStart)
            .map((r) => `${r.method} ${r.path.replace(/\/\d+/g, '/{id}')}`),
        };
      } finally {
        await c.close();
      }
    },
    async converge(desired) {
      const first = await h.plan(desired);
      const result = await h.apply(first, {
        allowDestroy: true,
        force: true,
        allowPrivileged: true,
      });
      const after = await h.plan(desired);
      return { first, result, after };
    },
    async close() {
      await client.close();
      await z.close();
      if (check.problems.length > 0)
        throw new Error(`responses that do not match zulip.yaml:\n${check.problems.join('\n')}`);
    },
  };
  return h;
}

/** `action address` of every change, for readable assertions. */
export function summary(p: Plan): string[] {
  return p.changes.map((c) => `${c.action} ${c.address}`);
}
