/**
 * What Zulip refuses in the requests apply sends for user groups, users and the organization's
 * objects, said by the plan on the construct path before any request (one describe per rule,
 * each naming the Zulip function it follows).
 */
import { plan } from '../../src/engine';
import type { Plan } from '../../src/engine';
import type { DesiredState, LiveState } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';
import { thrownError } from '../support/errors';

function refused(d: DesiredState, live: LiveState): string {
  return thrownError(() => plan(d, live, {})).message;
}

function summary(p: Plan): string[] {
  return p.changes.map((c) => `${c.action} ${c.address}`);
}

describe('deactivating a group still in use (check_user_group_can_be_deactivated)', () => {
  it('refuses a declared deactivation while an undeclared channel, group or the organization names it', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [3] });
    const ch = b.channel('general');
    ch.permissions.can_send_message_group = ops.id;
    const eng = b.group('eng', { members: [4] });
    eng.subgroups = [ops.id];
    const mention = b.group('mention');
    mention.permissions.can_mention_group = { direct_members: [3], direct_subgroups: [ops.id] };
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_create_groups: ops.id },
    };
    const text = refused(
      desired((d) => d.userGroups.push(dGroup('ops', { deactivated: true }))),
      b.build(),
    );
    expect(text).toContain(
      'userGroup["ops"] (acme/ops): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and after this plan user group \'eng\' has it as a subgroup; user group \'mention\': canMentionGroup; channel #general: canSendMessageGroup; the organization: canCreateGroups. Change those first',
    );
  });

  it('refuses pruning a group an undeclared channel names; an archived channel does not count', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [3] });
    b.channel('general').permissions.can_send_message_group = ops.id;
    const live = b.build();
    const pruned = desired((d) => (d.organization.prune.userGroup = true));
    expect(refused(pruned, live)).toContain(
      'userGroup["ops"] (undeclared, pruned): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and after this plan channel #general: canSendMessageGroup.',
    );
    // An archived channel does not count (Zulip looks at active channels only).
    const archived = new LiveBuilder();
    const ops2 = archived.group('ops', { members: [3] });
    archived.channel('general', { archived: true }).permissions.can_send_message_group = ops2.id;
    expect(summary(plan(pruned, archived.build(), {}))).toEqual(['deactivate userGroup["ops"]']);
  });

  it('counts what the plan changes: a supergroup that drops it, a group or channel removed first', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [3] });
    const eng = b.group('eng', { members: [4] });
    eng.subgroups = [ops.id];
    const p = plan(
      desired((d) => {
        d.userGroups.push(dGroup('ops', { deactivated: true }));
        d.userGroups.push(
          dGroup('eng', { members: { mode: 'exact', users: ['bob@example.com'], groups: [] } }),
        );
      }),
      b.build(),
      {},
    );
    expect(summary(p)).toEqual(['membership userGroup["eng"]', 'deactivate userGroup["ops"]']);
    // ops is deactivated with what uses it (declared `more`).
    const withOps = (live: LiveState, more: (d: DesiredState) => void): Plan =>
      plan(
        desired((d) => {
          d.userGroups.push(dGroup('ops', { deactivated: true }));
          more(d);
        }),
        live,
        {},
      );
    const both = withOps(b.build(), (d) => d.userGroups.push(dGroup('eng', { deactivated: true })));
    expect(summary(both)).toEqual(['deactivate userGroup["eng"]', 'deactivate userGroup["ops"]']);
    expect(both.changes[1]!.dependsOn).toEqual(['userGroup["eng"]#deactivate']);
    // A channel archived by the plan: the group goes after it (channels are archived after
    // groups are deactivated otherwise).
    const c = new LiveBuilder();
    const ops2 = c.group('ops', { members: [3] });
    c.channel('general').permissions.can_send_message_group = ops2.id;
    const archive = withOps(c.build(), (d) =>
      d.channels.push(dChannel('general', { archived: true })),
    );
    expect(summary(archive)).toEqual(['archive channel["general"]', 'deactivate userGroup["ops"]']);
    // Two groups that use each other: neither can go first.
    const m = new LiveBuilder();
    const a = m.group('a');
    const z = m.group('z');
    a.permissions.can_mention_group = z.id;
    z.permissions.can_mention_group = a.id;
    expect(
      refused(
        desired((d) => {
          d.userGroups.push(dGroup('a', { deactivated: true }));
          d.userGroups.push(dGroup('z', { deactivated: true }));
        }),
        m.build(),
      ),
    ).toContain(
      'userGroup["a"] (acme/a): Zulip refuses to deactivate a user group still in use ("Cannot deactivate user group in use."), and this plan deactivates userGroup["a"], userGroup["z"] together, each used by another of them, so none can go first',
    );
    // A ring of three as well.
    const r = new LiveBuilder();
    const [g1, g2, g3] = [r.group('g1'), r.group('g2'), r.group('g3')];
    g1.permissions.can_mention_group = g2.id;
    g2.permissions.can_mention_group = g3.id;
    g3.permissions.can_mention_group = g1.id;
    const ring = refused(
      desired((d) => {
        for (const n of ['g1', 'g2', 'g3']) d.userGroups.push(dGroup(n, { deactivated: true }));
      }),
      r.build(),
    );
    expect(ring).toMatch(
      /this plan deactivates (userGroup\["g[123]"\], ){2}userGroup\["g[123]"\] together/,
    );
    expect(ring.match(/none can go first/g)).toHaveLength(1);
  });
});

