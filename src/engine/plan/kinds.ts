/**
 * The planner's registry: how each resource kind is planned. A keyed kind (its spec has `keyed`
 * facts) is planned by the generic keyed planner ({@link planKeyed}) from those facts and a
 * {@link KeyedPlan}: its entry here when it has hooks (what only that kind does), else the
 * plain plan of its collection ({@link planOf}). The other kinds have a phase of their own,
 * and their entries are typed so that such a kind added to `RESOURCE_KINDS` is a compile error
 * here until it is planned. `Planner.run()` plans the kinds in the order of `RESOURCE_KINDS`;
 * what one kind reads of another's planning, and why that order is needed, is in
 * `./cross-kind.ts`.
 */
import type { ResourceKind } from '../../model/kinds';
import { channels } from './channels';
import { keepNonEmptyFolders, planSubscriptionSettings } from './cross-kind';
import { customEmoji } from './custom-emoji';
import { planCustomProfileFields } from './custom-profile-fields';
import { defaultChannelGroups } from './default-channel-groups';
import { planDefaultUserSettings } from './default-user-settings';
import { channelFolders } from './folders';
import { userGroups } from './groups';
import type { DeclaredObject, KeyedKind, KeyedPlan } from './keyed';
import { planKeyed } from './keyed';
import { linkifiers, planAllowedDomains, savedSnippets } from './org-objects';
import { planOrganizationSettings } from './organization';
import type { Planner } from './planner';
import { planUsers } from './users';

/** Plans one kind: pushes its changes, warnings, findings and errors into the planner. */
export type KindPlanner = (p: Planner) => void;

/**
 * The generic keyed planner for a kind: `plan` is its {@link KeyedPlan}, or makes it for one
 * planning when its hooks share what they compute once (the groups a group's create cannot
 * name yet).
 */
function keyed<D extends DeclaredObject, L extends { readonly id: number }>(
  plan: KeyedPlan<D, L> | ((p: Planner) => KeyedPlan<D, L>),
): KindPlanner {
  return (p) => planKeyed(p, typeof plan === 'function' ? plan(p) : plan);
}

/** The kinds that are not keyed: each must have its phase here. */
type PhaseKind = Exclude<ResourceKind, KeyedKind>;

const KIND_PLANNERS = {
  channelFolder: keyed(channelFolders),
  userGroup: keyed(userGroups),
  channel: (p) => {
    planKeyed(p, channels);
    // Folder emptiness: needs the folder archives and where every channel is after the plan.
    keepNonEmptyFolders(p);
  },
  linkifier: keyed(linkifiers),
  savedSnippet: keyed(savedSnippets),
  customEmoji: keyed(customEmoji),
  // Users are never created, renamed or removed by zulip-cdk, and an absent role is not
  // managed: not a keyed kind.
  user: planUsers,
  subscriptionSettings: planSubscriptionSettings,
  organizationSettings: planOrganizationSettings,
  defaultUserSettings: planDefaultUserSettings,
  defaultChannelGroup: keyed(defaultChannelGroups),
  // The generic keyed planner, then users' values of the fields, which go into the user
  // updates `planUsers` made: after `user`.
  customProfileField: planCustomProfileFields,
  // The generic keyed planner, then what deleting the last domain does to a setting.
  allowedDomain: planAllowedDomains,
} satisfies Record<PhaseKind, KindPlanner> & Partial<Record<KeyedKind, KindPlanner>>;

const PLANNERS: Partial<Record<ResourceKind, KindPlanner>> = KIND_PLANNERS;

/** How `kind` is planned: its entry in the registry, or the generic keyed planner alone. */
export function planOf(kind: ResourceKind): KindPlanner {
  return PLANNERS[kind] ?? keyed({ kind: kind as KeyedKind });
}
