/**
 * The default importer of a keyed kind (one without an importer of its own): the props and
 * construct id it derives from the kind's spec.
 */
import { keyedConstructId, keyedProps } from '../../src/import/keyed';
import type { Entry } from '../../src/import/code';
import { FEATURE_LEVELS } from '../../src/model/features';

const fl = FEATURE_LEVELS.newest;
const props = (entries: Entry[]): Record<string, unknown> =>
  Object.fromEntries(entries.map((e) => [e.key, e.value]));

describe('keyedProps: the live view in desired terms', () => {
  test('every property of a kind whose properties are all required, in the view order', () => {
    const l = { id: 1, name: 'Rust Playground', pygmentsLanguage: 'rust', urlTemplate: 'u{code}' };
    expect(keyedProps('playground', l, fl).map((e) => e.key)).toEqual([
      'name',
      'pygmentsLanguage',
      'urlTemplate',
    ]);
  });

  test('a value Zulip gives an absent property is left out; another is declared', () => {
    const folder = { id: 1, name: 'Ops', description: '', archived: false };
    expect(props(keyedProps('channelFolder', folder, fl))).toEqual({
      name: { t: 'str', value: 'Ops' },
    });
    const described = { ...folder, description: 'Runbooks' };
    expect(props(keyedProps('channelFolder', described, fl))).toEqual({
      name: { t: 'str', value: 'Ops' },
      description: { t: 'str', value: 'Runbooks' },
    });
  });

  test('a removed object declares its removed flag', () => {
    const folder = { id: 1, name: 'Old', description: '', archived: true };
    expect(props(keyedProps('channelFolder', folder, fl))).toEqual({
      name: { t: 'str', value: 'Old' },
      archived: { t: 'raw', code: 'true' },
    });
  });
});

test("an allowed domain declares allowSubdomains only when it is not Zulip's default", () => {
  const domain = { id: 1, domain: 'acme.example', allowSubdomains: false };
  expect(props(keyedProps('allowedDomain', domain, fl))).toEqual({
    domain: { t: 'str', value: 'acme.example' },
  });
  const subdomains = { ...domain, allowSubdomains: true };
  expect(props(keyedProps('allowedDomain', subdomains, fl))).toEqual({
    domain: { t: 'str', value: 'acme.example' },
    allowSubdomains: { t: 'raw', code: 'true' },
  });
});

describe('keyedConstructId: made of the natural key', () => {
  test.each([
    ['savedSnippet', { id: 1, title: 'Welcome', content: 'x' }, 'welcome-snippet'],
    [
      'playground',
      { id: 1, name: 'Rust Playground', pygmentsLanguage: 'rust', urlTemplate: 'u' },
      'rust-playground',
    ],
    // A linkifier's is its URL's host, not its pattern.
    [
      'linkifier',
      { id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/a/{id}' },
      'github-com',
    ],
    // An allowed domain's is its domain: Zulip's default (no subdomains) is left out.
    [
      'allowedDomain',
      { id: 1, domain: 'eu.acme.example', allowSubdomains: false },
      'eu-acme-example',
    ],
    // No letter or digit in the key: the kind's word.
    ['channelFolder', { id: 1, name: '🚀', description: '', archived: false }, 'channel-folder'],
    ['savedSnippet', { id: 1, title: '☕', content: 'x' }, 'snippet-snippet'],
  ] as const)('%s %j: %s', (kind, l, id) => {
    expect(keyedConstructId(kind, l)).toBe(id);
  });
});
