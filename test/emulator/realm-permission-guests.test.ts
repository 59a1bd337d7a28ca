import { holdsRealmSetting } from '../../src/emulator/permissions';
import { addUser, emptyOrg } from '../../src/emulator/state';
import { ROLES } from '../../src/model';

/**
 * zerver/models/users.py `UserProfile.has_permission`: an organization setting is checked by
 * `user_has_permission_for_group_setting`, which refuses a guest for a setting that does not
 * allow role:everyone, whatever group it names. Found by the differential test of the plan's
 * effective permissions (test/apply/effective-permissions-differential.test.ts): the embedded
 * server let a guest named in `can_add_subscribers_group` (and the other organization
 * settings) through.
 */
describe("an organization setting's guest rule", () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const org = emptyOrg(now);
  const guest = addUser(org, now, { email: 'g@example.com', fullName: 'G', role: ROLES.guest });
  const member = addUser(org, now, { email: 'm@example.com', fullName: 'M', role: ROLES.member });
  const both = { direct_members: [guest.id, member.id], direct_subgroups: [] };
  org.realm.settings.can_add_subscribers_group = both;
  org.realm.settings.can_create_bots_group = both;
  org.realm.settings.direct_message_permission_group = both;

  it('refuses a guest the settings that do not allow role:everyone', () => {
    expect(holdsRealmSetting(org, guest, 'can_add_subscribers_group')).toBe(false);
    expect(holdsRealmSetting(org, guest, 'can_create_bots_group')).toBe(false);
    expect(holdsRealmSetting(org, member, 'can_add_subscribers_group')).toBe(true);
  });

  it('lets a guest through those that allow it', () => {
    expect(holdsRealmSetting(org, guest, 'direct_message_permission_group')).toBe(true);
  });
});
