import { main } from '../../src/cli/main';
import { fakeIo } from '../support/fake-io';

describe('zulip-cdk main', () => {
  it('loads every command lazily and shows its usage', async () => {
    for (const name of [
      'emulator',
      'synth',
      'plan',
      'snapshot',
      'apply',
      'import',
      'demo',
      'watch',
    ]) {
      const io = fakeIo();
      expect(await main([name, '--help'], io)).toBe(0);
      expect(io.out()).toContain(`zulip-cdk ${name}`);
    }
  });

  it('rejects an unknown command and an unknown flag with exit code 1', async () => {
    const io = fakeIo();
    expect(await main(['nope'], io)).toBe(1);
    expect(io.err()).toContain("unknown command 'nope'");
    const io2 = fakeIo();
    expect(await main(['synth', '--bogus'], io2)).toBe(1);
    expect(io2.err()).toMatch(/bogus/);
  });

  it('prints its version', async () => {
    const io = fakeIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^zulip-cdk \d+\.\d+\.\d+/);
  });
});
