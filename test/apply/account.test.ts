/**
 * What Zulip refuses the applying account whatever the object, against the embedded server: an
 * administrator bot's plan with a user-group change fails before any request that writes, and
 * the server refuses that very request the same way (zerver/decorator.py
 * `require_member_or_admin`), so without the plan's check apply would stop at it.
 */
import { ZulipCdkError } from '../../src/model/errors';
import { ROLES } from '../../src/model/kinds';
import { ZulipClient, ZulipCredentials } from '../../src/zulip';
import { readLiveState } from '../../src/provider/read-live-state';
import { plan } from '../../src/engine';
import { DEMO_DOMAIN } from '../../src/emulator/seed';
import { desired, dGroup } from '../engine/fixtures';
import { clientFor, expectError } from '../support/emulator-client';
import { harness } from './helpers';
import type { Harness } from './helpers';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(() => h.close());

const BOT = `deploy-bot@${DEMO_DOMAIN}`;

function botClient(): ZulipClient {
  const bot = h.z.org.users.find((u) => u.email === BOT)!;
  return new ZulipClient({
    credentials: new ZulipCredentials({ email: bot.email, apiKey: bot.apiKey, site: h.z.site }),
  });
}

test('an administrator bot: the plan refuses a new group, as the server would', async () => {
  h.z.org.users.find((u) => u.email === BOT)!.role = ROLES.administrator;
  const d = desired((x) => x.userGroups.push(dGroup('ops')));
  const client = botClient();
  try {
    const live = await readLiveState(client);
    const before = h.z.requestLog.length;
    let error: unknown;
    try {
      plan(d, live, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZulipCdkError);
    expect((error as ZulipCdkError).message).toContain(
      'userGroup["ops"] (acme/ops): Zulip refuses user-group changes from a bot ("This endpoint does not accept bot requests."), whatever its role, and the applying account deploy-bot@',
    );
    expect(h.z.requestLog.length).toBe(before);
    // The request the plan would have led to, refused by the server.
    expectError(
      await clientFor(h.z, 'deploy-bot').post('/user_groups/create', {
        name: 'ops',
        description: '',
        members: '[]',
      }),
      'This endpoint does not accept bot requests.',
    );
    // The owner plans it.
    const p = plan(d, await readLiveState(h.client), {});
    expect(p.changes.map((c) => c.id)).toContain('userGroup["ops"]#create');
  } finally {
    await client.close();
  }
});
