import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Construct } from 'constructs';
import type { IConstruct } from 'constructs';
import { reportError } from '../synth/error-file';
import { readManifest, writeManifest } from '../synth/manifest';
import type { ManifestEntry } from '../synth/manifest';
import { buildDesiredState, desiredStateFileName, writeDesiredState } from './synthesizer';
import { ValidationError, collectProblems } from '../synth/validation';
import { creationSite } from './source-location';
import type { Organization } from './organization';
import { APP, ORGANIZATION, brand, brandGuard, hasBrand } from './symbols';

/** The environment variable `zulip-cdk synth` sets to tell an app where to write. */
export const OUTDIR_ENV = 'ZULIP_CDK_OUTDIR';

/** Options of an {@link App}. */
export interface AppProps {
  /**
   * Where to write the desired states. Leave it unset when the app runs under
   * `zulip-cdk synth` (the CLI chooses the directory through the environment).
   * @default - $ZULIP_CDK_OUTDIR, else $CDKTF_OUTDIR, else 'zulip.out'
   */
  readonly outdir?: string;
}

/**
 * The root of a zulip-cdk program. `synth()` validates every construct, then writes one
 * desired state per organization to `<outdir>/<orgId>.zulip.json` and a manifest,
 * `<outdir>/zulip-cdk.manifest.json`, listing them.
 *
 * @example
 * const app = new App();
 * const org = new Organization(app, 'acme');
 * new Channel(org, 'general', { name: 'general' });
 * app.synth();
 */
export class App extends Construct {
  /** True when `x` is an {@link App}. */
  public static readonly isApp = brandGuard<App>(APP);

  /** The output directory. */
  public readonly outdir: string;

  public constructor(props: AppProps = {}) {
    super(undefined as unknown as Construct, '');
    brand(this, APP);
    this.outdir =
      props.outdir ?? process.env[OUTDIR_ENV] ?? process.env.CDKTF_OUTDIR ?? 'zulip.out';
  }

  /** Every organization in the app, in tree order. */
  public get organizations(): Organization[] {
    return this.node
      .findAll()
      .filter((c: IConstruct): c is Organization => hasBrand(c, ORGANIZATION));
  }

  /**
   * Validates the whole tree (throwing one `ValidationError` that lists every problem) and
   * writes the desired states. Writing files is its only I/O: it makes no request.
   */
  public synth(): void {
    try {
      const orgs = this.organizations;
      const problems = collectProblems(this, creationSite);
      const byFile = new Map<string, Organization>();
      for (const org of orgs) {
        const file = desiredStateFileName(org.orgId);
        const first = byFile.get(file);
        if (first) {
          problems.push({
            path: org.node.path,
            message: `organization id '${org.orgId}' is also used by ${first.node.path}; both would be written to ${file}: give each organization of an app its own id`,
          });
        } else byFile.set(file, org);
      }
      if (problems.length > 0) throw new ValidationError(problems);
      const states = orgs.map((org) => ({ org, state: buildDesiredState(org) }));
      const previous = readManifest(this.outdir);
      const entries: ManifestEntry[] = [];
      for (const { org, state } of states) {
        const file = writeDesiredState(this.outdir, state);
        entries.push({ id: org.orgId, path: org.node.path, file });
      }
      for (const old of previous?.organizations ?? []) {
        const stale = join(this.outdir, old.file);
        if (!entries.some((e) => e.file === old.file) && existsSync(stale)) rmSync(stale);
      }
      writeManifest(this.outdir, entries);
    } catch (e) {
      reportError(e);
      throw e;
    }
  }
}