describe('PATCH /users/{id} (update_user_backend)', () => {
  const u = (email: string, o: Record<string, unknown> = {}) => ({
    path: `acme/${email.split('@')[0]}`,
    email,
    ...o,
  });

  it('a role or name change needs an organization administrator (access_user_by_id for_admin)', () => {
    const b = new LiveBuilder();
    b.state.me = { userId: 5, email: 'carol@example.com', role: 300 };
    const error = thrownError(() =>
      plan(
        desired((d) =>
          d.users.push(u('alice@example.com', { fullName: 'Alice A', role: 'moderator' })),
        ),
        b.build(),
        {},
      ),
    );
    expect(error.message).toContain(
      'user["alice@example.com"] (acme/alice): changing a user\'s role and fullName needs an organization administrator (PATCH /users/{id}); Zulip refuses it for carol@example.com ("Insufficient permission")',
    );
    expect(error.hint).toContain("a human organization administrator's");
  });

  it('the only owner keeps the owner role (check_last_owner), and handing it over waits for the new owner', () => {
    const b = new LiveBuilder();
    const live = b.build();
    expect(
      refused(
        desired((d) => d.users.push(u('owner@example.com', { role: 'administrator' }))),
        live,
      ),
    ).toContain(
      'user["owner@example.com"] (acme/owner): owner@example.com is the organization\'s only owner after this plan; Zulip refuses to change its role ("The owner permission cannot be removed from the only organization owner."): make someone else an owner first',
    );
    // Declared first, the demotion still waits for the promotion; so does a deactivation.
    const p = plan(
      desired((d) => {
        d.users.push(u('owner@example.com', { role: 'administrator' }));
        d.users.push(u('admin@example.com', { role: 'owner' }));
      }),
      live,
      {},
    );
    expect(p.changes.map((c) => c.id)).toEqual([
      'user["admin@example.com"]#update',
      'user["owner@example.com"]#update',
    ]);
    expect(p.changes[1]!.dependsOn).toEqual(['user["admin@example.com"]#update']);
    const owners = new LiveBuilder();
    owners.state.me = { userId: 2, email: 'admin@example.com', role: 100 };
    owners.state.users[1]!.role = 100;
    const q = plan(
      desired((d) => {
        d.users.push(u('owner@example.com', { active: false }));
        d.users.push(u('alice@example.com', { role: 'owner' }));
      }),
      owners.build(),
      {},
    );
    // Another owner (the applying account) stays: any order passes, nothing waits.
    expect(q.changes.find((c) => c.action === 'deactivate')!.dependsOn).toEqual([]);
  });

  it('a user the plan reactivates counts with its declared role and name', () => {
    const b = new LiveBuilder();
    b.state.organizationSettings = { properties: { require_unique_names: true }, permissions: {} };
    const live = b.build();
    // gone@example.com (deactivated) comes back as the owner; the only owner steps down.
    const handover = plan(
      desired((d) => {
        d.users.push(u('owner@example.com', { role: 'administrator' }));
        d.users.push(u('gone@example.com', { active: true, role: 'owner' }));
      }),
      live,
      {},
    );
    expect(handover.changes.map((c) => c.id)).toContain('user["owner@example.com"]#update');
    // It comes back under a new name: its old one is free for alice.
    const gone = live.users.find((x) => x.email === 'gone@example.com')!;
    const renamed = plan(
      desired((d) => {
        d.users.push(u('gone@example.com', { active: true, fullName: 'Gone Again' }));
        d.users.push(u('alice@example.com', { fullName: gone.fullName }));
      }),
      live,
      {},
    );
    expect(renamed.changes.map((c) => c.id)).toContain('user["alice@example.com"]#update');
  });

  it('changes that must each go before another are an error, not an order broken at random', () => {
    const b = new LiveBuilder();
    b.state.organizationSettings = { properties: { require_unique_names: true }, permissions: {} };
    const live = b.build();
    const mine = live.users.find((x) => x.id === live.me.userId)!;
    // The only owner hands over and gives its name to the new owner: one PATCH renames and
    // demotes it, which must come after the promotion, which must come after the rename.
    const text = refused(
      desired((d) => {
        d.users.push(u(mine.email, { role: 'administrator', fullName: 'Former owner' }));
        d.users.push(u('admin@example.com', { role: 'owner', fullName: mine.fullName }));
      }),
      live,
    );
    expect(text).toContain('must each be made before another');
    expect(text).toContain('Make one of them in a first apply');
  });

  it("the applying account's own demotion waits for every other user change", () => {
    const b = new LiveBuilder();
    b.state.users.find((x) => x.id === 5)!.role = 100;
    const p = plan(
      desired((d) => {
        d.users.push(u('owner@example.com', { role: 'member' }));
        d.users.push(u('alice@example.com', { role: 'administrator' }));
      }),
      b.build(),
      {},
    );
    expect(p.changes.map((c) => c.id)).toEqual([
      'user["alice@example.com"]#update',
      'user["owner@example.com"]#update',
    ]);
    expect(p.changes[1]!.dependsOn).toEqual(['user["alice@example.com"]#update']);
  });

  it('a name another user has, when the organization requires unique names (check_full_name)', () => {
    const b = new LiveBuilder();
    b.state.organizationSettings = { properties: { require_unique_names: true }, permissions: {} };
    const live = b.build();
    const bobName = live.users.find((x) => x.email === 'bob@example.com')!.fullName;
    const clash = desired((d) =>
      d.users.push(u('alice@example.com', { fullName: ` ${bobName.toUpperCase()} ` })),
    );
    expect(refused(clash, live)).toContain(
      `user["alice@example.com"] (acme/alice): fullName ' ${bobName.toUpperCase()} ': the organization requires unique names, and bob@example.com has the same name after this plan (compared without case or Unicode variants); Zulip refuses it ("Unique names required in this organization."): choose another name`,
    );
    // Bob renamed in the same plan frees the name; turning the setting off allows it too.
    clash.users.push(u('bob@example.com', { fullName: 'Robert' }));
    expect(plan(clash, live, {}).changes).toHaveLength(2);
    const off = desired((d) => {
      d.users.push(u('alice@example.com', { fullName: bobName }));
      d.organizationSettings.push({
        path: 'acme/settings',
        properties: { requireUniqueNames: false },
        permissions: {},
      });
    });
    expect(plan(off, live, {}).changes.map((c) => c.kind)).toContain('user');
    // The rename waits for the setting, so a targeted plan keeps it.
    const targeted = plan(off, live, { targets: ['user["alice@example.com"]'] });
    expect(targeted.changes.map((c) => c.id)).toEqual([
      'organizationSettings["organization"]#update',
      'user["alice@example.com"]#update',
    ]);
  });

  it('names checked at each request: a freed name waits for its rename, a swap is an error', () => {
    const b = new LiveBuilder();
    b.state.organizationSettings = { properties: { require_unique_names: true }, permissions: {} };
    const live = b.build();
    const name = (email: string): string => live.users.find((x) => x.email === email)!.fullName;
    // Alice takes Bob's name, Bob a new one: Alice's rename goes after Bob's.
    const taken = plan(
      desired((d) => {
        d.users.push(u('alice@example.com', { fullName: name('bob@example.com') }));
        d.users.push(u('bob@example.com', { fullName: 'Robert' }));
      }),
      live,
      {},
    );
    expect(taken.changes.map((c) => c.id)).toEqual([
      'user["bob@example.com"]#update',
      'user["alice@example.com"]#update',
    ]);
    const swap = desired((d) => {
      d.users.push(u('alice@example.com', { fullName: name('bob@example.com') }));
      d.users.push(u('bob@example.com', { fullName: name('alice@example.com') }));
    });
    const text = refused(swap, live);
    expect(text).toContain(
      'user["alice@example.com"] (acme/alice): the organization requires unique names, and this plan swaps names between users (user["alice@example.com"], user["bob@example.com"]); Zulip compares each new name with the names users have at that request ("Unique names required in this organization.")',
    );
    expect(text.match(/swaps names/g)).toHaveLength(1);
  });
});

