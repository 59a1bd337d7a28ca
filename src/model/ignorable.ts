import { KIND_SPECS, RESOURCE_KINDS } from './kinds';
import type { IgnorableProperty, ResourceKind } from './kinds';

/**
 * The property names a resource's `lifecycle.ignoreChanges` may hold, per kind: each kind's
 * `ignorable` in the registry (`src/model/kinds/`). An ignored property is still used when the
 * object is created; afterwards the planner leaves it as it is live.
 */
export const IGNORABLE_PROPERTIES = Object.fromEntries(
  RESOURCE_KINDS.map((k) => [k, KIND_SPECS[k].ignorable]),
) as { readonly [K in ResourceKind]: (typeof KIND_SPECS)[K]['ignorable'] };

export type ChannelFolderProperty = IgnorableProperty<'channelFolder'>;
export type UserGroupProperty = IgnorableProperty<'userGroup'>;
export type ChannelProperty = IgnorableProperty<'channel'>;
export type LinkifierProperty = IgnorableProperty<'linkifier'>;
export type PlaygroundProperty = IgnorableProperty<'playground'>;
export type SavedSnippetProperty = IgnorableProperty<'savedSnippet'>;
export type UserProperty = IgnorableProperty<'user'>;
export type CustomEmojiProperty = IgnorableProperty<'customEmoji'>;
export type SubscriptionSettingsProperty = IgnorableProperty<'subscriptionSettings'>;
export type DefaultChannelGroupProperty = IgnorableProperty<'defaultChannelGroup'>;
export type CustomProfileFieldProperty = IgnorableProperty<'customProfileField'>;
export type AllowedDomainProperty = IgnorableProperty<'allowedDomain'>;

/** True when `name` is a property that `ignoreChanges` accepts for `kind`. */
export function isIgnorableProperty(kind: ResourceKind, name: string): boolean {
  return (KIND_SPECS[kind].ignorable as readonly string[]).includes(name);
}
