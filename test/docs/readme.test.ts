import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DesiredStateSchema } from '../../src/model';

const root = path.resolve(__dirname, '../..');

/** The README is the front door: its example must keep working as the library changes. */
describe('README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('gives the two set-up commands and the test command', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('has an example that synthesizes a valid desired state', () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    // Inside the repository, so 'zulip-cdk' resolves through tsconfig paths as in the examples.
    const file = path.join(root, 'zulip.out', `readme-example-${process.pid}.ts`);
    const out = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-readme-'));
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, block!);
      execFileSync(process.execPath, [require.resolve('tsx/cli'), file], {
        cwd: root,
        env: { ...process.env, ZULIP_CDK_OUTDIR: out },
        stdio: 'pipe',
      });
      const state = DesiredStateSchema.parse(
        JSON.parse(readFileSync(path.join(out, 'acme.zulip.json'), 'utf8')),
      );
      expect(state.channels.map((c) => c.name)).toEqual(['backend']);
      expect(state.channels[0]?.folder).toBe('Engineering');
      expect(state.channels[0]?.permissions.canResolveTopicsGroup).toBe('backend');
      expect(state.linkifiers).toHaveLength(1);
    } finally {
      rmSync(file, { force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
