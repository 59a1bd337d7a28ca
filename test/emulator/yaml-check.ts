/**
 * Validates every response an emulator sends against zulip.yaml, for tests that talk to it
 * through something other than the plain test client (the project's ZulipClient, the CLI...):
 * `startEmulator({ observe: check.observe })`, then `expect(check.problems).toEqual([])`.
 * The observer runs inside the request and never throws; problems are collected instead.
 */
import type { ObservedResponse, ResponseObserver } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';

export interface YamlCheck {
  /** Pass as `startEmulator({ observe })`. */
  readonly observe: ResponseObserver;
  /** One line per response that does not match its yaml schema. */
  readonly problems: string[];
  /** Responses checked against a yaml schema, and those of endpoints the yaml does not describe. */
  readonly stats: { checked: number; unchecked: Set<string> };
}

export function yamlCheck(): YamlCheck {
  const problems: string[] = [];
  const stats = { checked: 0, unchecked: new Set<string>() };
  const observe = (r: ObservedResponse): void => {
    const outcome = validateResponse(r.method, r.path, r.status, r.body);
    if (outcome.checked) stats.checked += 1;
    else stats.unchecked.add(`${r.method} ${r.path}`);
    if (outcome.errors.length > 0)
      problems.push(
        `${r.method} ${r.path} → ${r.status} does not match zulip.yaml (${outcome.template ?? '?'}): ` +
          `${outcome.errors.slice(0, 5).join('; ')}`,
      );
  };
  return { observe, problems, stats };
}
