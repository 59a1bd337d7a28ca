/**
 * Organization settings: synth validation on construct paths (Zulip's rules for each realm group
 * setting), and the planner (only declared settings, `{new, old}`, owner-only settings, feature
 * levels, channels by name, what the plan says before apply).
 */
import {
  App,
  Channel,
  CodePlayground,
  Organization,
  OrganizationSettings,
  Permission,
  SystemGroup,
  Testing,
  UserGroup,
} from 'zulip-cdk';
import { plan, renderMarkdown } from '../../src/engine';
import { FEATURE_LEVELS } from '../../src/model/features';
import { ROLES } from '../../src/model/kinds';
import type { DesiredChannel, DesiredOrganizationSettings } from '../../src/model/desired-state';
import type { LiveState } from '../../src/model/live-state';
import { startEmulator } from '../../src/emulator';
import { Testing as Embedded } from '../../src/testing';
import { thrownError } from '../support/errors';
import { LiveBuilder, dChannel, desired } from './fixtures';

function org(): Organization {
  return new Organization(new App({ outdir: '/tmp/unused' }), 'acme');
}

describe('OrganizationSettings: synth validation with construct paths', () => {
  const cases: [string, (o: Organization) => void, RegExp][] = [
    [
      'role:nobody where Zulip refuses it',
      (o) => new OrganizationSettings(o, 'settings', { canManageAllGroups: SystemGroup.NOBODY }),
      /canManageAllGroups cannot be role:nobody \(Zulip: "'can_manage_all_groups' setting cannot be set to 'role:nobody' group\."\)/,
    ],
    [
      'role:everyone where Zulip refuses it',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          canCreatePublicChannelGroup: SystemGroup.EVERYONE,
        }),
      /canCreatePublicChannelGroup cannot be role:everyone/,
    ],
    [
      'a system group outside the allowed ones',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          canCreateWebPublicChannelGroup: SystemGroup.MEMBERS,
        }),
      /canCreateWebPublicChannelGroup cannot be role:members/,
    ],
    [
      'a user group where only a system group is accepted',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          canAccessAllUsersGroup: new UserGroup(o, 'g', { name: 'g' }),
        }),
      /canAccessAllUsersGroup must be a system group \(Zulip: "'can_access_all_users_group' must be a system user group\."\): use one of role:everyone, role:members/,
    ],
    [
      'a set where only a system group is accepted',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          canCreateWebPublicChannelGroup: Permission.anyOf({ users: ['a@example.com'] }),
        }),
      /canCreateWebPublicChannelGroup must be a system group/,
    ],
    [
      'a time limit of zero',
      (o) => new OrganizationSettings(o, 'settings', { messageContentEditLimitSeconds: 0 }),
      /messageContentEditLimitSeconds: expected a positive whole number of seconds, or 'unlimited'/,
    ],
    [
      "a time limit larger than Zulip's integer column holds",
      (o) => new OrganizationSettings(o, 'settings', { messageContentDeleteLimitSeconds: 2 ** 31 }),
      /messageContentDeleteLimitSeconds: must be at most 2147483647 \(what Zulip's database column holds\), or 'unlimited'/,
    ],
    [
      "a retention larger than Zulip's integer column holds",
      (o) => new OrganizationSettings(o, 'settings', { messageRetentionDays: 2 ** 31 }),
      /messageRetentionDays: must be at most 2147483647/,
    ],
    [
      "a waiting period larger than Zulip's integer column holds",
      (o) => new OrganizationSettings(o, 'settings', { waitingPeriodThreshold: 2 ** 31 }),
      /waitingPeriodThreshold: must be at most 2147483647/,
    ],
    [
      'a name longer than Zulip allows',
      (o) => new OrganizationSettings(o, 'settings', { name: 'x'.repeat(41) }),
      /name: is 41 characters long; Zulip allows at most 40/,
    ],
    [
      'a topics policy the organization does not have',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          topicsPolicy: 'inherit' as 'allow_empty_topic',
        }),
      /topicsPolicy: expected one of 'allow_empty_topic', 'disable_empty_topic'/,
    ],
    [
      'an archived channel as an announcement channel',
      (o) =>
        new OrganizationSettings(o, 'settings', {
          newChannelAnnouncementsChannel: new Channel(o, 'old', { name: 'old', archived: true }),
        }),
      /newChannelAnnouncementsChannel names channel 'old' \(acme\/old\), which is declared archived/,
    ],
    [
      'two OrganizationSettings in one organization',
      (o) => {
        new OrganizationSettings(o, 'a', { name: 'A' });
        new OrganizationSettings(o, 'settings', { name: 'B' });
      },
      /the organization settings is already declared by acme\/a \(an organization has one OrganizationSettings: merge them\)/,
    ],
  ];
  test.each(cases)('%s', (_rule, declare, message) => {
    const o = org();
    declare(o);
    expect(Testing.validate(o)).toContainEqual({
      path: 'acme/settings',
      message: expect.stringMatching(message),
    });
    const err = thrownError(() => Testing.synth(o), 'VALIDATION_FAILED');
    expect(err.message).toMatch(
      /^acme\/settings \(test\/engine\/organization-settings\.test\.ts:\d+:\d+\): /m,
    );
  });

  test('a valid declaration synthesizes only what it declares, channels by name', () => {
    const o = org();
    const news = new Channel(o, 'news', { name: 'news' });
    const leads = new UserGroup(o, 'leads', { name: 'leads' });
    new OrganizationSettings(o, 'settings', {
      name: 'Acme',
      newChannelAnnouncementsChannel: news,
      signupAnnouncementsChannel: null,
      messageRetentionDays: 'unlimited',
      canCreatePublicChannelGroup: leads,
      canCreateWebPublicChannelGroup: SystemGroup.NOBODY,
      directMessagePermissionGroup: Permission.anyOf({ groups: [SystemGroup.MEMBERS] }),
    });
    expect(Testing.validate(o)).toEqual([]);
    expect(Testing.synth(o).organizationSettings).toEqual([
      {
        path: 'acme/settings',
        properties: {
          name: 'Acme',
          newChannelAnnouncementsChannel: 'news',
          signupAnnouncementsChannel: null,
          messageRetentionDays: 'unlimited',
        },
        permissions: {
          canCreatePublicChannelGroup: 'leads',
          canCreateWebPublicChannelGroup: 'role:nobody',
          directMessagePermissionGroup: 'role:members',
        },
      },
    ]);
  });
});

