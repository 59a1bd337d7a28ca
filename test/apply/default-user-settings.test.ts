/**
 * The default user settings against the embedded server: apply converges in one
 * `PATCH /realm/user_settings_defaults` with only what changes (the plan made afterwards is
 * empty), a setting changed by hand after the plan is reported and not overwritten, and the
 * settings survive a restart of a server with a state file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator } from '../../src/emulator';
import { emptyDesiredState } from '../../src/model';
import type { DesiredDefaultUserSettings, DesiredState } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { clientFor, expectSuccess } from '../support/emulator-client';
import { thrownError } from '../support/errors';
import { plan } from '../../src/engine';
import { harness, newClient, summary } from './helpers';
import type { Harness } from './helpers';

function withDefaults(properties: DesiredDefaultUserSettings['properties']): DesiredState {
  const d = emptyDesiredState('acme');
  d.defaultUserSettings.push({ path: 'acme/defaults', properties });
  return d;
}

const DECLARED: DesiredDefaultUserSettings['properties'] = {
  colorScheme: 'dark',
  webHomeView: 'recent_topics',
  emailAddressVisibility: 'nobody',
  resolvedTopicNoticeAutoReadPolicy: 'never',
  notificationSound: 'ding',
  emojiset: 'text',
  enterSends: true,
  twentyFourHourTime: false, // Zulip's default: no change
  webChannelDefaultView: 'top_unread',
  emailNotificationsBatchingPeriodSeconds: 600,
};

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

test('apply converges in one request with the changed settings only; planning again shows no change', async () => {
  const { first, result, after } = await h.converge(withDefaults(DECLARED));
  expect(summary(first)).toEqual(['update defaultUserSettings["organization"]']);
  const change = first.changes[0]!;
  expect(change.action === 'update' ? change.properties.map((p) => p.property) : []).toEqual([
    'colorScheme',
    'emailAddressVisibility',
    'emailNotificationsBatchingPeriodSeconds',
    'emojiset',
    'enterSends',
    'notificationSound',
    'resolvedTopicNoticeAutoReadPolicy',
    'webChannelDefaultView',
    'webHomeView',
  ]);
  expect(result.outcome).toBe('applied');
  expect(after.changes).toEqual([]);
  // What the server stored, in its wire terms: the choices as Zulip's numbers.
  expect(h.z.org.realm.userSettingsDefaults).toEqual({
    color_scheme: 2,
    email_address_visibility: 4,
    email_notifications_batching_period_seconds: 600,
    emojiset: 'text',
    enter_sends: true,
    notification_sound: 'ding',
    resolved_topic_notice_auto_read_policy: 'never',
    web_channel_default_view: 4,
    web_home_view: 'recent_topics',
  });
  const again = await h.apply(first);
  expect(again.requests.filter((r) => r.startsWith('PATCH'))).toEqual([]);
});

test('the request: one PATCH /realm/user_settings_defaults after the read', async () => {
  const p = await h.plan(withDefaults({ colorScheme: 'light', enterSends: true }));
  const r = await h.apply(p);
  expect(r.requests).toEqual([
    'POST /register',
    'DELETE /events',
    'PATCH /realm/user_settings_defaults',
  ]);
  const live = await readLiveState(h.client);
  expect(live.defaultUserSettings?.settings).toMatchObject({ color_scheme: 3, enter_sends: true });
});

test('a setting changed by hand after the plan: reported as a conflict, not overwritten', async () => {
  const saved = await h.plan(withDefaults({ colorScheme: 'dark', enterSends: true }));
  expectSuccess(
    await clientFor(h.z, 'admin').patch('/realm/user_settings_defaults', { color_scheme: 3 }),
  );
  const r = await h.apply(saved);
  const entry = r.journal.entries.find(
    (x) => x.id === 'defaultUserSettings["organization"]#update',
  )!;
  expect(entry.status).toBe('conflict');
  expect(entry.message).toContain('colorScheme is now "light" (was "automatic" at plan time)');
  expect(h.z.org.realm.userSettingsDefaults).toEqual({ color_scheme: 3 });
});

test('the settings are kept in the state file and read back after a restart', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-defaults-'));
  const state = path.join(dir, 'state.json');
  try {
    const z1 = await startEmulator({ state, persist: true, rateLimit: false });
    expectSuccess(
      await clientFor(z1, 'admin').patch('/realm/user_settings_defaults', {
        web_home_view: 'all_messages',
        user_list_style: 1,
      }),
    );
    await z1.close();
    const z2 = await startEmulator({ state, persist: true, rateLimit: false });
    const c = newClient(z2);
    try {
      const live = await readLiveState(c);
      expect(live.defaultUserSettings?.settings).toMatchObject({
        web_home_view: 'all_messages',
        user_list_style: 1,
      });
    } finally {
      await c.close();
      await z2.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('against a Zulip 11.0 server (FL 421): a setting of FL 431 is a plan error; the others apply', async () => {
  const old = await harness({ featureLevel: 421 });
  try {
    const live = await readLiveState(old.client);
    expect(live.defaultUserSettings?.settings).not.toHaveProperty('web_inbox_show_channel_folders');
    expect(live.defaultUserSettings?.settings).toHaveProperty(
      'web_left_sidebar_show_channel_folders',
      true,
    );
    const err = thrownError(
      () => plan(withDefaults({ webInboxShowChannelFolders: false, enterSends: true }), live),
      'UNSUPPORTED_FEATURE',
    );
    expect(err.message).toContain(
      'defaultUserSettings["organization"] (acme/defaults): webInboxShowChannelFolders needs Zulip feature level 431 (Zulip 12.0); the server is at 421',
    );
    const { result, after } = await old.converge(
      withDefaults({ webLeftSidebarShowChannelFolders: false, enterSends: true }),
    );
    expect(result.outcome).toBe('applied');
    expect(after.changes).toEqual([]);
  } finally {
    await old.close();
  }
});
