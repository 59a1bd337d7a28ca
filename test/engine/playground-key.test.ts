/**
 * A code playground's address (src/model/address.ts `playgroundKey`): Zulip's uniqueness is
 * (realm, pygments_language, name) (zerver/models/realm_playgrounds.py), and both may contain
 * `/`, so the key escapes the language's `\` and `/`. (`HTML+Django/Jinja`, `Tutor`) and
 * (`HTML+Django`, `Jinja/Tutor`) are two playgrounds, with two addresses.
 */
import { CodePlayground, Organization } from '../../src/constructs';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { plan } from '../../src/engine';
import { playgroundKey, resourceAddress } from '../../src/model';
import { readLiveState } from '../../src/provider/read-live-state';
import { Testing } from '../../src/testing';
import { ZulipClient } from '../../src/zulip';

const JINJA = { pygmentsLanguage: 'HTML+Django/Jinja', name: 'Tutor' };
const DJANGO = { pygmentsLanguage: 'HTML+Django', name: 'Jinja/Tutor' };
const template = (host: string): string => `https://${host}.example.com/?code={code}`;

test('a language without / or \\ keeps its key as it was', () => {
  expect(playgroundKey({ pygmentsLanguage: 'python', name: 'Python Tutor' })).toBe(
    'python/Python Tutor',
  );
  expect(playgroundKey({ pygmentsLanguage: 'c++', name: 'a/b' })).toBe('c++/a/b');
});

test("the language's / and \\ are escaped, so the first unescaped / ends it", () => {
  expect(playgroundKey(JINJA)).toBe('HTML+Django\\/Jinja/Tutor');
  expect(playgroundKey(DJANGO)).toBe('HTML+Django/Jinja/Tutor');
  expect(playgroundKey({ pygmentsLanguage: 'a\\', name: '/b' })).not.toBe(
    playgroundKey({ pygmentsLanguage: 'a', name: '\\/b' }),
  );
  expect(resourceAddress('playground', playgroundKey(JINJA))).toBe(
    'playground["HTML+Django\\\\/Jinja/Tutor"]',
  );
});

describe('two playgrounds whose language/name once read alike', () => {
  let z: Emulator;
  let client: ZulipClient;
  beforeAll(async () => {
    z = await startEmulator({ rateLimit: false });
    client = ZulipClient.forEmbeddedOwner(z);
  });
  afterAll(async () => {
    await client.close();
    await z.close();
  });

  function org(
    declared: readonly { pygmentsLanguage: string; name: string; host: string }[],
  ): Organization {
    const o = new Organization(Testing.app(), 'acme', { prune: { playground: true } });
    new CodePlayground(o, 'tutor', {
      name: 'Python Tutor',
      pygmentsLanguage: 'python',
      urlTemplate: 'https://pythontutor.com/visualize.html#code={code}',
    });
    for (const [i, { host, ...p }] of declared.entries()) {
      new CodePlayground(o, `p${i}`, { ...p, urlTemplate: template(host) });
    }
    return o;
  }

  it('synthesizes both, creates both, and converges', async () => {
    const both = org([
      { ...JINJA, host: 'jinja' },
      { ...DJANGO, host: 'django' },
    ]);
    const { plan: made, converged } = await Testing.planAndApply(both, { emulator: z });
    expect(made.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
      'create playground["HTML+Django/Jinja/Tutor"]',
      'create playground["HTML+Django\\\\/Jinja/Tutor"]',
    ]);
    expect(converged).toBe(true);
    expect(
      z.org.playgrounds.map((p) => [p.pygmentsLanguage, p.name, p.urlTemplate]).slice(1),
    ).toEqual([
      [DJANGO.pygmentsLanguage, DJANGO.name, template('django')],
      [JINJA.pygmentsLanguage, JINJA.name, template('jinja')],
    ]);
  });

  it('replaces, prunes and targets the one it names', async () => {
    const live = await readLiveState(client);
    const desired = Testing.synth(org([{ ...DJANGO, host: 'changed' }]));
    const summary = (p: ReturnType<typeof plan>): string[] =>
      p.changes.map((c) => `${c.action} ${c.address}`);
    expect(summary(plan(desired, live))).toEqual([
      'replace playground["HTML+Django/Jinja/Tutor"]',
      'delete playground["HTML+Django\\\\/Jinja/Tutor"]',
    ]);
    expect(
      summary(plan(desired, live, { targets: ['playground["HTML+Django\\\\/Jinja/Tutor"]'] })),
    ).toEqual(['delete playground["HTML+Django\\\\/Jinja/Tutor"]']);
    expect(
      summary(plan(desired, live, { targets: ['playground["HTML+Django/Jinja/Tutor"]'] })),
    ).toEqual(['replace playground["HTML+Django/Jinja/Tutor"]']);
  });
});
