/**
 * What Zulip refuses the applying account on the channel side (src/engine/plan/account-channels.ts):
 * a plan error on each change's construct, before any request. The rules are Zulip's
 * (zerver/views/streams.py, zerver/lib/streams.py, zerver/views/channel_folders.py); the
 * embedded server's side is in test/apply/channel-account.test.ts.
 */
import { plan } from '../../src/engine';
import type { DesiredState, GroupSettingValue, LiveState } from '../../src/model';
import { ROLES } from '../../src/model';
import { LiveBuilder, dChannel, dFolder, dGroup, desired, user } from './fixtures';
import { thrownError } from '../support/errors';

type Account = 'owner' | 'admin' | 'alice' | 'carol' | 'guest';

const ACCOUNTS = {
  owner: { userId: 1, email: 'owner@example.com', role: ROLES.owner },
  admin: { userId: 2, email: 'admin@example.com', role: ROLES.administrator },
  alice: { userId: 3, email: 'alice@example.com', role: ROLES.member },
  carol: { userId: 5, email: 'carol@example.com', role: ROLES.moderator },
  guest: { userId: 8, email: 'guest@example.com', role: ROLES.guest },
};

/** The fixture's organization with a guest (8), its settings at Zulip's defaults but `o`. */
function org(o: Record<string, string> = {}): LiveBuilder {
  const b = new LiveBuilder();
  b.state.users.push(user(8, 'guest@example.com', 'guest'));
  const setting = (wire: string, fallback: string): number => b.groupId(o[wire] ?? fallback);
  b.state.organizationSettings = {
    properties: {},
    permissions: {
      can_create_public_channel_group: setting('can_create_public_channel_group', 'role:members'),
      can_create_private_channel_group: setting('can_create_private_channel_group', 'role:members'),
      can_create_web_public_channel_group: setting(
        'can_create_web_public_channel_group',
        'role:owners',
      ),
      can_add_subscribers_group: setting('can_add_subscribers_group', 'role:members'),
      can_set_topics_policy_group: setting('can_set_topics_policy_group', 'role:members'),
      can_set_delete_message_policy_group: setting(
        'can_set_delete_message_policy_group',
        'role:moderators',
      ),
    },
  };
  return b;
}

function as(b: LiveBuilder, who: Account): LiveState {
  const live = b.build();
  live.me = ACCOUNTS[who];
  return live;
}

function refused(
  d: DesiredState,
  live: LiveState,
  code: 'ACCOUNT_NOT_ALLOWED' | 'UNRESOLVED_REFERENCE' = 'ACCOUNT_NOT_ALLOWED',
): string {
  // A problem of the account's rights says so (before: UNRESOLVED_REFERENCE); Zulip's rules on
  // a channel, whoever applies, keep UNRESOLVED_REFERENCE.
  const e = thrownError(() => plan(d, live, {}), code);
  return `${e.message}\n${e.hint ?? ''}`;
}

function planned(d: DesiredState, live: LiveState): string[] {
  return plan(d, live, {}).changes.map((c) => c.id);
}

describe('organization administrators only', () => {
  it('channel folders and default channel groups ("Must be an organization administrator")', () => {
    const b = org();
    b.channel('general');
    const d = desired((x) => {
      x.channelFolders.push(dFolder('Ops'));
      x.defaultChannelGroups.push({
        path: 'acme/onboarding',
        name: 'Onboarding',
        channels: ['general'],
      });
    });
    const text = refused(d, as(b, 'alice'));
    expect(text).toContain(
      'channelFolder["Ops"] (acme/folders/Ops): Zulip lets only organization administrators change channel folders ("Must be an organization administrator"), and the applying account alice@example.com is not one',
    );
    expect(text).toContain(
      'defaultChannelGroup["Onboarding"] (acme/onboarding): Zulip lets only organization administrators change default channel groups ("Must be an organization administrator")',
    );
    expect(planned(d, as(b, 'admin'))).toEqual(
      expect.arrayContaining([
        'channelFolder["Ops"]#create',
        'defaultChannelGroup["Onboarding"]#create',
      ]),
    );
  });

  it('a default channel, created or changed', () => {
    const b = org();
    b.channel('general', { creatorId: 3 });
    const d = desired((x) => {
      x.channels.push(dChannel('news', { defaultChannel: true }));
      x.channels.push(dChannel('general', { defaultChannel: true }));
    });
    const text = refused(d, as(b, 'alice'));
    expect(text).toContain(
      'channel["news"] (acme/news): Zulip lets only organization administrators create a default channel ("Insufficient permission")',
    );
    // alice administers general (its creator), but default channels are the organization's.
    expect(text).toContain(
      'channel["general"] (acme/general): Zulip lets only organization administrators make a channel a default channel or not ("You do not have permission to change default channels.")',
    );
    expect(planned(d, as(b, 'admin'))).toContain('channel["general"]#update');
  });
});

