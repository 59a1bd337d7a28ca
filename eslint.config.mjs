// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  // Layers: arrows point down (cli -> constructs -> synth -> model; cli -> import -> engine -> model;
  // cli -> zulip -> engine; emulator -> model).
  {
    files: ['src/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../synth/*',
                '../../synth/*',
                '../synth',
                '../../synth',
                '../engine/*',
                '../../engine/*',
                '../engine',
                '../../engine',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message: 'src/model imports no other layer (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../synth/*',
                '../../synth/*',
                '../synth',
                '../../synth',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message: 'src/engine may import only model (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../synth/*',
                '../../synth/*',
                '../synth',
                '../../synth',
                '../engine/*',
                '../../engine/*',
                '../engine',
                '../../engine',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message:
                'src/emulator may import only model (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/import/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../synth/*',
                '../../synth/*',
                '../synth',
                '../../synth',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message:
                'src/import may import only model, engine (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/zulip/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../synth/*',
                '../../synth/*',
                '../synth',
                '../../synth',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../engine/*',
                '../../engine/*',
                '../engine',
                '../../engine',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message:
                'src/zulip (the HTTP client and wire schemas) may import only model (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/constructs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../engine/*',
                '../../engine/*',
                '../engine',
                '../../engine',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message:
                'src/constructs may import only model, synth (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/synth/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../../cli/*',
                '../cli',
                '../../cli',
                '../engine/*',
                '../../engine/*',
                '../engine',
                '../../engine',
                '../zulip/*',
                '../../zulip/*',
                '../zulip',
                '../../zulip',
                '../emulator/*',
                '../../emulator/*',
                '../emulator',
                '../../emulator',
                '../import/*',
                '../../import/*',
                '../import',
                '../../import',
                '../constructs/*',
                '../../constructs/*',
                '../constructs',
                '../../constructs',
                '../provider/*',
                '../../provider/*',
                '../provider',
                '../../provider',
              ],
              message: 'src/synth may import only model (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/provider/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../cli/*',
                '../cli',
                '../constructs/*',
                '../constructs',
                '../synth/*',
                '../synth',
                '../emulator/*',
                '../emulator',
                '../import/*',
                '../import',
              ],
              message:
                'src/provider may import only model, engine and zulip (see ARCHITECTURE.md: arrows point down).',
            },
          ],
        },
      ],
    },
  },
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
