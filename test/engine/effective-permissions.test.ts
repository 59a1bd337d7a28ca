import Ajv2020 from 'ajv/dist/2020';
import {
  parsePlan,
  plan,
  planDigest,
  planJsonSchema,
  renderJson,
  renderMarkdown,
  renderText,
} from '../../src/engine';
import type { Plan, PermissionEffect } from '../../src/engine';
import { reconcile } from '../../src/engine/apply/reconcile';
import { ROLES } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';

/**
 * The organization of issue 15's example: `design` is {dave, erin}; `engineering` is {alice,
 * erin} with the subgroup `leads` {carol (a moderator)} and `bob` through `backend`, nested
 * in `leads`. `#engineering` is administered by `design`. owner@ and admin@ are the
 * organization's administrators.
 */
function org(): LiveBuilder {
  const b = new LiveBuilder();
  b.state.users.push(
    {
      id: 7,
      email: 'dave@example.com',
      fullName: 'dave',
      role: ROLES.member,
      isActive: true,
      isBot: false,
    },
    {
      id: 8,
      email: 'erin@example.com',
      fullName: 'erin',
      role: ROLES.member,
      isActive: true,
      isBot: false,
    },
    {
      id: 9,
      email: 'guest@example.com',
      fullName: 'guest',
      role: ROLES.guest,
      isActive: true,
      isBot: false,
    },
  );
  b.state.userGroups.find((g) => g.name === 'role:members')!.members.push(7, 8);
  b.state.userGroups.find((g) => g.name === 'role:fullmembers')!.members.push(7, 8);
  b.state.userGroups.find((g) => g.name === 'role:everyone')!.members.push(9);
  const design = b.group('design', { members: [7, 8] });
  const backend = b.group('backend', { members: [4] });
  const leads = b.group('leads', { members: [5], subgroups: [backend.id] });
  const engineering = b.group('engineering', { members: [3, 8], subgroups: [leads.id] });
  b.channel('engineering', { permissions: { can_administer_channel_group: design.id } });
  void engineering;
  return b;
}

function declared(
  extra: (d: ReturnType<typeof desired>) => void = () => {},
  channel: Parameters<typeof dChannel>[1] = {},
): ReturnType<typeof desired> {
  return desired((d) => {
    d.userGroups.push(
      dGroup('design', {
        members: { mode: 'exact', users: ['dave@example.com', 'erin@example.com'], groups: [] },
      }),
      dGroup('backend', { members: { mode: 'exact', users: ['bob@example.com'], groups: [] } }),
      dGroup('leads', {
        members: { mode: 'exact', users: ['carol@example.com'], groups: ['backend'] },
      }),
      dGroup('engineering', {
        members: {
          mode: 'exact',
          users: ['alice@example.com', 'erin@example.com'],
          groups: ['leads'],
        },
      }),
    );
    d.channels.push(
      dChannel('engineering', { permissions: { canAdministerChannelGroup: 'design' }, ...channel }),
    );
    extra(d);
  });
}

function effect(p: Plan, address: string, permission: string): PermissionEffect | undefined {
  return p.permissions?.effects.find((e) => e.address === address && e.permission === permission);
}

// Group settings are held at Zulip's defaults when not declared; these tests declare the
// groups' own settings as they are live so that only what the test changes is planned.
function quiet(d: ReturnType<typeof desired>): void {
  for (const g of d.userGroups)
    g.permissions = {
      canAddMembersGroup: { users: ['owner@example.com'], groups: [] },
      canManageGroup: { users: ['owner@example.com'], groups: [] },
    };
}

