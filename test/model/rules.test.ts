import {
  channelPrivacyProblems,
  checkChannelDescription,
  checkFullName,
  checkChannelName,
  checkChannelFolderName,
  checkLinkifier,
  checkPlaygroundTemplate,
  checkPygmentsLanguage,
  checkUserGroupName,
  checkBoundedText,
  fullNameKey,
  isValidUriTemplate,
  pyStrip,
  storedChannelDescription,
  uriTemplateVariables,
} from '../../src/model';

describe('URL templates (Python uri_template.validate, as Zulip uses it)', () => {
  it.each([
    '$not_a_url$',
    'https://example.com/%%(foo)s',
    '{/foo,bar,baz}',
    '{?foo*}',
    '{+foo,bar}',
    '{#fragment:5}',
  ])('accepts %s', (t) => expect(isValidUriTemplate(t)).toBe(true));
  it.each([
    'https://example.com/{foo',
    '{{}',
    '{//foo}',
    '{bar++}',
    '{}',
    '{a,}',
    '{=a}',
    '{x:0}',
    '{x:1234}',
  ])('rejects %s', (t) => expect(isValidUriTemplate(t)).toBe(false));
  it('lists variables once, in order', () => {
    expect(uriTemplateVariables('https://x/{org}/{repo}/issues/{id}{?q,id}')).toEqual([
      'org',
      'repo',
      'id',
      'q',
    ]);
  });
});

describe('linkifier checks (RealmFilter.full_clean)', () => {
  it.each([
    ['', 'https://x/{id}', 'This field cannot be blank.'],
    ['(foo', 'https://x', 'Bad regular expression: missing ): (foo'],
    ['a**', 'https://x', 'Bad regular expression: bad repetition operator: **'],
    ['(?=x)', 'https://x', 'Bad regular expression: invalid perl operator: (?='],
    ['#(?P<id>[0-9]+)', 'https://x/{id', 'Invalid URL template.'],
    [
      '#(?P<id>[0-9]+)',
      'https://x/{hello}/{id}',
      "Group 'hello' in URL template is not present in linkifier pattern.",
    ],
    [
      '#(?P<id>[0-9]+)',
      'https://x/',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ],
  ])('%s with %s: %s', (pattern, template, message) => {
    expect(checkLinkifier(pattern, template)).toBe(message);
  });
  it('accepts a matching pattern and template, with RE2 syntax JS lacks', () => {
    expect(
      checkLinkifier(
        '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\\d+)',
        'https://github.com/{org}/{repo}/issues/{id}',
      ),
    ).toBeUndefined();
    expect(checkLinkifier('\\p{Greek}+(?P<id>\\d+)', 'https://x/{id}')).toBeUndefined();
  });
});

describe('playground checks', () => {
  it.each([
    ['https://x/?code={code}', undefined],
    ['https://x/{?test,code}', '"code" should be the only variable present in the URL template'],
    ['https://x/?test={test', 'Invalid URL template.'],
    ['https://x/{?test}', 'Missing the required variable "code" in the URL template'],
  ])('%s', (template, message) => expect(checkPlaygroundTemplate(template)).toBe(message));
  it('checks the language charset and length', () => {
    expect(checkPygmentsLanguage('C++')).toBeUndefined();
    expect(checkPygmentsLanguage('py$')).toBe('Invalid characters in pygments language');
    expect(checkPygmentsLanguage('x'.repeat(41))).toMatch(/too long/);
  });
});

describe('names', () => {
  it('channel names', () => {
    expect(checkChannelName('   ')).toBe("Channel name can't be empty.");
    expect(checkChannelName('x'.repeat(61))).toBe('Channel name too long (limit: 60 characters).');
    expect(checkChannelName('abc\u0000')).toBe('Invalid character in channel name, at position 4.');
    expect(checkChannelName('général 🚀')).toBeUndefined();
    expect(checkChannelName('🚀'.repeat(60))).toBeUndefined();
  });
  it('folder names', () => {
    expect(checkChannelFolderName('')).toBe("Channel folder name can't be empty.");
    expect(checkChannelFolderName('abc\0')).toBe(
      'Invalid character in channel folder name, at position 4.',
    );
  });
  it('group names', () => {
    expect(checkUserGroupName('')).toBe("User group name can't be empty!");
    expect(checkUserGroupName('role:x')).toBe("User group name cannot start with 'role:'.");
    expect(checkUserGroupName('@x')).toBe("User group name cannot start with '@'.");
    expect(checkUserGroupName('x'.repeat(101))).toBe(
      'User group name cannot exceed 100 characters.',
    );
  });
  it('bounded text', () => {
    expect(checkBoundedText('title', '  ', 60)).toBe('title cannot be blank');
    expect(checkBoundedText('title', 'x'.repeat(61), 60)).toBe(
      'title is too long (limit: 60 characters)',
    );
  });
});

