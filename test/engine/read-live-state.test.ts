import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomEmoji, Organization } from '../../src/constructs';
import { Testing } from '../../src/testing';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { plan } from '../../src/engine';
import { emptyDesiredState, LiveStateSchema } from '../../src/model';
import { ZulipClient } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';
import { yamlCheck } from '../emulator/yaml-check';
import { clientFor } from '../support/emulator-client';
import { ZulipCredentials } from '../../src/zulip/credentials';
import { dChannel, dGroup } from './fixtures';

describe.each([372, 421, 478])('readLiveState against the embedded server (FL %i)', (level) => {
  let z: Emulator;
  let client: ZulipClient;
  const check = yamlCheck();
  /** The keys of the last register response. */
  let registerKeys: string[] = [];
  beforeAll(async () => {
    z = await startEmulator({
      featureLevel: level,
      rateLimit: false,
      observe: (r) => {
        if (r.path === '/register') registerKeys = Object.keys(r.body);
        check.observe(r);
      },
    });
    client = ZulipClient.forEmbeddedOwner(z);
  });
  afterAll(async () => {
    await client.close();
    await z.close();
    expect(check.problems).toEqual([]);
    expect(check.stats.checked).toBeGreaterThan(0);
  });

  it('reads the whole organization in two requests (register + delete queue)', async () => {
    const requestsBefore = z.requestLog.length;
    const live = await readLiveState(client);
    expect(LiveStateSchema.parse(live)).toEqual(live);
    expect(live.requestCount).toBe(2);
    expect(z.requestLog.slice(requestsBefore).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /register',
      'DELETE /events',
    ]);
    expect(live.server.featureLevel).toBe(level);
    expect(live.me.email).toBe(z.owner.email);
    expect(live.userGroups.filter((g) => g.isSystemGroup)).toHaveLength(8);
    expect(live.channels.length).toBe(z.org.channels.length);
    expect(live.channels.every((c) => c.subscribers !== null)).toBe(true);
    expect(live.users.length).toBe(z.org.users.length);
  });

  it('sees channels it never subscribed to from the subscription lists alone (no `streams` asked for)', async () => {
    // As Zulip's gather_subscriptions_helper: from FL 362 `never_subscribed` holds archived
    // channels, from FL 349 private ones the account administers through a group.
    const admin = clientFor(z, 'admin');
    const aliceId = z.org.users.find((u) => u.email === 'alice@zulip-cdk.example')!.id;
    const bobId = z.org.users.find((u) => u.email === 'bob@zulip-cdk.example')!.id;
    const made = async (name: string, extra: Record<string, unknown> = {}): Promise<number> => {
      const res = await admin.post('/users/me/subscriptions', {
        subscriptions: [{ name }],
        principals: [aliceId],
        invite_only: true,
        ...extra,
      });
      expect(res.status).toBe(200);
      return z.org.channels.find((c) => c.name === name)!.id;
    };
    const archivedId = await made(`gone-${level}`);
    expect((await admin.delete(`/streams/${archivedId}`)).status).toBe(200);
    const administeredId = await made(`run-by-bob-${level}`, {
      can_administer_channel_group: JSON.stringify({
        direct_members: [bobId],
        direct_subgroups: [],
      }),
    });
    const live = await readLiveState(client);
    expect(registerKeys).toEqual(expect.arrayContaining(['subscriptions', 'never_subscribed']));
    expect(registerKeys).not.toContain('streams');
    const archived = live.channels.find((c) => c.id === archivedId);
    expect(archived).toMatchObject({ name: `gone-${level}`, private: true, archived: true });
    // The owner never subscribed: it still sees who is (an administrator may).
    expect(archived?.subscribers).toEqual([aliceId]);
    // Bob, a member who is no subscriber, sees the channel he administers, and only as much.
    const bob = new ZulipClient({
      credentials: new ZulipCredentials({
        email: 'bob@zulip-cdk.example',
        apiKey: z.apiKeyOf('bob@zulip-cdk.example'),
        site: z.site,
      }),
    });
    try {
      const asBob = await readLiveState(bob);
      expect(asBob.channels.map((c) => c.id)).toContain(administeredId);
      expect(asBob.channels.map((c) => c.id)).not.toContain(archivedId);
    } finally {
      await bob.close();
    }
  });

  it('objects created with defaults plan as unchanged when declared with only their names', async () => {
    const me = (await readLiveState(client)).me.userId;
    await client.createUserGroup({ name: `plain-${level}`, description: '', members: [] });
    if (level >= 417) await client.createChannel({ name: `plain-${level}`, subscribers: [me] });
    else await client.subscribe({ subscriptions: [{ name: `plain-${level}` }] });
    const live = await readLiveState(client);
    const d = emptyDesiredState('acme');
    d.userGroups.push(
      dGroup(`plain-${level}`, { members: { mode: 'exact', users: [], groups: [] } }),
    );
    d.channels.push(dChannel(`plain-${level}`));
    const p = plan(d, live);
    expect(p.changes).toEqual([]);
    // Everything else in the demo organization is undeclared: warned about, not removed.
    expect(p.warnings.every((w) => w.code === 'UNDECLARED')).toBe(true);
  });
});

