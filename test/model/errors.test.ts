import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ERROR_CODES,
  ZulipCdkError,
  foreignErrorCode,
  isErrorCode,
  isZulipCdkError,
} from '../../src/model/errors';
import { readDesiredStateFile } from '../../src/synth/manifest';
import { runApp } from '../../src/synth/run-app';

describe('error codes', () => {
  test('are listed once each, one name per meaning', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    // The merged pairs: one name each.
    expect(isErrorCode('UNSUPPORTED_FEATURE')).toBe(true);
    expect(isErrorCode('FEATURE_UNSUPPORTED')).toBe(false);
    expect(isErrorCode('DESIRED_STATE_INVALID')).toBe(true);
    expect(isErrorCode('BAD_DESIRED_STATE')).toBe(false);
  });

  test('a mistyped code is a compile error; Zulip codes go through foreignErrorCode', () => {
    // @ts-expect-error: not one of ERROR_CODES (`npx tsc` fails when this compiles).
    const typo = new ZulipCdkError('PLAN_INVAILD', 'x');
    expect(typo.code).toBe('PLAN_INVAILD');
    const zulips = new ZulipCdkError(foreignErrorCode('BAD_EVENT_QUEUE_ID'), 'gone');
    expect(isZulipCdkError(zulips, 'BAD_EVENT_QUEUE_ID')).toBe(true);
    expect(isErrorCode(zulips.code)).toBe(false);
  });
});

describe('one desired-state reader', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-errors-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('synth output that is not a desired state is DESIRED_STATE_INVALID, naming the file', async () => {
    // An "app" that writes a manifest listing a file that is not a desired state.
    const manifest = JSON.stringify({
      formatVersion: 1,
      organizations: [{ id: 'acme', path: 'acme', file: 'acme.zulip.json' }],
    });
    writeFileSync(join(dir, 'manifest.json'), manifest);
    const app = `mkdir -p "$ZULIP_CDK_OUTDIR" && cp manifest.json "$ZULIP_CDK_OUTDIR/zulip-cdk.manifest.json" && echo '{"channels": 3}' > "$ZULIP_CDK_OUTDIR/acme.zulip.json"`;
    const file = join(dir, 'out', 'acme.zulip.json');
    const err = await runApp({ app, outdir: 'out', cwd: dir }).catch((e: unknown) => e);
    expect(isZulipCdkError(err, 'DESIRED_STATE_INVALID')).toBe(true);
    expect(err).toMatchObject({ where: file });
    expect((err as Error).message).toContain(`${file} is not a zulip-cdk desired state`);
    // The same error --desired gives for the same file.
    expect(() => readDesiredStateFile(file)).toThrow((err as Error).message);
  });

  test('a file that is not JSON is DESIRED_STATE_UNREADABLE', () => {
    const file = join(dir, 'acme.zulip.json');
    writeFileSync(file, '{');
    let err: unknown;
    try {
      readDesiredStateFile(file);
    } catch (e) {
      err = e;
    }
    expect(isZulipCdkError(err, 'DESIRED_STATE_UNREADABLE')).toBe(true);
    expect(err).toMatchObject({ where: file });
  });
});
