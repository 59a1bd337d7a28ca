import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { plan } from '../../src/engine';
import { emptyDesiredState, LiveStateSchema } from '../../src/model';
import { ZulipClient, ZulipCredentials } from '../../src/zulip';
import { readLiveState } from '../../src/zulip/handlers/read-live-state';
import { dChannel, dGroup } from './fixtures';

describe.each([372, 421, 478])('readLiveState against the embedded server (FL %i)', (level) => {
  let z: Emulator;
  let client: ZulipClient;
  beforeAll(async () => {
    z = await startEmulator({ featureLevel: level, rateLimit: false });
    client = new ZulipClient({
      credentials: new ZulipCredentials({
        email: z.owner.email,
        apiKey: z.owner.apiKey,
        site: z.site,
      }),
    });
  });
  afterAll(async () => {
    await client.close();
    await z.close();
  });

  it('reads the whole organization in two requests (register + delete queue)', async () => {
    const requestsBefore = z.requestLog.length;
    const live = await readLiveState(client);
    expect(LiveStateSchema.parse(live)).toEqual(live);
    expect(live.requestCount).toBe(2);
    expect(z.requestLog.slice(requestsBefore).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /register',
      'DELETE /events',
    ]);
    expect(live.server.featureLevel).toBe(level);
    expect(live.me.email).toBe(z.owner.email);
    expect(live.userGroups.filter((g) => g.isSystemGroup)).toHaveLength(8);
    expect(live.channels.length).toBe(z.org.channels.length);
    expect(live.channels.every((c) => c.subscribers !== null)).toBe(true);
    expect(live.users.length).toBe(z.org.users.length);
  });

  it('objects created with defaults plan as unchanged when declared with only their names', async () => {
    const me = (await readLiveState(client)).me.userId;
    await client.createUserGroup({ name: `plain-${level}`, description: '', members: [] });
    if (level >= 417) await client.createChannel({ name: `plain-${level}`, subscribers: [me] });
    else await client.subscribe({ subscriptions: [{ name: `plain-${level}` }] });
    const live = await readLiveState(client);
    const d = emptyDesiredState('acme');
    d.userGroups.push(
      dGroup(`plain-${level}`, { members: { mode: 'exact', users: [], groups: [] } }),
    );
    d.channels.push(dChannel(`plain-${level}`));
    const p = plan(d, live);
    expect(p.changes).toEqual([]);
    // Everything else in the demo organization is undeclared: warned about, not removed.
    expect(p.warnings.every((w) => w.code === 'UNDECLARED')).toBe(true);
  });
});
