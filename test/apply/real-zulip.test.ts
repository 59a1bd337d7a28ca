/**
 * Applies that a real Zulip treats differently from a naive reading of its API (issue 11),
 * end to end against the embedded server, which follows the Zulip function each case names.
 */
import { emptyDesiredState } from '../../src/model';
import type { DesiredChannel, DesiredState } from '../../src/model';
import { readLiveState } from '../../src/zulip/handlers/read-live-state';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

const org = (...channels: DesiredChannel[]): DesiredState => {
  const d = emptyDesiredState('real');
  d.channels.push(...channels);
  return d;
};
const ch = (name: string, o: Partial<DesiredChannel> = {}): DesiredChannel => ({
  path: `real/${name}`,
  name,
  permissions: {},
  subscribers: { mode: 'atLeast', users: ['owner@zulip-cdk.example'], groups: [] },
  ...o,
});

describe.each([442, 478])('real-Zulip rules on apply (FL %i)', (fl) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ featureLevel: fl });
  });
  afterAll(() => h.close());
  const liveChannel = async (name: string) =>
    (await readLiveState(h.client)).channels.find((c) => c.name === name);

  // zerver/views/streams.py update_stream_backend: is_private alone resets history to
  // `not is_private`.
  it('makes a channel private with history kept public; the next plan is empty', async () => {
    await h.converge(org(ch('hist-kept')));
    const { first, result, after } = await h.converge(
      org(ch('hist-kept', { private: true, historyPublicToSubscribers: true })),
    );
    expect(summary(first)).toEqual(['update channel["hist-kept"]']);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    expect(await liveChannel('hist-kept')).toMatchObject({
      private: true,
      historyPublicToSubscribers: true,
    });
  });

  // validate_can_create_topic_group_setting_for_protected_history_streams (FL 441): protected
  // history needs can_create_topic_group to be everyone, checked within the same request.
  it('protects history while resetting a hand-changed can_create_topic_group, in one request', async () => {
    await h.converge(org(ch('hist-protect', { private: true, historyPublicToSubscribers: true })));
    const c = await liveChannel('hist-protect');
    const members = (await readLiveState(h.client)).userGroups.find(
      (g) => g.name === 'role:members',
    )!.id;
    await h.client.updateStream(c!.id, { can_create_topic_group: { new: members } });
    const desired = org(ch('hist-protect', { private: true, historyPublicToSubscribers: false }));
    const first = await h.plan(desired);
    const applied = await h.apply(first);
    expect(applied.outcome).toBe('applied');
    const patches = h.z.requestLog.filter(
      (r) => r.method === 'PATCH' && r.path === `/streams/${c!.id}`,
    );
    expect(patches.at(-1)?.params).toEqual(
      expect.arrayContaining(['history_public_to_subscribers', 'can_create_topic_group']),
    );
    expect(summary(await h.plan(desired))).toEqual([]);
  });

  // create_channel (FL 442) takes can_create_topic_group and can_delete_*_message_group but
  // never applies them: one apply still leaves the channel as configured.
  it('creates a channel with the settings POST /channels/create ignores; the next plan is empty', async () => {
    const { first, result, after } = await h.converge(
      org(
        ch('create-ignored', {
          permissions: {
            canCreateTopicGroup: 'role:members',
            canDeleteOwnMessageGroup: 'role:members',
            canSendMessageGroup: 'role:members',
          },
        }),
      ),
    );
    expect(summary(first)).toEqual([
      'create channel["create-ignored"]',
      'membership channel["create-ignored"]',
    ]);
    expect(result.outcome).toBe('applied');
    expect(summary(after)).toEqual([]);
    const created = h.z.requestLog.map((r) => r.path).lastIndexOf('/channels/create');
    const create = h.z.requestLog[created]!;
    // Not a parameter of create_channel.
    expect(create.params).not.toContain('send_new_subscription_messages');
    expect(h.z.requestLog[created + 1]).toMatchObject({
      method: 'PATCH',
      status: 200,
      params: ['can_create_topic_group', 'can_delete_own_message_group'],
    });
  });

  // update_stream_backend writes each group setting in its own transaction: a mismatch on one
  // leaves those before it written. The journal says so; the next plan shows the truth.
  it('after a mismatch on PATCH /streams, says what may have landed; the next plan shows the rest', async () => {
    await h.converge(org(ch('half')));
    const base = (await readLiveState(h.client)).userGroups;
    const id = (name: string): number => base.find((g) => g.name === name)!.id;
    const desired = org(
      ch('half', {
        permissions: {
          canAddSubscribersGroup: 'role:administrators',
          canSendMessageGroup: 'role:members',
        },
      }),
    );
    const first = await h.plan(desired);
    const channel = h.z.org.channels.find((c) => c.name === 'half')!;
    // Someone changes the later setting after apply's own re-read, before its request.
    const result = await h.apply(first, {
      onEvent: (e) => {
        if (e.type === 'read') channel.settings.can_send_message_group = id('role:moderators');
      },
    });
    const entry = result.journal.entries.find((e) => e.id === 'channel["half"]#update');
    expect(entry?.status).toBe('conflict');
    expect(entry?.message).toContain('may have been written: can_add_subscribers_group');
    const next = await h.plan(desired);
    const update = next.changes.find((c) => c.id === 'channel["half"]#update');
    expect(update?.action === 'update' && update.properties.map((p) => p.wire)).toEqual([
      'can_send_message_group',
    ]);
  });
});