describe('creating channels', () => {
  it('a guest creates none ("Not allowed for guest users")', () => {
    const b = org();
    expect(
      refused(
        desired((x) => x.channels.push(dChannel('news'))),
        as(b, 'guest'),
      ),
    ).toContain(
      'channel["news"] (acme/news): Zulip refuses creating channels to a guest ("Not allowed for guest users")',
    );
  });

  it("settings set right after the create need the new channel's administrators to hold the account", () => {
    const b = org();
    const withAdmins = (admins?: GroupSettingValue) =>
      desired((x) =>
        x.channels.push(
          dChannel('news', {
            permissions: {
              canCreateTopicGroup: 'role:members',
              ...(admins !== undefined ? { canAdministerChannelGroup: admins } : {}),
            },
          }),
        ),
      );
    expect(refused(withAdmins('role:administrators'), as(b, 'alice'))).toContain(
      'channel["news"] (acme/news): zulip-cdk sets some of the new channel\'s settings by changing it right after creating it, which Zulip lets only organization administrators and the channel\'s administrators do ("You do not have permission to administer this channel."), and the declared canAdministerChannelGroup leaves out the applying account alice@example.com',
    );
    expect(planned(withAdmins('role:administrators'), as(b, 'admin'))).toContain(
      'channel["news"]#create',
    );
    // The creator by default, or named.
    expect(planned(withAdmins(), as(b, 'alice'))).toContain('channel["news"]#create');
    expect(
      planned(withAdmins({ users: ['alice@example.com'], groups: [] }), as(b, 'alice')),
    ).toContain('channel["news"]#create');
    expect(planned(withAdmins('role:members'), as(b, 'alice'))).toContain('channel["news"]#create');
  });

  it("the organization's setting for the channel's privacy, administrators included", () => {
    const b = org({
      can_create_private_channel_group: 'role:owners',
      can_create_public_channel_group: 'role:administrators',
    });
    const d = desired((x) => {
      x.channels.push(dChannel('secret', { private: true }));
      x.channels.push(dChannel('news'));
    });
    const text = refused(d, as(b, 'admin'));
    expect(text).toContain(
      'channel["secret"] (acme/secret): Zulip lets only those who may create private channels (the organization\'s canCreatePrivateChannelGroup, which gives organization administrators no exception) create private channels ("Insufficient permission"), and the applying account admin@example.com may not',
    );
    expect(text).not.toContain('channel["news"]');
    expect(planned(d, as(b, 'owner'))).toContain('channel["secret"]#create');
  });

  it('web-public needs canCreateWebPublicChannelGroup', () => {
    const b = org();
    expect(
      refused(
        desired((x) => x.channels.push(dChannel('open', { webPublic: true }))),
        as(b, 'admin'),
      ),
    ).toContain("the organization's canCreateWebPublicChannelGroup");
  });

  it('a topics policy and message deletion settings need an administrator or the setting', () => {
    const b = org({ can_set_topics_policy_group: 'role:administrators' });
    const d = desired((x) =>
      x.channels.push(
        dChannel('news', {
          topicsPolicy: 'disable_empty_topic',
          permissions: { canDeleteOwnMessageGroup: 'role:members' },
        }),
      ),
    );
    const text = refused(d, as(b, 'alice'));
    expect(text).toContain(
      'channel["news"] (acme/news): Zulip lets only organization administrators and those who may change channels\' topics policy (the organization\'s canSetTopicsPolicyGroup) set a channel\'s topics policy ("Insufficient permission")',
    );
    expect(text).toContain("the organization's canSetDeleteMessagePolicyGroup");
    // A moderator holds can_set_delete_message_policy_group by default, not the topics policy.
    const carol = refused(d, as(b, 'carol'));
    expect(carol).toContain('canSetTopicsPolicyGroup');
    expect(carol).not.toContain('canSetDeleteMessagePolicyGroup');
    // Nobody may delete: no permission needed.
    const nobody = desired((x) =>
      x.channels.push(
        dChannel('news', { permissions: { canDeleteOwnMessageGroup: 'role:nobody' } }),
      ),
    );
    expect(planned(nobody, as(b, 'alice'))).toContain('channel["news"]#create');
    expect(planned(d, as(b, 'admin'))).toContain('channel["news"]#create');
  });
});

