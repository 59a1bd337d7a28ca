import { channelNameKey } from '../address';
import type { KindSpec } from './spec';
import { SUBSCRIPTION_PROPERTIES } from './vocabulary';
import type { SubscriptionPropertyName } from './vocabulary';

const PROPERTY_NAMES: readonly SubscriptionPropertyName[] = Object.keys(
  SUBSCRIPTION_PROPERTIES,
) as SubscriptionPropertyName[];

/**
 * The applying account's own settings of its subscription to one channel, keyed by the
 * channel's name (compared like channel names). They follow the subscription: never pruned.
 */
export const subscriptionSettings = {
  collection: 'subscriptionSettings',
  title: 'Subscription settings (applying account)',
  nouns: ['subscription setting', 'subscription settings'],
  listOrder: 7,
  rank: 3,
  compareKey: channelNameKey,
  removal: 'none',
  ordered: false,
  ignorable: PROPERTY_NAMES,
  actions: ['update'],
  events: ['subscription'],
} as const satisfies KindSpec;
