import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../command';
import type { Command } from '../command';
import { LIVE_SOURCE_OPTIONS, loadLiveState } from '../plan-sources';

/** `zulip-cdk snapshot`: export the live organization for planning without credentials. */
export const snapshotCommand: Command = {
  name: 'snapshot',
  summary: 'Export the live organization (no secrets) for `plan --live FILE`',
  usage: `usage: zulip-cdk snapshot --out FILE [--zuliprc PATH | --embedded]

Reads the live organization and writes it as JSON. The file holds no secrets (no API keys,
no messages), so a pull request from a fork can be planned against it without credentials:
\`zulip-cdk plan --live FILE\`.

  --out FILE       where to write the snapshot ('-' for stdout)
  --zuliprc PATH   credentials (default: ZULIP_EMAIL/ZULIP_API_KEY/ZULIP_SITE, then
                   ZULIP_CONFIG, then ~/.zuliprc)
  --embedded       snapshot a fresh embedded server with the demo organization
`,
  options: {
    out: { type: 'string' },
    zuliprc: LIVE_SOURCE_OPTIONS.zuliprc,
    embedded: LIVE_SOURCE_OPTIONS.embedded,
  },
  async run({ values, io }) {
    if (typeof values.out !== 'string') throw new UsageError('--out FILE is required');
    const live = await loadLiveState(values, io);
    // The request count describes this read, not the organization: keep it out of the file.
    const { requestCount: _requestCount, ...state } = live;
    const json = JSON.stringify(state, null, 2) + '\n';
    if (values.out === '-') {
      io.stdout.write(json);
      return 0;
    }
    const file = path.resolve(io.cwd, values.out);
    await writeFile(file, json);
    io.stderr.write(
      `Wrote ${file}: ${state.channels.length} channels, ${state.userGroups.length} groups, ${state.users.length} users.\n`,
    );
    return 0;
  },
};
