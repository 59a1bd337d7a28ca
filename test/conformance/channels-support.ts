/**
 * Shared setup of the channel conformance cases (ports of Zulip's test_subs.py StreamAdminTest,
 * test_channel_creation.py, test_channel_permissions.py and test_channel_access.py): a demo
 * emulator per case, lookups by name, and the channel notices Notification Bot posted.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import type {
  StoredChannel,
  StoredGroup,
  StoredMessage,
  StoredUser,
} from '../../src/emulator/state';
import { clientFor, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

/** One emulator (demo organization) per case. */
export class World {
  public constructor(public readonly z: Emulator) {}

  public static async start(featureLevel?: number): Promise<World> {
    const z = await startEmulator({
      rateLimit: false,
      ...(featureLevel === undefined ? {} : { featureLevel }),
    });
    return new World(z);
  }

  public as(local: string): TestClient {
    return clientFor(this.z, local);
  }

  public user(local: string): StoredUser {
    return this.z.org.users.find((u) => u.email.startsWith(`${local}@`))!;
  }

  public group(name: string): StoredGroup {
    return this.z.org.groups.find((g) => g.name === name)!;
  }

  public ch(name: string): StoredChannel {
    return this.z.org.channels.find((c) => c.name === name)!;
  }

  public byId(id: number): StoredChannel {
    return this.z.org.channels.find((c) => c.id === id)!;
  }

  /** `@_**Full Name|id**`, Zulip's silent mention. */
  public mention(local: string): string {
    const u = this.user(local);
    return `@_**${u.fullName}|${u.id}**`;
  }

  /** The notices Notification Bot posted into a channel, oldest first. */
  public notices(channelId: number): StoredMessage[] {
    const bot = this.z.org.notificationBotId;
    return (this.z.org.messages ?? []).filter(
      (m) => m.channelId === channelId && bot !== undefined && m.senderId === bot,
    );
  }

  /** The last notice's content in a channel. */
  public lastNotice(channelId: number): string | undefined {
    return this.notices(channelId).at(-1)?.content;
  }

  /** Creates a channel as the owner (POST /channels/create), subscribing the given users. */
  public async create(
    name: string,
    opts: { private?: boolean; subscribers?: string[]; extra?: Record<string, unknown> } = {},
  ): Promise<number> {
    const res = await this.as('owner').post('/channels/create', {
      name,
      subscribers: (opts.subscribers ?? ['owner']).map((l) => this.user(l).id),
      invite_only: opts.private ?? false,
      ...opts.extra,
    });
    expectSuccess(res);
    const id = res.body.id as number;
    // Like Zulip's test helper make_stream, which creates a channel without the view's
    // "channel created" notice: the cases count the notices of their own changes.
    if (this.z.org.messages)
      this.z.org.messages = this.z.org.messages.filter((m) => m.channelId !== id);
    return id;
  }

  /** Subscribes users (as the owner, by principals), like Zulip's test helper `subscribe`. */
  public async subscribe(channelId: number, ...locals: string[]): Promise<void> {
    expectSuccess(
      await this.as('owner').post('/users/me/subscriptions', {
        subscriptions: [{ name: this.byId(channelId).name }],
        principals: locals.map((l) => this.user(l).id),
      }),
    );
  }

  /** Unsubscribes users (as the owner, by principals). */
  public async unsubscribe(channelId: number, ...locals: string[]): Promise<void> {
    expectSuccess(
      await this.as('owner').delete('/users/me/subscriptions', {
        subscriptions: [this.byId(channelId).name],
        principals: locals.map((l) => this.user(l).id),
      }),
    );
  }

  public close(): Promise<void> {
    return this.z.close();
  }
}
