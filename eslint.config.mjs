// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The source folders (layers) below src/, and the layers each may import. */
const LAYERS = {
  model: [],
  synth: ['model'],
  constructs: ['model', 'synth'],
  engine: ['model'],
  import: ['model', 'engine'],
  zulip: ['model'],
  provider: ['model', 'engine', 'zulip'],
  emulator: ['model'],
  // zulip-cdk/testing: the construct library's Testing plus plan and apply on the embedded server.
  testing: ['model', 'synth', 'constructs', 'engine', 'zulip', 'provider', 'emulator'],
  cli: ['model', 'synth', 'constructs', 'engine', 'import', 'zulip', 'provider', 'emulator'],
};

// Layers: arrows point down (cli -> constructs -> synth -> model; cli -> import -> engine ->
// model; cli -> provider -> zulip, engine; emulator -> model). See ARCHITECTURE.md.
const layerBoundaries = Object.entries(LAYERS).flatMap(([layer, allowed]) => {
  const banned = Object.keys(LAYERS).filter((l) => l !== layer && !allowed.includes(l));
  if (banned.length === 0) return [];
  return {
    files: [`src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: banned.flatMap((l) => [`../${l}`, `../${l}/*`, `../../${l}`, `../../${l}/*`]),
              message: `src/${layer} ${allowed.length > 0 ? `may import only ${allowed.join(', ')}` : 'imports no other layer'} (see ARCHITECTURE.md: arrows point down).`,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'cdktf.out/**',
      'zulip.out/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // Only the CLI prints.
    files: ['src/cli/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  ...layerBoundaries,
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
