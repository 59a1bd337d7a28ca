import { CHANNEL_PERMISSION_NAMES, GROUP_PERMISSION_NAMES } from './permissions';
import type { ChannelPermissionName, GroupPermissionName } from './permissions';
import type { ResourceKind } from './kinds';
import { SUBSCRIPTION_PROPERTIES } from './kinds';
import type { SubscriptionPropertyName } from './kinds';

/**
 * The property names a resource's `lifecycle.ignoreChanges` may hold, per kind. They are the
 * property names of the desired object, except that permission settings are named one by one
 * (`canSendMessageGroup`, not `permissions`). An ignored property is still used when the
 * object is created; afterwards the planner leaves it as it is live.
 */
export const IGNORABLE_PROPERTIES = {
  channelFolder: ['description', 'archived', 'order'],
  userGroup: ['description', 'members', 'deactivated', ...GROUP_PERMISSION_NAMES],
  channel: [
    'description',
    'private',
    'webPublic',
    'historyPublicToSubscribers',
    'defaultChannel',
    'messageRetentionDays',
    'topicsPolicy',
    'folder',
    'archived',
    'subscribers',
    ...CHANNEL_PERMISSION_NAMES,
  ],
  linkifier: ['urlTemplate', 'order'],
  playground: ['urlTemplate'],
  savedSnippet: ['content'],
  user: ['role', 'fullName'],
  subscriptionSettings: Object.keys(SUBSCRIPTION_PROPERTIES),
} as const satisfies Record<ResourceKind, readonly string[]>;

export type ChannelFolderProperty = 'description' | 'archived' | 'order';
export type UserGroupProperty = 'description' | 'members' | 'deactivated' | GroupPermissionName;
export type ChannelProperty =
  | 'description'
  | 'private'
  | 'webPublic'
  | 'historyPublicToSubscribers'
  | 'defaultChannel'
  | 'messageRetentionDays'
  | 'topicsPolicy'
  | 'folder'
  | 'archived'
  | 'subscribers'
  | ChannelPermissionName;
export type LinkifierProperty = 'urlTemplate' | 'order';
export type PlaygroundProperty = 'urlTemplate';
export type SavedSnippetProperty = 'content';
export type UserProperty = 'role' | 'fullName';
export type SubscriptionSettingsProperty = SubscriptionPropertyName;

/** True when `name` is a property that `ignoreChanges` accepts for `kind`. */
export function isIgnorableProperty(kind: ResourceKind, name: string): boolean {
  return (IGNORABLE_PROPERTIES[kind] as readonly string[]).includes(name);
}