describe('effective permissions', () => {
  it('issue 15: canAdministerChannelGroup design → engineering names each user who gains and loses, with the administrators always holding it', () => {
    const b = org();
    const p = plan(
      declared(quiet, { permissions: { canAdministerChannelGroup: 'engineering' } }),
      b.build(),
    );
    const e = effect(p, 'channel["engineering"]', 'permissions.canAdministerChannelGroup');
    expect(e).toMatchObject({
      ability: 'administer the channel',
      changes: ['channel["engineering"]#update'],
      // before: dave, erin + owner, admin; after: alice, bob, carol, erin + owner, admin
      before: 4,
      after: 6,
      gained: { count: 3, users: ['alice@example.com', 'bob@example.com', 'carol@example.com'] },
      lost: { count: 1, users: ['dave@example.com'] },
    });
    // Channel administrators may also unsubscribe anyone (bulk_can_remove_subscribers_from_streams).
    const remove = effect(p, 'channel["engineering"]', 'permissions.canRemoveSubscribersGroup');
    expect(remove?.gained.users).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(remove?.lost.users).toEqual(['dave@example.com']);
    // Per user: bob gains administering #engineering.
    const bob = p.permissions?.users.find((u) => u.email === 'bob@example.com');
    expect(bob?.gains).toContainEqual({
      address: 'channel["engineering"]',
      permission: 'permissions.canAdministerChannelGroup',
    });
    expect(bob?.losesCount).toBe(0);
  });

  it('a group nested in another that still holds the permission loses nothing ("ops may no longer post" was wrong)', () => {
    const b = new LiveBuilder();
    const ops = b.group('ops', { members: [3] });
    const staff = b.group('staff', { members: [4], subgroups: [ops.id] });
    b.channel('prod', {
      permissions: {
        can_send_message_group: { direct_members: [], direct_subgroups: [ops.id, staff.id] },
      },
    });
    const d = desired((d) => {
      d.userGroups.push(
        dGroup('ops', { members: { mode: 'exact', users: ['alice@example.com'], groups: [] } }),
        dGroup('staff', {
          members: { mode: 'exact', users: ['bob@example.com'], groups: ['ops'] },
        }),
      );
      quiet(d);
      d.channels.push(dChannel('prod', { permissions: { canSendMessageGroup: 'staff' } }));
    });
    const p = plan(d, b.build());
    const e = effect(p, 'channel["prod"]', 'permissions.canSendMessageGroup');
    expect(e).toMatchObject({ before: 2, after: 2, gained: { count: 0 }, lost: { count: 0 } });
  });

  it('role:administrators → role:moderators: moderators gain, administrators lose nothing', () => {
    const b = new LiveBuilder();
    b.channel('general', {
      permissions: { can_delete_any_message_group: b.groupId('role:administrators') },
    });
    const p = plan(
      desired((d) =>
        d.channels.push(
          dChannel('general', { permissions: { canDeleteAnyMessageGroup: 'role:moderators' } }),
        ),
      ),
      b.build(),
    );
    const e = effect(p, 'channel["general"]', 'permissions.canDeleteAnyMessageGroup');
    expect(e).toMatchObject({
      before: 2,
      after: 3,
      gained: { count: 1, users: ['carol@example.com'] },
      lost: { count: 0, users: [] },
      // Whoever the organization's own setting allows is not known to the plan.
      notCounted: ['can_delete_any_message_group'],
    });
  });

  it('a member added to a group nested in the one that administers a channel gains administering it', () => {
    const b = org();
    const p = plan(
      declared(
        (d) => {
          quiet(d);
          d.userGroups.find((g) => g.name === 'backend')!.members.users.push('dave@example.com');
          d.userGroups.find((g) => g.name === 'engineering')!.members.users = ['alice@example.com'];
        },
        { permissions: { canAdministerChannelGroup: 'engineering' } },
      ),
      b.build(),
    );
    // The setting changes and two memberships do: erin leaves engineering but was in design.
    const e = effect(p, 'channel["engineering"]', 'permissions.canAdministerChannelGroup');
    expect(e?.changes).toEqual([
      'channel["engineering"]#update',
      'userGroup["backend"]#membership',
      'userGroup["engineering"]#membership',
    ]);
    expect(e?.gained.users).toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    expect(e?.lost.users).toEqual(['erin@example.com']);
  });

  it('a membership change alone is described by the abilities it gives (nested two levels down)', () => {
    const b = org();
    b.state.channels[0]!.permissions.can_administer_channel_group = b.groupId('engineering');
    const p = plan(
      declared(
        (d) => {
          quiet(d);
          d.userGroups.find((g) => g.name === 'backend')!.members.users.push('dave@example.com');
        },
        { permissions: { canAdministerChannelGroup: 'engineering' } },
      ),
      b.build(),
    );
    expect(p.changes.map((c) => c.id)).toEqual(['userGroup["backend"]#membership']);
    const e = effect(p, 'channel["engineering"]', 'permissions.canAdministerChannelGroup');
    expect(e).toMatchObject({
      changes: ['userGroup["backend"]#membership'],
      gained: { count: 1, users: ['dave@example.com'] },
      lost: { count: 0 },
    });
    const dave = p.permissions?.users.find((u) => u.email === 'dave@example.com');
    expect(dave?.gains.map((g) => g.permission)).toEqual([
      'permissions.canAddSubscribersGroup',
      'permissions.canAdministerChannelGroup',
      'permissions.canMoveMessagesOutOfChannelGroup',
      'permissions.canMoveMessagesWithinChannelGroup',
      'permissions.canRemoveSubscribersGroup',
    ]);
  });

  it('a role change moves the user between role groups: a new administrator administers every channel', () => {
    const b = new LiveBuilder();
    b.channel('one');
    b.channel('two', { permissions: { can_send_message_group: b.groupId('role:moderators') } });
    const p = plan(
      desired((d) =>
        d.users.push({ path: 'acme/alice', email: 'alice@example.com', role: 'administrator' }),
      ),
      b.build(),
    );
    for (const ch of ['one', 'two'])
      expect(
        effect(p, `channel["${ch}"]`, 'permissions.canAdministerChannelGroup')?.gained.users,
      ).toEqual(['alice@example.com']);
    expect(effect(p, 'channel["two"]', 'permissions.canSendMessageGroup')?.gained.users).toEqual([
      'alice@example.com',
    ]);
    // Posting in #one is role:everyone: alice already could.
    expect(effect(p, 'channel["one"]', 'permissions.canSendMessageGroup')).toBeUndefined();
  });

  it('guests never hold a setting that refuses role:everyone; deactivated users never hold anything', () => {
    const b = org();
    const g = b.group('mixed', { members: [6, 9, 3] }); // gone (deactivated), guest, alice
    b.channel('ops', { permissions: { can_administer_channel_group: b.groupId('role:nobody') } });
    void g;
    const p = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('mixed', {
            members: { mode: 'atLeast', users: [], groups: [] },
            permissions: {
              canAddMembersGroup: { users: ['owner@example.com'], groups: [] },
              canManageGroup: { users: ['owner@example.com'], groups: [] },
            },
          }),
        );
        d.channels.push(
          dChannel('ops', {
            permissions: { canAdministerChannelGroup: 'mixed', canSendMessageGroup: 'mixed' },
          }),
        );
      }),
      b.build(),
    );
    expect(
      effect(p, 'channel["ops"]', 'permissions.canAdministerChannelGroup')?.gained.users,
    ).toEqual(['alice@example.com']);
    // can_send_message_group allows everyone: the guest may post, and loses nothing.
    expect(effect(p, 'channel["ops"]', 'permissions.canSendMessageGroup')).toMatchObject({
      gained: { count: 0 },
      lost: { count: 6 },
    });
  });

  it('deep nesting is followed to the bottom', () => {
    const b = new LiveBuilder();
    let below = b.group('level-0', { members: [4] });
    for (let i = 1; i < 300; i++) below = b.group(`level-${i}`, { subgroups: [below.id] });
    b.channel('deep', { permissions: { can_resolve_topics_group: below.id } });
    const p = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('level-0', {
            members: { mode: 'exact', users: ['bob@example.com', 'alice@example.com'], groups: [] },
          }),
        );
        quiet(d);
        for (let i = 1; i < 300; i++)
          d.userGroups.push(
            dGroup(`level-${i}`, {
              members: { mode: 'exact', users: [], groups: [`level-${i - 1}`] },
            }),
          );
        quiet(d);
        d.channels.push(dChannel('deep', { permissions: { canResolveTopicsGroup: 'level-299' } }));
      }),
      b.build(),
    );
    const e = effect(p, 'channel["deep"]', 'permissions.canResolveTopicsGroup');
    expect(e).toMatchObject({ before: 1, after: 2, gained: { users: ['alice@example.com'] } });
  });

  it('large expansions are counted, with the first names only', () => {
    const b = new LiveBuilder();
    for (let i = 0; i < 200; i++) {
      b.state.users.push({
        id: 500 + i,
        email: `u${String(i).padStart(3, '0')}@example.com`,
        fullName: `u${i}`,
        role: ROLES.member,
        isActive: true,
        isBot: false,
      });
      b.state.userGroups.find((g) => g.name === 'role:members')!.members.push(500 + i);
    }
    b.channel('big', { permissions: { can_send_message_group: b.groupId('role:administrators') } });
    const p = plan(
      desired((d) =>
        d.channels.push(dChannel('big', { permissions: { canSendMessageGroup: 'role:members' } })),
      ),
      b.build(),
    );
    const e = effect(p, 'channel["big"]', 'permissions.canSendMessageGroup');
    expect(e?.gained.count).toBe(203);
    expect(e?.gained.users).toHaveLength(20);
    expect(p.permissions?.usersCount).toBe(203);
    expect(p.permissions?.users).toHaveLength(50);
  });
});

