/**
 * Import of custom emoji: the generated code names each active emoji's image in `emoji/`, the
 * images are downloaded as uploaded (`<source_url>.original`), and the plan of the imported code
 * against the same organization is empty. Deactivated emoji are not declared.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hasChanges, plan } from '../../src/engine';
import { startEmulator } from '../../src/emulator';
import { generateApp } from '../../src/import';
import { readLiveState } from '../../src/provider/read-live-state';
import { ZulipClient } from '../../src/zulip';
import { synthInProcess, typeErrors, writeApp } from './harness';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

test.each([372, 421, 478])('custom emoji round-trip at feature level %i', async (level) => {
  const z = await startEmulator({ rateLimit: false, featureLevel: level });
  const client = ZulipClient.forEmbeddedOwner(z);
  try {
    const png = { field: 'f', filename: 'a.png', contentType: 'image/png', bytes: PNG };
    await client.uploadEmoji('shipit', png);
    await client.uploadEmoji('old_logo', png);
    await client.deactivateEmoji('old_logo');
    await client.uploadEmoji('party-parrot', {
      field: 'f',
      filename: 'p.gif',
      contentType: 'image/gif',
      bytes: GIF,
    });
    const live = await readLiveState(client);
    expect(live.customEmoji.map((e) => [e.name, e.deactivated, e.image?.size ?? null])).toEqual([
      ['shipit', false, PNG.length],
      ['old_logo', true, null],
      ['party-parrot', false, GIF.length],
    ]);
    const app = generateApp(live, { orgId: 'emoji' });
    expect(app.counts.customEmoji).toBe(2);
    expect(app.assets.map((a) => a.file)).toEqual(['emoji/party-parrot.gif', 'emoji/shipit.png']);
    const dir = writeApp(app.files);
    mkdirSync(path.join(dir, 'emoji'));
    for (const a of app.assets)
      writeFileSync(path.join(dir, a.file), await client.downloadFile(a.url, 1 << 20));
    expect(typeErrors(dir)).toEqual([]);
    const [desired] = synthInProcess(dir);
    if (!desired) throw new Error('no desired state');
    expect(desired.customEmoji.map((e) => e.name)).toEqual(['party-parrot', 'shipit']);
    const p = plan(desired, await readLiveState(client));
    expect(p.changes.map((c) => c.address)).toEqual([]);
    expect(hasChanges(p)).toBe(false);
  } finally {
    await client.close();
    await z.close();
  }
});