describe('linkifiers and code playgrounds (require_realm_admin)', () => {
  it('any change needs an organization administrator', () => {
    const b = new LiveBuilder();
    b.state.me = { userId: 5, email: 'carol@example.com', role: 300 };
    b.linkifier('#(?P<id>[0-9]+)', 'https://x.example/{id}');
    const d = desired((d) => {
      d.organization.prune.linkifier = true;
      d.playgrounds.push({
        path: 'acme/rust',
        name: 'Rust',
        pygmentsLanguage: 'Rust',
        urlTemplate: 'https://play.example/?code={code}',
      });
    });
    const text = refused(d, b.build());
    expect(text).toContain(
      'linkifier["#(?P<id>[0-9]+)"] (undeclared): Zulip lets only organization administrators change linkifiers ("Must be an organization administrator"), and the applying account carol@example.com is not one',
    );
    expect(text).toContain(
      'playground["Rust/Rust"] (acme/rust): Zulip lets only organization administrators change code playgrounds',
    );
    // An administrator may.
    b.state.me = { userId: 2, email: 'admin@example.com', role: 200 };
    expect(summary(plan(d, b.build(), {}))).toHaveLength(2);
  });
});

describe('a cycle of subgroups through groups the configuration does not declare (add_subgroups_to_group_backend)', () => {
  it('refuses adding a subgroup that has the group among its subgroups after the plan', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [3] });
    const mid = b.group('mid');
    const outer = b.group('outer');
    outer.subgroups = [mid.id];
    mid.subgroups = [ops.id];
    const live = b.build();
    const d = desired((d) =>
      d.userGroups.push(
        dGroup('ops', {
          members: { mode: 'exact', users: ['alice@example.com'], groups: ['outer'] },
        }),
      ),
    );
    expect(refused(d, live)).toContain(
      `userGroup["ops"] (acme/ops): members.groups: adding 'outer' makes a cycle of subgroups (ops -> outer -> mid -> ops) after this plan; Zulip refuses it ("User group ${ops.id} is already a subgroup of one of the passed subgroups."): remove 'outer' from the members of 'ops', or 'ops' from those of the group that holds it`,
    );
    // The plan also takes ops out of mid: no cycle is left.
    d.userGroups.push(dGroup('mid', { members: { mode: 'exact', users: [], groups: [] } }));
    // ops is declared first, but its new subgroup waits for mid to let go of it (Zulip checks
    // at each request).
    const ok = plan(d, live, {});
    expect(summary(ok)).toEqual(['membership userGroup["mid"]', 'membership userGroup["ops"]']);
    expect(ok.changes[1]!.dependsOn).toEqual(['userGroup["mid"]#membership']);
  });
});

