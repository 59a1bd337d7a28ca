import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/command';
import { main } from '../../src/cli/main';
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import type { Plan } from '../../src/engine';
import { emptyDesiredState } from '../../src/model';
import type { DesiredState } from '../../src/model';
import { clientFor } from '../support/emulator-client';

/**
 * Issue 15: `plan --base` separates a pull request's changes from drift made by hand in the
 * live organization, and the guards on the blast radius make apply exit 4. Run as a user runs
 * the CLI, against the embedded server with its demo organization.
 */

function capture(cwd: string, env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => {
    const s = new PassThrough();
    s.on('data', (b: Buffer) => sink.push(b.toString()));
    return s;
  };
  const io: CliIo = {
    stdout: stream(out),
    stderr: stream(err),
    stdin: new PassThrough(),
    env,
    cwd,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

const at = (local: string): string => `${local}@zulip-cdk.example`;

function config(o: {
  crew: string[];
  town?: string;
  roles?: Record<string, string>;
}): DesiredState {
  const d = emptyDesiredState('cli');
  d.channels.push({
    path: 'cli/town',
    name: 'town-square',
    description: o.town ?? 'Town',
    permissions: {},
  });
  d.userGroups.push({
    path: 'cli/crew',
    name: 'crew',
    description: 'Crew',
    members: { mode: 'exact', users: o.crew.map(at), groups: [] },
    permissions: { canManageGroup: 'role:administrators' },
  });
  for (const [who, role] of Object.entries(o.roles ?? {}))
    d.users.push({ path: `cli/${who}`, email: at(who), role: role as 'member' });
  return d;
}

describe('zulip-cdk plan --base and the guards (CLI, embedded server)', () => {
  let z: Emulator;
  let env: NodeJS.ProcessEnv;
  let n = 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-base-'));
  const file = (d: DesiredState): string => {
    const p = path.join(dir, `d${++n}.zulip.json`);
    writeFileSync(p, JSON.stringify(d));
    return p;
  };
  const cli = async (args: string[]) => {
    const c = capture(dir, env);
    const extra = args[0] === 'apply' ? ['--journal', path.join(dir, `j${++n}.jsonl`)] : [];
    const code = await main([...args, ...extra], c.io);
    return { code, out: c.out(), err: c.err() };
  };
  const apply = (d: DesiredState, ...flags: string[]) =>
    cli(['apply', '--desired', file(d), '--auto-approve', ...flags]);

  beforeEach(async () => {
    z = await startEmulator({ rateLimit: false });
    env = { ZULIP_EMAIL: z.owner.email, ZULIP_API_KEY: z.owner.apiKey, ZULIP_SITE: z.site };
  });
  afterEach(() => z.close());

  it('plan --base shows a hand change as drift, not as this change; the saved plan applies', async () => {
    const base = config({ crew: ['bob'] });
    expect((await apply(base)).code).toBe(0);
    // By hand, in Zulip: #town-square's description.
    const owner = clientFor(z, 'owner');
    const id = (
      (await owner.get('/get_stream_id', { stream: 'town-square' })).body as {
        stream_id: number;
      }
    ).stream_id;
    expect((await owner.patch(`/streams/${id}`, { description: 'by hand' })).status).toBe(200);

    // The pull request adds carol to crew.
    const head = file(config({ crew: ['bob', 'carol'] }));
    const planFile = path.join(dir, 'plan.json');
    const r = await cli(['plan', '--desired', head, '--base', file(base), '--out', planFile]);
    expect(r.code).toBe(0);
    const change = r.out.indexOf('Changes of this pull request (1):');
    const drift = r.out.indexOf('Drift that applying reverts');
    expect(change).toBeGreaterThan(0);
    expect(drift).toBeGreaterThan(change);
    expect(r.out.slice(change, drift)).toContain('+ carol@zulip-cdk.example');
    expect(r.out.slice(change, drift)).not.toContain('by hand');
    expect(r.out.slice(drift)).toContain('description: "by hand" -> "Town"');

    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
    const town = saved.changes.find((c) => c.id === 'channel["town-square"]#update')!;
    expect(town.origin).toBe('drift');
    const crew = saved.changes.find((c) => c.id === 'userGroup["crew"]#membership')!;
    expect(crew.action === 'membership' && crew.add.map((u) => u.origin)).toEqual(['change']);

    // The digest is the one of the plan without --base: what apply on main pins.
    const plain = await cli(['plan', '--desired', head, '--format', 'json']);
    expect((JSON.parse(plain.out) as Plan).digest).toBe(saved.digest);

    const a = await cli([
      'apply',
      planFile,
      '--expect-digest',
      saved.digest,
      '--verify',
      '--desired',
      head,
    ]);
    expect(a.err).toBe('');
    expect(a.code).toBe(0);
    expect(a.out).toContain('Verified: the next plan is empty.');
  });

  it('members removed from a group: exit 4, unless a flag allows it (on plan or on apply)', async () => {
    expect((await apply(config({ crew: ['alice', 'bob', 'carol', 'dave'] }))).code).toBe(0);
    const fewer = config({ crew: ['alice'] });
    const r = await apply(fewer, '--allow-destroy');
    expect(r.code).toBe(4);
    expect(r.err).toContain('TOO_MANY_MEMBERS_REMOVED');
    expect(r.err).toContain('(at cli/crew)');
    expect(r.err).toContain('the plan removes 3 of the 4 members and subgroups, more than 25%');

    // A plan saved with a looser guard applies; a stricter one on apply refuses it again.
    const planFile = path.join(dir, 'loose.json');
    const p = await cli([
      'plan',
      '--desired',
      file(fewer),
      '--max-members-removed-percent',
      '75',
      '--out',
      planFile,
    ]);
    expect(p.code).toBe(0);
    expect(p.out).not.toContain('Safety findings');
    const strict = await cli(['apply', planFile, '--allow-destroy', '--max-members-removed', '2']);
    expect(strict.code).toBe(4);
    expect(strict.err).toContain('more than the 2 allowed (maxMembersRemoved)');
    const ok = await cli(['apply', planFile, '--allow-destroy']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
  });

  it('privileged changes need --allow-privileged; --force is not enough', async () => {
    const promote = config({ crew: [], roles: { alice: 'administrator' } });
    const refused = await apply(promote, '--force');
    expect(refused.code).toBe(4);
    expect(refused.err).toContain('PRIVILEGED_NOT_ALLOWED');
    expect(refused.err).toContain(
      'alice@zulip-cdk.example would become an organization administrator (is member)',
    );
    expect((await apply(promote, '--allow-privileged')).code).toBe(0);
  });

  it('owners and administrators left: exit 4 below the floor', async () => {
    // Two owners first (a privileged change), then back to one with --min-owners 2.
    expect(
      (await apply(config({ crew: [], roles: { admin: 'owner' } }), '--allow-privileged')).code,
    ).toBe(0);
    const back = config({ crew: [], roles: { admin: 'administrator' } });
    const owners = await apply(back, '--allow-destroy', '--min-owners', '2');
    expect(owners.code).toBe(4);
    expect(owners.err).toContain('TOO_FEW_OWNERS');
    expect((await apply(back, '--allow-destroy')).code).toBe(0);

    // Administrators: the owner, admin and alan; demoting both leaves 1 of 3, under half.
    const demote = config({ crew: [], roles: { admin: 'member', alan: 'member' } });
    const admins = await apply(demote, '--allow-destroy');
    expect(admins.code).toBe(4);
    expect(admins.err).toContain('TOO_FEW_ADMINISTRATORS');
    expect(admins.err).toContain("fewer than 50% of today's 3 (minAdministratorsPercent)");
  });

  it('rejects a guard flag that is not a number', async () => {
    const r = await cli(['plan', '--desired', file(config({ crew: [] })), '--min-owners', 'two']);
    expect(r.code).toBe(1);
    expect(r.err).toContain("--min-owners must be a whole number, got 'two'");
  });
});
