import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { PLAN_SCHEMA_PATH, isPlanJsonSchemaUpToDate } from '../../src/engine/plan-schema-file';
import { planJsonSchema } from '../../src/engine';
import { Testing } from '../../src/testing';
import { acme } from '../../examples/acme/organization';

describe('schema/plan.schema.json (zulip-cdk/schema/plan.json)', () => {
  test('the committed file is the schema generated from PlanSchema', () => {
    // To regenerate: npx tsx src/engine/plan-schema-file.ts && npx prettier --write schema
    expect(isPlanJsonSchemaUpToDate()).toBe(true);
    expect(JSON.parse(readFileSync(PLAN_SCHEMA_PATH, 'utf8'))).toEqual(planJsonSchema());
    expect(isPlanJsonSchemaUpToDate(`${PLAN_SCHEMA_PATH}.missing`)).toBe(false);
  });

  test('a plan validates against the file; a plan with an unknown field does not', async () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(PLAN_SCHEMA_PATH, 'utf8')));
    const plan = await Testing.plan(acme(Testing.app()));
    expect(plan.changes.length).toBeGreaterThan(0);
    expect(validate(JSON.parse(JSON.stringify(plan)))).toBe(true);
    expect(validate({ ...plan, extra: 1 })).toBe(false);
  });
});
