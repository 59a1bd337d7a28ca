import { z } from 'zod';
import { channelNameKey } from '../address';
import { entrySchema } from './schemas';
import type { KindSpec } from './spec';
import { SUBSCRIPTION_PROPERTIES } from './vocabulary';
import type { SubscriptionPropertyName } from './vocabulary';

const PROPERTY_NAMES: readonly SubscriptionPropertyName[] = Object.keys(
  SUBSCRIPTION_PROPERTIES,
) as SubscriptionPropertyName[];
export { PROPERTY_NAMES as subscriptionPropertyNames };

const nullableBoolean = z.boolean().nullable();
/**
 * Each subscription setting's value as Zulip reports it (`subscriptions` of `POST /register`;
 * null: a notification setting that follows the user's global default). The live state holds
 * them so; the desired state (below) and the wire schema (`src/zulip/wire/subscription.ts`, by
 * wire name) take their forms from them.
 */
export const SUBSCRIPTION_VALUES = {
  color: z.string(),
  isMuted: z.boolean(),
  pinToTop: z.boolean(),
  desktopNotifications: nullableBoolean,
  audibleNotifications: nullableBoolean,
  pushNotifications: nullableBoolean,
  emailNotifications: nullableBoolean,
  wildcardMentionsNotify: nullableBoolean,
} satisfies Record<SubscriptionPropertyName, z.ZodType>;
type Value<K extends SubscriptionPropertyName> = (typeof SUBSCRIPTION_VALUES)[K];

/**
 * The settings of a subscription as declared: each optional (absent is left as it is), never
 * null. The same in the desired state and (through `propsSchema`) in the `SubscriptionSettings`
 * construct's props.
 */
const subscriptionSettingValues = Object.fromEntries(
  PROPERTY_NAMES.map((n) => {
    const v: z.ZodType = SUBSCRIPTION_VALUES[n];
    return [n, (v instanceof z.ZodNullable ? (v.unwrap() as z.ZodType) : v).optional()];
  }),
) as {
  [K in SubscriptionPropertyName]: z.ZodOptional<
    Value<K> extends z.ZodNullable<infer I> ? I : Value<K>
  >;
};

export const SubscriptionSettingsSchema = entrySchema({
  /** The channel, by name. These settings apply to the applying account only. */
  channel: z.string(),
  ...subscriptionSettingValues,
});
export type DesiredSubscriptionSettings = z.infer<typeof SubscriptionSettingsSchema>;

/** The applying account's own settings on one channel it is subscribed to. */
export const LiveSubscriptionSettingsSchema = z.strictObject({
  channelId: z.number().int(),
  ...SUBSCRIPTION_VALUES,
});
export type LiveSubscriptionSettings = z.infer<typeof LiveSubscriptionSettingsSchema>;

/**
 * The applying account's own settings of its subscription to one channel, keyed by the
 * channel's name (compared like channel names). They follow the subscription: never pruned.
 */
export const subscriptionSettings = {
  collection: 'subscriptionSettings',
  construct: 'SubscriptionSettings',
  title: 'Subscription settings (applying account)',
  nouns: ['subscription setting', 'subscription settings'],
  listOrder: 7,
  rank: 3,
  compareKey: channelNameKey,
  removal: 'none',
  ordered: false,
  ignorable: PROPERTY_NAMES,
  actions: ['update'],
  // 'stream': the channel, by name (a rename sends only a stream event).
  events: ['subscription', 'stream'],
  sortedBy: (d: DesiredSubscriptionSettings) => [d.channel],
  /** Sorted by channel. */
  desiredSchema: z.array(SubscriptionSettingsSchema),
  /** The applying account's own subscriptions. */
  liveSchema: z.array(LiveSubscriptionSettingsSchema),
} as const satisfies KindSpec;
