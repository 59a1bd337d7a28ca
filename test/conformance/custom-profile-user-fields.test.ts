/**
 * Conformance: the value of a "Users" custom profile field, checked by
 * zerver/models/custom_profile_fields.py `check_valid_user_ids` (through
 * zerver/lib/users.py `validate_user_custom_profile_field`, `allow_deactivated=False`): a list
 * of integers, every ID a user of the organization ("Invalid user IDs: ..."), then each user
 * active ("User with ID N is deactivated") and not a bot ("User with ID N is a bot"). Ported
 * from zerver/tests/test_users.py UserProfileTest.test_valid_user_id, which calls the function
 * directly; here through the two endpoints that reach it, PATCH /users/me/profile_data and
 * PATCH /users/{id}. iago → admin, hamlet → alice, cordelia → carol, default_bot → deploy-bot;
 * a deactivated user is `former`.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient, TestResponse } from '../support/emulator-client';

let z: Emulator;
let iago: TestClient;
let mentor: number;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  iago = clientFor(z, 'admin');
  const res = await iago.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 });
  expectSuccess(res);
  mentor = res.body.id as number;
});
afterEach(() => z.close());

const id = (local: string): number => z.org.users.find((u) => u.email.startsWith(`${local}@`))!.id;

const ENDPOINTS: Array<[string, (value: unknown) => Promise<TestResponse>]> = [
  [
    'PATCH /users/me/profile_data',
    (value) => iago.patch('/users/me/profile_data', { data: [{ id: mentor, value }] }),
  ],
  [
    'PATCH /users/{id}',
    (value) => iago.patch(`/users/${id('carol')}`, { profile_data: [{ id: mentor, value }] }),
  ],
];

describe.each(ENDPOINTS)('test_users.py UserProfileTest.test_valid_user_id, via %s', (_e, set) => {
  it('a deactivated user: "User with ID N is deactivated"', async () => {
    expect(z.org.users.find((u) => u.id === id('former'))?.isActive).toBe(false);
    expectError(await set([id('former')]), `User with ID ${id('former')} is deactivated`);
  });

  it('a bot: "User with ID N is a bot"', async () => {
    expectError(await set([id('deploy-bot')]), `User with ID ${id('deploy-bot')} is a bot`);
  });

  it('IDs that are not users are reported before a deactivated user', async () => {
    expectError(await set([id('former'), 1000]), 'Invalid user IDs: 1000');
  });

  it('an active human user of the organization is accepted', async () => {
    expectSuccess(await set([id('alice')]));
  });
});
