import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import {
  DESIRED_STATE_SCHEMA_PATH,
  Testing,
  desiredStateJsonSchema,
  isJsonSchemaUpToDate,
} from 'zulip-cdk';
import { acme } from '../../examples/acme/organization';

describe('JSON Schema of the desired state', () => {
  test('the committed schema/desired-state.schema.json is up to date', () => {
    // To regenerate: npx tsx src/synth/json-schema.ts && npx prettier --write schema
    expect(isJsonSchemaUpToDate()).toBe(true);
    expect(JSON.parse(readFileSync(DESIRED_STATE_SCHEMA_PATH, 'utf8'))).toEqual(
      desiredStateJsonSchema(),
    );
  });

  test('the example validates against it, and a typo does not', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(desiredStateJsonSchema());
    const state = Testing.synth(acme(Testing.app()));
    expect(validate(state)).toBe(true);
    const broken = { ...state, channels: [{ ...state.channels[0], privat: true }] };
    expect(validate(broken)).toBe(false);
  });
});
