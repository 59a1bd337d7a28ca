/**
 * Runs in every test file (jest.config.js `setupFilesAfterEnv`). A test that fails between
 * `startEmulator()` and `close()` (an expectation throwing before a `close` that is not in a
 * `finally` or `afterEach`) leaves a listening server; jest runs in band on small machines
 * and would then wait for it forever after the run. Close whatever is left once the file is
 * done, and say so: the test that leaked should close its emulator itself.
 *
 * Every emulator transaction in the tests is also checked against a copy of the whole
 * organization (src/emulator/transaction.ts): a write its rollback would miss fails the test
 * that made it.
 */
import { closeAllEmulators } from '../../src/emulator';
import { checkTransactions, transactionProblems } from '../../src/emulator/transaction';

checkTransactions(true);

afterEach(() => {
  const problems = transactionProblems();
  if (problems.length > 0)
    throw new Error(`emulator transactions the rollback would get wrong:\n${problems.join('\n')}`);
});

afterAll(async () => {
  const left = await closeAllEmulators();
  if (left > 0)
    process.stderr.write(
      `jest-setup: closed ${left} emulator(s) the test file left running (${expect.getState().testPath ?? '?'})\n`,
    );
});