describe('changing an existing channel', () => {
  it("needs an administrator or the channel's canAdministerChannelGroup", () => {
    const b = org();
    b.channel('general', { creatorId: 1 });
    b.channel('mine', { creatorId: 3 });
    const d = desired((x) => {
      x.channels.push(dChannel('general', { description: 'All hands' }));
      x.channels.push(dChannel('mine', { description: 'Mine' }));
    });
    const text = refused(d, as(b, 'alice'));
    expect(text).toContain(
      'channel["general"] (acme/general): Zulip lets only organization administrators and the channel\'s administrators (its canAdministerChannelGroup) change, rename, archive or unarchive a channel ("You do not have permission to administer this channel."), and the applying account alice@example.com is neither',
    );
    expect(text).not.toContain('channel["mine"]');
  });

  it('a group the plan adds the account to counts, and a targeted plan keeps that membership', () => {
    const b = org();
    const stewards = b.group('stewards', {
      members: [4],
      permissions: { can_join_group: b.groupId('role:members') },
    });
    b.channel('general', { permissions: { can_administer_channel_group: stewards.id } });
    const d = desired((x) => {
      x.channels.push(dChannel('general', { description: 'All hands' }));
      x.userGroups.push(
        dGroup('stewards', {
          members: { mode: 'atLeast', users: ['alice@example.com'], groups: [] },
          lifecycle: { ignoreChanges: ['permissions'] },
        }),
      );
    });
    const p = plan(d, as(b, 'alice'), { targets: ['channel["general"]'] });
    expect(p.changes.map((c) => [c.id, c.dependsOn])).toEqual([
      ['userGroup["stewards"]#membership', []],
      ['channel["general"]#update', ['userGroup["stewards"]#membership']],
    ]);
  });

  it("privacy follows the organization's creation settings", () => {
    const b = org({ can_create_public_channel_group: 'role:owners' });
    b.channel('secret', { private: true, subscribers: [1, 2] });
    const d = desired((x) => x.channels.push(dChannel('secret')));
    expect(refused(d, as(b, 'admin'))).toContain(
      'channel["secret"] (acme/secret): Zulip lets only those who may create public channels (the organization\'s canCreatePublicChannelGroup, which gives organization administrators no exception) make a channel public',
    );
    expect(planned(d, as(b, 'owner'))).toContain('channel["secret"]#update');
  });
});

describe('subscribers of an existing channel', () => {
  it('a guest subscribes no one, itself included (require_non_guest_user)', () => {
    const b = org();
    b.channel('general', { subscribers: [1] });
    const self = desired((x) =>
      x.channels.push(
        dChannel('general', {
          subscribers: { mode: 'atLeast', users: ['guest@example.com'], groups: [] },
        }),
      ),
    );
    expect(refused(self, as(b, 'guest'))).toContain(
      'channel["general"] (acme/general): Zulip refuses subscribing to a guest ("Not allowed for guest users"), itself included',
    );
    expect(planned(self, as(b, 'admin'))).toContain('channel["general"]#membership');
  });

  it('subscribing others needs one of the settings that allow it; oneself does not', () => {
    const b = org({ can_add_subscribers_group: 'role:administrators' });
    b.channel('general', { subscribers: [1] });
    const others = desired((x) =>
      x.channels.push(
        dChannel('general', {
          subscribers: { mode: 'atLeast', users: ['bob@example.com'], groups: [] },
        }),
      ),
    );
    expect(refused(others, as(b, 'alice'))).toContain(
      'channel["general"] (acme/general): Zulip lets only organization administrators, the organization\'s canAddSubscribersGroup and the channel\'s canAddSubscribersGroup or canAdministerChannelGroup subscribe others to an existing channel ("Insufficient permission", for every channel of the request)',
    );
    const self = desired((x) =>
      x.channels.push(
        dChannel('general', {
          subscribers: { mode: 'atLeast', users: ['alice@example.com'], groups: [] },
        }),
      ),
    );
    expect(planned(self, as(b, 'alice'))).toContain('channel["general"]#membership');
    // The channel's own setting lets alice through.
    const open = org({ can_add_subscribers_group: 'role:administrators' });
    open.channel('general', {
      subscribers: [1],
      permissions: { can_add_subscribers_group: open.groupId('role:members') },
    });
    const declared = desired((x) =>
      x.channels.push(
        dChannel('general', {
          permissions: { canAddSubscribersGroup: 'role:members' },
          subscribers: { mode: 'atLeast', users: ['bob@example.com'], groups: [] },
        }),
      ),
    );
    expect(planned(declared, as(open, 'alice'))).toEqual(['channel["general"]#membership']);
  });

  it("unsubscribing others needs an administrator or the channel's canRemoveSubscribersGroup", () => {
    const b = org();
    b.channel('general', { subscribers: [1, 3, 4] });
    const d = desired((x) =>
      x.channels.push(
        dChannel('general', {
          subscribers: {
            mode: 'exact',
            users: ['owner@example.com', 'alice@example.com'],
            groups: [],
          },
        }),
      ),
    );
    expect(refused(d, as(b, 'alice'))).toContain(
      'channel["general"] (acme/general): Zulip lets only organization administrators and the channel\'s canRemoveSubscribersGroup or canAdministerChannelGroup unsubscribe others ("Insufficient permission")',
    );
    expect(planned(d, as(b, 'admin'))).toContain('channel["general"]#membership');
  });
});

