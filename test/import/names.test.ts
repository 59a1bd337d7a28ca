import { quote, width } from '../../src/import/code';
import { NameAllocator, constructIdFor, identifierFor } from '../../src/import/names';

test.each([
  ['engineering', 'group', '', 'engineering'],
  ['Retired team', 'group', '', 'retiredTeam'],
  ['QA-Team', 'group', '', 'qaTeam'],
  ['Café ☕ crew', 'group', '', 'cafeCrew'],
  ['2024 plans', 'group', '', 'group2024Plans'],
  ['default', 'group', '', 'defaultGroup'],
  ['new', 'channel', 'Channel', 'newChannel'],
  ['🚀', 'group', '', 'group'],
  ['Engineering', 'folder', 'Folder', 'engineeringFolder'],
  // The suffix is not repeated when the name already says it.
  ['Ops folder 0', 'folder', 'Folder', 'opsFolder0'],
  ['channel 2', 'channel', 'Channel', 'channel2'],
  ['Support channel', 'channel', 'Channel', 'supportChannel'],
  ['default channel', 'channel', 'Channel', 'defaultChannel'],
  [
    'a very long name that keeps going past thirty characters',
    'group',
    '',
    'aVeryLongNameThatKeepsGoing',
  ],
])('identifierFor(%j) is %s', (name, kind, suffix, expected) => {
  expect(identifierFor(name, kind, suffix)).toBe(expected);
});

test('construct ids are kebab-case and short', () => {
  expect(constructIdFor('Retired team', 'group', '-group')).toBe('retired-team-group');
  expect(constructIdFor('☕', 'channel')).toBe('channel');
  expect(constructIdFor('a very long name that keeps going', 'x').length).toBeLessThanOrEqual(28);
});

test('collisions are suffixed, case-insensitively', () => {
  const a = new NameAllocator();
  expect([a.allocate('team'), a.allocate('team'), a.allocate('Team')]).toEqual([
    'team',
    'team2',
    'Team3',
  ]);
  const ids = new NameAllocator('-');
  expect([ids.allocate('eng'), ids.allocate('eng')]).toEqual(['eng', 'eng-2']);
});

test.each([
  ['plain', "'plain'"],
  ["it's", '"it\'s"'],
  ['say "hi"', '\'say "hi"\''],
  ["it's \"x\" 'y'", '"it\'s \\"x\\" \'y\'"'],
  ['back\\slash', "'back\\\\slash'"],
  ['two\nlines\r\ttab', "'two\\nlines\\r\\ttab'"],
  ['bell\u0007 sep\u2028', "'bell\\u0007 sep\\u2028'"],
  ['Ünïcödé 🚀', "'Ünïcödé 🚀'"],
  ['lone \ud800', "'lone \\ud800'"],
])('quote(%j) is %s, and evaluates back to the text', (text, expected) => {
  expect(quote(text)).toBe(expected);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- checks the literal's value
  expect(new Function(`return ${quote(text)};`)()).toBe(text);
});

test('width counts wide characters and emoji twice', () => {
  expect(width('abc')).toBe(3);
  expect(width('☕')).toBe(2);
  expect(width('👩‍💻')).toBe(2);
  expect(width('é')).toBe(1);
  expect(width('🚀')).toBe(2);
  expect(width('日本')).toBe(4);
});