describe('a set of users and groups Zulip reads as a system group the setting refuses (parse_group_setting_value)', () => {
  it('no user left, or one system group alone', () => {
    const b = new LiveBuilder();
    b.group('ops', { members: [3] });
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_manage_all_groups: b.groupId('role:owners') },
    };
    const text = refused(
      desired((d) => {
        d.organizationSettings.push({
          path: 'acme/settings',
          properties: {},
          permissions: { canManageAllGroups: { users: ['gone@example.com'], groups: [] } },
        });
        d.userGroups.push(
          dGroup('ops', {
            members: { mode: 'exact', users: ['alice@example.com'], groups: [] },
            permissions: { canJoinGroup: { users: [], groups: ['role:everyone'] } },
          }),
        );
      }),
      b.build(),
    );
    expect(text).toContain(
      `organizationSettings["organization"] (acme/settings): permissions.canManageAllGroups comes to 'role:nobody' (no user left: the users it names are deactivated or none), which Zulip refuses for this setting ("'can_manage_all_groups' setting cannot be set to 'role:nobody' group."): name a group or user it allows`,
    );
    expect(text).toContain(
      `userGroup["ops"] (acme/ops): permissions.canJoinGroup comes to 'role:everyone', which Zulip refuses for this setting ("'can_join_group' setting cannot be set to 'role:everyone' group.")`,
    );
  });
});

