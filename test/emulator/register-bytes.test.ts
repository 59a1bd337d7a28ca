/**
 * The register response, byte for byte: the bodies the embedded server sends for a few
 * organizations, viewers and parameter sets, by their SHA-256 (the queue ID and the port
 * masked). The digests were recorded before the register was made faster (issue 17, item 2),
 * then updated for two intended changes: `realm_can_set_topics_policy_group` defaults to
 * role:members, as Zulip's (it was role:moderators; nothing else differed); and again when
 * custom profile fields were added (`custom_profile_fields`, `custom_profile_field_types`, and
 * `profile_data` of each user where asked for; nothing else differed); and when `streams`
 * took Zulip's order (by name, as `do_get_streams`; it was by ID) and left archived channels
 * out below FL 378 (test/conformance/register.test.ts checks both); and when allowed domains
 * were added (`realm_domains`, empty in these organizations, after the `realm` fields, and
 * asked for by the organization read: the bodies before and after were compared with it taken
 * out, and nothing else differed); and when the organization read asked for
 * `realm_user_settings_defaults` (every body here has it, after `realm_domains`; with it cut
 * out, each digest was the one before, and test/conformance/user-settings-defaults.test.ts
 * checks its content); and when user objects took `format_user_row`'s shape (`bot_type` and
 * `bot_owner_id` only on bots, `profile_data` only on humans, `is_imported_stub` from FL 433:
 * with those three undone, each digest was the one before; test/conformance/users.test.ts
 * checks them); and when register reported the realm properties zulip-cdk does not manage
 * (`realm_giphy_rating`, `realm_jitsi_server_url`, `realm_video_chat_provider` among the
 * `realm` fields, `realm_org_type` and `realm_available_video_chat_providers` after
 * `realm_plan_type`: with those five cut out, each digest was the one before;
 * test/conformance/realm-settings.test.ts checks them); and when `date_joined` took
 * `format_user_row`'s precision (to the minute) and the demo's people joined before the server
 * started (a year before; Erin a day before): with those two undone, each digest was the one
 * before (test/conformance/users.test.ts checks the format); and when zulip-cdk came to manage
 * `require_e2ee_push_notifications` (FL 409: `realm_require_e2ee_push_notifications` among the
 * `realm` fields; with the setting's level moved above the bodies' levels, each digest was the
 * one before; test/conformance/realm-settings.test.ts checks it); and when channel objects
 * took `stream_post_policy` and `is_announcement_only` from `can_send_message_group`
 * (`get_stream_post_policy_value_based_on_group_setting`: they were always 1 and false; with
 * those two fields set back to 1 and false in the bodies, each digest was the one before;
 * test/conformance/channel-event-audience.test.ts checks the values). A change that moves a field,
 * reorders a list or drops a subscriber shows here. When a change of the response is intended,
 * check the new body by other tests first, then update the digest.
 */
import { createHash } from 'node:crypto';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import type { OrgState } from '../../src/emulator/state';
import { ORG_READ_REGISTER_PARAMS } from '../../src/zulip/wire/register';
import { generateBenchOrg } from '../../bench/org-generator';
import { encodeParams } from '../support/emulator-client';

const NOW = Date.UTC(2026, 0, 1, 12);
const clock = { now: () => NOW };

