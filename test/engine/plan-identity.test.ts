import { plan, PlanSchema } from '../../src/engine';
import type { Plan } from '../../src/engine';
import type { DesiredState, LiveState, ZulipCdkError } from '../../src/model';
import { LiveBuilder, dChannel, dGroup, desired } from './fixtures';
import { thrownError } from '../support/errors';

/**
 * Identity mistakes (issue 13): an e-mail that is not a user of the organization fails the
 * plan, naming every such e-mail with its construct path, its resource address and the closest
 * user; a deactivated user is a DEACTIVATED_USER warning, and is neither added nor removed.
 * Fixture users: owner@ (1), admin@ (2), alice@ (3), bob@ (4), carol@ (5), gone@ (6,
 * deactivated), all @example.com.
 */

function run(d: DesiredState, live: LiveState): Plan {
  const p = plan(d, live);
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}

/** The error a plan throws, or a test failure when it does not throw one. */
const planError = (d: DesiredState, live: LiveState): ZulipCdkError =>
  thrownError(() => plan(d, live));

const builder = () => {
  const b = new LiveBuilder();
  b.group('eng', { members: [3, 4] });
  b.channel('general', { subscribers: [1, 3, 4] });
  return b;
};
const live = builder().build();
const addUser = (b: LiveBuilder, id: number, email: string) =>
  b.state.users.push({ id, email, fullName: email, role: 400, isActive: true, isBot: false });
const users = (mode: 'exact' | 'atLeast', ...emails: string[]) => ({
  mode,
  users: emails,
  groups: [],
});

