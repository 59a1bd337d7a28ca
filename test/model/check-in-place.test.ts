import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { inPlace, parseInPlace } from '../../src/model/check-in-place';
import { intListSchema } from '../../src/model/int-list';
import { LiveStateSchema } from '../../src/model/live-state';
import { RegisterResponseSchema } from '../../src/zulip/wire/register';
import { WireSubscriptionSchema } from '../../src/zulip/wire/subscription';
import { WireUserSchema } from '../../src/zulip/wire/user';
import { checkInPlaceOutcomes } from './scripts/check-in-place-cases';

const user = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  user_id: 8,
  email: 'a@x.example',
  full_name: 'A',
  is_bot: false,
  avatar_url: null,
  extra_field_of_a_newer_server: { any: 'thing' },
  ...over,
});

const channel = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  stream_id: 3,
  name: 'general',
  description: '',
  invite_only: false,
  topics_policy: 'inherit',
  can_send_message_group: { direct_members: [1, 2], direct_subgroups: [], extra: 1 },
  can_administer_channel_group: 11,
  subscribers: [1, 2, 3],
  ...over,
});

/** The path and message of the one issue of the ZodError `f` throws. */
function issueOf(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    if (!(e instanceof z.ZodError)) throw e;
    expect(e.issues).toHaveLength(1);
    return [e.issues[0]?.path.join('.') ?? '', e.issues[0]?.message ?? ''];
  }
  throw new Error('no error');
}

describe('inPlace / parseInPlace (issue 17: the register response checked without a copy)', () => {
  const users = inPlace(z.array(WireUserSchema));

  it('gives back the very objects it was given, with the extra fields of a loose schema', () => {
    const list = [user(), user({ user_id: 9, delivery_email: null, role: 400 })];
    const out = users.parse(list);
    expect(out).toBe(list);
    expect(out[0]).toBe(list[0]);
    // The same value as zod's copying parse.
    expect(out).toEqual(z.array(WireUserSchema).parse(list));
  });

  it.each([
    [
      'a number for a string',
      [user(), user({ email: 5 })],
      '1.email',
      /expected string, received number/,
    ],
    [
      'a missing required field',
      [user({ full_name: undefined })],
      '0.full_name',
      /received undefined/,
    ],
    ['a fraction for an ID', [user({ user_id: 1.5 })], '0.user_id', /expected int/],
    ['null where only undefined is allowed', [user({ role: null })], '0.role', /received null/],
    ['an object for the list', { 0: user() }, '', /expected array, received object/],
  ])('refuses %s, with the path of the value', (_name, value, path, message) => {
    const r = users.safeParse(value);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual([path]);
    expect(r.error?.issues[0]?.message).toMatch(message);
    // zod refuses it too.
    expect(z.array(WireUserSchema).safeParse(value).success).toBe(false);
  });

  it('checks unions, enums or strings, group settings and ID lists inside a channel', () => {
    const subs = inPlace(z.array(WireSubscriptionSchema));
    expect(subs.parse([channel(), channel({ topics_policy: 'something_newer' })])).toHaveLength(2);
    for (const [bad, path] of [
      [{ can_send_message_group: 'admins' }, '0.can_send_message_group'],
      [{ can_send_message_group: { direct_members: [1] } }, '0.can_send_message_group'],
      [{ topics_policy: 3 }, '0.topics_policy'],
      [{ subscribers: [1, '2'] }, '0.subscribers.1'],
    ] as const) {
      const r = subs.safeParse([channel(bad)]);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path.join('.')).toBe(path);
      expect(z.array(WireSubscriptionSchema).safeParse([channel(bad)]).success).toBe(false);
    }
  });

  it('refuses an unknown key of a strict object, and fills in defaults where they are missing', () => {
    const s = z.strictObject({ a: z.number(), b: z.boolean().default(true), l: intListSchema() });
    const v: Record<string, unknown> = { a: 1, l: [] };
    expect(parseInPlace(s, v)).toBe(v);
    expect(v).toEqual({ a: 1, b: true, l: [] });
    expect(issueOf(() => parseInPlace(s, { a: 1, l: [], c: 2 }))).toEqual([
      '',
      'Unrecognized key: "c"',
    ]);
    expect(() => parseInPlace(s, { a: 'x', l: [] })).toThrow(z.ZodError);
  });

  it('refuses to compile a schema that zod would change (a plain z.object strips keys) or bound', () => {
    expect(() => inPlace(z.array(z.object({ a: z.string() })))).toThrow(/z\.object/);
    expect(() => inPlace(z.number().min(1))).toThrow(/bounds/);
    expect(() => inPlace(z.string().transform((s) => s.length))).toThrow(/cannot be checked/);
  });

  it('checks the LiveState strictly: a mapping mistake (an unknown field) fails', () => {
    const live = LiveStateSchema.parse({
      formatVersion: 1,
      server: {
        site: 'http://x',
        featureLevel: 400,
        version: '11',
        realmName: '',
        limits: {
          channelName: 60,
          channelDescription: 1024,
          channelFolderName: null,
          channelFolderDescription: null,
        },
        webPublicChannelsEnabled: false,
      },
      me: { userId: 1, email: 'a@x', role: 100 },
      users: [{ id: 1, email: 'a@x', fullName: 'A', role: 100, isActive: true, isBot: false }],
      userGroups: [],
      channels: [],
      channelFolders: [],
      linkifiers: [],
      playgrounds: [],
      savedSnippets: [],
      subscriptionSettings: [],
    });
    expect(parseInPlace(LiveStateSchema, structuredClone(live))).toEqual(live);
    const wrong = structuredClone(live) as { users: Record<string, unknown>[] };
    (wrong.users[0] as Record<string, unknown>).is_active = true;
    expect(issueOf(() => parseInPlace(LiveStateSchema, wrong))).toEqual([
      'users.0',
      'Unrecognized key: "is_active"',
    ]);
  });

  it('is what the register schema uses for its large lists: the lists are not copied', () => {
    const body = {
      result: 'success',
      msg: '',
      zulip_version: '11.0',
      realm_users: [user()],
      never_subscribed: [channel()],
      streams: [channel()],
    };
    const parsed = RegisterResponseSchema.parse(body);
    expect(parsed.realm_users?.[0]).toBe(body.realm_users[0]);
    expect(parsed.streams?.[0]).toBe(body.streams[0]);
    const bad = RegisterResponseSchema.safeParse({ ...body, streams: [channel({ name: 1 })] });
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['streams.0.name']);
  });
});

describe('where code cannot be generated from strings', () => {
  it('checks the same way, by a loop (node --disallow-code-generation-from-strings)', () => {
    const here = checkInPlaceOutcomes();
    expect(here.filter((o) => 'ok' in (o as object))).toHaveLength(3);
    expect(here).toContainEqual({ path: 'l.1', message: expect.any(String) as string });
    const out = execFileSync(
      process.execPath,
      [
        '--disallow-code-generation-from-strings',
        '--import',
        'tsx',
        join(__dirname, 'scripts', 'check-in-place-cases.ts'),
      ],
      { encoding: 'utf8', cwd: join(__dirname, '..', '..') },
    );
    expect(JSON.parse(out)).toEqual(here);
  });
});
