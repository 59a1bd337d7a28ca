import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Channel, OrganizationSettings, SystemGroup, UserGroup } from '../../src/constructs';
import { main } from '../../src/cli/main';
import { describeEvent, isCosmetic } from '../../src/provider/watch';
import { watchLine } from '../../src/cli/commands/watch';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { Testing } from '../../src/testing';
import { clientFor } from '../support/emulator-client';
import { fakeIo } from '../support/fake-io';
import type { FakeIo } from '../support/fake-io';

let dir: string;
let z: Emulator;
/** While set, the watcher's `POST /register` waits for it (a change can land in the gap). */
let holdRegister: Promise<void> | undefined;
let registerHeld: () => void = () => undefined;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-watch-'));
  holdRegister = undefined;
  z = await startEmulator({
    rateLimit: false,
    heartbeatMs: 1000,
    intercept: async (r) => {
      if (r.method === 'POST' && r.path === '/register' && holdRegister) {
        registerHeld();
        await holdRegister;
      }
    },
  });
});
/** Interrupts a watch left running by a failed test. */
let stop: () => void = () => undefined;
afterEach(async () => {
  stop();
  await z.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A configuration managing one channel and one group, written as synth would. */
function configuration(): string {
  const org = Testing.organization('acme');
  const eng = new UserGroup(org, 'eng', {
    name: 'eng',
    description: 'Engineers',
    members: ['alice@zulip-cdk.example'],
  });
  new Channel(org, 'announce', {
    name: 'announce',
    description: 'Announcements',
    canSendMessageGroup: SystemGroup.ADMINISTRATORS,
    canResolveTopicsGroup: eng,
  });
  const file = path.join(dir, 'acme.zulip.json');
  writeFileSync(file, Testing.synthJson(org));
  return file;
}

interface Line {
  type: string;
  [k: string]: unknown;
}

function lines(io: FakeIo): Line[] {
  return io
    .out()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
}

async function until<T>(what: string, f: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function env(): NodeJS.ProcessEnv {
  return { ZULIP_EMAIL: z.owner.email, ZULIP_API_KEY: z.owner.apiKey, ZULIP_SITE: z.site };
}

const groupId = (name: string): number => z.org.groups.find((g) => g.name === name)!.id;

test('reports a hand change of a managed channel permission within 2 s, and what changed while the queue was expired', async () => {
  const file = configuration();
  const desired = JSON.parse(readFileSync(file, 'utf8'));
  expect((await Testing.planAndApply(desired, { emulator: z })).converged).toBe(true);
  const announce = z.org.channels.find((c) => c.name === 'announce')!.id;
  const owner = clientFor(z, 'owner');
  await owner.get('/users/me'); // loads the yaml the test client validates with, before timing

  const interrupted = new Promise<void>((r) => (stop = r));
  const io = fakeIo({ env: env(), interrupted });
  const exit = main(['watch', '--desired', file, '--format', 'json'], io);
  const watching = await until('watching', () => lines(io).find((l) => l.type === 'watching'));
  expect(watching).toMatchObject({ organization: 'acme', differences: 0, site: z.site });
  expect(watching.eventTypes).toEqual([
    'channel_folder',
    'default_streams',
    'stream',
    'subscription',
    'user_group',
  ]);

  // 1. A hand change of a managed permission: reported within 2 seconds.
  const t0 = Date.now();
  await owner.patch(`/streams/${announce}`, {
    can_send_message_group: { new: groupId('role:everyone') },
  });
  const drift = await until('drift', () => lines(io).find((l) => l.type === 'drift'));
  expect(Date.now() - t0).toBeLessThan(2000);
  expect(drift).toMatchObject({
    cause: 'events',
    kind: 'channel',
    address: 'channel["announce"]',
    path: 'acme/announce',
    property: 'permissions.canSendMessageGroup',
    action: 'update',
    // administrators → everyone changes the legacy posting policy too: Zulip announces it
    // in two more updates of the same channel (do_change_stream_group_based_setting).
    events: [
      'stream/update:can_send_message_group',
      'stream/update:stream_post_policy',
      'stream/update:is_announcement_only',
    ],
  });
  expect(JSON.stringify(drift.live)).toContain('everyone');
  expect(JSON.stringify(drift.desired)).toContain('administrators');

  // 2. The queue expires (forced), and two changes land before the watcher registers again:
  // one undoes the drift, the other is new. Both are reported; nothing is missed.
  let arrived: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  arrived = new Promise<void>((r) => (registerHeld = r));
  holdRegister = new Promise<void>((r) => (release = r));
  expect(z.expireEventQueues()).toBe(1);
  await arrived;
  await owner.patch(`/streams/${announce}`, {
    can_send_message_group: { new: groupId('role:administrators') },
  });
  await owner.post(`/user_groups/${groupId('eng')}/members`, {
    add: [z.org.users.find((u) => u.email.startsWith('bob@'))!.id],
  });
  holdRegister = undefined;
  release();
  const gap = await until('the gap', () => {
    const all = lines(io);
    const resolved = all.find((l) => l.type === 'resolved');
    const member = all.find((l) => l.type === 'drift' && l.kind === 'userGroup');
    return resolved && member ? { all, resolved, member } : undefined;
  });
  expect(gap.all.find((l) => l.type === 'reconnecting')).toMatchObject({ reason: 'queue-expired' });
  expect(gap.resolved).toMatchObject({
    address: 'channel["announce"]',
    property: 'permissions.canSendMessageGroup',
    cause: 'reregistered',
  });
  expect(gap.member).toMatchObject({
    cause: 'reregistered',
    address: 'userGroup["eng"]',
    path: 'acme/eng',
    property: 'members[bob@zulip-cdk.example]',
    live: true,
    desired: false,
  });

  // 3. Still watching on the new queue.
  const t1 = Date.now();
  await owner.patch(`/user_groups/${groupId('eng')}`, { description: 'by hand' });
  await until('description drift', () =>
    lines(io).find((l) => l.type === 'drift' && l.property === 'description'),
  );
  expect(Date.now() - t1).toBeLessThan(2000);
  // Bounded: one queue at a time (each comparison registers a new one and deletes the old).
  expect(z.eventQueueCount).toBe(1);

  stop();
  expect(await exit).toBe(0);
  expect(z.eventQueueCount).toBe(0);
  expect(io.out()).not.toContain(z.owner.apiKey);
});

test('--exit-on-drift exits 2 at the first difference (here, one present at the start); text lines', async () => {
  const file = configuration();
  const io = fakeIo({ env: env() });
  const code = await main(['watch', '--desired', file, '--exit-on-drift', '--for', '20'], io);
  expect(code).toBe(2);
  expect(io.out()).toMatch(
    /watching organization 'acme' on http:\/\/127\.0\.0\.1:\d+ .*difference\(s\) at the start/,
  );
  expect(io.out()).toMatch(
    /drift channel\["announce"\] differs at the start: the organization has nothing, the configuration says .*declared at acme\/announce; apply would create it/,
  );
  expect(z.eventQueueCount).toBe(0);
});

test('--for stops a quiet watch with exit 0; bad flags are usage errors', async () => {
  const file = configuration();
  await Testing.planAndApply(JSON.parse(readFileSync(file, 'utf8')), {
    emulator: z,
  });
  const io = fakeIo({ env: env() });
  expect(await main(['watch', '--desired', file, '--exit-on-drift', '--for', '0.5'], io)).toBe(0);
  expect(io.out()).toContain('it matches the configuration');
  const bad = fakeIo({ env: env() });
  expect(await main(['watch', '--desired', file, '--for', 'soon'], bad)).toBe(1);
  expect(bad.err()).toContain('--for must be a positive number of seconds');
});

test('a channel the configuration names renamed by hand: reported as drift (unplannable), and the watch goes on', async () => {
  const org = Testing.organization('acme');
  new OrganizationSettings(org, 'settings', { newChannelAnnouncementsChannel: 'general' });
  const file = path.join(dir, 'acme.zulip.json');
  writeFileSync(file, Testing.synthJson(org));
  expect(
    (await Testing.planAndApply(JSON.parse(readFileSync(file, 'utf8')), { emulator: z })).converged,
  ).toBe(true);
  const general = z.org.channels.find((c) => c.name === 'general')!.id;
  const owner = clientFor(z, 'owner');

  const interrupted = new Promise<void>((r) => (stop = r));
  const io = fakeIo({ env: env(), interrupted });
  const exit = main(['watch', '--desired', file, '--format', 'json'], io);
  const watching = await until('watching', () => lines(io).find((l) => l.type === 'watching'));
  // A rename sends only a stream event: the settings listen to it.
  expect(watching.eventTypes).toEqual(['realm', 'stream', 'user_group']);

  await owner.patch(`/streams/${general}`, { new_name: 'town-square' });
  const unplannable = await until('unplannable', () =>
    lines(io).find((l) => l.type === 'unplannable'),
  );
  expect(unplannable.code).toBe('UNRESOLVED_REFERENCE');
  expect(unplannable.message).toContain("names channel 'general', which does not exist");
  // Still watching: renamed back, then the setting changed by hand is drift as usual.
  await owner.patch(`/streams/${general}`, { new_name: 'general' });
  const other = z.org.channels.find((c) => c.name !== 'general' && !c.isArchived)!;
  await owner.patch('/realm', { new_stream_announcements_stream_id: String(other.id) });
  const drift = await until('drift', () => lines(io).find((l) => l.type === 'drift'));
  expect(drift).toMatchObject({
    address: 'organizationSettings["organization"]',
    property: 'newChannelAnnouncementsChannel',
    live: other.name,
    desired: 'general',
  });
  expect(lines(io).filter((l) => l.type === 'unplannable')).toHaveLength(1);
  stop();
  expect(await exit).toBe(0);
});

test("describeEvent names what changed: update_dict's and a group update's data keys", () => {
  expect(
    describeEvent({
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { description: 'x', name: 'y' },
      id: 1,
    }),
  ).toBe('realm/update_dict:description,name');
  expect(
    describeEvent({
      type: 'user_group',
      op: 'update',
      group_id: 3,
      data: { name: 'n' },
      id: 2,
    }),
  ).toBe('user_group/update:name');
  expect(describeEvent({ type: 'stream', op: 'update', property: 'description', id: 3 })).toBe(
    'stream/update:description',
  );
});

test('a time zone or avatar change is not compared (it changes nothing managed)', () => {
  const update = (person: Record<string, unknown>) =>
    isCosmetic({ type: 'realm_user', op: 'update', person, id: 1 });
  expect(update({ user_id: 3, timezone: 'Europe/Paris' })).toBe(true);
  expect(update({ user_id: 3, avatar_url: 'x', avatar_source: 'U', avatar_version: 2 })).toBe(true);
  expect(update({ user_id: 3, full_name: 'Ada' })).toBe(false);
  expect(update({ user_id: 3, role: 200 })).toBe(false);
  expect(update({ user_id: 3, custom_profile_field: { id: 1, value: 'x' } })).toBe(false);
  expect(isCosmetic({ type: 'stream', op: 'update', id: 1 })).toBe(false);
});

test('a drift line says what apply would do in words, for members and orders too', () => {
  const drift = {
    type: 'drift',
    at: '2026-01-01T00:00:00.000Z',
    cause: 'start',
    events: [],
    key: 'k',
    path: 'acme/backend/group',
    live: false,
    desired: true,
  } as const;
  const line = (kind: 'userGroup' | 'channel' | 'linkifier', action: 'membership' | 'reorder') =>
    watchLine({ ...drift, kind, address: `${kind}["x"]`, action, property: 'members[bob@x]' });
  // Before: "apply would membership it", "apply would reorder it".
  expect(line('userGroup', 'membership')).toContain('apply would change its members)');
  expect(line('channel', 'membership')).toContain('apply would change its subscribers)');
  expect(line('linkifier', 'reorder')).toContain('apply would reorder them)');
});