describe('plan: an e-mail that is not a user of the organization', () => {
  it.each<[string, (d: DesiredState) => void, string]>([
    [
      'in an exact group membership',
      (d) => d.userGroups.push(dGroup('eng', { members: users('exact', 'bob@exmaple.com') })),
      'userGroup["eng"] (acme/eng): members: bob@exmaple.com',
    ],
    [
      'in an atLeast group membership',
      (d) => d.userGroups.push(dGroup('eng', { members: users('atLeast', 'bob@exmaple.com') })),
      'userGroup["eng"] (acme/eng): members: bob@exmaple.com',
    ],
    [
      'in exact channel subscribers',
      (d) =>
        d.channels.push(
          dChannel('general', {
            subscribers: users('exact', 'owner@example.com', 'bbo@example.com'),
          }),
        ),
      'channel["general"] (acme/general): subscribers: bbo@example.com',
    ],
    [
      'in atLeast channel subscribers',
      (d) =>
        d.channels.push(dChannel('general', { subscribers: users('atLeast', 'bob@example.con') })),
      'channel["general"] (acme/general): subscribers: bob@example.con',
    ],
    [
      "in a group's permission (Permission.anyOf({users}))",
      (d) =>
        d.userGroups.push(
          dGroup('eng', {
            members: users('exact', 'alice@example.com', 'bob@example.com'),
            permissions: { canManageGroup: { users: ['bob@exampl.com'], groups: [] } },
          }),
        ),
      'userGroup["eng"] (acme/eng): permissions.canManageGroup: bob@exampl.com',
    ],
    [
      "in a channel's permission",
      (d) =>
        d.channels.push(
          dChannel('general', {
            permissions: {
              canSendMessageGroup: { users: ['Bob@Exmaple.com'], groups: ['role:administrators'] },
            },
          }),
        ),
      'channel["general"] (acme/general): permissions.canSendMessageGroup: Bob@Exmaple.com',
    ],
    [
      'in a new channel',
      (d) => d.channels.push(dChannel('new', { subscribers: users('exact', 'bob@example.co') })),
      'channel["new"] (acme/new): subscribers: bob@example.co',
    ],
    [
      'in a permission whose changes are ignored',
      (d) =>
        d.userGroups.push(
          dGroup('eng', {
            members: users('atLeast'),
            permissions: { canJoinGroup: { users: ['bob@exmaple.com'], groups: [] } },
            lifecycle: { ignoreChanges: ['permissions'] },
          }),
        ),
      'userGroup["eng"] (acme/eng): permissions.canJoinGroup: bob@exmaple.com',
    ],
    [
      'as a User',
      (d) => d.users.push({ path: 'acme/bob', email: 'bob@exmaple.com', role: 'moderator' }),
      'user["bob@exmaple.com"] (acme/bob): email: bob@exmaple.com',
    ],
  ])('%s fails the plan, with the path, the address and a suggestion', (_n, build, where) => {
    const e = planError(
      desired((d) => build(d)),
      live,
    );
    expect(e.code).toBe('UNRESOLVED_REFERENCE');
    expect(e.message).toContain(
      `${where} is not a user of this organization; did you mean bob@example.com?`,
    );
    expect(e.hint).toContain('zulip-cdk does not create users');
  });

  it('lists every unknown e-mail in one error, with the other unresolved names', () => {
    const e = planError(
      desired((d) => {
        d.userGroups.push(
          dGroup('eng', {
            members: {
              mode: 'exact',
              users: ['alcie@example.com', 'bob@example.com'],
              groups: ['nope'],
            },
          }),
        );
        d.channels.push(
          dChannel('general', {
            subscribers: users('exact', 'zed@elsewhere.org', 'owner@example.com'),
          }),
        );
        d.users.push({ path: 'acme/gnoe', email: 'gnoe@example.com', role: 'member' });
      }),
      live,
    );
    expect(e.message.split('\n')).toEqual([
      'The configuration cannot be planned:',
      '  - userGroup["eng"] (acme/eng): members: alcie@example.com is not a user of this organization; did you mean alice@example.com?',
      '  - channel["general"] (acme/general): subscribers: zed@elsewhere.org is not a user of this organization',
      '  - user["gnoe@example.com"] (acme/gnoe): email: gnoe@example.com is not a user of this organization; did you mean gone@example.com (deactivated)?',
      '  - userGroup["eng"] (acme/eng): user group \'nope\' does not exist',
    ]);
    expect(e.hint).toContain(
      'Declare the missing objects, or fix the names and values each line names.',
    );
    expect(e.hint).toContain('zulip-cdk does not create users');
  });

  it('reports an e-mail once per object, though the planner reads a group in several places', () => {
    const e = planError(
      desired((d) => {
        d.userGroups.push(dGroup('eng', { members: users('exact', 'nobody@example.com') }));
        d.channels.push(
          dChannel('general', { subscribers: { mode: 'exact', users: [], groups: ['eng'] } }),
          dChannel('new', { subscribers: { mode: 'exact', users: [], groups: ['eng'] } }),
        );
      }),
      live,
    );
    expect(e.message.match(/nobody@example\.com/g)).toHaveLength(1);
  });

  it.each([
    ['a far-off address', 'zed@elsewhere.org'],
    ['another short name', 'dan@example.com'],
    ['a local part no user has', 'mallory@example.com'],
  ])('suggests nothing for %s', (_n, email) => {
    const e = planError(
      desired((d) => d.userGroups.push(dGroup('eng', { members: users('exact', email) }))),
      live,
    );
    expect(e.message).toContain(`${email} is not a user of this organization`);
    expect(e.message).not.toContain('did you mean');
  });

  it('suggests the one user with the same local part at another domain', () => {
    const e = planError(
      desired((d) =>
        d.userGroups.push(dGroup('eng', { members: users('exact', 'carol@acme.io') })),
      ),
      live,
    );
    expect(e.message).toContain(
      'carol@acme.io is not a user of this organization; did you mean carol@example.com?',
    );
  });

  it('offers every user at the same distance', () => {
    const b = builder();
    addUser(b, 7, 'ann@example.com');
    addUser(b, 8, 'anna@example.com');
    const e = planError(
      desired((d) =>
        d.userGroups.push(dGroup('eng', { members: users('exact', 'anne@example.com') })),
      ),
      b.build(),
    );
    expect(e.message).toContain('did you mean ann@example.com or anna@example.com?');
  });

  it('says when the reader sees stand-in addresses (e-mail address visibility)', () => {
    const b = builder();
    addUser(b, 9, 'user9@zulip.example.com');
    const e = planError(
      desired((d) =>
        d.userGroups.push(dGroup('eng', { members: users('exact', 'dora@example.com') })),
      ),
      b.build(),
    );
    expect(e.hint).toContain('stand-in address');
    const plain = planError(
      desired((d) =>
        d.userGroups.push(dGroup('eng', { members: users('exact', 'dora@example.com') })),
      ),
      live,
    );
    expect(plain.hint).not.toContain('stand-in address');
  });

  it('an existing user written in another case is that user (Zulip compares e-mails case-insensitively)', () => {
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('eng', { members: users('exact', 'ALICE@example.com', 'Bob@Example.COM') }),
        );
        d.channels.push(
          dChannel('general', {
            subscribers: users(
              'exact',
              'Owner@example.com',
              'alice@EXAMPLE.com',
              'BOB@example.com',
            ),
            permissions: { canSendMessageGroup: { users: ['Carol@Example.com'], groups: [] } },
          }),
        );
        d.users.push({ path: 'acme/carol', email: 'CAROL@example.com', role: 'moderator' });
      }),
      live,
    );
    expect(p.warnings.filter((w) => w.code !== 'UNDECLARED')).toEqual([]);
    expect(p.changes.map((c) => c.id)).toEqual(['channel["general"]#update']);
    expect(p.changes[0]).toMatchObject({
      properties: [
        {
          property: 'permissions.canSendMessageGroup',
          after: { users: ['carol@example.com'], groups: [] },
        },
      ],
    });
  });
});

