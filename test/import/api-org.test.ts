/**
 * A random organization built entirely through the API (the project's own client, against the
 * embedded server, which applies Zulip's rules), then imported: plan shows no change. Only the
 * users come from a seeded state, as Zulip has no API to create human users.
 */
import { hasChanges, plan } from '../../src/engine';
import { startEmulator } from '../../src/emulator';
import { addUser, emptyOrg } from '../../src/emulator/state';
import { generateApp } from '../../src/import';
import { ROLES } from '../../src/model/kinds';
import { ZulipClient } from '../../src/zulip';
import type { GroupSettingParam } from '../../src/zulip/wire/common';
import { readLiveState } from '../../src/provider/read-live-state';
import { synthInProcess, writeApp } from './harness';
import { prng } from '../../bench/org-generator';

test('an organization made through the API round-trips with no change', async () => {
  const rnd = prng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => rnd() < p);
  const shuffle = <T>(xs: readonly T[]): T[] =>
    xs
      .map((x) => ({ x, k: rnd() }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);

  const state = emptyOrg(1_700_000_000_000, 'API org');
  addUser(state, 0, { email: 'owner@api.example', fullName: 'Owner', role: ROLES.owner });
  const roles = [ROLES.member, ROLES.member, ROLES.moderator, ROLES.administrator, ROLES.guest];
  for (let i = 0; i < 20; i++)
    addUser(state, 0, { email: `u${i}@api.example`, fullName: `U ${i}`, role: pick(roles) });
  const z = await startEmulator({ state, rateLimit: false, featureLevel: 478 });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const members = (await client.getUsers()).members;
    const users = members.map((u) => u.user_id);
    const ownerId = members.find((u) => u.email === 'owner@api.example')?.user_id ?? -1;
    const system = new Map(
      (await client.getUserGroups()).user_groups
        .filter((g) => g.is_system_group)
        .map((g) => [g.name, g.id]),
    );
    const sys = (name: string): number => system.get(name) ?? -1;
    const safeSystem = ['role:members', 'role:moderators', 'role:administrators', 'role:nobody'];

    // Groups: nested, with explicit sets; some manage themselves or each other.
    const groups: number[] = [];
    const value = (): GroupSettingParam => {
      const r = rnd();
      if (r < 0.4) return sys(pick(safeSystem));
      if (r < 0.6 && groups.length > 0) return pick(groups);
      return {
        direct_members: some(users, 0.15).slice(0, 3),
        direct_subgroups: [...some(groups, 0.3).slice(0, 2), sys('role:administrators')],
      };
    };
    for (let i = 0; i < 12; i++) {
      const res = await client.createUserGroup({
        name: pick(['team ', 'Squad-', 'grp_']) + i,
        description: i % 3 === 0 ? '' : `Group ${i}: "quoted" and 'single'`,
        members: some(users, 0.2),
        subgroups: some(groups, 0.2),
        can_mention_group: value(),
        can_join_group: value(),
        can_leave_group: value(),
      });
      groups.push(res.group_id ?? -1);
    }
    for (const id of some(groups, 0.5))
      await client.updateUserGroup(id, {
        can_manage_group: { new: rnd() < 0.5 ? id : pick(groups) },
        can_add_members_group: {
          new: { direct_members: [], direct_subgroups: [id, pick(groups)] },
        },
      });
    const retired = await client.createUserGroup({
      name: 'retired',
      description: 'To be deactivated',
      members: [users[0] ?? 0],
    });
    await client.deactivateUserGroup(retired.group_id ?? -1);

    // Folders in a custom order, one archived.
    const folders: number[] = [];
    for (let i = 0; i < 4; i++)
      folders.push(
        (await client.createChannelFolder({ name: `Folder ${i}`, description: `About ${i}` }))
          .channel_folder_id,
      );
    await client.reorderChannelFolders(shuffle(folders));
    const archivedFolder = folders[3] ?? -1;
    await client.updateChannelFolder(archivedFolder, { is_archived: true });

    // Channels: public and private, in folders or not, with group settings; one archived.
    const channels: number[] = [];
    for (let i = 0; i < 25; i++) {
      const isPrivate = rnd() < 0.4;
      const res = await client.createChannel({
        name: `chan ${i}${i === 3 ? ' ☕' : ''}`,
        description: i % 4 === 0 ? '' : `Channel ${i} \\ with a backslash`,
        subscribers: [...new Set([...some(users, 0.3), ...(i < 2 ? [ownerId] : [])])],
        invite_only: isPrivate,
        history_public_to_subscribers: isPrivate ? rnd() < 0.5 : true,
        ...(rnd() < 0.6 && { folder_id: pick(folders.slice(0, 3)) }),
        can_send_message_group: value(),
        can_administer_channel_group: value(),
        can_remove_subscribers_group: value(),
        can_resolve_topics_group: value(),
        ...(rnd() < 0.2 && { topics_policy: 'disable_empty_topic' as const }),
      });
      channels.push(res.id);
    }
    await client.archiveStream(channels[5] ?? -1);
    await client.updateSubscriptionSettings([
      { stream_id: channels[0] ?? -1, property: 'pin_to_top', value: true },
      { stream_id: channels[1] ?? -1, property: 'is_muted', value: true },
    ]);

    // Linkifiers in a custom order; a playground; the owner's snippets.
    const linkifiers: number[] = [];
    for (const [pattern, url_template] of [
      ['#(?P<id>[0-9]+)', 'https://github.com/acme/app/issues/{id}'],
      ['OPS-(?P<n>[0-9]+)', 'https://ops.example.com/{n}'],
      ['RFC ?(?P<rfc>[0-9]+)', 'https://www.rfc-editor.org/rfc/rfc{rfc}'],
    ] as const)
      linkifiers.push((await client.addLinkifier({ pattern, url_template })).id);
    await client.reorderLinkifiers([...linkifiers].reverse());
    await client.addPlayground({
      name: 'Rust',
      pygments_language: 'rust',
      url_template: 'https://play.rust-lang.org/?code={code}',
    });
    await client.createSavedSnippet({ title: 'Hi', content: 'Hello,\nworld' });

    const { requestCount: _n, ...live } = await readLiveState(client);
    expect(live.linkifiers.map((l) => l.id)).toEqual([...linkifiers].reverse());
    expect(live.userGroups.some((g) => g.deactivated)).toBe(true);

    const app = generateApp(live);
    const [desired] = synthInProcess(writeApp(app.files));
    const result = plan(desired!, live);
    expect(result.changes.map((c) => `${c.action} ${c.address}`)).toEqual([]);
    expect(hasChanges(result)).toBe(false);
    expect(result.warnings.filter((w) => w.code === 'UNDECLARED')).toEqual([]);
    expect(Object.values(app.files).join('\n')).toContain('.setPermissions({');
  } finally {
    await client.close();
    await z.close();
  }
}, 60_000);
