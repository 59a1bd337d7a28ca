import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DESIRED_STATE_FORMAT_VERSION, DesiredStateSchema } from '../model/desired-state';
import type { DesiredState } from '../model/desired-state';
import { ZulipCdkError } from '../model/errors';
import { KIND_SPECS, RESOURCE_KINDS } from '../model/kinds';
import type { KindSpec } from '../model/kinds';
import type { Organization } from './organization';
import { compareStrings, stableStringify } from '../synth/stable-json';
import { assertValid } from '../synth/validation';
import { creationSite } from './source-location';

/** The file name of an organization's desired state. */
export function desiredStateFileName(orgId: string): string {
  return `${orgId}.zulip.json`;
}

/**
 * Builds the desired state of an organization from its constructs, without validating the
 * tree (callers validate first). Orders follow the comments of the DesiredState schema.
 */
export function buildDesiredState(org: Organization): DesiredState {
  const state = {
    formatVersion: DESIRED_STATE_FORMAT_VERSION,
    organization: {
      id: org.orgId,
      path: org.node.path,
      prune: { ...org.prune },
      ...(org.maxRemovals !== undefined && { maxRemovals: org.maxRemovals }),
      ...(org.guards !== undefined && { guards: org.guards }),
    },
    ...Object.fromEntries(RESOURCE_KINDS.map((k) => [KIND_SPECS[k].collection, []])),
  } as DesiredState;
  // Each entry goes to its kind's collection; the schema check below catches a wrong shape.
  for (const r of org._resources())
    (state[KIND_SPECS[r.resourceKind].collection] as object[]).push(r._toDesired());
  // Ordered kinds (`ordered` in the registry: folders, linkifiers) stay in declaration order
  // (_resources() is in that order); the others are sorted as their spec's `sortedBy` says.
  for (const k of RESOURCE_KINDS) {
    const by = (KIND_SPECS[k] as KindSpec).sortedBy as
      ((d: object) => readonly string[]) | undefined;
    if (by) (state[KIND_SPECS[k].collection] as object[]).sort((a, b) => compareBy(by(a), by(b)));
  }
  const parsed = DesiredStateSchema.safeParse(state);
  if (!parsed.success) {
    throw new ZulipCdkError(
      'INTERNAL_ERROR',
      `synth produced a desired state that does not match its schema (a bug in zulip-cdk): ${parsed.error.message}`,
      { where: org.node.path },
    );
  }
  // Through JSON and back: what tests see in memory is exactly what the file holds.
  return JSON.parse(stableStringify(parsed.data)) as DesiredState;
}

/** Compares two lists of strings in order: the first that differs decides. */
function compareBy(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareStrings(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return 0;
}

/** Validates the organization's tree and builds its desired state; throws one ValidationError. */
export function synthesizeOrganization(org: Organization): DesiredState {
  assertValid(org, creationSite);
  return buildDesiredState(org);
}

/** Writes a desired state to `<dir>/<orgId>.zulip.json`; returns the file name. */
export function writeDesiredState(dir: string, state: DesiredState): string {
  mkdirSync(dir, { recursive: true });
  const file = desiredStateFileName(state.organization.id);
  writeFileSync(join(dir, file), stableStringify(state));
  return file;
}
