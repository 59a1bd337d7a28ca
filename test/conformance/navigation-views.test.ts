/**
 * Conformance: the `name` of a navigation view (FL 390+), as zerver/views/navigation_views.py
 * `add_navigation_view` and `update_navigation_view` declare it:
 * `Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)] | None`. typed_endpoint
 * strips it and words a stripped-empty value "name cannot be blank"
 * (`parse_value_for_parameter`, `string_too_short` with min_length 1), before the view runs.
 * The cases vary the requests of zerver/tests/test_navigation_views.py NavigationViewTests
 * (ported in messages-presence.test.ts); hamlet → alice.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let alice: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  alice = clientFor(z, 'alice');
});
afterEach(() => z.close());

const views = async (): Promise<Record<string, unknown>[]> =>
  (await alice.get('/navigation_views')).body.navigation_views as Record<string, unknown>[];

describe('NavigationViewTests.test_add_navigation_view: a blank name', () => {
  it.each([
    ['a custom view (not "Custom views must have a valid name.")', 'narrow/view', '   '],
    ['a built-in view (not "Built-in views cannot have a custom name.")', 'recent', ''],
  ])('%s: "name cannot be blank"', async (_what, fragment, name) => {
    expectError(
      await alice.post('/navigation_views', { fragment, is_pinned: true, name }),
      'name cannot be blank',
    );
    expect(await views()).toEqual([]);
  });

  it('the parameters in order: fragment, is_pinned, then name', async () => {
    expectError(
      await alice.post('/navigation_views', { fragment: ' ', is_pinned: true, name: ' ' }),
      'fragment cannot be blank',
    );
    expectError(
      await alice.post('/navigation_views', { fragment: 'narrow/view', is_pinned: 1, name: ' ' }),
      'is_pinned is not a boolean',
    );
  });

  it('the name is stripped', async () => {
    expectSuccess(
      await alice.post('/navigation_views', {
        fragment: 'narrow/view',
        is_pinned: true,
        name: '  foo  ',
      }),
    );
    expect(await views()).toEqual([{ fragment: 'narrow/view', is_pinned: true, name: 'foo' }]);
  });
});

describe('NavigationViewTests.test_update_navigation_view: a blank name', () => {
  it('"name cannot be blank" before the view is looked up or its kind checked', async () => {
    expectSuccess(
      await alice.post('/navigation_views', {
        fragment: 'narrow/is/alerted',
        is_pinned: true,
        name: 'Alert Words',
      }),
    );
    for (const fragment of ['narrow/is/alerted', 'inbox', 'nonexistent'])
      expectError(
        await alice.patch(`/navigation_views/${fragment}`, { is_pinned: false, name: '  ' }),
        'name cannot be blank',
      );
    expect(await views()).toEqual([
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' },
    ]);
  });
});