describe('effective permissions with large groups (compared by their groups, not their members)', () => {
  // 1,500 members m0000…m1499 and a guest; `staff` (m0000…m1199 and the guest) is large enough
  // to be compared as a whole; `ops` {m0003, m1300, guest} and `night` {m0001, m1450} are small.
  const email = (i: number): string => `m${String(i).padStart(4, '0')}@example.com`;
  const range = (from: number, to: number): number[] =>
    Array.from({ length: to - from }, (_, k) => from + k);
  function bigOrg(): LiveBuilder {
    const b = new LiveBuilder();
    const id = (i: number): number => 2000 + i;
    for (const i of range(0, 1500)) {
      b.state.users.push({
        id: id(i),
        email: email(i),
        fullName: `m${i}`,
        role: ROLES.member,
        isActive: true,
        isBot: false,
      });
      b.state.userGroups.find((g) => g.name === 'role:members')!.members.push(id(i));
      b.state.userGroups.find((g) => g.name === 'role:fullmembers')!.members.push(id(i));
    }
    b.state.users.push({
      id: 3900,
      email: 'guest@example.com',
      fullName: 'guest',
      role: ROLES.guest,
      isActive: true,
      isBot: false,
    });
    b.state.userGroups.find((g) => g.name === 'role:everyone')!.members.push(3900);
    const staff = b.group('staff', { members: [...range(0, 1200).map(id), 3900] });
    const ops = b.group('ops', { members: [id(3), id(1300), 3900] });
    const night = b.group('night', { members: [id(1), id(1450)] });
    const anon = (...groups: number[]) => ({ direct_members: [], direct_subgroups: groups });
    b.channel('a', { permissions: { can_send_message_group: anon(staff.id, ops.id) } });
    b.channel('b', { permissions: { can_administer_channel_group: staff.id } });
    b.channel('c', { permissions: { can_send_message_group: anon(staff.id, night.id) } });
    b.channel('d', { permissions: { can_administer_channel_group: staff.id } });
    return b;
  }
  const owned = {
    canAddMembersGroup: { users: ['owner@example.com'], groups: [] },
    canManageGroup: { users: ['owner@example.com'], groups: [] },
  };
  // staff loses m0000 and gains m1250; m0010 (in staff) becomes a guest; #a moves from ops to
  // night, #b from staff to ops; #c and #d stay as they are.
  const p = plan(
    desired((d) => {
      d.userGroups.push(
        dGroup('staff', {
          members: {
            mode: 'exact',
            users: [...range(1, 1200), 1250].map(email).concat('guest@example.com'),
            groups: [],
          },
          permissions: owned,
        }),
        dGroup('ops', {
          members: {
            mode: 'exact',
            users: [email(3), email(1300), 'guest@example.com'],
            groups: [],
          },
          permissions: owned,
        }),
        dGroup('night', {
          members: { mode: 'exact', users: [email(1), email(1450)], groups: [] },
          permissions: owned,
        }),
      );
      d.channels.push(
        dChannel('a', {
          permissions: { canSendMessageGroup: { users: [], groups: ['staff', 'night'] } },
        }),
        dChannel('b', { permissions: { canAdministerChannelGroup: 'ops' } }),
        dChannel('c', {
          permissions: { canSendMessageGroup: { users: [], groups: ['staff', 'night'] } },
        }),
        dChannel('d', { permissions: { canAdministerChannelGroup: 'staff' } }),
      );
      d.users.push({ path: 'acme/m0010', email: email(10), role: 'guest' });
    }),
    bigOrg().build(),
  );

  it("a large group both sides share cancels: only the small groups' users gain or lose", () => {
    // before: staff ∪ ops = m0000…m1199, guest, m1300; after: staff ∪ night.
    expect(effect(p, 'channel["a"]', 'permissions.canSendMessageGroup')).toMatchObject({
      before: 1202,
      after: 1202,
      gained: { count: 2, users: [email(1250), email(1450)] },
      lost: { count: 2, users: [email(0), email(1300)] },
    });
    // Unchanged setting, changed group: the members staff gains and loses, nobody else.
    expect(effect(p, 'channel["c"]', 'permissions.canSendMessageGroup')).toMatchObject({
      before: 1202,
      after: 1202,
      gained: { count: 1, users: [email(1250)] },
      lost: { count: 1, users: [email(0)] },
    });
  });

  it('a large group on one side: everyone in it loses, less those the other side still lets through, first names in order', () => {
    // Administering #b: staff (no guest) and the administrators → ops (no guest) and them.
    const e = effect(p, 'channel["b"]', 'permissions.canAdministerChannelGroup');
    expect(e).toMatchObject({ before: 1202, after: 4, gained: { count: 1, users: [email(1300)] } });
    // m0003 is in ops: kept. m0010 becomes a guest: lost either way.
    expect(e?.lost.count).toBe(1199);
    expect(e?.lost.users).toEqual([...range(0, 3), ...range(4, 21)].map(email));
  });

  it('a user who becomes a guest loses what a large group gives them where guests are refused', () => {
    expect(effect(p, 'channel["d"]', 'permissions.canAdministerChannelGroup')).toMatchObject({
      before: 1202,
      after: 1201,
      gained: { count: 1, users: [email(1250)] },
      lost: { count: 2, users: [email(0), email(10)] },
    });
    // Posting is open to guests: m0010 keeps it.
    expect(effect(p, 'channel["c"]', 'permissions.canSendMessageGroup')?.lost.users).not.toContain(
      email(10),
    );
  });

  it('counts each user once across effects, and lists their abilities', () => {
    const m0000 = p.permissions?.users.find((u) => u.email === email(0));
    expect(m0000?.loses.map((a) => a.address)).toEqual(
      expect.arrayContaining(['channel["a"]', 'channel["b"]', 'channel["c"]', 'channel["d"]']),
    );
    const m0003 = p.permissions?.users.find((u) => u.email === email(3));
    expect(m0003).toBeUndefined();
  });
});