function liveWithSettings(fl: number = FEATURE_LEVELS.newest): { b: LiveBuilder; live: LiveState } {
  const b = new LiveBuilder(fl);
  const general = b.channel('general').id;
  const live = b.build();
  live.organizationSettings = {
    properties: {
      name: 'Example',
      waiting_period_threshold: 0,
      new_stream_announcements_stream_id: general,
      zulip_update_announcements_stream_id: -1,
      message_content_edit_limit_seconds: 600,
      message_retention_days: -1,
    },
    permissions: {
      can_create_public_channel_group: b.groupId('role:members'),
      can_manage_all_groups: b.groupId('role:owners'),
      can_invite_users_group: b.groupId('role:members'),
      direct_message_permission_group: {
        direct_members: [3],
        direct_subgroups: [b.groupId('role:administrators')],
      },
      can_set_delete_message_policy_group: b.groupId('role:moderators'),
    },
  };
  return { b, live };
}

function withSettings(s: Partial<DesiredOrganizationSettings>) {
  return desired((d) => {
    d.channels.push(dChannel('general'), dChannel('news'));
    d.organizationSettings.push({
      path: 'acme/settings',
      properties: {},
      permissions: {},
      ...s,
    });
  });
}

describe('planning organization settings', () => {
  test('only declared settings change; permissions carry the live wire value as old', () => {
    const { b, live } = liveWithSettings();
    const p = plan(
      withSettings({
        properties: { name: 'Example', messageContentEditLimitSeconds: 'unlimited' },
        permissions: {
          canCreatePublicChannelGroup: 'role:moderators',
          directMessagePermissionGroup: {
            users: ['alice@example.com'],
            groups: ['role:administrators'],
          },
        },
      }),
      live,
    );
    const c = p.changes.find((x) => x.kind === 'organizationSettings');
    expect(c).toMatchObject({
      action: 'update',
      address: 'organizationSettings["organization"]',
      path: 'acme/settings',
      liveId: 0,
      properties: [
        { property: 'messageContentEditLimitSeconds', before: 600, after: 'unlimited' },
        {
          property: 'permissions.canCreatePublicChannelGroup',
          before: 'role:members',
          after: 'role:moderators',
          wire: 'can_create_public_channel_group',
          old: b.groupId('role:members'),
        },
      ],
    });
    // Undeclared settings (the waiting period, can_manage_all_groups) are not touched.
    expect(JSON.stringify(c)).not.toContain('waitingPeriodThreshold');
    expect(renderMarkdown(p)).toContain(
      // From who holds it before and after (role:moderators is inside role:members): the
      // members who are not moderators lose it, and nobody gains it.
      'permissions.canCreatePublicChannelGroup: alice@example.com and bob@example.com may no longer create public channels.',
    );
  });

  test('a channel setting names a declared channel; one created by the plan comes first', () => {
    const { live } = liveWithSettings();
    const p = plan(
      withSettings({
        properties: {
          newChannelAnnouncementsChannel: 'news',
          zulipUpdateAnnouncementsChannel: 'General',
        },
      }),
      live,
    );
    const c = p.changes.find((x) => x.kind === 'organizationSettings');
    expect(c && 'properties' in c ? c.properties : []).toEqual([
      { property: 'newChannelAnnouncementsChannel', before: 'general', after: 'news' },
      { property: 'zulipUpdateAnnouncementsChannel', before: null, after: 'general' },
    ]);
    expect(c?.dependsOn).toEqual(['channel["news"]#create']);
  });

  test('settings the server lacks are named with the other features it lacks, in one round', () => {
    const { live } = liveWithSettings(FEATURE_LEVELS.zulip10);
    delete live.organizationSettings?.permissions.can_set_delete_message_policy_group;
    const err = thrownError(
      () =>
        plan(
          desired((d) => {
            d.channels.push(dChannel('general', { topicsPolicy: 'disable_empty_topic' }));
            d.organizationSettings.push({
              path: 'acme/settings',
              properties: { topicsPolicy: 'disable_empty_topic', welcomeMessageCustomText: 'Hi' },
              permissions: { canSetDeleteMessagePolicyGroup: 'role:administrators' },
            });
          }),
          live,
        ),
      'UNSUPPORTED_FEATURE',
    );
    const at = 'organizationSettings["organization"] (acme/settings)';
    expect(err.message).toContain('channel["general"] (acme/general): topics_policy needs');
    expect(err.message).toContain(`${at}: topicsPolicy needs Zulip feature level 392`);
    expect(err.message).toContain(`${at}: welcomeMessageCustomText needs Zulip feature level 416`);
    expect(err.message).toContain(
      `${at}: can_set_delete_message_policy_group needs Zulip feature level 407`,
    );
  });

  test('an unknown channel and a value Zulip refuses are plan errors on the construct path', () => {
    const { live } = liveWithSettings();
    const err = thrownError(
      () =>
        plan(
          withSettings({
            properties: { signupAnnouncementsChannel: 'nowhere' },
            permissions: { canManageAllGroups: 'role:nobody' },
          }),
          live,
        ),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain(
      `organizationSettings["organization"] (acme/settings): signupAnnouncementsChannel names channel 'nowhere', which does not exist`,
    );
    expect(err.message).toContain(
      `canManageAllGroups cannot be role:nobody ("'can_manage_all_groups' setting cannot be set to 'role:nobody' group.")`,
    );
  });

  test('test_change_moderation_request_channel: a public moderation request channel is a plan error', () => {
    const { b, live: base } = liveWithSettings();
    b.channel('mods', { private: true });
    b.channel('lobby');
    const live = { ...b.build(), organizationSettings: base.organizationSettings };
    if (live.organizationSettings)
      live.organizationSettings.properties.moderation_request_channel_id = -1;
    const at = 'organizationSettings["organization"] (acme/settings)';
    type Channels = Parameters<typeof dChannel>[];
    const declaring = (channels: Channels, value: string) =>
      desired((d) => {
        for (const c of channels) d.channels.push(dChannel(...c));
        d.organizationSettings.push({
          path: 'acme/settings',
          properties: { moderationRequestChannel: value },
          permissions: {},
        });
      });
    // A live public channel the plan leaves alone, and a declared one (public by default).
    for (const [channels, value] of [
      [[], 'lobby'],
      [[['news']], 'news'],
    ] as [Channels, string][])
      expect(
        thrownError(() => plan(declaring(channels, value), live), 'UNRESOLVED_REFERENCE').message,
      ).toContain(
        `${at}: moderationRequestChannel names channel '${value}', which is public, and Zulip refuses a public moderation request channel ("Moderation request channel must be private.")`,
      );
    // A private channel, live or declared (applied before the organization settings), is fine.
    for (const [channels, value] of [
      [[], 'mods'],
      [[['lobby', { private: true }]], 'lobby'],
    ] as [Channels, string][])
      expect(
        plan(declaring(channels, value), live).changes.find(
          (c) => c.kind === 'organizationSettings',
        ),
      ).toBeDefined();
  });

  test('a moderation request channel the plan makes private: the setting waits for it, and an ignored privacy is the live one', () => {
    const { b, live: base } = liveWithSettings();
    b.channel('lobby');
    const live = { ...b.build(), organizationSettings: base.organizationSettings };
    if (live.organizationSettings)
      live.organizationSettings.properties.moderation_request_channel_id = -1;
    const settings = {
      path: 'acme/settings',
      properties: { moderationRequestChannel: 'lobby' },
      permissions: {},
    };
    const making = (lifecycle?: DesiredChannel['lifecycle']) =>
      desired((d) => {
        d.channels.push(dChannel('lobby', { private: true, ...(lifecycle ? { lifecycle } : {}) }));
        d.organizationSettings.push(settings);
      });
    // Zulip refuses the setting while the channel is public: targeting the setting keeps the
    // channel's change (it was left out, and Zulip refused the setting).
    const targeted = plan(making(), live, { targets: ['organizationSettings["organization"]'] });
    expect(targeted.changes.map((c) => c.id)).toEqual([
      'channel["lobby"]#update',
      'organizationSettings["organization"]#update',
    ]);
    expect(targeted.changes[1]?.dependsOn).toEqual(['channel["lobby"]#update']);
    // The plan leaves the channel public (its privacy ignored): Zulip would refuse the setting.
    expect(
      thrownError(() => plan(making({ ignoreChanges: ['private'] }), live), 'UNRESOLVED_REFERENCE')
        .message,
    ).toContain(`moderationRequestChannel names channel 'lobby', which is public`);
  });

  test("owner-only settings: the plan says before apply that an owner's key is needed", () => {
    const { live } = liveWithSettings();
    live.me.role = ROLES.administrator;
    expect(() =>
      plan(
        withSettings({
          properties: { waitingPeriodThreshold: 3, name: 'Acme' },
          permissions: { canInviteUsersGroup: 'role:administrators' },
        }),
        live,
      ),
    ).toThrow(
      // Before: "changing ... (Zulip refuses the whole PATCH /realm otherwise) needs an owner".
      /organizationSettings\["organization"\] \(acme\/settings\): changing waitingPeriodThreshold, canInviteUsersGroup needs an organization owner \("Must be an organization owner"\), and the applying account \S+ is not one\. Apply with an owner's API key, or leave them as in Zulip \(left out of OrganizationSettings, or declared as they are\): Zulip would refuse the whole PATCH \/realm, the other settings' changes with them/,
    );
    // An administrator may change the other settings.
    const kinds = (q: ReturnType<typeof plan>) =>
      q.changes.map((c) => c.kind).filter((k) => k === 'organizationSettings');
    expect(kinds(plan(withSettings({ properties: { name: 'Acme' } }), live))).toEqual([
      'organizationSettings',
    ]);
    // As an owner, no refusal.
    live.me.role = ROLES.owner;
    expect(kinds(plan(withSettings({ properties: { waitingPeriodThreshold: 3 } }), live))).toEqual([
      'organizationSettings',
    ]);
  });

  test('changing organization settings as a member is refused before apply', () => {
    const { live } = liveWithSettings();
    live.me.role = ROLES.member;
    expect(() => plan(withSettings({ properties: { name: 'Acme' } }), live)).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(
          'organizationSettings["organization"] (acme/settings): changing organization settings (PATCH /realm) needs an organization administrator ("Must be an organization administrator"), and the applying account owner@example.com is not one',
        ),
        hint: expect.stringContaining("a human organization administrator's"),
      }),
    );
  });

  test('an organization retention that may shorten is irreversible; Zulip Cloud Free refuses it', () => {
    const { live } = liveWithSettings();
    const p = plan(withSettings({ properties: { messageRetentionDays: 30 } }), live);
    const c = p.changes.find((x) => x.kind === 'organizationSettings');
    expect(c?.tags).toContain('irreversible');
    live.server.planType = 2;
    const err = thrownError(
      () => plan(withSettings({ properties: { messageRetentionDays: 30 } }), live),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain('Zulip Cloud Free does not set messageRetentionDays');
  });

  test('a snapshot without organization settings cannot plan them', () => {
    const { live } = liveWithSettings();
    live.organizationSettings = null;
    const err = thrownError(
      () => plan(withSettings({ properties: { name: 'Acme' } }), live),
      'UNRESOLVED_REFERENCE',
    );
    expect(err.message).toContain('the live state has no organization settings');
    // Without a declaration there is nothing to plan.
    expect(plan(desired(), live).changes).toEqual([]);
  });
});

