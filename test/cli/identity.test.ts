import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { parsePlan } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import { fakeIo } from '../support/fake-io';

/**
 * Issue 13: `members: ['bob@acme.exmaple']` in an exact membership removed the real bob and
 * exited 0. A mistyped e-mail now fails plan and apply before any request that writes.
 */
describe('zulip-cdk plan/apply with an e-mail that is not a user', () => {
  let z: Emulator;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-identity-'));
  /** The demo organization's backend group (alice and bob), as `exact` `members`. */
  const backend = (name: string, ...members: string[]): string => {
    const d = emptyDesiredState('acme');
    d.userGroups.push({
      path: 'acme/backend',
      name: 'backend',
      description: 'Backend engineers',
      members: { mode: 'exact', users: members, groups: [] },
      permissions: {},
    });
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(d));
    return file;
  };

  beforeEach(async () => {
    z = await startEmulator({ rateLimit: false });
    env = { ZULIP_EMAIL: z.owner.email, ZULIP_API_KEY: z.owner.apiKey, ZULIP_SITE: z.site };
  });
  afterEach(() => z.close());

  const writes = () =>
    z.requestLog.filter((r) => r.method !== 'GET' && !['/register', '/events'].includes(r.path));

  it('plan exits 1 and says where the e-mail is and whom it probably meant', async () => {
    const typo = backend('typo.json', 'alice@zulip-cdk.example', 'bob@zulip-cdk.exmaple');
    const io = fakeIo({ cwd: dir, env });
    expect(await main(['plan', '--desired', typo, '--detailed-exitcode'], io)).toBe(1);
    expect(io.err()).toContain('Error [UNRESOLVED_REFERENCE]');
    expect(io.err()).toContain(
      'userGroup["backend"] (acme/backend): members: bob@zulip-cdk.exmaple is not a user of this organization; did you mean bob@zulip-cdk.example?',
    );
    expect(io.err()).toContain('zulip-cdk does not create users');
    expect(io.out()).toBe('');
    expect(writes()).toEqual([]);
  });

  it('apply exits 1 before any request that writes, so bob stays in the group', async () => {
    const typo = backend('typo2.json', 'alice@zulip-cdk.example', 'bob@zulip-cdk.exmaple');
    const io = fakeIo({ cwd: dir, env });
    const code = await main(
      ['apply', '--desired', typo, '--auto-approve', '--allow-destroy', '--force'],
      io,
    );
    expect(io.err()).toContain('bob@zulip-cdk.exmaple is not a user of this organization');
    expect(code).toBe(1);
    expect(writes()).toEqual([]);
    // bob is still a member: the corrected configuration has nothing to do.
    const fixed = backend('fixed.json', 'alice@zulip-cdk.example', 'BOB@zulip-cdk.example');
    const again = fakeIo({ cwd: dir, env });
    expect(
      await main(['plan', '--desired', fixed, '--format', 'json', '--detailed-exitcode'], again),
    ).toBe(0);
    expect(parsePlan(JSON.parse(again.out())).changes).toEqual([]);
  });

  it('a deactivated user in an exact membership is a warning, and no change', async () => {
    const former = backend(
      'former.json',
      'alice@zulip-cdk.example',
      'bob@zulip-cdk.example',
      'former@zulip-cdk.example',
    );
    const io = fakeIo({ cwd: dir, env });
    expect(await main(['plan', '--desired', former, '--detailed-exitcode'], io)).toBe(0);
    expect(io.out()).toContain(
      'members: former@zulip-cdk.example is deactivated: neither added nor removed',
    );
    expect(io.out()).toContain('[DEACTIVATED_USER]');
  });
});
