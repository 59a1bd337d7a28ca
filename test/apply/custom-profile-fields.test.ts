/**
 * Custom profile fields end to end against the embedded server: fields of every kind created
 * with users' values in one plan (the values wait for their fields), then a rename, a new hint,
 * a new choice, a new order, a type change (a replace: the values are set again) and changed
 * values, then a pruned field; every stage re-plans empty, and apply sends exactly the
 * requests the plan predicts. At Zulip 10.2's feature level, Zulip 11's and the newest.
 */
import { predictRequests } from '../../src/engine/apply/batching';
import { emptyDesiredState } from '../../src/model';
import type { DesiredCustomProfileField, DesiredState } from '../../src/model';
import { FEATURE_LEVELS } from '../../src/model/features';
import { readLiveState } from '../../src/provider/read-live-state';
import { DEMO_DOMAIN } from '../../src/emulator/seed';
import { harness, summary } from './helpers';

const email = (local: string): string => `${local}@${DEMO_DOMAIN}`;

function field(
  name: string,
  type: DesiredCustomProfileField['type'],
  o: Partial<DesiredCustomProfileField> = {},
): DesiredCustomProfileField {
  return { path: `cpf/${name}`, name, type, ...o };
}

function stage(n: 1 | 2 | 3): DesiredState {
  const d = emptyDesiredState('cpf');
  const team = field('Team', 'choice', {
    choices: n === 1 ? ['Engineering', 'Sales'] : ['Engineering', 'Sales', 'Support'],
    displayInProfileSummary: true,
  });
  const phone =
    n === 1
      ? field('Phone', 'short-text', { hint: 'Work phone' })
      : field('Phone number', 'short-text', {
          hint: 'Work phone, with country code',
          lifecycle: { renamedFrom: ['Phone'] },
        });
  const manager = field('Manager', 'user', { required: true });
  const birthday = field('Birthday', n === 1 ? 'short-text' : 'date', { editableByUser: false });
  const gitlab = field('GitLab', 'external-account', {
    externalAccount: { subtype: 'custom', urlPattern: 'https://gitlab.com/%(username)s' },
  });
  const github = field('GitHub username', 'external-account', {
    externalAccount: { subtype: 'github' },
  });
  if (n === 1) d.customProfileFields.push(phone, team, manager, birthday, gitlab, github);
  if (n === 2) d.customProfileFields.push(team, phone, manager, birthday, gitlab, github);
  if (n === 3) {
    d.customProfileFields.push(team, phone, manager, birthday, github);
    d.organization.prune.customProfileField = true;
  }
  const phoneName = n === 1 ? 'Phone' : 'Phone number';
  d.users.push(
    {
      path: 'cpf/alice',
      email: email('alice'),
      profile: {
        [phoneName]: '+1 555 0100',
        Team: n === 1 ? 'Engineering' : 'Support',
        Manager: n === 1 ? [email('admin')] : [email('admin'), email('alan')],
        Birthday: n === 1 ? 'March' : '1990-03-05',
        'GitHub username': 'alice-gh',
        ...(n !== 3 ? { GitLab: 'alice-gl' } : {}),
      },
    },
    {
      path: 'cpf/bob',
      email: email('bob'),
      role: 'member',
      profile: { Team: 'Sales', [phoneName]: n === 1 ? '+1 555 0101' : null },
    },
  );
  return d;
}

