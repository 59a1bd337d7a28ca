import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, DesiredStateSchema, Testing, readManifest } from 'zulip-cdk';
import { acme } from '../../examples/acme/organization';

function synthToDir(): string {
  const outdir = mkdtempSync(join(tmpdir(), 'zulip-cdk-example-'));
  const app = new App({ outdir });
  acme(app);
  app.synth();
  return outdir;
}

describe('the acme example', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('synthesizes to the reviewed desired state (snapshot)', () => {
    const org = acme(Testing.app());
    const state = Testing.synth(org);
    expect(DesiredStateSchema.parse(state)).toEqual(state);
    expect(Testing.synthJson(org)).toMatchSnapshot();
  });

  test('two synths are byte-identical; the file is the in-memory state; a manifest lists it', () => {
    const a = synthToDir();
    const b = synthToDir();
    dirs.push(a, b);
    expect(readdirSync(a).sort()).toEqual(['acme.zulip.json', 'zulip-cdk.manifest.json']);
    for (const f of readdirSync(a)) {
      expect(readFileSync(join(b, f))).toEqual(readFileSync(join(a, f)));
    }
    const text = readFileSync(join(a, 'acme.zulip.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain(tmpdir());
    expect(text).toBe(Testing.synthJson(acme(Testing.app())));
    expect(readManifest(a)).toEqual({
      formatVersion: 1,
      organizations: [{ id: 'acme', path: 'acme', file: 'acme.zulip.json' }],
    });
  });

  test('reads like the organization: teams, private leadership, folders in order', () => {
    const s = Testing.synth(acme(Testing.app()));
    expect(s.channelFolders.map((f) => f.name)).toEqual(['Company', 'Engineering', 'Support']);
    const leadership = s.channels.find((c) => c.name === 'leadership');
    expect(leadership).toMatchObject({
      private: true,
      subscribers: { mode: 'exact', groups: ['leadership'], users: [] },
      lifecycle: { protect: true },
    });
    const engineering = s.userGroups.find((g) => g.name === 'engineering');
    expect(engineering?.members.groups).toEqual(['backend', 'frontend', 'platform']);
    expect(s.users.filter((u) => u.role === 'owner')).toHaveLength(1);
  });

  test('several organizations in one app, stale files removed', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'zulip-cdk-multi-'));
    dirs.push(outdir);
    const app1 = new App({ outdir });
    acme(app1, 'staging');
    acme(app1, 'production');
    app1.synth();
    expect(readdirSync(outdir).sort()).toEqual([
      'production.zulip.json',
      'staging.zulip.json',
      'zulip-cdk.manifest.json',
    ]);
    const app2 = new App({ outdir });
    acme(app2, 'production');
    app2.synth();
    expect(readdirSync(outdir).sort()).toEqual([
      'production.zulip.json',
      'zulip-cdk.manifest.json',
    ]);
  });
});
