/**
 * What Zulip refuses the applying account whatever the object (src/engine/plan/account.ts): a
 * plan error on the changes' constructs, before any request. The rules are Zulip's:
 * `require_member_or_admin` (zerver/decorator.py) on the user-group endpoints and on
 * `upload_emoji`, `require_user_group_create_permission` and `can_add_custom_emoji`; the
 * embedded server's side is in test/emulator/user-groups.test.ts ("bots and guests are
 * rejected everywhere") and test/conformance.
 */
import { plan } from '../../src/engine';
import type { DesiredCustomEmoji, DesiredState, LiveState } from '../../src/model';
import { ROLES } from '../../src/model';
import { LiveBuilder, dGroup, desired } from './fixtures';
import { thrownError } from '../support/errors';

const BOT = 7;

/** The fixture's organization with an administrator bot (7), and the applying account `me`. */
function org(me: 'owner' | 'bot' | 'guest' | 'admin' = 'owner'): {
  b: LiveBuilder;
  live: () => LiveState;
} {
  const b = new LiveBuilder();
  b.state.users.push({
    id: BOT,
    email: 'deploy-bot@example.com',
    fullName: 'Deploy bot',
    role: ROLES.administrator,
    isActive: true,
    isBot: true,
  });
  b.state.users.push({
    id: 8,
    email: 'guest@example.com',
    fullName: 'Guest',
    role: ROLES.guest,
    isActive: true,
    isBot: false,
  });
  const accounts = {
    owner: { userId: 1, email: 'owner@example.com', role: ROLES.owner },
    admin: { userId: 2, email: 'admin@example.com', role: ROLES.administrator },
    bot: { userId: BOT, email: 'deploy-bot@example.com', role: ROLES.administrator },
    guest: { userId: 8, email: 'guest@example.com', role: ROLES.guest },
  };
  return {
    b,
    live: () => {
      const live = b.build();
      live.me = accounts[me];
      return live;
    },
  };
}

const emoji = (name: string): DesiredCustomEmoji => ({
  path: `acme/emoji/${name}`,
  name,
  image: { file: `emoji/${name}.png`, sha256: 'a'.repeat(64), size: 10, contentType: 'image/png' },
});

function refused(d: DesiredState, live: LiveState): string {
  // Every problem is the account's: the code says so (before: UNRESOLVED_REFERENCE).
  const e = thrownError(() => plan(d, live, {}), 'ACCOUNT_NOT_ALLOWED');
  return `${e.message}\n${e.hint ?? ''}`;
}

describe('a bot or a guest as the applying account', () => {
  it('a bot (an administrator) is refused user-group changes, on each construct', () => {
    const { live } = org('bot');
    const text = refused(
      desired((d) => {
        d.userGroups.push(dGroup('ops'), dGroup('sre'));
      }),
      live(),
    );
    expect(text).toContain(
      'userGroup["ops"] (acme/ops), userGroup["sre"] (acme/sre): Zulip refuses user-group changes from a bot ("This endpoint does not accept bot requests."), whatever its role, and the applying account deploy-bot@example.com is a bot.',
    );
    expect(text).toContain("a human organization administrator's");
    expect(text).not.toContain('Declare the missing objects');
  });

  it('a bot is refused emoji uploads', () => {
    const { live } = org('bot');
    const text = refused(
      desired((d) => {
        d.customEmoji.push(emoji('shipit'));
      }),
      live(),
    );
    expect(text).toContain(
      'customEmoji["shipit"] (acme/emoji/shipit): Zulip refuses custom emoji uploads from a bot',
    );
  });

  it('lists five constructs and counts the rest', () => {
    const { live } = org('bot');
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const text = refused(
      desired((d) => {
        for (const n of names) d.userGroups.push(dGroup(n));
      }),
      live(),
    );
    expect(text).toContain('userGroup["e"] (acme/e) and 2 more: Zulip refuses');
    expect(text).not.toContain('userGroup["f"]');
  });

  it('a bot may deactivate a group (deactivate_user_group has no such check)', () => {
    const { b, live } = org('bot');
    b.group('old', { creatorId: BOT });
    const p = plan(
      desired((d) => {
        d.userGroups.push(dGroup('old', { deactivated: true }));
      }),
      live(),
      {},
    );
    expect(p.changes.map((c) => c.id)).toEqual(['userGroup["old"]#deactivate']);
  });

  it('a bot with nothing Zulip refuses it plans as before', () => {
    const { live } = org('bot');
    const p = plan(desired(), live(), {});
    expect(p.changes).toEqual([]);
  });

  it("a guest is refused with Zulip's words for guests", () => {
    const { live } = org('guest');
    const text = refused(
      desired((d) => {
        d.userGroups.push(dGroup('ops'));
      }),
      live(),
    );
    expect(text).toContain(
      'Zulip refuses user-group changes from a guest ("Not allowed for guest users")',
    );
  });
});