test('the moderation request channel stays private (update_stream_backend)', () => {
  const b = org();
  const reports = b.channel('reports', { private: true, subscribers: [1] });
  b.state.organizationSettings!.properties.moderation_request_channel_id = reports.id;
  const d = desired((x) => x.channels.push(dChannel('reports')));
  expect(refused(d, as(b, 'owner'), 'UNRESOLVED_REFERENCE')).toContain(
    'channel["reports"] (acme/reports): it is the organization\'s moderation request channel, and Zulip refuses to make that channel public ("Moderation request channel must be private.")',
  );
  b.state.organizationSettings!.properties.moderation_request_channel_id = -1;
  expect(planned(d, as(b, 'owner'))).toContain('channel["reports"]#update');
});

test('a private channel nobody is subscribed to is not unarchived (do_unarchive_stream)', () => {
  const b = org();
  b.channel('vault', { private: true, archived: true, subscribers: [] });
  const d = desired((x) => x.channels.push(dChannel('vault', { private: true })));
  // A deactivated user may still be subscribed (Zulip reports active users only): no error.
  expect(planned(d, as(b, 'owner'))).toContain('channel["vault"]#unarchive');
  b.state.users = b.state.users.filter((u) => u.isActive);
  expect(refused(d, as(b, 'owner'), 'UNRESOLVED_REFERENCE')).toContain(
    'channel["vault"] (acme/vault): it is a private channel nobody is subscribed to, and Zulip unarchives a private channel only if someone still is ("Channel is private and have no subscribers")',
  );
  b.state.channels.find((c) => c.name === 'vault')!.subscribers = [3];
  expect(planned(d, as(b, 'owner'))).toContain('channel["vault"]#unarchive');
});

test('protected history with canCreateTopicGroup left as it is, not everyone', () => {
  const b = org();
  b.channel('secret', {
    private: true,
    historyPublicToSubscribers: true,
    permissions: { can_create_topic_group: b.groupId('role:members') },
  });
  const d = (ignore: string[]): DesiredState =>
    desired((x) =>
      x.channels.push(
        dChannel('secret', {
          private: true,
          historyPublicToSubscribers: false,
          lifecycle: { ignoreChanges: ignore },
        }),
      ),
    );
  expect(
    refused(d(['permissions.canCreateTopicGroup']), as(b, 'owner'), 'UNRESOLVED_REFERENCE'),
  ).toContain(
    'channel["secret"] (acme/secret): Zulip gives a channel protected history only if canCreateTopicGroup is SystemGroup.EVERYONE ("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")',
  );
  // Not ignored: the plan sets it to everyone in the same request.
  expect(planned(d([]), as(b, 'owner'))).toContain('channel["secret"]#update');
});

test('a web-public channel left web-public is not made private (update_stream_backend)', () => {
  const b = org();
  b.channel('open', { webPublic: true });
  const d = (ignore: string[]): DesiredState =>
    desired((x) =>
      x.channels.push(dChannel('open', { private: true, lifecycle: { ignoreChanges: ignore } })),
    );
  // Found by test/apply/apply-converges-differential.test.ts (seed 21): the PATCH sent
  // is_private alone, and Zulip kept is_web_public: "Invalid parameters".
  expect(refused(d(['webPublic']), as(b, 'owner'), 'UNRESOLVED_REFERENCE')).toContain(
    'channel["open"] (acme/open): the channel is web-public and this plan leaves it so (webPublic in lifecycle.ignoreChanges), and Zulip refuses a web-public channel that is private or of protected history ("Invalid parameters")',
  );
  // Managed: webPublic becomes false in the same request.
  expect(planned(d([]), as(b, 'owner'))).toContain('channel["open"]#update');
});