describe('full names (check_full_name, zerver/lib/users.py)', () => {
  it.each([
    ['a'.repeat(101), 'too-long', 'Name too long!'],
    [' \u3000 ', 'empty', 'Name must not be empty!'],
    ['Opheli*', 'invalid-character', 'Invalid characters in name!'],
    ['Ann @ Acme', 'invalid-character', 'Invalid characters in name!'],
    ['An\u0007n', 'invalid-character', 'Invalid characters in name!'],
    ['iago|72', 'format', 'Invalid format!'],
    ['iago|\u0667\u0662', 'format', 'Invalid format!'],
    ['iago|72\n', 'format', 'Invalid format!'],
  ])('refuses %j: %s', (name, reason, message) => {
    expect(checkFullName(name)).toMatchObject({ reason, message });
  });
  it('names the first character Zulip objects to', () => {
    expect(checkFullName('Ann "Acme" @x')).toMatchObject({ character: '"' });
  });
  it.each(['Hello- 12iago|72k', '  Alice B  ', 'a'.repeat(100), 'Zoë 李'])('accepts %j', (name) =>
    expect(checkFullName(name)).toBeUndefined(),
  );
  it('strips as Python does (U+0085 and U+001C are space; U+FEFF is not)', () => {
    expect(pyStrip('\x85\x1c Ann \u3000')).toBe('Ann');
    expect(pyStrip('\ufeffAnn')).toBe('\ufeffAnn');
  });
});

describe('channel descriptions and cross-field channel rules', () => {
  it("limits the description to 1024 code points, in Zulip's words for the parameter", () => {
    expect(checkChannelDescription('\u{1F600}'.repeat(1024))).toBeUndefined();
    expect(checkChannelDescription('x'.repeat(1025))).toBe(
      'description is too long (limit: 1024 characters)',
    );
    expect(checkChannelDescription('x'.repeat(1025), 'subscriptions[0]["description"]')).toBe(
      'subscriptions[0]["description"] is too long (limit: 1024 characters)',
    );
    expect(storedChannelDescription('a\nb\r\nc')).toBe('a b\r c');
  });

  const base = {
    private: false,
    webPublic: false,
    historyPublicToSubscribers: true,
    defaultChannel: false,
  };
  it.each([
    [{}, []],
    [{ private: true, historyPublicToSubscribers: false }, []],
    [{ webPublic: true, defaultChannel: true }, []],
    [{ webPublic: true, private: true }, ['web-public-private']],
    [
      { webPublic: true, historyPublicToSubscribers: false },
      ['web-public-protected-history', 'public-protected-history'],
    ],
    [{ historyPublicToSubscribers: false }, ['public-protected-history']],
    [{ private: true, defaultChannel: true }, ['default-private']],
    [
      { private: true, webPublic: true, historyPublicToSubscribers: false, defaultChannel: true },
      ['web-public-protected-history', 'web-public-private', 'default-private'],
    ],
  ] as const)("%j breaks %j, in update_stream_backend's order", (c, rules) => {
    expect(channelPrivacyProblems({ ...base, ...c }).map((p) => p.rule)).toEqual(rules);
  });
  it("answers with Zulip's messages", () => {
    expect(channelPrivacyProblems({ ...base, private: true, defaultChannel: true })).toEqual([
      { rule: 'default-private', message: 'A default channel cannot be private.' },
    ]);
    expect(channelPrivacyProblems({ ...base, historyPublicToSubscribers: false })).toEqual([
      { rule: 'public-protected-history', message: 'Invalid parameters' },
    ]);
  });
});

describe("full names as require_unique_names compares them (NFKC, then Python's casefold)", () => {
  // The expectations are CPython's: unicodedata.normalize('NFKC', a).casefold() == … of b.
  it.each([
    ['Kırk', 'Kirk', false],
    ['STRAẞE', 'straße', true],
    ['STRAẞE', 'STRASSE', true],
    ['ΝΊΚΟΣ', 'νίκος', true],
    ['ΝΊΚΟΣ', 'νίκοσ', true],
    ['İstanbul', 'i\u0307stanbul', true],
    ['Ada Lovelace', ' ADA LOVELACE ', true],
    ['ﬁnn', 'FINN', true],
  ])('%s and %s: the same name %s', (a, b, same) => {
    expect(fullNameKey(a) === fullNameKey(b)).toBe(same);
  });
});
