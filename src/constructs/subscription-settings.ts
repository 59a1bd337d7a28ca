import type { Construct } from 'constructs';
import { SubscriptionSettingsSchema, subscriptionPropertyNames } from '../model/desired-state';
import type { DesiredSubscriptionSettings } from '../model/desired-state';
import type { SubscriptionSettingsProperty } from '../model/ignorable';
import { isHexColor } from '../model/rules';
import type { Channel } from './channel';
import { definedProps, propsSchema, resourceRefSchema } from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/**
 * Props of {@link SubscriptionSettings}. No `renamedFrom`: the settings follow their channel (a
 * renamed channel says so with its own `renamedFrom`).
 */
export interface SubscriptionSettingsProps extends Omit<
  ResourceOptions<SubscriptionSettingsProperty>,
  'renamedFrom'
> {
  /** The channel (the applying account must be subscribed to it). */
  readonly channel: Channel;
  /**
   * The channel's colour in the sidebar, `#rgb` or `#rrggbb`.
   * @default - left as it is
   */
  readonly color?: string;
  /**
   * Mute the channel.
   * @default - left as it is
   */
  readonly isMuted?: boolean;
  /**
   * Pin the channel to the top of the sidebar.
   * @default - left as it is
   */
  readonly pinToTop?: boolean;
  /**
   * Desktop notifications for every message.
   * @default - left as it is (following the user's global setting)
   */
  readonly desktopNotifications?: boolean;
  /**
   * Sound for every message.
   * @default - left as it is (following the user's global setting)
   */
  readonly audibleNotifications?: boolean;
  /**
   * Mobile push notifications for every message.
   * @default - left as it is (following the user's global setting)
   */
  readonly pushNotifications?: boolean;
  /**
   * E-mail notifications for every message.
   * @default - left as it is (following the user's global setting)
   */
  readonly emailNotifications?: boolean;
  /**
   * Notify for @all / @channel mentions as for personal mentions.
   * @default - left as it is (following the user's global setting)
   */
  readonly wildcardMentionsNotify?: boolean;
}

const PropsSchema = propsSchema('subscriptionSettings', SubscriptionSettingsSchema, {
  channel: resourceRefSchema<Channel>('channel', 'expected a Channel construct'),
});

/**
 * Personal settings of a channel subscription (colour, muted, pinned, notifications) for the
 * APPLYING ACCOUNT ONLY: Zulip has no API to change them for other users. Use it for the
 * account that runs `apply` (an integration's human admin account, say); to subscribe other
 * people, use the channel's `subscribers`.
 *
 * @example
 * new SubscriptionSettings(org, 'announcements-settings', {
 *   channel: announcements,
 *   pinToTop: true,
 *   color: '#c2726a',
 * });
 */
export class SubscriptionSettings extends KeyedResource<SubscriptionSettingsProps> {
  /** True when `x` is a {@link SubscriptionSettings}. */
  public static readonly isSubscriptionSettings =
    resourceGuard<SubscriptionSettings>('subscriptionSettings');

  /** The channel. */
  public readonly channel: Channel = this.props?.channel;

  public constructor(scope: Construct, id: string, props: SubscriptionSettingsProps) {
    super(scope, id, 'subscriptionSettings', 'SubscriptionSettings', PropsSchema, props, 'channel');
  }

  public override get naturalKey(): string {
    return this.channel.channelName;
  }

  protected override describeKey(): string {
    return `subscription settings for channel '${this.channel.channelName}'`;
  }

  protected validateResource(): string[] {
    const problems: string[] = [];
    const foreign = this.foreignReference(this.channel, 'channel');
    if (foreign) problems.push(foreign);
    if ((this.props as ResourceOptions<string>).renamedFrom !== undefined) {
      problems.push(
        'renamedFrom is not supported for subscription settings: they follow their channel; when the channel is renamed, give the Channel its renamedFrom',
      );
    }
    const color = this.props.color;
    if (color !== undefined && !isHexColor(color)) {
      problems.push(`color '${color}' is not a hex colour: write it as #rgb or #rrggbb`);
    }
    return problems;
  }

  /** @internal */
  public _toDesired(): DesiredSubscriptionSettings {
    return {
      ...this.desiredBase(),
      channel: this.channel.channelName,
      ...definedProps(this.props, subscriptionPropertyNames),
    };
  }
}