describe.each([FEATURE_LEVELS.zulip10, FEATURE_LEVELS.zulip11, FEATURE_LEVELS.newest])(
  'custom profile fields at feature level %i',
  (fl) => {
    it('create with values, change (rename, hint, choice, order, type), prune: each stage converges', async () => {
      const h = await harness({ featureLevel: fl });
      const converge = async (d: DesiredState) => {
        const first = await h.plan(d);
        const result = await h.apply(first, { allowDestroy: true });
        return { first, result, after: await h.plan(d) };
      };
      try {
        const one = await converge(stage(1));
        expect(summary(one.first)).toEqual(
          expect.arrayContaining([
            'create customProfileField["Phone"]',
            'create customProfileField["Team"]',
            'create customProfileField["GitHub username"]',
            'update user["alice@zulip-cdk.example"]',
            'update user["bob@zulip-cdk.example"]',
          ]),
        );
        // Every value waits for its field.
        const alice = one.first.changes.find((c) => c.address === `user["${email('alice')}"]`)!;
        expect(alice.dependsOn).toEqual(
          expect.arrayContaining(['customProfileField["Team"]#create']),
        );
        expect(one.result.outcome).toBe('applied');
        expect(predictRequests(one.first.changes, fl)).toBe(one.result.requests.length);
        expect(summary(one.after)).toEqual([]);
        let live = await readLiveState(h.client);
        expect(live.customProfileFields.map((f) => f.name)).toEqual([
          'Phone',
          'Team',
          'Manager',
          'Birthday',
          'GitLab',
          'GitHub username',
        ]);
        const byName = (n: string) => live.customProfileFields.find((f) => f.name === n)!;
        const aliceLive = live.users.find((u) => u.email === email('alice'))!;
        const adminId = live.users.find((u) => u.email === email('admin'))!.id;
        expect(aliceLive.profileData?.[String(byName('Manager').id)]).toBe(`[${adminId}]`);
        expect(JSON.parse(byName('Team').fieldData)).toEqual({
          '0': { text: 'Engineering', order: '1' },
          '1': { text: 'Sales', order: '2' },
        });
        expect(aliceLive.profileData?.[String(byName('Team').id)]).toBe('0');

        const two = await converge(stage(2));
        expect(summary(two.first)).toEqual(
          expect.arrayContaining([
            'rename customProfileField["Phone number"]',
            'update customProfileField["Phone number"]',
            'update customProfileField["Team"]',
            'replace customProfileField["Birthday"]',
            'reorder customProfileField["*"]',
          ]),
        );
        const replace = two.first.changes.find((c) => c.action === 'replace')!;
        expect(replace.tags).toEqual(['destructive', 'irreversible']);
        expect(two.result.outcome).toBe('applied');
        expect(predictRequests(two.first.changes, fl)).toBe(two.result.requests.length);
        expect(summary(two.after)).toEqual([]);
        live = await readLiveState(h.client);
        expect(live.customProfileFields.map((f) => f.name)).toEqual([
          'Team',
          'Phone number',
          'Manager',
          'Birthday',
          'GitLab',
          'GitHub username',
        ]);
        const a2 = live.users.find((u) => u.email === email('alice'))!;
        const b2 = live.users.find((u) => u.email === email('bob'))!;
        expect(a2.profileData?.[String(byName('Birthday').id)]).toBe('1990-03-05');
        expect(byName('Birthday').type).toBe(4);
        // The new choice got the next key; the old ones kept theirs.
        expect(a2.profileData?.[String(byName('Team').id)]).toBe('2');
        expect(b2.profileData?.[String(byName('Phone number').id)]).toBeUndefined();

        const three = await converge(stage(3));
        expect(summary(three.first)).toEqual(
          expect.arrayContaining(['delete customProfileField["GitLab"]']),
        );
        expect(three.first.changes.find((c) => c.action === 'delete')!.tags).toEqual([
          'destructive',
          'irreversible',
        ]);
        expect(summary(three.after)).toEqual([]);
        live = await readLiveState(h.client);
        expect(live.customProfileFields.map((f) => f.name)).not.toContain('GitLab');
        const a3 = live.users.find((u) => u.email === email('alice'))!;
        expect(Object.keys(a3.profileData ?? {})).toHaveLength(5);
      } finally {
        await h.close();
      }
    });
  },
);

test('fields reordered by hand after the plan: the reorder is a conflict, not overwritten', async () => {
  const h = await harness({ featureLevel: FEATURE_LEVELS.newest });
  try {
    const order = (names: string[]): DesiredState => {
      const d = emptyDesiredState('cpf');
      for (const n of names) d.customProfileFields.push(field(n, 'short-text'));
      return d;
    };
    const first = await h.plan(order(['A', 'B', 'C']));
    expect((await h.apply(first)).outcome).toBe('applied');
    const saved = await h.plan(order(['C', 'A', 'B']));
    expect(summary(saved)).toEqual(['reorder customProfileField["*"]']);
    const live = await readLiveState(h.client);
    const id = (n: string) => live.customProfileFields.find((f) => f.name === n)!.id;
    await h.client.reorderCustomProfileFields([id('B'), id('C'), id('A')]);
    const r = await h.apply(saved);
    const entry = r.journal.entries.find((x) => x.action === 'reorder')!;
    expect(entry.status).toBe('conflict');
    expect(entry.message).toContain('custom profile fields changed since the plan');
    const after = await readLiveState(h.client);
    expect(after.customProfileFields.map((f) => f.name)).toEqual(['B', 'C', 'A']);
  } finally {
    await h.close();
  }
});

// zerver/lib/users.py check_valid_user_ids, at each request (test_users.py
// UserProfileTest.test_valid_user_id): the users a value names are active when it is sent.
test('a user field naming a user the plan reactivates: the value waits for the reactivation; once that user is deactivated again, the kept value plans empty', async () => {
  const h = await harness({ featureLevel: FEATURE_LEVELS.newest });
  try {
    const d = emptyDesiredState('cpf');
    d.customProfileFields.push(field('Manager', 'user'));
    d.users.push(
      { path: 'cpf/alice', email: email('alice'), profile: { Manager: [email('former')] } },
      { path: 'cpf/former', email: email('former'), active: true },
    );
    const first = await h.plan(d);
    expect((await h.apply(first)).outcome).toBe('applied');
    expect(summary(await h.plan(d))).toEqual([]);
    // Offboarded in Zulip: alice's value still names them, and Zulip keeps it.
    const former = (await readLiveState(h.client)).users.find((u) => u.email === email('former'))!;
    await h.client.deactivateUser(former.id);
    d.users.pop();
    expect(summary(await h.plan(d))).toEqual([]);
  } finally {
    await h.close();
  }
});