describe('no perpetual diff: objects made with explicit settings plan as unchanged (FL 478)', () => {
  let z: Emulator;
  let client: ZulipClient;
  const check = yamlCheck();
  beforeAll(async () => {
    z = await startEmulator({ rateLimit: false, observe: check.observe });
    client = ZulipClient.forEmbeddedOwner(z);
  });
  afterAll(async () => {
    await client.close();
    await z.close();
    expect(check.problems).toEqual([]);
    expect(check.stats.checked).toBeGreaterThan(0);
  });

  it('folder, group with a set setting, private channel with every property, linkifier, playground, snippet', async () => {
    const before = await readLiveState(client);
    const alice = before.users.find((u) => u.email.startsWith('alice@'))!;
    const admins = before.userGroups.find((g) => g.name === 'role:administrators')!;
    const folder = await client.createChannelFolder({ name: 'Squads', description: 'All squads' });
    const group = await client.createUserGroup({
      name: 'leads',
      description: 'Team leads',
      members: [alice.id],
      can_manage_group: { direct_members: [alice.id], direct_subgroups: [admins.id] },
      can_mention_group: admins.id,
    });
    await client.createChannel({
      name: 'Squad Room',
      description: 'line one\nline two',
      subscribers: [before.me.userId, alice.id],
      invite_only: true,
      message_retention_days: 'unlimited',
      topics_policy: 'disable_empty_topic',
      folder_id: folder.channel_folder_id,
      can_send_message_group: group.group_id,
      can_remove_subscribers_group: { direct_members: [alice.id], direct_subgroups: [] },
    });
    await client.addLinkifier({
      pattern: '#(?P<id>[0-9]+)x',
      url_template: 'https://t.example/{id}',
    });
    await client.addPlayground({
      name: 'Scratch',
      pygments_language: 'text',
      url_template: 'https://s.example/?q={code}',
    });
    await client.createSavedSnippet({ title: 'Ping', content: 'Ping!' });

    const live = await readLiveState(client);
    const d = emptyDesiredState('acme');
    d.channelFolders.push({
      path: 'acme/f',
      name: 'squads',
      description: 'All squads',
      lifecycle: { ignoreChanges: ['order'] },
    });
    d.userGroups.push(
      dGroup('leads', {
        description: 'Team leads',
        members: { mode: 'exact', users: [alice.email.toUpperCase()], groups: [] },
        permissions: {
          canManageGroup: { users: [alice.email], groups: ['role:administrators'] },
          canMentionGroup: { users: [], groups: ['role:administrators'] },
        },
      }),
    );
    d.channels.push(
      dChannel('squad room', {
        description: 'line one\nline two',
        private: true,
        messageRetentionDays: 'unlimited',
        topicsPolicy: 'disable_empty_topic',
        folder: 'Squads',
        permissions: {
          canSendMessageGroup: 'leads',
          canRemoveSubscribersGroup: { users: [alice.email], groups: [] },
        },
        subscribers: { mode: 'exact', users: [live.me.email], groups: ['leads'] },
      }),
    );
    d.linkifiers.push({
      path: 'acme/l',
      pattern: '#(?P<id>[0-9]+)x',
      urlTemplate: 'https://t.example/{id}',
    });
    d.playgrounds.push({
      path: 'acme/p',
      name: 'Scratch',
      pygmentsLanguage: 'text',
      urlTemplate: 'https://s.example/?q={code}',
    });
    d.savedSnippets.push({ path: 'acme/s', title: 'Ping', content: 'Ping!' });
    const p = plan(d, live);
    // Only the case of the declared names differs (a rename in place): nothing about settings,
    // members, descriptions, retention, topics policy, folders, playgrounds or snippets. The
    // demo's undeclared linkifier keeps its place before the declared one (no reorder).
    expect(p.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
      'update channelFolder["squads"]',
      'update channel["squad room"]',
    ]);
    for (const c of p.changes)
      if (c.action === 'update') expect(c.properties.map((x) => x.property)).toEqual(['name']);
  });
});

test('emojiImages: false reads no emoji image (watch, when the configuration manages none)', async () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const file = join(mkdtempSync(join(tmpdir(), 'zulip-cdk-emoji-read-')), 'shipit.png');
  writeFileSync(file, PNG);
  const z = await startEmulator({ rateLimit: false });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const org = new Organization(Testing.app(), 'acme');
    new CustomEmoji(org, 'shipit', { name: 'shipit', image: file });
    expect((await Testing.planAndApply(Testing.synth(org), { emulator: z })).converged).toBe(true);
    const download = jest.spyOn(client, 'downloadFile');
    const without = await readLiveState(client, { emojiImages: false });
    expect(without.customEmoji.find((e) => e.name === 'shipit')?.image).toBeNull();
    expect(download).not.toHaveBeenCalled();
    const full = await readLiveState(client);
    expect(full.customEmoji.find((e) => e.name === 'shipit')?.image?.size).toBe(PNG.length);
    expect(download).toHaveBeenCalledTimes(1);
  } finally {
    await client.close();
    await z.close();
  }
});