describe('a set that reads as a refused system group only because the register leaves deactivated users out', () => {
  it('is no error while the setting is unchanged: nothing is sent', () => {
    const b = new LiveBuilder();
    // Stored while gone@example.com was active; reported without it (get_group_setting_value_for_api).
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_manage_all_groups: { direct_members: [], direct_subgroups: [] } },
    };
    const p = plan(
      desired((d) =>
        d.organizationSettings.push({
          path: 'acme/settings',
          properties: {},
          permissions: { canManageAllGroups: { users: ['gone@example.com'], groups: [] } },
        }),
      ),
      b.build(),
      {},
    );
    expect(p.changes.filter((c) => c.kind === 'organizationSettings')).toEqual([]);
  });
});

describe('reactivating a bot (reactivate_user_backend)', () => {
  /** The fixture's organization with a deactivated bot named as alice (3) is. */
  const withDeactivatedBot = (): LiveBuilder => {
    const b = new LiveBuilder();
    b.state.users.push({
      id: 7,
      email: 'bot@example.com',
      fullName: 'Alice Member',
      role: 400,
      isActive: false,
      isBot: true,
      botOwnerId: 1,
    });
    b.state.users.find((u) => u.id === 3)!.fullName = 'Alice Member';
    return b;
  };

  it('needs the right to create bots, and no active user with its name', () => {
    const b = withDeactivatedBot();
    const nobody = b.groupId('role:nobody');
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_create_bots_group: nobody, can_create_write_only_bots_group: nobody },
    };
    const d = desired((d) =>
      d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true }),
    );
    const text = refused(d, b.build());
    expect(text).toContain(
      `user["bot@example.com"] (acme/bot): reactivating a bot needs the right to create one (the organization's canCreateBotsGroup); Zulip refuses it for owner@example.com ("Insufficient permission")`,
    );
    expect(text).toContain(
      `user["bot@example.com"] (acme/bot): alice@example.com is an active user named 'Alice Member', as the bot is; Zulip refuses to reactivate it ("There is already an active bot named "Alice Member" in this organization.`,
    );
    // Either holds, and another name: planned.
    b.state.organizationSettings.permissions.can_create_write_only_bots_group =
      b.groupId('role:owners');
    b.state.users.find((u) => u.id === 3)!.fullName = 'Alice A';
    expect(summary(plan(d, b.build(), {}))).toEqual(['reactivate user["bot@example.com"]']);
  });

  it('canCreateWriteOnlyBotsGroup lets only an incoming webhook bot be reactivated (check_can_create_bot)', () => {
    const b = withDeactivatedBot();
    b.state.users.find((u) => u.id === 3)!.fullName = 'Alice A';
    b.state.organizationSettings = {
      properties: {},
      permissions: {
        can_create_bots_group: b.groupId('role:nobody'),
        can_create_write_only_bots_group: b.groupId('role:owners'),
      },
    };
    const d = desired((d) =>
      d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true }),
    );
    const bot = b.state.users.find((u) => u.id === 7)!;
    bot.botType = 1;
    expect(refused(d, b.build())).toContain(
      `user["bot@example.com"] (acme/bot): reactivating a bot needs the right to create one (the organization's canCreateBotsGroup); Zulip refuses it for owner@example.com ("Insufficient permission")`,
    );
    bot.botType = 2;
    expect(summary(plan(d, b.build(), {}))).toEqual(['reactivate user["bot@example.com"]']);
  });

  it('counts what the plan does first: a membership that gives the right, the other user deactivated', () => {
    const b = withDeactivatedBot();
    b.group('botmakers', { members: [2] });
    const nobody = b.groupId('role:nobody');
    b.state.organizationSettings = {
      properties: {},
      permissions: {
        can_create_bots_group: b.groupId('botmakers'),
        can_create_write_only_bots_group: nobody,
      },
    };
    const d = desired((d) => {
      d.userGroups.push(
        dGroup('botmakers', {
          members: { mode: 'exact', users: ['admin@example.com', 'owner@example.com'], groups: [] },
        }),
      );
      d.users.push({ path: 'acme/alice', email: 'alice@example.com', active: false });
      d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true });
    });
    const made = plan(d, b.build(), {});
    expect(summary(made)).toEqual(
      expect.arrayContaining([
        'membership userGroup["botmakers"]',
        'deactivate user["alice@example.com"]',
        'reactivate user["bot@example.com"]',
      ]),
    );
    const ids = made.changes.map((c) => c.id);
    const at = (id: string): number => ids.indexOf(id);
    expect(at('user["bot@example.com"]#reactivate')).toBeGreaterThan(
      at('user["alice@example.com"]#deactivate'),
    );
    expect(at('user["bot@example.com"]#reactivate')).toBeGreaterThan(
      at('userGroup["botmakers"]#membership'),
    );
    // A targeted plan keeps both.
    const targeted = plan(d, b.build(), { targets: ['user["bot@example.com"]'] });
    expect(targeted.changes.find((c) => c.action === 'reactivate')?.dependsOn).toEqual([
      'userGroup["botmakers"]#membership',
      'user["alice@example.com"]#deactivate',
    ]);
    expect(summary(targeted)).toEqual([
      'membership userGroup["botmakers"]',
      'deactivate user["alice@example.com"]',
      'reactivate user["bot@example.com"]',
    ]);
  });

  it("counts the organization's declared canCreateBotsGroup, applied before users", () => {
    const b = withDeactivatedBot();
    b.state.users.find((x) => x.id === 3)!.fullName = 'Alice A';
    const nobody = b.groupId('role:nobody');
    b.state.organizationSettings = {
      properties: {},
      permissions: { can_create_bots_group: nobody, can_create_write_only_bots_group: nobody },
    };
    const d = desired((d) => {
      d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true });
      d.organizationSettings.push({
        path: 'acme/settings',
        properties: {},
        permissions: { canCreateBotsGroup: 'role:owners' },
      });
    });
    const made = plan(d, b.build(), {});
    expect(summary(made)).toEqual([
      'update organizationSettings["organization"]',
      'reactivate user["bot@example.com"]',
    ]);
    // The reactivation waits for the setting, so a targeted plan keeps it.
    const targeted = plan(d, b.build(), { targets: ['user["bot@example.com"]'] });
    expect(summary(targeted)).toEqual(summary(made));
  });

  it('a member reactivates its own bot (can_admin_user)', () => {
    const b = withDeactivatedBot();
    b.state.users.find((x) => x.id === 7)!.botOwnerId = 3;
    b.state.users.find((x) => x.id === 3)!.fullName = 'Alice A';
    b.state.me = { userId: 3, email: 'alice@example.com', role: 400 };
    const d = desired((d) =>
      d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true }),
    );
    expect(summary(plan(d, b.build(), {}))).toEqual(['reactivate user["bot@example.com"]']);
  });

  it("waits for the rename of the active user with the bot's name", () => {
    const made = plan(
      desired((d) => {
        d.users.push({ path: 'acme/bot', email: 'bot@example.com', active: true });
        d.users.push({ path: 'acme/alice', email: 'alice@example.com', fullName: 'Alice A' });
      }),
      withDeactivatedBot().build(),
      {},
    );
    const ids = made.changes.map((c) => c.id);
    expect(ids.indexOf('user["bot@example.com"]#reactivate')).toBeGreaterThan(
      ids.indexOf('user["alice@example.com"]#update'),
    );
  });
});
