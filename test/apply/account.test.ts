/**
 * What Zulip refuses the applying account whatever the object, against the embedded server: an
 * administrator bot's plan with a user-group change fails before any request that writes, and
 * the server refuses that very request the same way (zerver/decorator.py
 * `require_member_or_admin`), so without the plan's check apply would stop at it.
 */
import { ROLES } from '../../src/model/kinds';
import { readLiveState } from '../../src/provider/read-live-state';
import { plan } from '../../src/engine';
import { DEMO_DOMAIN } from '../../src/emulator/seed';
import { desired, dGroup } from '../engine/fixtures';
import { clientFor, expectError } from '../support/emulator-client';
import { harness, planErrorAs } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

const BOT = `deploy-bot@${DEMO_DOMAIN}`;

test('an administrator bot: the plan refuses a new group, as the server would', async () => {
  h.z.org.users.find((u) => u.email === BOT)!.role = ROLES.administrator;
  const d = desired((x) => x.userGroups.push(dGroup('ops')));
  expect(await planErrorAs(h, d, BOT)).toContain(
    'userGroup["ops"] (acme/ops): Zulip refuses user-group changes from a bot ("This endpoint does not accept bot requests."), whatever its role, and the applying account deploy-bot@',
  );
  // The request the plan would have led to, refused by the server.
  expectError(
    await clientFor(h.z, 'deploy-bot').post('/user_groups/create', {
      name: 'ops',
      description: '',
      members: '[]',
    }),
    'This endpoint does not accept bot requests.',
  );
  // The owner plans it.
  const p = plan(d, await readLiveState(h.client), {});
  expect(p.changes.map((c) => c.id)).toContain('userGroup["ops"]#create');
});

test("an administrator (not an owner) changing the owner's group: refused by the plan, as by the server", async () => {
  const alan = `alan@${DEMO_DOMAIN}`;
  const design = h.z.org.groups.find((g) => g.name === 'design')!;
  const live = await readLiveState(h.client);
  const members = live.userGroups
    .find((g) => g.id === design.id)!
    .members.map((id) => live.users.find((u) => u.id === id)!.email);
  const d = desired((x) =>
    x.userGroups.push(
      dGroup('design', {
        description: 'Design reviews',
        members: { mode: 'exact', users: members, groups: [] },
        lifecycle: { ignoreChanges: ['permissions'] },
      }),
    ),
  );
  expect(await planErrorAs(h, d, alan)).toContain(
    `userGroup["design"] (acme/design): Zulip lets the applying account ${alan} change its description or settings only if it holds the group's canManageGroup, or the organization's canManageAllGroups`,
  );
  expectError(
    await clientFor(h.z, 'alan').patch(`/user_groups/${design.id}`, {
      description: 'Design reviews',
    }),
    'Insufficient permission',
  );
  // The owner may.
  expect(plan(d, live, {}).changes.map((c) => c.id)).toEqual(['userGroup["design"]#update']);
});
