/**
 * Planning custom profile fields and users' values against a live state: what Zulip would
 * refuse is a plan error with the construct's path (before any request), what deletes users'
 * values is tagged and said, and changes wait for what they need.
 */
import { plan, PlanSchema } from '../../src/engine';
import type { Change, Plan } from '../../src/engine';
import { sideEffects } from '../../src/engine/render/describe';
import type { DesiredCustomProfileField, DesiredState, LiveState } from '../../src/model';
import { ROLES } from '../../src/model';
import { LiveBuilder, desired, user } from './fixtures';
import { thrownError } from '../support/errors';

function run(d: DesiredState, live: LiveState): Plan {
  const p = plan(d, live, {});
  expect(PlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  return p;
}
const find = (p: Plan, id: string): Change => {
  const c = p.changes.find((x) => x.id === id);
  if (!c) throw new Error(`no change ${id} in ${p.changes.map((x) => x.id).join(', ')}`);
  return c;
};
const field = (
  name: string,
  type: DesiredCustomProfileField['type'],
  o: Partial<DesiredCustomProfileField> = {},
): DesiredCustomProfileField => ({ path: `acme/${name}`, name, type, ...o });

const TEAM_DATA = JSON.stringify({
  eng: { text: 'Engineering', order: '1' },
  '7': { text: 'Sales', order: '2' },
});

/** Live: a choice field Team (keys `eng` and `7`), alice in Sales; a short text field Phone. */
function org(): { b: LiveBuilder; team: number; phone: number } {
  const b = new LiveBuilder();
  const team = b.profileField('Team', 3, { fieldData: TEAM_DATA });
  const phone = b.profileField('Phone', 1);
  b.profileValue('alice@example.com', team, '7');
  return { b, team, phone };
}

describe('plan: custom profile fields', () => {
  it('fields and values that match are no change; a live choice key reads as its text', () => {
    const { b } = org();
    const p = run(
      desired((d) => {
        d.customProfileFields.push(
          field('Team', 'choice', { choices: ['Engineering', 'Sales'] }),
          field('Phone', 'short-text'),
        );
        d.users.push({
          path: 'acme/alice',
          email: 'alice@example.com',
          profile: { Team: 'Sales' },
        });
      }),
      b.build(),
    );
    expect(p.changes).toEqual([]);
  });

  it("a new type is a replace, destructive and irreversible; users' values are set again after it", () => {
    const { b, phone } = org();
    b.profileValue('bob@example.com', phone, '12');
    const p = run(
      desired((d) => {
        d.customProfileFields.push(
          field('Team', 'choice', { choices: ['Engineering', 'Sales'] }),
          field('Phone', 'link'),
        );
        d.users.push({
          path: 'acme/bob',
          email: 'bob@example.com',
          profile: { Phone: 'https://example.com/call/bob' },
        });
      }),
      b.build(),
    );
    const replace = find(p, 'customProfileField["Phone"]#replace');
    expect(replace.tags).toEqual(['destructive', 'irreversible']);
    expect(sideEffects(replace)).toEqual([
      "Zulip cannot change a custom profile field's type: Phone is deleted, and with it every user's value of it, then created again as a link field (last in the order until the plan's reorder).",
    ]);
    const bob = find(p, 'user["bob@example.com"]#update');
    expect(bob).toMatchObject({
      properties: [
        { property: 'profile.Phone', before: null, after: 'https://example.com/call/bob' },
      ],
    });
    expect(bob.dependsOn).toContain('customProfileField["Phone"]#replace');
  });

  it('removing a choice is destructive: Zulip deletes the values of the users who chose it', () => {
    const { b } = org();
    const p = run(
      desired((d) => {
        d.customProfileFields.push(
          field('Team', 'choice', { choices: ['Engineering', 'Support'] }),
          field('Phone', 'short-text'),
        );
      }),
      b.build(),
    );
    const u = find(p, 'customProfileField["Team"]#update');
    expect(u.tags).toEqual(['destructive', 'irreversible']);
    expect(sideEffects(u)).toEqual([
      'choices: removes the choice "Sales": Zulip deletes the values of the users who chose it.',
    ]);
  });

  it('a pruned field is deleted, with a sentence that says the values go', () => {
    const { b } = org();
    const p = run(
      desired((d) => {
        d.organization.prune.customProfileField = true;
        d.customProfileFields.push(field('Team', 'choice', { choices: ['Engineering', 'Sales'] }));
      }),
      b.build(),
    );
    const del = find(p, 'customProfileField["Phone"]#delete');
    expect(del.tags).toEqual(['destructive', 'irreversible']);
    expect(sideEffects(del)).toEqual([
      "The custom profile field Phone is deleted for good, and with it every user's value of it.",
    ]);
  });

  it('a field entering the profile summary waits for the one leaving it', () => {
    const { b } = org();
    b.profileField('Pronouns', 8, { displayInProfileSummary: true });
    b.profileField('Birthday', 4, { displayInProfileSummary: true });
    const p = run(
      desired((d) => {
        d.customProfileFields.push(
          field('Team', 'choice', {
            choices: ['Engineering', 'Sales'],
            displayInProfileSummary: true,
          }),
          field('Phone', 'short-text'),
          field('Pronouns', 'pronouns'),
          field('Birthday', 'date', { displayInProfileSummary: true }),
        );
      }),
      b.build(),
    );
    expect(find(p, 'customProfileField["Team"]#update').dependsOn).toEqual([
      'customProfileField["Pronouns"]#update',
    ]);
  });

  // zerver/lib/users.py check_valid_user_ids (test_users.py UserProfileTest.test_valid_user_id)
  // checks the list a request sends, when it is sent.
  describe('a user field naming people whose account the plan or Zulip changes', () => {
    function manager(
      people: string[],
      more: (d: DesiredState) => void = () => {},
      liveValue?: number[],
    ): Plan {
      const { b } = org();
      const id = b.profileField('Manager', 6);
      if (liveValue) b.profileValue('alice@example.com', id, JSON.stringify(liveValue));
      return plan(
        desired((d) => {
          d.customProfileFields.push(
            field('Team', 'choice', { choices: ['Engineering', 'Sales'] }),
            field('Phone', 'short-text'),
            field('Manager', 'user'),
          );
          d.users.push({
            path: 'acme/alice',
            email: 'alice@example.com',
            profile: { Manager: people },
          });
          more(d);
        }),
        b.build(),
        {},
      );
    }

    it('a value that names a user deactivated since is kept: no change, no error', () => {
      expect(manager(['bob@example.com', 'gone@example.com'], undefined, [4, 6]).changes).toEqual(
        [],
      );
    });

    it('a new value naming a user the plan reactivates waits for the reactivation', () => {
      const p = manager(['gone@example.com'], (d) =>
        d.users.push({ path: 'acme/gone', email: 'gone@example.com', active: true }),
      );
      expect(find(p, 'user["alice@example.com"]#update')).toMatchObject({
        properties: [{ property: 'profile.Manager', before: null, after: ['gone@example.com'] }],
        dependsOn: ['user["gone@example.com"]#reactivate'],
      });
    });

    it('a new value naming a user the plan deactivates is refused before apply', () => {
      expect(() =>
        manager(['bob@example.com'], (d) =>
          d.users.push({ path: 'acme/bob', email: 'bob@example.com', active: false }),
        ),
      ).toThrow(
        /user\["alice@example.com"\] \(acme\/alice\): profile\['Manager'\]: bob@example.com is deactivated by this plan; Zulip refuses it \("User with ID 4 is deactivated"\)/,
      );
    });

    it('a deactivated bot: Zulip says deactivated, as it checks that first', () => {
      const { b } = org();
      b.profileField('Manager', 6);
      const live = b.build();
      live.users.push({
        ...user(7, 'old-bot@example.com', 'member'),
        isActive: false,
        isBot: true,
      });
      // Before: "old-bot@example.com is a bot; Zulip refuses it ("User with ID 7 is a bot")".
      expect(() =>
        plan(
          desired((d) => {
            d.customProfileFields.push(field('Manager', 'user'));
            d.users.push({
              path: 'acme/alice',
              email: 'alice@example.com',
              profile: { Manager: ['old-bot@example.com'] },
            });
          }),
          live,
        ),
      ).toThrow(
        /profile\['Manager'\]: old-bot@example.com is a deactivated bot; Zulip refuses it \("User with ID 7 is deactivated"\)/,
      );
    });
  });

  it('declared order is Zulip order: one reorder with every field', () => {
    const { b, team, phone } = org();
    const p = run(
      desired((d) => {
        d.customProfileFields.push(
          field('Phone', 'short-text'),
          field('Team', 'choice', { choices: ['Engineering', 'Sales'] }),
        );
      }),
      b.build(),
    );
    expect(find(p, 'customProfileField["*"]#reorder')).toMatchObject({
      before: ['Team', 'Phone'],
      after: [
        { key: 'Phone', id: phone },
        { key: 'Team', id: team },
      ],
    });
  });

  it.each<[string, (d: DesiredState) => void, (b: LiveBuilder) => void, RegExp]>([
    [
      'a value that is not a choice',
      (d) =>
        d.users.push({ path: 'acme/alice', email: 'alice@example.com', profile: { Team: 'Ops' } }),
      () => {},
      /user\["alice@example.com"\] \(acme\/alice\): profile\['Team'\] = "Ops": Zulip refuses it \("'Ops' is not a valid choice for 'Team'."\); the choices are 'Engineering', 'Sales'/,
    ],
    [
      'a user field naming a deactivated user',
      (d) => {
        d.customProfileFields.push(field('Manager', 'user'));
        d.users.push({
          path: 'acme/alice',
          email: 'alice@example.com',
          profile: { Manager: ['gone@example.com'] },
        });
      },
      () => {},
      /profile\['Manager'\]: gone@example.com is deactivated; Zulip refuses it \("User with ID 6 is deactivated"\)/,
    ],
    [
      'a third field in the summary, counting an undeclared one',
      (d) => {
        d.customProfileFields.push(
          field('Pronouns', 'pronouns', { displayInProfileSummary: true }),
        );
      },
      (b) => {
        b.profileField('Pronouns', 8);
        b.profileField('Birthday', 4, { displayInProfileSummary: true });
        b.profileField('Website', 5, { displayInProfileSummary: true });
      },
      /3 custom profile fields would be shown in the profile summary after this plan; Zulip allows at most 2/,
    ],
    [
      "renaming Zulip's own GitHub field",
      (d) =>
        d.customProfileFields.push(
          field('Code', 'external-account', {
            externalAccount: { subtype: 'github' },
            lifecycle: { renamedFrom: ['GitHub username'] },
          }),
        ),
      (b) => b.profileField('GitHub username', 7, { fieldData: '{"subtype":"github"}' }),
      /Zulip names a GitHub account field itself and cannot rename it \("Default custom field cannot be updated."\)/,
    ],
    [
      'a value for a field that is not declared',
      (d) =>
        d.users.push({ path: 'acme/alice', email: 'alice@example.com', profile: { Office: 'B' } }),
      () => {},
      /profile names the custom profile field 'Office', which the configuration does not declare/,
    ],
  ])('refused before any request: %s', (_rule, build, live, message) => {
    const { b } = org();
    live(b);
    const e = thrownError(
      () =>
        plan(
          desired((d) => {
            d.customProfileFields.push(
              field('Team', 'choice', { choices: ['Engineering', 'Sales'] }),
              field('Phone', 'short-text'),
            );
            build(d);
          }),
          b.build(),
          {},
        ),
      'UNRESOLVED_REFERENCE',
    );
    expect(e.message).toMatch(message);
  });

  it('needs an administrator: a moderator is refused at plan time', () => {
    const { b } = org();
    const live = b.build();
    live.me = { userId: 5, email: 'carol@example.com', role: ROLES.moderator };
    const e = thrownError(
      () =>
        plan(
          desired((d) => d.customProfileFields.push(field('Desk', 'short-text'))),
          live,
          {},
        ),
      'UNRESOLVED_REFERENCE',
    );
    expect(e.message).toMatch(
      /custom profile fields and other users' values of them need an organization administrator/,
    );
  });
});