describe("a playground delete resets the organization's default code block language", () => {
  // zerver/views/realm_playgrounds.py delete_realm_playground: do_set_realm_property(
  // default_code_block_language, "") when it is the deleted playground's language.
  function acme(url: string, language: string | undefined): Organization {
    const o = new Organization(Embedded.app(), 'acme', { prune: { playground: true } });
    new CodePlayground(o, 'tutor', { name: 'Tutor', pygmentsLanguage: 'python', urlTemplate: url });
    if (language !== undefined)
      new OrganizationSettings(o, 'settings', { defaultCodeBlockLanguage: language });
    return o;
  }
  const v1 = 'https://one.example.com/?code={code}';
  const v2 = 'https://two.example.com/?code={code}';

  test('a declared language is set again after the replace, and one apply converges', async () => {
    const z = await startEmulator({ rateLimit: false });
    try {
      expect((await Embedded.planAndApply(acme(v1, 'python'), { emulator: z })).converged).toBe(
        true,
      );
      const { plan: made, converged } = await Embedded.planAndApply(acme(v2, 'python'), {
        emulator: z,
      });
      const update = made.changes.find((c) => c.kind === 'organizationSettings');
      expect(update).toMatchObject({
        action: 'update',
        properties: [{ property: 'defaultCodeBlockLanguage', before: '', after: 'python' }],
      });
      const replace = made.changes.find((c) => c.kind === 'playground');
      expect(replace?.action).toBe('replace');
      expect(update?.dependsOn).toContain(replace?.id);
      expect(converged).toBe(true);
      expect(z.org.realm.defaultCodeBlockLanguage).toBe('python');
    } finally {
      await z.close();
    }
  });

  test('an undeclared language is left as Zulip leaves it, and a changed one waits for the delete', async () => {
    const z = await startEmulator({ rateLimit: false });
    try {
      await Embedded.planAndApply(acme(v1, 'python'), { emulator: z });
      // Not declared: the plan changes no organization setting, and Zulip resets it.
      const undeclared = await Embedded.planAndApply(acme(v2, undefined), { emulator: z });
      expect(undeclared.plan.changes.map((c) => c.kind)).toEqual(['playground']);
      expect(z.org.realm.defaultCodeBlockLanguage).toBe('');
      // From another language to the deleted one's: the change waits for the delete.
      await Embedded.planAndApply(acme(v2, 'rust'), { emulator: z });
      const back = await Embedded.planAndApply(acme(v1, 'python'), { emulator: z });
      const update = back.plan.changes.find((c) => c.kind === 'organizationSettings');
      expect(update).toMatchObject({
        properties: [{ property: 'defaultCodeBlockLanguage', before: 'rust', after: 'python' }],
      });
      expect(update?.dependsOn).toEqual(
        back.plan.changes.filter((c) => c.kind === 'playground').map((c) => c.id),
      );
      expect(back.converged).toBe(true);
    } finally {
      await z.close();
    }
  });
});

