/**
 * What the embedded server refuses (as Zulip does) in the requests apply would send for user
 * groups and users, said by the plan first: each test plans against the embedded server, checks
 * the plan's error and that no request was sent, then sends the request the plan would have led
 * to and checks the server refuses it the same way.
 */
import { plan } from '../../src/engine';
import { readLiveState } from '../../src/provider/read-live-state';
import { desired, dGroup } from '../engine/fixtures';
import { clientFor, expectError } from '../support/emulator-client';
import { thrownError } from '../support/errors';
import { harness } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

test('deactivating a group an undeclared group has as a subgroup: refused by the plan, as by the server', async () => {
  const backend = h.z.org.groups.find((g) => g.name === 'backend')!;
  const live = await readLiveState(h.client);
  const before = h.z.requestLog.length;
  const message = thrownError(() =>
    plan(
      desired((d) => d.userGroups.push(dGroup('backend', { deactivated: true }))),
      live,
      {},
    ),
  ).message;
  expect(message).toContain(
    'userGroup["backend"] (acme/backend): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and after this plan user group \'engineering\' has it as a subgroup.',
  );
  expect(h.z.requestLog.length).toBe(before);
  expectError(
    await clientFor(h.z, 'owner').post(`/user_groups/${backend.id}/deactivate`, {}),
    'Cannot deactivate user group in use.',
    'CANNOT_DEACTIVATE_GROUP_IN_USE',
  );
});
