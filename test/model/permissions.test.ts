import { SUBSCRIPTION_PROPERTIES } from '../../src/model/kinds';
import {
  ADMINISTRATOR_LEVEL_SETTINGS,
  CHANNEL_GROUP_SETTINGS,
  CHANNEL_PERMISSIONS,
  CHANNEL_SETTINGS_ZULIP_ORDER,
  GROUP_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  USER_GROUP_SETTINGS,
} from '../../src/model/permissions';
import { WireChannelSchema } from '../../src/zulip/wire/channel';
import {
  SUBSCRIPTION_PROPERTY_WIRE_NAMES,
  WireSubscriptionSchema,
} from '../../src/zulip/wire/subscription';
import { WireUserGroupSchema } from '../../src/zulip/wire/user-group';

describe('wire names of group settings come from the permission table', () => {
  it('lists every channel permission once, by its wire name', () => {
    expect([...CHANNEL_GROUP_SETTINGS].sort()).toEqual(
      Object.values(CHANNEL_PERMISSIONS)
        .map((p) => p.wire)
        .sort(),
    );
  });

  it("has Zulip's write order for exactly the channel settings the table names", () => {
    // zerver/models/streams.py Stream.stream_permission_group_settings: update_stream_backend
    // writes in this order, so every setting must have a place in it and none twice.
    expect(new Set(CHANNEL_SETTINGS_ZULIP_ORDER).size).toBe(CHANNEL_SETTINGS_ZULIP_ORDER.length);
    expect([...CHANNEL_SETTINGS_ZULIP_ORDER].sort()).toEqual([...CHANNEL_GROUP_SETTINGS].sort());
  });

  it('lists every user group permission once, by its wire name', () => {
    expect([...USER_GROUP_SETTINGS].sort()).toEqual(
      Object.values(GROUP_PERMISSIONS)
        .map((p) => p.wire)
        .sort(),
    );
  });

  it('the wire schemas read each group setting the table names', () => {
    for (const wire of CHANNEL_GROUP_SETTINGS) expect(WireChannelSchema.shape).toHaveProperty(wire);
    for (const wire of USER_GROUP_SETTINGS) expect(WireUserGroupSchema.shape).toHaveProperty(wire);
  });
});

describe('wire names of subscription properties come from the model', () => {
  it("are the model's properties and Zulip's legacy in_home_view", () => {
    expect([...SUBSCRIPTION_PROPERTY_WIRE_NAMES].sort()).toEqual(
      [...Object.values(SUBSCRIPTION_PROPERTIES), 'in_home_view'].sort(),
    );
    for (const wire of Object.values(SUBSCRIPTION_PROPERTIES))
      expect(WireSubscriptionSchema.shape).toHaveProperty(wire);
  });
});

describe('administrator-level settings', () => {
  test('are the settings flagged in the permission tables, by wire name', () => {
    expect([...ADMINISTRATOR_LEVEL_SETTINGS].sort()).toEqual([
      'can_add_members_group',
      'can_administer_channel_group',
      'can_create_web_public_channel_group',
      'can_manage_all_groups',
      'can_manage_billing_group',
      'can_manage_group',
    ]);
    expect(CHANNEL_PERMISSIONS.canAdministerChannelGroup.administratorLevel).toBe(true);
    expect(GROUP_PERMISSIONS.canManageGroup.administratorLevel).toBe(true);
    expect(ORGANIZATION_PERMISSIONS.canManageAllGroups.administratorLevel).toBe(true);
  });
});
