export * from './app';
export * from './organization';
export * from './resource';
export * from './system-group';
export * from './permission';
export * from './channel-folder';
export * from './user-group';
export * from './channel';
export * from './linkifier';
export * from './code-playground';
export * from './saved-snippet';
export * from './custom-emoji';
export * from './user';
export * from './subscription-settings';
export * from './organization-settings';
export * from './default-user-settings';
export * from './default-channel-group';
export * from './custom-profile-field';
export * from './allowed-domain';
export * from './synthesizer';
export * from './testing';

import type { ResourceKind } from '../model/kinds';
import type { AllowedDomain } from './allowed-domain';
import type { Channel } from './channel';
import type { ChannelFolder } from './channel-folder';
import type { CodePlayground } from './code-playground';
import type { CustomEmoji } from './custom-emoji';
import type { CustomProfileField } from './custom-profile-field';
import type { DefaultChannelGroup } from './default-channel-group';
import type { DefaultUserSettings } from './default-user-settings';
import type { Linkifier } from './linkifier';
import type { OrganizationSettings } from './organization-settings';
import type { SavedSnippet } from './saved-snippet';
import type { SubscriptionSettings } from './subscription-settings';
import type { User } from './user';
import type { UserGroup } from './user-group';

/** Each kind's construct, exported above. */
interface ConstructOfKind {
  channelFolder: ChannelFolder;
  userGroup: UserGroup;
  channel: Channel;
  linkifier: Linkifier;
  playground: CodePlayground;
  savedSnippet: SavedSnippet;
  customEmoji: CustomEmoji;
  user: User;
  subscriptionSettings: SubscriptionSettings;
  organizationSettings: OrganizationSettings;
  defaultUserSettings: DefaultUserSettings;
  defaultChannelGroup: DefaultChannelGroup;
  customProfileField: CustomProfileField;
  allowedDomain: AllowedDomain;
}
/**
 * A compile error when a kind of `RESOURCE_KINDS` (src/model/kinds) has no construct: write it
 * (`./<kind>.ts`), export it above and name it in {@link ConstructOfKind}.
 */
type _EveryKindHasAConstruct = { [K in ResourceKind]: ConstructOfKind[K] };
