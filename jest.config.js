/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Closes the emulators a failed test left running (see the file), so that jest exits.
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  transform: {
    // Tests compile to CommonJS so that the CLI's lazy `import()` of commands becomes
    // `require` (jest cannot run native dynamic import without VM modules).
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          ...require('./tsconfig.json').compilerOptions,
          module: 'commonjs',
          moduleResolution: 'node10',
          isolatedModules: true,
        },
      },
    ],
  },
  moduleNameMapper: {
    '^zulip-cdk$': '<rootDir>/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30000,
};
