import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DesiredStateSchema } from '../model/desired-state';
import { stableStringify } from './stable-json';

/** Where the generated schema lives in the package (`schema/desired-state.schema.json`). */
export const DESIRED_STATE_SCHEMA_PATH = join(
  __dirname,
  '..',
  '..',
  'schema',
  'desired-state.schema.json',
);

/** The JSON Schema of a desired-state file, generated from the zod schema. */
export function desiredStateJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(DesiredStateSchema),
    title: 'zulip-cdk desired state',
    description:
      'What `zulip-cdk synth` writes for one organization (<org>.zulip.json). Generated from src/model/desired-state.ts; do not edit.',
  };
}

/** The schema file's expected content. */
export function desiredStateJsonSchemaText(): string {
  return stableStringify(desiredStateJsonSchema());
}

/**
 * Whether the committed schema file is up to date (compared as JSON: the committed file is
 * formatted by prettier).
 */
export function isJsonSchemaUpToDate(path = DESIRED_STATE_SCHEMA_PATH): boolean {
  try {
    const committed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return stableStringify(committed) === desiredStateJsonSchemaText();
  } catch {
    return false;
  }
}

// `npx tsx src/synth/json-schema.ts && npx prettier --write schema` regenerates the file.
if (require.main === module) {
  writeFileSync(DESIRED_STATE_SCHEMA_PATH, desiredStateJsonSchemaText());
}
