import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planJsonSchema } from './plan-format';

/**
 * Where the plan's JSON Schema lives in the package (`schema/plan.schema.json`), exported as
 * `zulip-cdk/schema/plan.json`. Generated from {@link planJsonSchema}; a test checks the
 * committed file equals the generated schema.
 */
export const PLAN_SCHEMA_PATH = join(__dirname, '..', '..', 'schema', 'plan.schema.json');

/** The schema file's content (prettier keeps it as is: 2-space JSON with a final newline). */
export function planJsonSchemaText(): string {
  return `${JSON.stringify(planJsonSchema(), null, 2)}\n`;
}

/** Whether the committed file holds the schema generated now (compared as JSON). */
export function isPlanJsonSchemaUpToDate(path = PLAN_SCHEMA_PATH): boolean {
  try {
    const committed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return JSON.stringify(committed) === JSON.stringify(planJsonSchema());
  } catch {
    return false;
  }
}

// `npx tsx src/engine/plan-schema-file.ts && npx prettier --write schema` regenerates the file.
if (require.main === module) {
  writeFileSync(PLAN_SCHEMA_PATH, planJsonSchemaText());
}
