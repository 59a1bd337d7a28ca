/**
 * What the embedded server refuses (as Zulip does) in the requests apply would send for user
 * groups and users, said by the plan first: each test plans against the embedded server, checks
 * the plan's error and that no request was sent, then sends the request the plan would have led
 * to and checks the server refuses it the same way.
 */
import { plan } from '../../src/engine';
import { setRealmProperty } from '../../src/emulator/realm-settings';
import { DEMO_DOMAIN } from '../../src/emulator/seed';
import { systemGroupId } from '../../src/emulator/state';
import type { DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { desired, dGroup } from '../engine/fixtures';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import { thrownError } from '../support/errors';
import { harness, planErrorAs } from './helpers';
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

/** The plan's error for `d` against the embedded server as the owner; no request is sent. */
const planError = (d: DesiredState): Promise<string> => planErrorAs(h, d);

const user = (local: string, o: Record<string, unknown>) => ({
  path: `acme/${local}`,
  email: `${local}@${DEMO_DOMAIN}`,
  ...o,
});

test('demoting the only owner: refused by the plan, as by the server', async () => {
  expect(
    await planError(desired((d) => d.users.push(user('owner', { role: 'administrator' })))),
  ).toContain(
    'Zulip refuses to change its role ("The owner permission cannot be removed from the only organization owner.")',
  );
  const owner = h.z.org.users.find((u) => u.email === `owner@${DEMO_DOMAIN}`)!;
  expectError(
    await clientFor(h.z, 'owner').patch(`/users/${owner.id}`, { role: 200 }),
    'The owner permission cannot be removed from the only organization owner.',
  );
});

test('a name another user has, with require_unique_names: refused by the plan, as by the server', async () => {
  setRealmProperty(h.z.org, 'require_unique_names', true);
  expect(
    await planError(desired((d) => d.users.push(user('alice', { fullName: 'bob member' })))),
  ).toContain('Zulip refuses it ("Unique names required in this organization.")');
  const alice = h.z.org.users.find((u) => u.email === `alice@${DEMO_DOMAIN}`)!;
  expectError(
    await clientFor(h.z, 'owner').patch(`/users/${alice.id}`, { full_name: 'bob member' }),
    'Unique names required in this organization.',
  );
});

/** The plan's error for `d` as the seed's moderator would plan it, and the moderator. */
async function moderatorPlanError(d: DesiredState): Promise<{ message: string; email: string }> {
  const moderator = h.z.org.users.find((u) => u.role === 300 && !u.isBot)!;
  const live = await readLiveState(h.client);
  const me = { userId: moderator.id, email: moderator.email, role: 300 };
  return { message: thrownError(() => plan(d, { ...live, me }, {})).message, email: me.email };
}

test("a moderator changing a user's name: refused by the plan, as by the server", async () => {
  const z = h.z;
  const { message, email } = await moderatorPlanError(
    desired((d) => d.users.push(user('alice', { fullName: 'Alice A' }))),
  );
  expect(message).toContain(
    'needs an organization administrator (PATCH /users/{id}); Zulip refuses it for',
  );
  const alice = z.org.users.find((u) => u.email === `alice@${DEMO_DOMAIN}`)!;
  expectError(
    await clientFor(z, email).patch(`/users/${alice.id}`, { full_name: 'Alice A' }),
    'Insufficient permission',
  );
});

test('a linkifier planned by a moderator: refused by the plan, as by the server (require_realm_admin)', async () => {
  const linkifier = { pattern: 'GH-(?P<id>[0-9]+)', urlTemplate: 'https://gh.example/{id}' };
  const { message, email } = await moderatorPlanError(
    desired((d) => d.linkifiers.push({ path: 'acme/gh', ...linkifier })),
  );
  expect(message).toContain(
    'Zulip lets only organization administrators change linkifiers ("Must be an organization administrator")',
  );
  expectError(
    await clientFor(h.z, email).post('/realm/filters', {
      pattern: linkifier.pattern,
      url_template: linkifier.urlTemplate,
    }),
    'Must be an organization administrator',
    'UNAUTHORIZED_PRINCIPAL',
  );
});

test('a subgroup that makes a cycle through an undeclared group: refused by the plan, as by the server', async () => {
  const backend = h.z.org.groups.find((g) => g.name === 'backend')!;
  const engineering = h.z.org.groups.find((g) => g.name === 'engineering')!;
  expect(
    await planError(
      desired((d) =>
        d.userGroups.push(
          dGroup('backend', {
            members: { mode: 'atLeast', users: [], groups: ['engineering'] },
            lifecycle: { ignoreChanges: ['description', 'permissions'] },
          }),
        ),
      ),
    ),
  ).toContain(
    `userGroup["backend"] (acme/backend): members.groups: adding 'engineering' makes a cycle of subgroups (backend -> engineering -> backend) after this plan; Zulip refuses it ("User group ${backend.id} is already a subgroup of one of the passed subgroups.")`,
  );
  expectError(
    await clientFor(h.z, 'owner').post(`/user_groups/${backend.id}/subgroups`, {
      add: JSON.stringify([engineering.id]),
    }),
    `User group ${backend.id} is already a subgroup of one of the passed subgroups.`,
  );
});

test('a setting whose only user is deactivated (role:nobody where Zulip refuses it): refused by the plan, as by the server', async () => {
  const erin = h.z.org.users.find((u) => u.email === `erin@${DEMO_DOMAIN}`)!;
  erin.isActive = false;
  const message = await planError(
    desired((d) =>
      d.organizationSettings.push({
        path: 'acme/settings',
        properties: {},
        permissions: { canManageAllGroups: { users: [erin.email], groups: [] } },
      }),
    ),
  );
  expect(message).toContain(
    `permissions.canManageAllGroups comes to 'role:nobody' (no user left: the users it names are deactivated or none), which Zulip refuses for this setting ("'can_manage_all_groups' setting cannot be set to 'role:nobody' group.")`,
  );
  expectError(
    await clientFor(h.z, 'owner').patch('/realm', {
      can_manage_all_groups: JSON.stringify({ new: { direct_members: [], direct_subgroups: [] } }),
    }),
    "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
  );
});

test('reactivating a bot an active user shares its name with: refused by the plan, as by the server', async () => {
  const bot = h.z.org.users.find((u) => u.isBot && u.email.startsWith('deploy-bot@'))!;
  const alice = h.z.org.users.find((u) => u.email === `alice@${DEMO_DOMAIN}`)!;
  bot.isActive = false;
  alice.fullName = bot.fullName;
  expect(
    await planError(
      desired((d) => d.users.push({ path: 'acme/bot', email: bot.email, active: true })),
    ),
  ).toContain(
    `Zulip refuses to reactivate it ("There is already an active bot named "${bot.fullName}"`,
  );
  expectError(
    await clientFor(h.z, 'owner').post(`/users/${bot.id}/reactivate`, {}),
    `There is already an active bot named "${bot.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
  );
});

test('handing the organization over in one plan: apply promotes the new owner before demoting the old', async () => {
  // The owner (the applying account) makes alice the owner and becomes a member; declared
  // first, its demotion still goes last (Zulip refuses to demote the only owner).
  const d = desired((d) => {
    d.users.push(user('owner', { role: 'member' }));
    d.users.push(user('alice', { role: 'owner' }));
  });
  const result = await h.converge(d);
  expect(result.after.changes).toEqual([]);
  expect(h.z.org.users.find((u) => u.email === `alice@${DEMO_DOMAIN}`)!.role).toBe(100);
});

test('what needs an owner, as an administrator: refused by the plan, as by the server', async () => {
  const admin = `admin@${DEMO_DOMAIN}`;
  const alice = h.z.org.users.find((u) => u.email === `alice@${DEMO_DOMAIN}`)!;
  expect(
    await planErrorAs(
      h,
      desired((d) => d.users.push(user('alice', { role: 'owner' }))),
      admin,
    ),
  ).toContain(
    `user["alice@${DEMO_DOMAIN}"] (acme/alice): granting the owner role needs an organization owner ("Must be an organization owner"), and the applying account ${admin} is not one`,
  );
  expectError(
    await clientFor(h.z, 'admin').patch(`/users/${alice.id}`, { role: 100 }),
    'Must be an organization owner',
    'UNAUTHORIZED_PRINCIPAL',
  );
  const owner = h.z.org.users.find((u) => u.email === `owner@${DEMO_DOMAIN}`)!;
  // Another owner: Zulip refuses to deactivate the only one (a plan error of its own).
  const alan = h.z.org.users.find((u) => u.email === `alan@${DEMO_DOMAIN}`)!;
  expectSuccess(await clientFor(h.z, 'owner').patch(`/users/${alan.id}`, { role: 100 }));
  expect(
    await planErrorAs(
      h,
      desired((d) => d.users.push(user('owner', { active: false }))),
      admin,
    ),
  ).toContain('deactivating an organization owner needs an organization owner');
  expectError(
    await clientFor(h.z, 'admin').delete(`/users/${owner.id}`),
    'Must be an organization owner',
    'UNAUTHORIZED_PRINCIPAL',
  );
});

test('reactivating a generic bot with only canCreateWriteOnlyBotsGroup: refused by the plan, as by the server', async () => {
  const bot = h.z.org.users.find((u) => u.isBot && u.email.startsWith('deploy-bot@'))!;
  expect(bot.botType).toBe(1);
  bot.isActive = false;
  h.z.org.realm.settings.can_create_bots_group = systemGroupId(h.z.org, 'role:nobody');
  h.z.org.realm.settings.can_create_write_only_bots_group = systemGroupId(h.z.org, 'role:owners');
  expect(
    await planError(
      desired((d) => d.users.push({ path: 'acme/bot', email: bot.email, active: true })),
    ),
  ).toContain(
    `user["${bot.email}"] (acme/bot): reactivating a bot needs the right to create one (the organization's canCreateBotsGroup); Zulip refuses it for owner@${DEMO_DOMAIN} ("Insufficient permission")`,
  );
  expectError(
    await clientFor(h.z, 'owner').post(`/users/${bot.id}/reactivate`, {}),
    'Insufficient permission',
  );
  // An incoming webhook bot: the write-only right is enough, for the plan as for the server.
  bot.botType = 2;
  const result = await h.converge(
    desired((d) => d.users.push({ path: 'acme/bot', email: bot.email, active: true })),
  );
  expect(result.after.changes).toEqual([]);
  expect(bot.isActive).toBe(true);
});

test('an allowed domain planned by an administrator: refused by the plan, as by the server (require_realm_owner)', async () => {
  const admin = `admin@${DEMO_DOMAIN}`;
  expect(
    await planErrorAs(
      h,
      desired((d) => d.allowedDomains.push({ path: 'acme/partner', domain: 'Partner.Example' })),
      admin,
    ),
  ).toContain(
    `allowedDomain["partner.example"] (acme/partner): adding an allowed domain needs an organization owner ("Must be an organization owner"), and the applying account ${admin} is not one`,
  );
  expectError(
    await clientFor(h.z, 'admin').post('/realm/domains', {
      domain: 'partner.example',
      allow_subdomains: false,
    }),
    'Must be an organization owner',
    'UNAUTHORIZED_PRINCIPAL',
  );
  expect(h.z.org.realmDomains).toEqual([]);
});

test('the default user settings planned by a moderator: refused by the plan, as by the server (require_realm_admin)', async () => {
  const { message, email } = await moderatorPlanError(
    desired((d) =>
      d.defaultUserSettings.push({ path: 'acme/defaults', properties: { colorScheme: 'dark' } }),
    ),
  );
  expect(message).toContain(
    `defaultUserSettings["organization"] (acme/defaults): changing the default user settings (PATCH /realm/user_settings_defaults) needs an organization administrator ("Must be an organization administrator"), and the applying account ${email} is not one`,
  );
  expectError(
    await clientFor(h.z, email).patch('/realm/user_settings_defaults', { color_scheme: 2 }),
    'Must be an organization administrator',
    'UNAUTHORIZED_PRINCIPAL',
  );
});
