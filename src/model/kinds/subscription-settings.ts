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

/**
 * The settings of a subscription (each optional: absent is left as it is), the same in the
 * desired state and (through `propsSchema`) in the `SubscriptionSettings` construct's props.
 */
const subscriptionSettingValues = {
  color: z.string().optional(),
  isMuted: z.boolean().optional(),
  pinToTop: z.boolean().optional(),
  desktopNotifications: z.boolean().optional(),
  audibleNotifications: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  emailNotifications: z.boolean().optional(),
  wildcardMentionsNotify: z.boolean().optional(),
} satisfies Record<SubscriptionPropertyName, z.ZodOptional>;

export const SubscriptionSettingsSchema = entrySchema({
  /** The channel, by name. These settings apply to the applying account only. */
  channel: z.string(),
  ...subscriptionSettingValues,
});
export type DesiredSubscriptionSettings = z.infer<typeof SubscriptionSettingsSchema>;

/** The applying account's own settings on one channel it is subscribed to. */
export const LiveSubscriptionSettingsSchema = z.strictObject({
  channelId: z.number().int(),
  color: z.string(),
  isMuted: z.boolean(),
  pinToTop: z.boolean(),
  /** null: follows the user's global default. */
  desktopNotifications: z.boolean().nullable(),
  audibleNotifications: z.boolean().nullable(),
  pushNotifications: z.boolean().nullable(),
  emailNotifications: z.boolean().nullable(),
  wildcardMentionsNotify: z.boolean().nullable(),
});
export type LiveSubscriptionSettings = z.infer<typeof LiveSubscriptionSettingsSchema>;

/**
 * The applying account's own settings of its subscription to one channel, keyed by the
 * channel's name (compared like channel names). They follow the subscription: never pruned.
 */
export const subscriptionSettings = {
  collection: 'subscriptionSettings',
  /** Sorted by channel. */
  desiredSchema: z.array(SubscriptionSettingsSchema),
  /** The applying account's own subscriptions. */
  liveSchema: z.array(LiveSubscriptionSettingsSchema),
  title: 'Subscription settings (applying account)',
  nouns: ['subscription setting', 'subscription settings'],
  listOrder: 7,
  rank: 3,
  compareKey: channelNameKey,
  removal: 'none',
  ordered: false,
  sortedBy: (d: DesiredSubscriptionSettings) => [d.channel],
  ignorable: PROPERTY_NAMES,
  actions: ['update'],
  events: ['subscription'],
} as const satisfies KindSpec;