describe('plan: a deactivated user named in the configuration', () => {
  // Zulip's API leaves deactivated users out of members and subscribers, but a snapshot taken
  // before the deactivation, or an older server, may still list one: it must not matter.
  const b = new LiveBuilder();
  b.group('eng', { members: [3, 4, 6] });
  b.channel('general', { subscribers: [1, 3, 4, 6] });
  const withGone = b.build();

  it.each<[string, (d: DesiredState) => void, string]>([
    [
      'an exact group membership',
      (d) =>
        d.userGroups.push(
          dGroup('eng', {
            members: users('exact', 'alice@example.com', 'bob@example.com', 'gone@example.com'),
          }),
        ),
      'userGroup["eng"]',
    ],
    [
      'exact channel subscribers',
      (d) =>
        d.channels.push(
          dChannel('general', {
            subscribers: users(
              'exact',
              'owner@example.com',
              'alice@example.com',
              'bob@example.com',
              'GONE@example.com',
            ),
          }),
        ),
      'channel["general"]',
    ],
    [
      'atLeast channel subscribers',
      (d) =>
        d.channels.push(dChannel('general', { subscribers: users('atLeast', 'gone@example.com') })),
      'channel["general"]',
    ],
    [
      'a permission',
      (d) =>
        d.userGroups.push(
          dGroup('eng', {
            members: users('atLeast'),
            permissions: {
              canManageGroup: { users: ['gone@example.com'], groups: ['role:administrators'] },
            },
          }),
        ),
      'userGroup["eng"]',
    ],
  ])('in %s: a DEACTIVATED_USER warning, nobody added or removed', (_n, build, address) => {
    for (const l of [live, withGone]) {
      const p = run(
        desired((d) => build(d)),
        l,
      );
      expect(p.changes.filter((c) => c.action === 'membership')).toEqual([]);
      expect(p.warnings.filter((w) => w.code !== 'UNDECLARED')).toEqual([
        expect.objectContaining({
          code: 'DEACTIVATED_USER',
          address,
          message: expect.stringMatching(
            /gone@example\.com is deactivated: neither added nor removed/i,
          ),
        }),
      ]);
      expect(p.findings).toEqual([]);
    }
  });

  it('a deactivated user left out of an exact membership is not removed either', () => {
    const p = run(
      desired((d) => {
        d.userGroups.push(
          dGroup('eng', { members: users('exact', 'alice@example.com', 'bob@example.com') }),
        );
        d.channels.push(
          dChannel('general', {
            subscribers: users(
              'exact',
              'owner@example.com',
              'alice@example.com',
              'bob@example.com',
            ),
          }),
        );
      }),
      withGone,
    );
    expect(p.changes).toEqual([]);
  });
});
