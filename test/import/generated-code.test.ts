/**
 * The generated code as a reviewer sees it: it type-checks under the repo's strict options,
 * passes the repo's ESLint configuration (type-checked rules), is already formatted as prettier
 * would format it, is deterministic, and reads like the examples (snapshot of the demo).
 */
import { FEATURE_LEVELS } from '../../src/model/features';
import { generateApp } from '../../src/import';
import type { GeneratedApp } from '../../src/import';
import type { LiveState } from '../../src/model/live-state';
import { lint, prettierDiffs, readEmbedded, typeErrors, writeApp } from './harness';
import { randomOrg } from './random-org';

let demo: LiveState;
let random: LiveState;
let demoApp: GeneratedApp;
let randomApp: GeneratedApp;
let randomSingle: GeneratedApp;

beforeAll(async () => {
  demo = await readEmbedded({ featureLevel: FEATURE_LEVELS.newest });
  random = await readEmbedded({
    featureLevel: FEATURE_LEVELS.newest,
    state: randomOrg(1, FEATURE_LEVELS.newest),
  });
  demoApp = generateApp(demo);
  randomApp = generateApp(random);
  randomSingle = generateApp(random, { layout: 'single', subscribers: 'all' });
});

test('the demo organization is one main.ts, as in the snapshot', () => {
  expect(Object.keys(demoApp.files)).toEqual(['main.ts']);
  expect(demoApp.files['main.ts']).toMatchSnapshot();
});

test('a large organization is one file per kind, main.ts wiring them', () => {
  expect(Object.keys(randomApp.files).sort()).toEqual([
    'allowed-domains.ts',
    'channels.ts',
    'custom-profile-fields.ts',
    'default-channel-groups.ts',
    'default-user-settings.ts',
    'groups.ts',
    'linkifiers.ts',
    'main.ts',
    'organization-settings.ts',
    'playgrounds.ts',
    'saved-snippets.ts',
    'subscription-settings.ts',
    'users.ts',
  ]);
  const main = randomApp.files['main.ts']!;
  expect(main).toContain('const groups = declareUserGroups(org);');
  expect(main).toContain('app.synth();');
  // Channels refer to groups through the groups file's result, never by ID.
  expect(randomApp.files['channels.ts']).toMatch(/groups\.[a-zA-Z0-9]+/);
});

test('output is deterministic', () => {
  expect(generateApp(random)).toEqual(randomApp);
  expect(generateApp(demo)).toEqual(demoApp);
});

test.each([
  ['demo', () => demoApp],
  ['random, split', () => randomApp],
  ['random, single file', () => randomSingle],
])('%s: already formatted as prettier formats it', (_name, get) => {
  expect(prettierDiffs(writeApp(get().files))).toEqual([]);
});

test.each([
  ['demo', () => demoApp],
  ['random, split', () => randomApp],
  ['random, single file', () => randomSingle],
])('%s: type-checks with the strict options and lints clean', (_name, get) => {
  const dir = writeApp(get().files);
  expect(typeErrors(dir)).toEqual([]);
  const result = lint(dir);
  expect(result.output).toBe('');
  expect(result.status).toBe(0);
});

test('strings and lists around the print width are formatted as prettier does', () => {
  const live = structuredClone(random);
  const quoted = ["'", '"', '☕', '🚀', 'é', '\\', '\n', '日'];
  live.channels.forEach((c, i) => {
    const filler = 'x'.repeat(60 + (i % 50));
    c.description = `${filler}${quoted[i % quoted.length] ?? ''}${i}`;
  });
  live.userGroups
    .filter((g) => !g.isSystemGroup)
    .forEach((g, i) => {
      g.description = `${'y'.repeat(70 + i)}${quoted[i % quoted.length] ?? ''}`;
    });
  live.linkifiers.forEach((l, i) => {
    l.urlTemplate = `https://${'z'.repeat(50 + i * 7)}.example.com/{${
      /\(\?P<(\w+)>/.exec(l.pattern)?.[1] ?? 'id'
    }}`;
  });
  for (const layout of ['single', 'split'] as const) {
    const files = generateApp(live, { layout, subscribers: 'all' }).files;
    expect(prettierDiffs(writeApp(files))).toEqual([]);
  }
});

test('the formatting check notices unformatted code', () => {
  expect(prettierDiffs(writeApp({ 'main.ts': 'const  x = {a:1};\nvoid x;\n' }))).toHaveLength(1);
});

test('names: camelCase, reserved words, leading digits, collisions; strings escaped', () => {
  const files = randomSingle.files['main.ts']!;
  expect(files).toContain("const cafeCrew = new UserGroup(org, 'cafe-crew-group', {");
  expect(files).toContain('const classGroup = new UserGroup(');
  expect(files).toContain('const group2024Plans = new UserGroup(');
  // A name that already says what it is gets no suffix: 'channel 2', not 'channel2Channel'.
  expect(files).toMatch(/const channel\d+ = new Channel\(/);
  expect(files).not.toMatch(/const \w*(folder\w*Folder|channel\w*Channel) = /i);
  expect(files).toContain("name: 'back\\\\slash',");
  expect(files).toContain("name: 'it\\'s \"quoted\"',");
  expect(files).toContain("content: 'Welcome!\\nRead #**general** first.\\n\\n— the team',");
});