/** The raw body of a register, as sent. */
async function registerBody(
  z: Emulator,
  email: string,
  params: Record<string, unknown>,
): Promise<string> {
  const res = await fetch(`${z.url}/register`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${email}:${z.apiKeyOf(email)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: encodeParams(params).toString(),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  return text;
}

/**
 * The organization read's parameters as the digests below were recorded: `stream` among the
 * fetched types (the read no longer asks for it: the test that follows checks that the body
 * it gets is this one without `streams`).
 */
const RECORDED_READ_PARAMS = {
  ...ORG_READ_REGISTER_PARAMS,
  fetch_event_types: [...ORG_READ_REGISTER_PARAMS.fetch_event_types, 'stream'],
};

function digest(body: string, z: Emulator): string {
  const masked = body
    .replace(/"queue_id":"[0-9a-f-]{36}"/, '"queue_id":"Q"')
    .split(`127.0.0.1:${z.port}`)
    .join('127.0.0.1:PORT');
  return createHash('sha256').update(masked).digest('hex').slice(0, 16);
}

/**
 * A small bench organization with what the register must leave out or mark: deactivated
 * users (some of them subscribers and group members), inactive subscription rows, an archived
 * channel, and rows added out of user-ID order.
 */
function benchOrg(): { org: OrgState; owner: string } {
  const bench = generateBenchOrg({ scale: 0.02, now: NOW });
  const org = bench.org;
  org.users.filter((u, i) => i % 17 === 5).forEach((u) => (u.isActive = false));
  org.subscriptions.filter((s, i) => i % 13 === 3).forEach((s) => (s.active = false));
  const first = org.channels[0];
  if (first) first.isArchived = true;
  org.subscriptions.reverse();
  return { org, owner: bench.owner.email };
}

describe('register: the same bytes', () => {
  it('the organization read (with `stream`) of a small bench organization', async () => {
    const { org, owner } = benchOrg();
    const z = await startEmulator({ state: org, rateLimit: false, clock });
    try {
      const body = await registerBody(z, owner, RECORDED_READ_PARAMS);
      expect(digest(body, z)).toBe('126c99ab2cbb0e78');
      // A second register answers the same.
      expect(digest(await registerBody(z, owner, RECORDED_READ_PARAMS), z)).toBe(digest(body, z));
      // The read's own parameters: the same body without `streams`.
      const read = JSON.parse(await registerBody(z, owner, ORG_READ_REGISTER_PARAMS)) as Record<
        string,
        unknown
      >;
      const { streams, ...rest } = JSON.parse(body) as Record<string, unknown>;
      expect(Array.isArray(streams)).toBe(true);
      expect(Object.keys(read)).toEqual(Object.keys(rest));
      expect({ ...read, queue_id: 'Q', last_event_id: 0 }).toEqual({
        ...rest,
        queue_id: 'Q',
        last_event_id: 0,
      });
    } finally {
      await z.close();
    }
  });

  it.each([
    ['owner@zulip-cdk.example', {}, 'fdbcc7dc9db76828'],
    ['alice@zulip-cdk.example', { include_subscribers: 'true' }, '4f6c9b0b4101f457'],
    ['guest@zulip-cdk.example', { include_subscribers: 'partial' }, 'cfaff683c5772a0d'],
    [
      'moderator@zulip-cdk.example',
      {
        include_subscribers: 'true',
        client_capabilities: { notification_settings_null: true, archived_channels: true },
      },
      '8b99bff056bc0bf0',
    ],
  ])('the demo organization: %s %j', async (email, params, expected) => {
    const z = await startEmulator({ rateLimit: false, clock });
    try {
      expect(digest(await registerBody(z, email, params), z)).toBe(expected);
    } finally {
      await z.close();
    }
  });

  it('the demo organization at Zulip 10.2 (FL 372)', async () => {
    const z = await startEmulator({ rateLimit: false, clock, featureLevel: 372 });
    try {
      const body = await registerBody(z, 'owner@zulip-cdk.example', { include_subscribers: true });
      expect(digest(body, z)).toBe('0f9ee33f4620685e');
    } finally {
      await z.close();
    }
  });

  it('a response observer sees the body sent (the lists built while it is written, made arrays)', async () => {
    const { org, owner } = benchOrg();
    const observed: string[] = [];
    const z = await startEmulator({
      state: org,
      rateLimit: false,
      clock,
      observe: (r) => {
        if (r.path === '/register') {
          expect(Array.isArray(r.body.realm_users)).toBe(true);
          expect(Array.isArray(r.body.subscriptions)).toBe(true);
          observed.push(JSON.stringify(r.body));
        }
      },
    });
    try {
      const body = await registerBody(z, owner, RECORDED_READ_PARAMS);
      expect(digest(body, z)).toBe('126c99ab2cbb0e78');
      expect(observed).toEqual([body]);
    } finally {
      await z.close();
    }
  });

  it('large bodies (over 1 MB, encoded into reused buffers): exact UTF-8, in parallel and one after another', async () => {
    const bench = generateBenchOrg({ scale: 0.2, now: NOW });
    const names = ['Zoë Łukasz', 'Ünïcödé 💡 name', '日本語の名前'];
    bench.org.users.slice(0, 3).forEach((u, i) => (u.fullName = names[i] as string));
    const z = await startEmulator({ state: bench.org, rateLimit: false, clock });
    const post = async (params: Record<string, unknown>): Promise<Buffer> => {
      const res = await fetch(`${z.url}/register`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${bench.owner.email}:${bench.owner.apiKey}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: encodeParams(params).toString(),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      return bytes;
    };
    try {
      const [a, b] = await Promise.all([post(RECORDED_READ_PARAMS), post(RECORDED_READ_PARAMS)]);
      const c = await post({ ...RECORDED_READ_PARAMS, include_subscribers: 'false' });
      const d = await post(RECORDED_READ_PARAMS);
      expect(a.length).toBeGreaterThan(1 << 20);
      expect(c.length).toBeLessThan(a.length);
      for (const bytes of [a, b, c, d]) {
        const text = bytes.toString('utf8');
        // Valid UTF-8 (no replacement characters), the names intact.
        expect(Buffer.from(text).equals(bytes)).toBe(true);
        const body = JSON.parse(text) as { realm_users: { full_name: string }[] };
        for (const name of names)
          expect(body.realm_users.some((u) => u.full_name === name)).toBe(true);
      }
      const masked = (x: Buffer): string => x.toString('utf8').replace(/"queue_id":"[^"]+"/, '');
      expect(masked(b)).toBe(masked(a));
      expect(masked(d)).toBe(masked(a));
    } finally {
      await z.close();
    }
  });
});