describe('an organization setting changed in the same plan', () => {
  it("counts the organization's setting after the plan in the holders of the group permissions it also lets through", () => {
    const b = new LiveBuilder();
    b.group('design', { members: [3] });
    const live = b.build();
    live.organizationSettings = {
      properties: {},
      permissions: { can_manage_all_groups: b.groupId('role:owners') },
    };
    const p = plan(
      desired((d) => {
        d.userGroups.push(
          dGroup('design', {
            members: { mode: 'exact', users: ['alice@example.com'], groups: [] },
            permissions: {
              canAddMembersGroup: { users: ['owner@example.com'], groups: [] },
              canManageGroup: { users: ['owner@example.com', 'bob@example.com'], groups: [] },
            },
          }),
        );
        d.organizationSettings.push({
          path: 'acme/settings',
          properties: {},
          permissions: { canManageAllGroups: 'role:administrators' },
        });
      }),
      live,
    );
    // Before: the owner (named, and can_manage_all_groups = role:owners). After: bob (named)
    // and admin@ (can_manage_all_groups = role:administrators, changed by this plan).
    expect(effect(p, 'userGroup["design"]', 'permissions.canManageGroup')).toMatchObject({
      changes: ['organizationSettings["organization"]#update', 'userGroup["design"]#update'],
      before: 1,
      after: 3,
      gained: { count: 2, users: ['admin@example.com', 'bob@example.com'] },
      lost: { count: 0 },
    });
    // Adding members follows managing the group and can_manage_all_groups: admin@ and bob gain
    // it though the plan does not set it.
    expect(effect(p, 'userGroup["design"]', 'permissions.canAddMembersGroup')).toMatchObject({
      changes: ['organizationSettings["organization"]#update', 'userGroup["design"]#update'],
      gained: { count: 2, users: ['admin@example.com', 'bob@example.com'] },
    });
  });
});