describe('who gains and who loses an organization permission', () => {
  test('narrowing who may create public channels names the members who lose it', () => {
    const { live } = liveWithSettings();
    const p = plan(
      withSettings({ permissions: { canCreatePublicChannelGroup: 'role:moderators' } }),
      live,
    );
    const effect = p.permissions?.effects.find(
      (e) => e.address === 'organizationSettings["organization"]',
    );
    const members = live.users.filter((u) => u.isActive && !u.isBot && u.role === ROLES.member);
    const staff = live.users.filter((u) => u.isActive && !u.isBot && u.role <= ROLES.moderator);
    expect(members.length).toBeGreaterThan(0);
    expect(effect).toMatchObject({
      permission: 'permissions.canCreatePublicChannelGroup',
      wire: 'can_create_public_channel_group',
      path: 'acme/settings',
      after: staff.length,
      gained: { count: 0 },
      lost: { count: members.length },
    });
    expect(effect?.lost.users).toEqual(expect.arrayContaining(members.map((u) => u.email)));
    const md = renderMarkdown(p);
    expect(md.indexOf('Who gains / who loses')).toBeLessThan(md.indexOf('organizationSettings'));
  });
});

describe('video calls, GIFs and end-to-end encrypted push notifications', () => {
  const JITSI = 'https://meet.example.com';

  test('synth refuses an unknown provider or rating and a URL Zulip refuses, on the construct path', () => {
    const o = org();
    new OrganizationSettings(o, 'settings', {
      videoChatProvider: 'skype' as never,
      giphyRating: 'x' as never,
      jitsiServerUrl: 'meet.example.com',
    });
    const e = thrownError(() => Testing.synth(o));
    expect(e.message).toContain(
      "videoChatProvider: expected one of 'disabled', 'jitsi_meet', 'zoom', 'big_blue_button', 'zoom_server_to_server'",
    );
    expect(e.message).toContain("giphyRating: expected one of 'disabled', 'g', 'pg', 'pg-13', 'r'");
    expect(e.message).toContain('jitsiServerUrl: is not a URL Zulip takes');
    const long = org();
    new OrganizationSettings(long, 'settings', { jitsiServerUrl: `${JITSI}/${'x'.repeat(200)}` });
    expect(thrownError(() => Testing.synth(long)).message).toContain(
      'jitsiServerUrl: is 225 characters long; Zulip allows at most 200',
    );
  });

  test('a provider the server does not offer is a plan error that names those it offers', () => {
    const { live } = liveWithSettings();
    Object.assign(live.organizationSettings!.properties, { video_chat_provider: 1 });
    live.server.videoChatProviders = ['disabled', 'jitsi_meet'];
    const e = thrownError(() =>
      plan(withSettings({ properties: { videoChatProvider: 'zoom' } }), live),
    );
    expect(e.message).toContain(
      `organizationSettings["organization"] (acme/settings): videoChatProvider 'zoom' is not offered by this server, which offers 'disabled', 'jitsi_meet' (Zulip refuses it: "Invalid video_chat_provider 3")`,
    );
    // The provider it has already is not checked again.
    live.server.videoChatProviders = ['disabled'];
    const same = plan(withSettings({ properties: { videoChatProvider: 'jitsi_meet' } }), live);
    expect(same.changes.filter((c) => c.kind === 'organizationSettings')).toEqual([]);
  });

  test('a server older than FL 409 has no end-to-end encryption setting', () => {
    const { live } = liveWithSettings(FEATURE_LEVELS.zulip10);
    const e = thrownError(() =>
      plan(withSettings({ properties: { requireE2eePushNotifications: true } }), live),
    );
    expect(e.message).toContain(
      'requireE2eePushNotifications needs Zulip feature level 409 (Zulip 11.0); the server is at 372',
    );
  });

  test('applied through PATCH /realm as Zulip takes them; back to the Jitsi server of the server with "default"', async () => {
    const z = await startEmulator({ rateLimit: false });
    const settings = (props: ConstructorParameters<typeof OrganizationSettings>[2]) => {
      const o = new Organization(Embedded.app(), 'acme');
      new OrganizationSettings(o, 'settings', props);
      return o;
    };
    try {
      const first = await Embedded.planAndApply(
        settings({
          videoChatProvider: 'disabled',
          giphyRating: 'pg-13',
          jitsiServerUrl: JITSI,
          requireE2eePushNotifications: true,
        }),
        { emulator: z },
      );
      expect(first.plan.changes.find((c) => c.kind === 'organizationSettings')).toMatchObject({
        properties: [
          { property: 'videoChatProvider', before: 'jitsi_meet', after: 'disabled' },
          { property: 'jitsiServerUrl', before: null, after: JITSI },
          { property: 'giphyRating', before: 'g', after: 'pg-13' },
          { property: 'requireE2eePushNotifications', before: false, after: true },
        ],
      });
      expect(first.converged).toBe(true);
      expect(z.org.realm.properties).toMatchObject({
        video_chat_provider: 0,
        giphy_rating: 3,
        jitsi_server_url: JITSI,
        require_e2ee_push_notifications: true,
      });
      const back = await Embedded.planAndApply(settings({ jitsiServerUrl: null }), {
        emulator: z,
      });
      expect(back.plan.changes[0]).toMatchObject({
        properties: [{ property: 'jitsiServerUrl', before: JITSI, after: null }],
      });
      expect(back.converged).toBe(true);
      expect(z.org.realm.properties?.jitsi_server_url).toBeNull();
    } finally {
      await z.close();
    }
  });
});
