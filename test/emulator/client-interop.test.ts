import { startEmulator } from '../../src/emulator';
import { ZulipClient } from '../../src/zulip/client';
import { readLiveState } from '../../src/provider/read-live-state';
import { yamlCheck } from './yaml-check';

/** The project's own API client reads the emulated organization in two requests. */
describe.each([372, 421, 478])('readLiveState against the emulator at FL %i', (level) => {
  test('reads everything with register + DELETE /events', async () => {
    const check = yamlCheck();
    const z = await startEmulator({ featureLevel: level, observe: check.observe });
    const client = ZulipClient.forEmbeddedOwner(z);
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
      // Both responses were checked against zulip.yaml.
      expect(check.problems).toEqual([]);
      expect(check.stats.checked).toBe(2);
    } finally {
      await client.close();
      await z.close();
    }
  });
});

describe('the yaml check of emulator responses', () => {
  test('sees successes, Zulip errors and 429s, and reports a body the yaml rejects', async () => {
    const check = yamlCheck();
    const z = await startEmulator({
      rateLimit: false,
      observe: check.observe,
      faults: {
        rules: [{ method: 'GET', path: '/users', nth: 2, kind: 'rate-limit', retryAfter: 0.05 }],
      },
    });
    const client = ZulipClient.forEmbeddedOwner(z);
    try {
      await client.getUsers();
      await client.getUsers(); // the injected 429, waited out and repeated
      await expect(client.getStream(99999)).rejects.toThrow(/Invalid channel ID/);
      expect(z.requestLog.map((e) => e.status)).toEqual([200, 429, 200, 400]);
      expect(check.problems).toEqual([]);
      expect(check.stats.checked).toBe(4);
    } finally {
      await client.close();
      await z.close();
    }
    check.observe({
      method: 'GET',
      path: '/streams',
      status: 200,
      body: { result: 'success', msg: '', streams: [{ stream_id: 'x' }] },
    });
    expect(check.problems).toHaveLength(1);
    expect(check.problems[0]).toMatch(/^GET \/streams → 200 does not match zulip\.yaml/);
  });
});
