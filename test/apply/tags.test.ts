import { messagedUsers } from '../../src/engine';
import type { Change, ChangeTag } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import type { DesiredChannel, DesiredState } from '../../src/model';
import { harness } from './helpers';
import type { Harness } from './helpers';

const at = (local: string): string => `${local}@zulip-cdk.example`;

function channel(name: string, o: Partial<DesiredChannel> = {}): DesiredChannel {
  return {
    path: `t/${name}`,
    name,
    permissions: {},
    subscribers: { mode: 'exact', users: [at('owner'), at('alice')], groups: [] },
    ...o,
  };
}

function base(): DesiredState {
  const d = emptyDesiredState('tags');
  d.organization.maxRemovals = 100;
  d.channels.push(
    channel('tag-described'),
    channel('tag-archived'),
    channel('tag-subscribed'),
    channel('tag-announced', { announce: true }),
    channel('tag-permission'),
  );
  d.userGroups.push({
    path: 't/crew',
    name: 'tag-crew',
    members: { mode: 'exact', users: [at('alice'), at('bob')], groups: [] },
    permissions: {},
  });
  return d;
}

/** One change of each sort, each on its own object, so every message has one cause. */
function changed(): DesiredState {
  const d = base();
  const ch = (name: string) => d.channels.find((c) => c.name === name)!;
  ch('tag-described').description = 'Now described';
  ch('tag-archived').archived = true;
  // Not announced (FL 478): subscribed silently; announced: Zulip messages them.
  ch('tag-subscribed').subscribers!.users.push(at('carol'));
  ch('tag-announced').subscribers!.users.push(at('dave'));
  ch('tag-permission').permissions.canAddSubscribersGroup = 'role:administrators';
  d.channels.push(
    channel('tag-new', { subscribers: { mode: 'exact', users: [at('alice')], groups: [] } }),
    channel('tag-empty', { subscribers: { mode: 'exact', users: [], groups: [] } }),
  );
  d.userGroups[0]!.members.users = [at('alice'), at('carol')];
  d.users.push({ path: 't/mona', email: at('moderator'), role: 'member' });
  return d;
}

/**
 * The tags against what the embedded server (which follows Zulip's functions, with conformance
 * cases) does when the plan is applied: apply itself sends no message, so every new message is
 * Zulip's, and each has one change as its cause.
 */
describe('the tags say what Zulip does when the plan is applied', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    const { after } = await h.converge(base());
    expect(after.changes).toEqual([]);
  });
  afterAll(() => h.close());

  it('posts-message: exactly the channels Notification Bot posts into; notifies-users: exactly who it messages', async () => {
    const p = await h.plan(changed());
    const before = (h.z.org.messages ?? []).length;
    const r = await h.apply(p, { allowDestroy: true, force: true });
    expect(r.outcome).toBe('applied');
    const fresh = (h.z.org.messages ?? []).slice(before);
    const channelName = (id: number | null) => h.z.org.channels.find((c) => c.id === id)?.name;
    const email = (id: number) => h.z.org.users.find((u) => u.id === id)?.email;
    const postedInto = new Set(
      fresh.filter((m) => m.type === 'stream').map((m) => channelName(m.channelId)),
    );
    const tagged = (tag: ChangeTag): Change[] => p.changes.filter((c) => c.tags.includes(tag));
    expect([...postedInto].sort()).toEqual(
      [...new Set(tagged('posts-message').map((c) => c.key))].sort(),
    );
    expect([...postedInto].sort()).toEqual(['tag-archived', 'tag-described', 'tag-new']);

    // Direct messages: the group ones (`notify_for_user_group_subscription_changes`) and the
    // subscription ones (`send_user_subscribed_and_new_channel_notifications`), exactly the
    // users the plan's `notifies-users` changes name.
    const dmTo = fresh
      .filter((m) => m.type === 'private')
      .flatMap((m) => m.recipientIds.map(email).filter((e) => e?.endsWith('@zulip-cdk.example')));
    expect(dmTo.sort()).toEqual(
      tagged('notifies-users')
        .flatMap((c) => messagedUsers(c))
        .sort(),
    );
    expect(dmTo.sort()).toEqual([at('bob'), at('carol'), at('dave')]);
    expect(tagged('notifies-users').map((c) => c.id)).toEqual([
      'userGroup["tag-crew"]#membership',
      'channel["tag-announced"]#membership',
    ]);
    expect(messagedUsers(tagged('notifies-users')[1]!)).toEqual([at('dave')]);
  });
});