describe('effective permissions in the saved plan', () => {
  const made = (): Plan =>
    plan(
      declared(quiet, { permissions: { canAdministerChannelGroup: 'engineering' } }),
      org().build(),
    );

  it('reads back, and is in the JSON Schema with a description', () => {
    const p = made();
    expect(parsePlan(JSON.parse(renderJson(p)))).toEqual(p);
    const schema = JSON.stringify(planJsonSchema());
    expect(schema).toContain('"permissions"');
    expect(schema).toContain('Who holds one permission before and after the plan');
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(planJsonSchema(), JSON.parse(renderJson(p)))).toBe(true);
  });

  it('is covered by the digest: a hand-edited effect is refused', () => {
    const p = JSON.parse(renderJson(made())) as Plan;
    const e = p.permissions!.effects[0]!;
    e.gained = { count: 0, users: [] };
    expect(() => parsePlan(p)).toThrow(/PLAN_TAMPERED|digest it records/);
  });

  it('apply refuses a plan whose effects were edited and its digest recomputed', () => {
    const live = org().build();
    const p = made();
    const edited = structuredClone(p);
    edited.permissions!.effects[0]!.lost = { count: 0, users: [] };
    const forged = { ...edited, digest: planDigest(edited) };
    expect(() => reconcile(forged, live)).toThrow(/who gains and who loses/);
    expect(() => reconcile(p, live)).not.toThrow();
  });

  it('a plan that touches no permission has no field (and keeps its digest)', () => {
    const p = plan(desired(), new LiveBuilder().build());
    expect(p.permissions).toBeUndefined();
  });
});