describe("the organization's settings the applying account must hold", () => {
  it('creating a group needs can_create_groups, administrators included', () => {
    const { b, live } = org('admin');
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_create_groups: b.groupId('role:owners') },
    };
    const text = refused(
      desired((d) => {
        d.userGroups.push(dGroup('ops'));
      }),
      live(),
    );
    expect(text).toContain(
      'userGroup["ops"] (acme/ops): Zulip lets only those who may create user groups make user-group changes ("Insufficient permission": the organization\'s canCreateGroups',
    );
    // The owner holds it.
    const owner = org('owner');
    owner.b.state.organizationSettings = b.state.organizationSettings;
    expect(
      plan(
        desired((d) => d.userGroups.push(dGroup('ops'))),
        owner.live(),
        {},
      ).changes.length,
    ).toBeGreaterThan(0);
  });

  it('held through a user list with a subgroup of the account', () => {
    const { b, live } = org('admin');
    b.state.organizationSettings = {
      properties: {},
      permissions: {
        can_create_groups: {
          direct_members: [4],
          direct_subgroups: [b.groupId('role:administrators')],
        },
      },
    };
    const p = plan(
      desired((d) => d.userGroups.push(dGroup('ops'))),
      live(),
      {},
    );
    expect(p.changes.some((c) => c.id === 'userGroup["ops"]#create')).toBe(true);
  });

  it('the plan changing can_create_groups does not help: settings are applied after groups', () => {
    const { b, live } = org('admin');
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_create_groups: b.groupId('role:owners') },
    };
    const text = refused(
      desired((d) => {
        d.userGroups.push(dGroup('ops'));
        d.organizationSettings = [
          {
            path: 'acme/settings',
            properties: {},
            permissions: { canCreateGroups: 'role:administrators' },
          },
        ];
      }),
      live(),
    );
    expect(text).toContain('userGroup["ops"] (acme/ops): Zulip lets only those who may create');
    expect(text).toContain(
      'Have an owner add it to canCreateGroups in Zulip first (a change of it in this plan is applied after them)',
    );
  });

  it('an upload needs can_add_custom_emoji_group, unless the plan gives it first', () => {
    const { b, live } = org('admin');
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_add_custom_emoji_group: b.groupId('role:owners') },
    };
    expect(
      refused(
        desired((d) => {
          d.customEmoji.push(emoji('shipit'));
        }),
        live(),
      ),
    ).toContain(
      'customEmoji["shipit"] (acme/emoji/shipit): Zulip lets only those who may add custom emoji',
    );
    // The organization's settings are applied before custom emoji.
    const given = desired((d) => {
      d.customEmoji.push(emoji('shipit'));
      d.organizationSettings = [
        {
          path: 'acme/settings',
          properties: {},
          permissions: { canAddCustomEmojiGroup: 'role:administrators' },
        },
      ];
    });
    const p = plan(given, live(), {});
    expect(p.changes.map((c) => c.id)).toContain('customEmoji["shipit"]#create');
    // The upload waits for the setting, so a targeted plan keeps it.
    const targeted = plan(given, live(), { targets: ['customEmoji["shipit"]'] });
    expect(targeted.changes.map((c) => c.id)).toEqual([
      'organizationSettings["organization"]#update',
      'customEmoji["shipit"]#create',
    ]);
  });

  it('a server that does not report the setting is not second-guessed', () => {
    const { live } = org('admin');
    const p = plan(
      desired((d) => d.userGroups.push(dGroup('ops'))),
      live(),
      {},
    );
    expect(p.changes.some((c) => c.id === 'userGroup["ops"]#create')).toBe(true);
  });
});

