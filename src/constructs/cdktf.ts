import { join } from 'node:path';
import type { IConstruct } from 'constructs';
import { ZulipCdkError } from '../model/errors';
import type { Organization } from './organization';
import { reportError } from '../synth/error-file';
import type { ManifestEntry } from '../synth/manifest';
import { manifestPath, writeManifest } from '../synth/manifest';
import { synthesizeOrganization, writeDesiredState } from './synthesizer';

/**
 * cdktf interop without importing cdktf. cdktf's `StackSynthesizer.synthesize` runs every
 * validation of the stack's tree, then calls `onSynthesize(session)` on each construct that
 * carries the `cdktf/customSynthesis` symbol (leaves first), and cdktf recognises its stacks
 * and apps by the `cdktf/TerraformStack` and `cdktf/App` symbols. All three are `Symbol.for`
 * keys, so duck typing is enough and cdktf stays an optional peer dependency.
 */
const CDKTF_STACK = Symbol.for('cdktf/TerraformStack');
const CDKTF_APP = Symbol.for('cdktf/App');
const CDKTF_CUSTOM_SYNTHESIS = Symbol.for('cdktf/customSynthesis');

/** The part of cdktf's synthesis session we use. */
interface CdktfSession {
  readonly outdir: string;
  readonly manifest: { forStack(stack: IConstruct): { workingDirectory: string } };
}

// Entries written during one cdktf `app.synth()`, keyed by its manifest object.
const sessions = new WeakMap<object, ManifestEntry[]>();

function findAncestor(c: IConstruct, brand: symbol): IConstruct | undefined {
  for (let s: IConstruct | undefined = c.node.scope; s; s = s.node.scope) {
    if (brand in s) return s;
  }
  return undefined;
}

/** Makes an organization synthesize with cdktf's `app.synth()` when it sits in a cdktf stack. */
export function registerCdktfSynthesis(org: Organization): void {
  const stack = findAncestor(org, CDKTF_STACK);
  if (!stack) {
    if (findAncestor(org, CDKTF_APP)) {
      org.node.addValidation({
        validate: () => [
          'an Organization in a cdktf App must be inside a TerraformStack (cdktf only synthesizes stacks): create it with a TerraformStack as its scope',
        ],
      });
    }
    return;
  }
  Object.defineProperty(org, CDKTF_CUSTOM_SYNTHESIS, {
    enumerable: false,
    value: {
      onSynthesize(session: CdktfSession): void {
        try {
          const state = synthesizeOrganization(org);
          const workdir = session.manifest.forStack(stack).workingDirectory;
          const file = writeDesiredState(join(session.outdir, workdir), state);
          const entries = sessions.get(session.manifest) ?? [];
          sessions.set(session.manifest, entries);
          const relative = manifestPath(workdir, file);
          const clash = entries.find((e) => e.file === relative);
          if (clash) {
            throw new ZulipCdkError(
              'DUPLICATE_ORGANIZATION',
              `organizations ${clash.path} and ${org.node.path} would both be written to ${relative}`,
              { where: org.node.path, hint: 'give organizations in one stack different ids' },
            );
          }
          entries.push({ id: org.orgId, path: org.node.path, file: relative });
          writeManifest(session.outdir, entries);
        } catch (e) {
          reportError(e);
          throw e;
        }
      },
    },
  });
}