describe('who gains and who loses, rendered', () => {
  // The "done when": a channel's permission group and a nested group's membership change.
  const p = (): Plan =>
    plan(
      declared(
        (d) => {
          quiet(d);
          d.userGroups.find((g) => g.name === 'backend')!.members.users.push('gone@example.com');
          d.userGroups.find((g) => g.name === 'leads')!.members.users = [];
        },
        { permissions: { canAdministerChannelGroup: 'engineering' } },
      ),
      org().build(),
    );

  it('the Markdown comment opens with the table, uncollapsed, naming each user who gains and who loses', () => {
    const md = renderMarkdown(p());
    const table = md.slice(md.indexOf('#### Who gains / who loses'), md.indexOf('<details'));
    expect(md.indexOf('#### Who gains / who loses')).toBeLessThan(md.indexOf('<details'));
    // carol leaves leads: she does not gain; alice and bob do; dave loses.
    expect(table).toContain(
      '| `channel["engineering"]` | add subscribers, administer the channel, move messages out of the channel, move messages between topics and unsubscribe others | alice and bob | dave |',
    );
    expect(table).toContain('Everyone named has an address at example.com.');
    // The JSON says the same.
    const e = effect(p(), 'channel["engineering"]', 'permissions.canAdministerChannelGroup');
    expect(e?.gained.users).toEqual(['alice@example.com', 'bob@example.com']);
    expect(e?.lost.users).toEqual(['dave@example.com']);
    // The details are collapsed below: every permission, every person.
    expect(md).toMatch(
      /<details><summary>Who gains \/ who loses: every permission \(\d+\) and every person \(3\)<\/summary>/,
    );
    expect(md).toContain(
      '- dave@example.com may no longer: add subscribers, administer the channel, move messages out of the channel, move messages between topics and unsubscribe others in channel\\["engineering"\\].',
    );
  });

  it('the text plan has the same section', () => {
    const text = renderText(p());
    expect(text).toContain('Who gains / who loses (3 people):');
    expect(text).toContain(
      '  channel["engineering"]: + alice@example.com and bob@example.com may now add subscribers, administer the channel, move messages out of the channel, move messages between topics and unsubscribe others; - dave@example.com may no longer',
    );
  });

  it('the update says it in words from the effective holders', () => {
    const md = renderMarkdown(p());
    expect(md).toContain(
      '- `channel["engineering"]`: permissions.canAdministerChannelGroup: alice@example.com and bob@example.com may now administer the channel; dave@example.com may no longer.',
    );
    expect(md).not.toContain('unless also covered otherwise');
  });

  it('a long list is summarised: 10 names per cell, 20 rows, under the comment limit', () => {
    const b = new LiveBuilder();
    for (let i = 0; i < 3000; i++) {
      b.state.users.push({
        id: 5000 + i,
        email: `user${i}@example.com`,
        fullName: `u${i}`,
        role: ROLES.member,
        isActive: true,
        isBot: false,
      });
      b.state.userGroups.find((g) => g.name === 'role:members')!.members.push(5000 + i);
    }
    for (let c = 0; c < 40; c++)
      b.channel(`c${c}`, {
        permissions: { can_send_message_group: b.groupId('role:administrators') },
      });
    const big = plan(
      desired((d) => {
        for (let c = 0; c < 40; c++)
          d.channels.push(
            dChannel(`c${c}`, { permissions: { canSendMessageGroup: 'role:members' } }),
          );
      }),
      b.build(),
    );
    const md = renderMarkdown(big);
    expect(md.length).toBeLessThan(60000);
    expect(md).toContain('and 2993 more');
    expect(md).toContain('20 more rows are in "every permission" below.');
    expect(md.split('\n').filter((l) => l.startsWith('| `channel')).length).toBe(20);
  });
});
