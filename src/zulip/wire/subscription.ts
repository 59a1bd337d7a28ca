import { z } from 'zod';
import { intListSchema } from '../../model/int-list';
import { WireChannelSchema } from './channel';
import type { ChannelCreationSettings } from './channel';
import { successWith } from './common';

/** One channel to subscribe to, by name (created if it does not exist). */
export interface SubscriptionRequest {
  readonly name: string;
  /** Used only when the channel is created. */
  readonly description?: string | undefined;
  readonly color?: string | undefined;
}

/** `POST /users/me/subscriptions` parameters. Atomic. */
export interface SubscribeParams extends ChannelCreationSettings {
  readonly subscriptions: readonly SubscriptionRequest[];
  /** User IDs (preferred) or emails, not mixed; default: the caller. */
  readonly principals?: readonly number[] | readonly string[] | undefined;
  readonly authorization_errors_fatal?: boolean | undefined;
  /** FL 397. */
  readonly send_new_subscription_messages?: boolean | undefined;
}

export const SubscribeResponseSchema = successWith({
  /** User ID (FL 289; email before) → channel names newly subscribed. */
  subscribed: z.record(z.string(), z.array(z.string())),
  already_subscribed: z.record(z.string(), z.array(z.string())),
  unauthorized: z.array(z.string()).optional(),
  new_subscription_messages_sent: z.boolean().optional(),
});
export type SubscribeResponse = z.infer<typeof SubscribeResponseSchema>;

/** `DELETE /users/me/subscriptions` parameters. */
export interface UnsubscribeParams {
  /** Channel names. */
  readonly subscriptions: readonly string[];
  readonly principals?: readonly number[] | readonly string[] | undefined;
}

export const UnsubscribeResponseSchema = successWith({
  removed: z.array(z.string()),
  not_removed: z.array(z.string()),
});
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponseSchema>;

/** Properties of the caller's own subscription. */
export const SUBSCRIPTION_PROPERTY_WIRE_NAMES = [
  'color',
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
export type SubscriptionPropertyWireName = (typeof SUBSCRIPTION_PROPERTY_WIRE_NAMES)[number];

/** One `(stream_id, property, value)` change; `null` cannot be sent (NOTES 2.5). */
export type SubscriptionPropertyChange =
  | { readonly stream_id: number; readonly property: 'color'; readonly value: string }
  | {
      readonly stream_id: number;
      readonly property: Exclude<SubscriptionPropertyWireName, 'color'>;
      readonly value: boolean;
    };

export const UpdateSubscriptionSettingsResponseSchema = successWith({
  subscription_data: z.array(z.looseObject({})).optional(),
});
export type UpdateSubscriptionSettingsResponse = z.infer<
  typeof UpdateSubscriptionSettingsResponseSchema
>;

/** A subscription of the caller: a channel plus per-user settings (loose). */
export const WireSubscriptionSchema = WireChannelSchema.extend({
  color: z.string().optional(),
  is_muted: z.boolean().optional(),
  pin_to_top: z.boolean().optional(),
  desktop_notifications: z.boolean().nullable().optional(),
  audible_notifications: z.boolean().nullable().optional(),
  push_notifications: z.boolean().nullable().optional(),
  email_notifications: z.boolean().nullable().optional(),
  wildcard_mentions_notify: z.boolean().nullable().optional(),
  subscribers: intListSchema().optional(),
  partial_subscribers: intListSchema().optional(),
});
export type WireSubscription = z.infer<typeof WireSubscriptionSchema>;

/** `GET /users/me/subscriptions`. */
export const GetSubscriptionsResponseSchema = successWith({
  subscriptions: z.array(WireSubscriptionSchema),
});
export type GetSubscriptionsResponse = z.infer<typeof GetSubscriptionsResponseSchema>;
