import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IConstruct } from 'constructs';
import type { DesiredState } from '../model/desired-state';
import { App } from './app';
import type { AppProps } from './app';
import { Organization } from './organization';
import type { OrganizationProps } from './organization';
import { stableStringify } from '../synth/stable-json';
import { synthesizeOrganization } from './synthesizer';
import { collectProblems } from '../synth/validation';
import type { ValidationProblem } from '../synth/validation';

/**
 * Helpers for unit-testing your own organization: synthesize in memory (no files, no
 * requests) and assert on the desired state.
 *
 * @example
 * test('leadership is private', () => {
 *   const org = Testing.organization();
 *   new Channel(org, 'leadership', { name: 'leadership', private: true });
 *   const state = Testing.synth(org);
 *   expect(state.channels[0]?.private).toBe(true);
 * });
 */
export class Testing {
  /** An app whose output directory is a fresh path under the OS temp directory. */
  public static app(props: AppProps = {}): App {
    return new App({ outdir: join(tmpdir(), `zulip-cdk-test-${randomUUID()}`), ...props });
  }

  /** An organization in a fresh {@link Testing.app}. */
  public static organization(id = 'test', props: OrganizationProps = {}): Organization {
    return new Organization(Testing.app(), id, props);
  }

  /**
   * Validates and synthesizes one organization in memory. Throws a `ValidationError` listing
   * every problem, as `app.synth()` would.
   */
  public static synth(org: Organization): DesiredState {
    return synthesizeOrganization(org);
  }

  /** The JSON `app.synth()` would write for the organization, byte for byte. */
  public static synthJson(org: Organization): string {
    return stableStringify(synthesizeOrganization(org));
  }

  /** Every validation problem under `scope`, without throwing (empty when all is well). */
  public static validate(scope: IConstruct): ValidationProblem[] {
    return collectProblems(scope);
  }

  protected constructor() {}
}
