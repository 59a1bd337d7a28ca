import { App, Channel, Organization, User, UserGroup } from '../src/constructs';

/** One synth: an organization declared as constructs, then synthesized in memory. */
export interface SynthMeasurement {
  /** Resource constructs declared (users, channels, groups). */
  readonly constructs: number;
  /** Declaring them (`new ...`), wall time. */
  readonly constructMs: number;
  /** `app.synth()`: validation and the desired state, wall time. */
  readonly synthMs: number;
  /** CPU of both. */
  readonly cpuMs: number;
  peakRssMb?: number;
}

/**
 * Declares `users` users, a channel per 5 users (5 subscribers each, by e-mail) and a group
 * per 50 users (10 members each), then synthesizes them. Synth validates every construct
 * against its kind's others (duplicate keys, renames, profile fields): the time must grow
 * linearly with the organization, which each construct scanning every other once made
 * quadratic (minutes at 120,000 constructs).
 */
export function measureSynth(users: number, outdir: string): SynthMeasurement {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const app = new App({ outdir });
  const org = new Organization(app, 'acme');
  const email = (i: number): string => `user${i % users}@example.com`;
  for (let i = 0; i < users; i++) new User(org, `u${i}`, { email: email(i), role: 'member' });
  const channels = Math.ceil(users / 5);
  for (let i = 0; i < channels; i++)
    new Channel(org, `c${i}`, {
      name: `channel ${i}`,
      subscribers: { users: Array.from({ length: 5 }, (_, k) => email(5 * i + k)) },
    });
  const groups = Math.ceil(users / 50);
  for (let i = 0; i < groups; i++)
    new UserGroup(org, `g${i}`, {
      name: `group ${i}`,
      members: Array.from({ length: 10 }, (_, k) => email(50 * i + k)),
    });
  const declared = performance.now();
  app.synth();
  const done = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  return {
    constructs: users + channels + groups,
    constructMs: declared - started,
    synthMs: done - declared,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