describe('changing an existing group (access_user_group_for_update)', () => {
  /** The live groups' one member, declared exactly. */
  const ALICE = { mode: 'exact' as const, users: ['alice@example.com'], groups: [] };
  /** Settings left as they are live (not held at Zulip's defaults). */
  const KEEP = { ignoreChanges: ['permissions'] };

  /** An administrator applying; the organization's can_manage_all_groups is the owners'. */
  function adminOrg() {
    const o = org('admin');
    o.b.state.organizationSettings = {
      properties: {},
      permissions: { can_manage_all_groups: o.b.groupId('role:owners') },
    };
    return o;
  }

  it("an administrator who does not manage someone else's group is refused its changes", () => {
    const { b, live } = adminOrg();
    // Made by the owner: Zulip's defaults give the creator can_manage_group and can_add_members_group.
    b.group('ops', { members: [3] });
    const text = refused(
      desired((d) => {
        d.userGroups.push(
          dGroup('ops', {
            description: 'Operations',
            members: { mode: 'exact', users: ['alice@example.com', 'bob@example.com'], groups: [] },
          }),
        );
      }),
      live(),
    );
    expect(text).toContain(
      'userGroup["ops"] (acme/ops): Zulip lets the applying account admin@example.com change its description or settings only if it holds the group\'s canManageGroup',
    );
    expect(text).toContain(
      'userGroup["ops"] (acme/ops): Zulip lets the applying account admin@example.com add members only if it holds the group\'s canAddMembersGroup',
    );
  });

  it('held through the group, the organization, or a setting that implies it', () => {
    const viaGroup = adminOrg();
    viaGroup.b.group('ops', {
      members: [3],
      permissions: { can_manage_group: viaGroup.b.groupId('role:administrators') },
    });
    const change = desired((d) => {
      d.userGroups.push(dGroup('ops', { description: 'Operations', members: ALICE }));
    });
    expect(plan(change, viaGroup.live(), {}).changes.map((c) => c.id)).toContain(
      'userGroup["ops"]#update',
    );

    const viaRealm = adminOrg();
    viaRealm.b.state.organizationSettings!.permissions.can_manage_all_groups =
      viaRealm.b.groupId('role:administrators');
    viaRealm.b.group('ops', { members: [3] });
    expect(plan(change, viaRealm.live(), {}).changes.length).toBe(1);

    // Adding members: can_add_members_group is enough.
    const adder = adminOrg();
    adder.b.group('ops', {
      members: [3],
      permissions: { can_add_members_group: { direct_members: [2], direct_subgroups: [] } },
    });
    const add = desired((d) => {
      d.userGroups.push(
        dGroup('ops', {
          members: { mode: 'atLeast', users: ['bob@example.com'], groups: [] },
          lifecycle: KEEP,
        }),
      );
    });
    expect(plan(add, adder.live(), {}).changes.map((c) => c.id)).toEqual([
      'userGroup["ops"]#membership',
    ]);
  });

  it('the account joining by itself needs only can_join_group', () => {
    const { b, live } = adminOrg();
    b.group('ops', {
      members: [3],
      permissions: { can_join_group: b.groupId('role:members') },
    });
    // role:members holds the administrators through its subgroups.
    const p = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('ops', {
            members: { mode: 'atLeast', users: ['admin@example.com'], groups: [] },
            lifecycle: KEEP,
          }),
        );
      }),
      live(),
      {},
    );
    expect(p.changes.map((c) => c.id)).toEqual(['userGroup["ops"]#membership']);
  });

  it('a group the plan adds the account to counts (it may be added first)', () => {
    const setup = () => {
      const o = adminOrg();
      const managers = o.b.group('managers', {
        members: [4],
        permissions: { can_join_group: o.b.groupId('role:members') },
      });
      o.b.group('ops', { members: [3], permissions: { can_manage_group: managers.id } });
      return o;
    };
    const ops = dGroup('ops', { description: 'Operations', members: ALICE, lifecycle: KEEP });
    const joining = desired((d) => {
      d.userGroups.push(
        ops,
        dGroup('managers', {
          members: { mode: 'atLeast', users: ['admin@example.com'], groups: [] },
          lifecycle: KEEP,
        }),
      );
    });
    const joined = plan(joining, setup().live(), {});
    expect(joined.changes.map((c) => c.id).sort()).toEqual([
      'userGroup["managers"]#membership',
      'userGroup["ops"]#update',
    ]);
    // The update waits for the membership, so a targeted plan keeps it.
    const targeted = plan(joining, setup().live(), { targets: ['userGroup["ops"]'] });
    expect(targeted.changes.map((c) => [c.id, c.dependsOn])).toEqual([
      ['userGroup["managers"]#membership', []],
      ['userGroup["ops"]#update', ['userGroup["managers"]#membership']],
    ]);
    expect(
      refused(
        desired((d) => {
          d.userGroups.push(ops);
        }),
        setup().live(),
      ),
    ).toContain("change its description or settings only if it holds the group's canManageGroup");
  });

  it('a new or renamed group of the account, nested into the holder by the plan, counts', () => {
    // Zulip checks nothing of a subgroup being added (lock_subgroups_with_respect_to_supergroup),
    // and membership is recursive: the upload after the groups is allowed.
    const setup = () => {
      const o = adminOrg();
      const makers = o.b.group('emoji-makers', {
        members: [4],
        permissions: { can_add_members_group: { direct_members: [2], direct_subgroups: [] } },
      });
      o.b.state.organizationSettings!.permissions.can_add_custom_emoji_group = makers.id;
      o.b.state.organizationSettings!.permissions.can_create_groups = o.b.groupId('role:members');
      o.b.group('old-sre', { members: [2], creatorId: 2 });
      return o;
    };
    const makers = (sub: string) =>
      dGroup('emoji-makers', {
        members: { mode: 'atLeast', users: [], groups: [sub] },
        lifecycle: KEEP,
      });
    const viaNew = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('newsre', {
            members: { mode: 'exact', users: ['admin@example.com'], groups: [] },
          }),
          makers('newsre'),
        );
        d.customEmoji.push(emoji('shipit'));
      }),
      setup().live(),
      {},
    );
    expect(viaNew.changes.map((c) => c.id)).toContain('customEmoji["shipit"]#create');
    const viaRenamed = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('sre', {
            members: { mode: 'atLeast', users: [], groups: [] },
            lifecycle: { ...KEEP, renamedFrom: ['old-sre'] },
          }),
          makers('sre'),
        );
        d.customEmoji.push(emoji('shipit'));
      }),
      setup().live(),
      {},
    );
    expect(viaRenamed.changes.map((c) => c.id)).toContain('customEmoji["shipit"]#create');
    // Not nested: refused, and told to change the setting in this plan (applied before emoji).
    expect(
      refused(
        desired((d) => {
          d.customEmoji.push(emoji('shipit'));
        }),
        setup().live(),
      ),
    ).toContain('Add it to canAddCustomEmojiGroup (OrganizationSettings: applied before them)');
  });

  it('the organization settings unknown (an old snapshot): not second-guessed', () => {
    const { b, live } = org('admin');
    b.group('ops', { members: [3] });
    const p = plan(
      desired((d) => {
        d.userGroups.push(dGroup('ops', { description: 'Operations', members: ALICE }));
      }),
      live(),
      {},
    );
    expect(p.changes.length).toBe(1);
  });
});
