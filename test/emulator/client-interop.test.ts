import { startEmulator } from '../../src/emulator';
import { ZulipClient } from '../../src/zulip/client';
import { ZulipCredentials } from '../../src/zulip/credentials';
import { readLiveState } from '../../src/zulip/handlers/read-live-state';

/** The project's own API client reads the emulated organization in two requests. */
describe.each([372, 421, 478])('readLiveState against the emulator at FL %i', (level) => {
  test('reads everything with register + DELETE /events', async () => {
    const z = await startEmulator({ featureLevel: level });
    const client = new ZulipClient({
      credentials: new ZulipCredentials({
        email: z.owner.email,
        apiKey: z.owner.apiKey,
        site: z.site,
      }),
    });
    try {
      const s = await readLiveState(client);
      expect(s.server.featureLevel).toBe(level);
      expect(s.users).toHaveLength(12);
      expect(s.channels.map((c) => c.name).sort()).toEqual([
        'announcements',
        'design',
        'engineering',
        'general',
        'leadership',
        'old-projects',
      ]);
      expect(s.channelFolders).toHaveLength(level >= 389 ? 1 : 0);
      expect(s.linkifiers).toHaveLength(1);
      expect(s.playgrounds).toHaveLength(1);
      expect(s.requestCount).toBe(2);
      expect(z.requestLog.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        'POST /register 200',
        'DELETE /events 200',
      ]);
    } finally {
      await client.close();
      await z.close();
    }
  });
});
