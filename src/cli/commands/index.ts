import type { Command } from '../command';

/**
 * Every command, loaded lazily so `zulip-cdk --version` does not load the engine.
 * Add one line per command.
 */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  emulator: async () => (await import('./emulator.js')).emulatorCommand,
  plan: async () => (await import('./plan.js')).planCommand,
  synth: async () => (await import('./synth.js')).synthCommand,
  snapshot: async () => (await import('./snapshot.js')).snapshotCommand,
  apply: async () => (await import('./apply.js')).applyCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  import: async () => (await import('./import.js')).importCommand,
  watch: async () => (await import('./watch.js')).watchCommand,
};
