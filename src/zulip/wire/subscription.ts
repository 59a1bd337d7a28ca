import { z } from 'zod';
import { intListSchema } from '../../model/int-list';
import { SUBSCRIPTION_PROPERTIES, SUBSCRIPTION_PROPERTY_WIRE_NAMES } from '../../model/kinds';
import type { SubscriptionPropertyName, SubscriptionPropertyWireName } from '../../model/kinds';
import { SUBSCRIPTION_VALUES } from '../../model/kinds/subscription-settings';
import { WireChannelSchema } from './channel';
import type { ChannelCreationSettings } from './channel';
import { successListing, successWith } from './common';

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

/** The zod schema of the {@link ZulipClient.subscribe} response (`POST /users/me/subscriptions`). */
export const SubscribeResponseSchema = successWith({
  /** User ID (FL 289; email before) → channel names newly subscribed. */
  subscribed: z.record(z.string(), z.array(z.string())),
  already_subscribed: z.record(z.string(), z.array(z.string())),
  unauthorized: z.array(z.string()).optional(),
  new_subscription_messages_sent: z.boolean().optional(),
});
/** The {@link ZulipClient.subscribe} response (`POST /users/me/subscriptions`), as parsed. */
export type SubscribeResponse = z.infer<typeof SubscribeResponseSchema>;

/** `DELETE /users/me/subscriptions` parameters. */
export interface UnsubscribeParams {
  /** Channel names. */
  readonly subscriptions: readonly string[];
  readonly principals?: readonly number[] | readonly string[] | undefined;
}

/** The zod schema of the {@link ZulipClient.unsubscribe} response (`DELETE /users/me/subscriptions`). */
export const UnsubscribeResponseSchema = successWith({
  removed: z.array(z.string()),
  not_removed: z.array(z.string()),
});
/** The {@link ZulipClient.unsubscribe} response (`DELETE /users/me/subscriptions`), as parsed. */
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponseSchema>;

/** The wire names come from the model (`SUBSCRIPTION_PROPERTY_WIRE_NAMES`). */
export { SUBSCRIPTION_PROPERTY_WIRE_NAMES };
export type { SubscriptionPropertyWireName };

/** One `(stream_id, property, value)` change; `null` cannot be sent (NOTES 2.5). */
export type SubscriptionPropertyChange =
  | { readonly stream_id: number; readonly property: 'color'; readonly value: string }
  | {
      readonly stream_id: number;
      readonly property: Exclude<SubscriptionPropertyWireName, 'color'>;
      readonly value: boolean;
    };

/** The zod schema of the {@link ZulipClient.updateSubscriptionSettings} response (`POST /users/me/subscriptions/properties`). */
export const UpdateSubscriptionSettingsResponseSchema = successWith({
  subscription_data: z.array(z.looseObject({})).optional(),
});
/** The {@link ZulipClient.updateSubscriptionSettings} response (`POST /users/me/subscriptions/properties`), as parsed. */
export type UpdateSubscriptionSettingsResponse = z.infer<
  typeof UpdateSubscriptionSettingsResponseSchema
>;

/**
 * The subscription settings by wire name, each optional: the model's values
 * (`SUBSCRIPTION_VALUES`) under the model's wire names (`SUBSCRIPTION_PROPERTIES`).
 */
function wireSettings() {
  return Object.fromEntries(
    Object.entries(SUBSCRIPTION_PROPERTIES).map(([name, wire]) => [
      wire,
      SUBSCRIPTION_VALUES[name as SubscriptionPropertyName].optional(),
    ]),
  ) as {
    [K in SubscriptionPropertyName as (typeof SUBSCRIPTION_PROPERTIES)[K]]: z.ZodOptional<
      (typeof SUBSCRIPTION_VALUES)[K]
    >;
  };
}

/** A subscription of the caller: a channel plus per-user settings (loose). */
export const WireSubscriptionSchema = WireChannelSchema.extend({
  ...wireSettings(),
  subscribers: intListSchema().optional(),
  partial_subscribers: intListSchema().optional(),
});
/** A subscription as Zulip sends it, as parsed by {@link WireSubscriptionSchema}. */
export type WireSubscription = z.infer<typeof WireSubscriptionSchema>;

/** `GET /users/me/subscriptions`. */
export const GetSubscriptionsResponseSchema = successListing(
  'subscriptions',
  WireSubscriptionSchema,
);
/** The {@link ZulipClient.getSubscriptions} response (`GET /users/me/subscriptions`), as parsed. */
export type GetSubscriptionsResponse = z.infer<typeof GetSubscriptionsResponseSchema>;
