import type { Command } from '../command';

/**
 * Every command, loaded lazily so `zulip-cdk --version` does not load the engine.
 * Add one line per command.
 */
const LOADERS = {
  emulator: async () => (await import('./emulator.js')).emulatorCommand,
  plan: async () => (await import('./plan.js')).planCommand,
  synth: async () => (await import('./synth.js')).synthCommand,
  snapshot: async () => (await import('./snapshot.js')).snapshotCommand,
  apply: async () => (await import('./apply.js')).applyCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  import: async () => (await import('./import.js')).importCommand,
  watch: async () => (await import('./watch.js')).watchCommand,
} satisfies Record<string, () => Promise<Command>>;

/** A command's name. */
export type CommandName = keyof typeof LOADERS;

export const COMMANDS: Record<string, () => Promise<Command>> = LOADERS;

/** What each command does, in one line, for `zulip-cdk --help` (without loading it). */
export const SUMMARIES: Record<CommandName, string> = {
  demo: 'plan and apply the example organization against a fresh embedded server',
  synth: "run the app and write each organization's desired state (*.zulip.json)",
  plan: 'read the organization, diff it against the configuration and show the plan',
  apply: 'apply a saved plan (or plan and apply), with optimistic checks and a journal',
  import: 'write a construct app from an existing organization',
  snapshot: 'read the organization and save it as JSON (no secrets)',
  watch: 'follow the organization and report drift from the configuration as it happens',
  emulator: 'run the embedded Zulip server with a demo organization',
};
