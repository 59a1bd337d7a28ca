import { parseJsonBytes } from '../../src/zulip/json-body';

/** A register-like body: lists of objects of a few MB, with what could mislead a cut. */
function body(extra: Record<string, unknown> = {}, nestedEvery = 3001): Record<string, unknown> {
  const users = Array.from({ length: 12_000 }, (_, i) => ({
    user_id: i,
    email: `u${i}@x.example`,
    // Multi-byte characters, escapes, and the byte patterns the pieces are cut at, in strings.
    full_name: i % 97 === 0 ? `Zoë },{" ":[{ }] }],"x" \\ 日本 ${'é'.repeat(i % 7)}` : `User ${i}`,
    profile_data: i % 5 === 0 ? { '1': { value: `v${i}` }, '2': { value: 'ends }],' } } : {},
    // A list of objects inside an object: `}]}`, `}],"` and `},{"` that are not the list's.
    links: i % nestedEvery === 0 ? [{ a: 1 }, { b: [{ c: '},{"' }], d: 2 }] : [],
    is_bot: i % 13 === 0,
  }));
  const channels = Array.from({ length: 6_000 }, (_, i) => ({
    stream_id: 100 + i,
    name: `channel-${i}`,
    description: i % 50 === 0 ? 'ends like a cut },{' : `Channel ${i}`,
    subscribers: Array.from({ length: 40 }, (_, j) => (i * 7 + j * 13) % 12_000),
    can_administer_channel_group: { direct_members: [10], direct_subgroups: [] },
  }));
  return {
    result: 'success',
    msg: '',
    queue_id: null,
    realm_users: users,
    small: [{ a: 1 }, { b: 2 }],
    subscriptions: channels,
    never_subscribed: [],
    ...extra,
  };
}

function bytes(value: unknown, prefix = ''): Buffer {
  return Buffer.from(prefix + JSON.stringify(value));
}

/** The value, its key order and its prototypes, as JSON.parse gives them. */
function expectSame(got: unknown, text: string): void {
  const want: unknown = JSON.parse(text);
  expect(got).toStrictEqual(want);
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
}

describe('parseJsonBytes (issue 17)', () => {
  it('gives what JSON.parse gives, without parsing the text whole, and leaves the bytes as they were', () => {
    const b = body();
    // Lists of objects from 1 MB on are parsed in pieces.
    expect(JSON.stringify(b.realm_users).length).toBeGreaterThan(1 << 20);
    expect(JSON.stringify(b.subscriptions).length).toBeGreaterThan(1 << 20);
    const buf = bytes(b);
    const copy = Buffer.from(buf);
    const parse = jest.spyOn(JSON, 'parse');
    let got: unknown;
    try {
      got = parseJsonBytes(buf, 0, buf.length);
      // Pieces of about 64 KB, and the rest of the object with markers in place of the lists.
      const longest = Math.max(...parse.mock.calls.map(([t]) => t.length));
      expect(longest).toBeLessThan(256 << 10);
    } finally {
      parse.mockRestore();
    }
    expectSame(got, buf.toString('utf8'));
    expect(buf.equals(copy)).toBe(true);
  });

  it('reads from an offset (a byte-order mark) to an end', () => {
    const buf = Buffer.concat([bytes(body(), '\ufeff'), Buffer.from('garbage')]);
    const start = 3;
    const end = buf.length - 'garbage'.length;
    expectSame(parseJsonBytes(buf, start, end), buf.toString('utf8', start, end));
  });

  it('keeps a large list under `__proto__` an own property, and a repeated key as JSON.parse does', () => {
    const text = JSON.stringify(body()).replace('"realm_users":', '"__proto__":');
    const got = parseJsonBytes(Buffer.from(text), 0, Buffer.byteLength(text));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(got, '__proto__')).toBe(true);
    expectSame(got, text);
    // The last of two members with one key wins: the large list is not put back in its place.
    const twice = `${JSON.stringify(body()).slice(0, -1)},"realm_users":7}`;
    expect(
      (parseJsonBytes(Buffer.from(twice), 0, Buffer.byteLength(twice)) as Record<string, unknown>)
        .realm_users,
    ).toBe(7);
  });

  it('gives a large list deeper in the object, and a large list that is the whole body, as they are', () => {
    const nested = bytes({ result: 'success', inner: { realm_users: body().realm_users } });
    expectSame(parseJsonBytes(nested, 0, nested.length), nested.toString('utf8'));
    const list = bytes(body().realm_users);
    expectSame(parseJsonBytes(list, 0, list.length), list.toString('utf8'));
  });

  it('gives what JSON.parse gives where the guesses fail often (lists of objects in the objects)', () => {
    const buf = bytes(body({}, 7));
    expectSame(parseJsonBytes(buf, 0, buf.length), buf.toString('utf8'));
  });

  it('gives what JSON.parse gives where strings outside the lists look like the cuts', () => {
    for (const look of ['":[{', '"x":[{"a":1}]}', '}],"realm_users":[{"user_id":1}', '\\":[{']) {
      const buf = bytes({ msg: look, ...body({ zulip_version: look, tail: [{ t: look }] }) });
      expectSame(parseJsonBytes(buf, 0, buf.length), buf.toString('utf8'));
    }
  });

  it('fails as JSON.parse does on a body that is not JSON', () => {
    const text = JSON.stringify(body());
    for (const bad of [
      text.slice(0, -1),
      text.replace('"u5@x.example"', 'u5@x.example'),
      `${text}x`,
    ]) {
      const buf = Buffer.from(bad);
      expect(() => parseJsonBytes(buf, 0, buf.length)).toThrow(SyntaxError);
    }
  });
});
