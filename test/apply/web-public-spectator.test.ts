/**
 * Web-public channels in a configuration that turns the organization's spectator access on, on
 * a server that allows web-public channels: Zulip checks `realm.web_public_streams_enabled()`
 * (the server's WEB_PUBLIC_STREAMS_ENABLED and the realm's enable_spectator_access) at each
 * channel request, so the plan makes the organization's change first and is not refused.
 * Found by test/apply/apply-converges-differential.test.ts (seed 3), where the plan refused it
 * ("web-public channels are not enabled on this server").
 */
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { harness, planErrorAs } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
  h.z.org.realm.enableSpectatorAccess = false;
});
afterEach(() => h.close());

function config(spectators: boolean | undefined): DesiredState {
  const d = emptyDesiredState('acme');
  d.channels.push(
    { path: 'acme/open', name: 'open house', webPublic: true, permissions: {} },
    { path: 'acme/general', name: 'general', webPublic: true, permissions: {} },
  );
  d.organization.prune = {};
  if (spectators !== undefined)
    d.organizationSettings.push({
      path: 'acme/settings',
      properties: { enableSpectatorAccess: spectators },
      permissions: {},
    });
  return d;
}

test('turned on with the channels: the organization first, then the channels, converged', async () => {
  const { first, result, after } = await h.converge(config(true));
  const ids = first.changes.map((c) => c.id);
  const org = ids.indexOf('organizationSettings["organization"]#update');
  expect(org).toBeGreaterThanOrEqual(0);
  for (const id of ['channel["open house"]#create', 'channel["general"]#update']) {
    expect(ids.indexOf(id)).toBeGreaterThan(org);
    expect(first.changes.find((c) => c.id === id)?.dependsOn).toContain(ids[org]);
  }
  expect(result.outcome).toBe('applied');
  expect(after.changes).toEqual([]);
  expect(h.z.org.channels.find((c) => c.name === 'open house')?.isWebPublic).toBe(true);
});

test('left off, or off on the server: refused before any request', async () => {
  expect(await planErrorAs(h, config(undefined))).toContain(
    'web-public channels are not enabled on this server',
  );
  expect(await planErrorAs(h, config(false))).toContain(
    'web-public channels are not enabled on this server',
  );
  h.z.org.realm.webPublicStreamsEnabled = false;
  expect(await planErrorAs(h, config(true))).toContain(
    'web-public channels are not enabled on this server',
  );
});
