/**
 * What Zulip refuses the applying account on the channel side, checked once every kind is
 * planned, on the plan's changes (a plan error on each change's construct, before any request):
 *
 * - `require_non_guest_user` (zerver/decorator.py) on `create_channel` and
 *   `add_subscriptions_backend` (zerver/views/streams.py): a guest creates no channel and
 *   subscribes no one ("Not allowed for guest users").
 * - `check_channel_creation_permissions` (zerver/lib/streams.py): the organization's
 *   `can_create_public_channel_group` or `can_create_private_channel_group` (no exception for
 *   administrators), an administrator for a default channel, `can_create_web_public_channel_group`
 *   for a web-public one; "Insufficient permission".
 * - `update_stream_backend`: changing a channel needs an organization administrator or its
 *   `can_administer_channel_group` (`access_stream_for_delete_or_update_requiring_metadata_access`,
 *   "You do not have permission to administer this channel.", the same for archiving); making it
 *   private or public needs the organization's setting to create such a channel, making it
 *   web-public `can_create_web_public_channel_group` ("Insufficient permission"); making it a
 *   default channel or not needs an administrator ("You do not have permission to change default
 *   channels.").
 * - `validate_topics_policy`: a topics policy other than `inherit` needs an administrator or the
 *   organization's `can_set_topics_policy_group`; `can_delete_any_message_group` and
 *   `can_delete_own_message_group` need an administrator or `can_set_delete_message_policy_group`
 *   (on create only a value other than nobody: `access_requested_group_permissions_for_streams`).
 * - Subscribing others to an existing channel needs an administrator, the organization's
 *   `can_add_subscribers_group`, or the channel's `can_add_subscribers_group` or
 *   `can_administer_channel_group` (`get_streams_to_which_user_cannot_add_subscribers`);
 *   unsubscribing others an administrator or the channel's `can_remove_subscribers_group` or
 *   `can_administer_channel_group` (`bulk_can_remove_subscribers_from_streams`). "Insufficient
 *   permission", for the whole request: apply batches subscriptions of many channels.
 *
 * Not about the account but found on the same changes: making the organization's moderation
 * request channel public ("Moderation request channel must be private.", `update_stream_backend`)
 * unarchiving a private channel without subscribers (`checkUnarchive`), and protected history
 * with a `can_create_topic_group` the plan leaves alone (`checkProtectedHistory`), and a
 * web-public channel the plan leaves web-public made private or given protected history
 * (`checkKeptWebPublic`).
 *
 * Guests hold none of these settings (each has `allow_everyone_group=False`, or Zulip refuses
 * guests before it). A setting the plan changes before the request (a channel's own settings,
 * updated before its subscribers) is not second-guessed, and the account's groups are counted
 * with what the plan's memberships add to them (`groupsAfter`).
 */
import type { GroupSettingValue } from '../../model/desired-state';
import { ROLES } from '../../model/kinds';
import type { LiveChannel, WireGroupSettingValue } from '../../model/live-state';
import {
  CHANNEL_PERMISSIONS,
  IGNORED_BY_CREATE_CHANNEL,
  ORGANIZATION_PERMISSIONS,
} from '../../model/permissions';
import type {
  ChannelPermissionName,
  OrganizationPermissionName,
  PermissionSettingInfo,
} from '../../model/permissions';
import type { UntaggedChange } from '../plan-format';
import { holderFor, holdsDeclared, listed, settingChangedFirst } from './account';
import type { Planner } from './planner';

/** One refusal: the changes it stops, and the sentence that says why and how to fix it. */
interface Refusal {
  readonly changes: UntaggedChange[];
  readonly because: string;
}

const DELETE_SETTINGS = ['canDeleteAnyMessageGroup', 'canDeleteOwnMessageGroup'] as const;

/** The plan errors of the rules above (pushed as account errors). */
export function checkChannelAccount(p: Planner): void {
  const me = p.live.me;
  const admin = me.role <= ROLES.administrator;
  const guest = me.role === ROLES.guest;
  const realm = p.live.organizationSettings?.permissions;
  /** Whether the account holds a setting at change `c`'s request (see `holderFor`). */
  const holdsAt =
    (c: UntaggedChange) =>
    (value: WireGroupSettingValue | undefined): boolean =>
      !guest && holderFor(p, [c.id])(value);
  const refusals = new Map<string, Refusal>();
  const refuse = (c: UntaggedChange, because: string): void => {
    const r = refusals.get(because);
    if (r) r.changes.push(c);
    else refusals.set(because, { changes: [c], because });
  };
  /** The organization's setting: held, unknown, or given by the plan before `kind`'s requests. */
  const holdsRealm = (name: OrganizationPermissionName, c: UntaggedChange): boolean => {
    const value = realm?.[ORGANIZATION_PERMISSIONS[name].wire];
    return value === undefined || holdsAt(c)(value) || settingChangedFirst(p, c.kind, name, [c.id]);
  };
  const needRealm = (
    c: UntaggedChange,
    name: OrganizationPermissionName,
    what: string,
    adminsToo: boolean,
  ): void => {
    if ((adminsToo && admin) || holdsRealm(name, c)) return;
    const info = ORGANIZATION_PERMISSIONS[name];
    refuse(
      c,
      `Zulip lets only ${adminsToo ? 'organization administrators and ' : ''}those who may ${info.ability} (the organization's ${name}${adminsToo ? '' : ', which gives organization administrators no exception'}) ${what} ("Insufficient permission"), and the applying account ${me.email} may not. Add the account to ${name} in Zulip first (a change of it in this plan is applied after the channels), or apply with an account that holds it`,
    );
  };
  const needAdmin = (c: UntaggedChange, what: string, quote: string): void => {
    if (admin) return;
    refuse(
      c,
      `Zulip lets only organization administrators ${what} ("${quote}"), and the applying account ${me.email} is not one. Apply with an administrator's account`,
    );
  };
  const updated = updatedChannelSettings(p);
  // update_stream_backend: the realm's moderation_request_channel must stay private.
  const moderation = p.live.organizationSettings?.properties.moderation_request_channel_id;

  for (const c of p.changes) {
    if (c.kind !== 'channel') continue;
    const l = 'liveId' in c && c.liveId !== null ? p.idx.channelsById.get(c.liveId) : undefined;
    if (c.action === 'create') {
      if (guest) {
        refuse(
          c,
          `Zulip refuses creating channels to a guest ("Not allowed for guest users"), and the applying account ${me.email} is one. Apply with an administrator's account`,
        );
        continue;
      }
      const props = c.properties;
      const isPrivate = props.private === true;
      needRealm(
        c,
        isPrivate ? 'canCreatePrivateChannelGroup' : 'canCreatePublicChannelGroup',
        `create ${isPrivate ? 'private' : 'public'} channels`,
        false,
      );
      if (props.webPublic === true)
        needRealm(c, 'canCreateWebPublicChannelGroup', 'create web-public channels', false);
      if (props.defaultChannel === true)
        needAdmin(c, 'create a default channel', 'Insufficient permission');
      if (typeof props.topicsPolicy === 'string' && props.topicsPolicy !== 'inherit')
        needRealm(c, 'canSetTopicsPolicyGroup', "set a channel's topics policy", true);
      if (
        DELETE_SETTINGS.some((n) => {
          const v = props[`permissions.${n}`];
          return v !== undefined && v !== 'role:nobody' && p.supports('canDeleteMessageGroups');
        })
      )
        needRealm(
          c,
          'canSetDeleteMessagePolicyGroup',
          "set a channel's message deletion permissions",
          true,
        );
      // The settings create_channel ignores are set by a PATCH right after the create
      // (write-channels.ts), and a setting naming a group this plan creates by an update once
      // it exists: Zulip checks those requests against the new channel's administrators.
      const patched =
        (p.supports('channelsCreate') &&
          IGNORED_BY_CREATE_CHANNEL.some((n) => {
            const v = props[`permissions.${n}`];
            return v !== undefined && v !== CHANNEL_PERMISSIONS[n].default;
          })) ||
        p.changes.some((u) => u.address === c.address && u.action === 'update');
      if (
        !admin &&
        patched &&
        !holdsDeclared(
          p,
          props['permissions.canAdministerChannelGroup'] as GroupSettingValue | undefined,
          [c.id],
        )
      )
        refuse(
          c,
          `zulip-cdk sets some of the new channel's settings by changing it right after creating it, which Zulip lets only organization administrators and the channel's administrators do ("You do not have permission to administer this channel."), and the declared canAdministerChannelGroup leaves out the applying account ${me.email}. Include the account in canAdministerChannelGroup (its default is the channel's creator), or apply with an administrator's account`,
        );
      continue;
    }
    if (!l) continue;
    if (c.action === 'membership') {
      checkMembership(p, c, l, admin, holdsAt(c), updated, refuse);
      continue;
    }
    // update, rename, archive, unarchive: access_stream_for_delete_or_update_requiring_metadata_access.
    if (!admin && !holdsAt(c)(l.permissions[CHANNEL_PERMISSIONS.canAdministerChannelGroup.wire])) {
      refuse(
        c,
        `Zulip lets only organization administrators and the channel's administrators (its canAdministerChannelGroup) change, rename, archive or unarchive a channel ("You do not have permission to administer this channel."), and the applying account ${me.email} is neither. Add the account to the channel's canAdministerChannelGroup in Zulip first, or apply with an administrator's account`,
      );
      continue;
    }
    if (c.action === 'unarchive') checkUnarchive(p, c, l);
    if (c.action !== 'update') continue;
    checkProtectedHistory(p, c, l);
    checkKeptWebPublic(p, c, l);
    for (const x of c.properties) {
      if (x.property === 'private' && x.after === false && moderation === l.id)
        p.errors.push(
          `${listed([c])}: it is the organization's moderation request channel, and Zulip refuses to make that channel public ("Moderation request channel must be private."). Keep it private, or set another moderationRequestChannel in Zulip first (a change of it in this plan is applied after the channels)`,
        );
      if (x.property === 'private')
        needRealm(
          c,
          x.after === true ? 'canCreatePrivateChannelGroup' : 'canCreatePublicChannelGroup',
          `make a channel ${x.after === true ? 'private' : 'public'}`,
          false,
        );
      else if (x.property === 'webPublic' && x.after === true)
        needRealm(c, 'canCreateWebPublicChannelGroup', 'make a channel web-public', false);
      else if (x.property === 'defaultChannel')
        needAdmin(
          c,
          'make a channel a default channel or not',
          'You do not have permission to change default channels.',
        );
      else if (x.property === 'topicsPolicy' && x.after !== 'inherit')
        needRealm(c, 'canSetTopicsPolicyGroup', "set a channel's topics policy", true);
      else if (DELETE_SETTINGS.some((n) => x.property === `permissions.${n}`))
        needRealm(
          c,
          'canSetDeleteMessagePolicyGroup',
          "change a channel's message deletion permissions",
          true,
        );
    }
  }
  for (const r of refusals.values()) p.accountError(`${listed(r.changes)}: ${r.because}`);
}

/**
 * `do_unarchive_stream` (zerver/actions/streams.py) refuses a private channel nobody is
 * subscribed to, deactivated users counted. Zulip reports active users' subscriptions only, so
 * the plan can tell only when it sees the subscribers and the organization has no deactivated
 * user.
 */
function checkUnarchive(p: Planner, c: UntaggedChange, l: LiveChannel): void {
  if (!l.private || l.subscribers === null || l.subscribers.length > 0) return;
  if (p.live.users.some((u) => !u.isActive)) return;
  p.errors.push(
    `${listed([c])}: it is a private channel nobody is subscribed to, and Zulip unarchives a private channel only if someone still is ("Channel is private and have no subscribers"). Leave it archived (archived: true), or declare the channel under another name`,
  );
}

/**
 * `update_stream_backend` refuses protected history unless `can_create_topic_group` is the
 * everyone group, in the request or already
 * (`validate_can_create_topic_group_setting_for_protected_history_streams`): the plan carries
 * the setting's change with the history change unless the setting's changes are ignored.
 */
function checkProtectedHistory(
  p: Planner,
  c: Extract<UntaggedChange, { action: 'update' }>,
  l: LiveChannel,
): void {
  const property = 'permissions.canCreateTopicGroup';
  if (!c.properties.some((x) => x.property === 'historyPublicToSubscribers' && x.after === false))
    return;
  if (c.properties.some((x) => x.property === property)) return;
  const live = l.permissions[CHANNEL_PERMISSIONS.canCreateTopicGroup.wire];
  if (live === undefined || live === p.idx.groupsByName.get('role:everyone')?.id) return;
  p.errors.push(
    `${listed([c])}: Zulip gives a channel protected history only if canCreateTopicGroup is SystemGroup.EVERYONE ("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group"), and the channel's is not while this plan leaves it as it is (lifecycle.ignoreChanges). Declare canCreateTopicGroup: SystemGroup.EVERYONE and stop ignoring it, or keep history public`,
  );
}

/**
 * `update_stream_backend` checks the channel's privacy as the request leaves it, a property the
 * request does not send kept as it is: a web-public channel is neither private nor of protected
 * history ("Invalid parameters"). The plan sends `is_web_public` only when it changes
 * `webPublic`, so a live web-public channel whose `webPublic` it leaves alone
 * (`lifecycle.ignoreChanges`, as the importer writes it when the server has web-public
 * channels off) stays web-public in the request.
 */
function checkKeptWebPublic(
  p: Planner,
  c: Extract<UntaggedChange, { action: 'update' }>,
  l: LiveChannel,
): void {
  if (!l.webPublic || c.properties.some((x) => x.property === 'webPublic')) return;
  const breaks = c.properties.filter(
    (x) =>
      (x.property === 'private' && x.after === true) ||
      (x.property === 'historyPublicToSubscribers' && x.after === false),
  );
  if (breaks.length === 0) return;
  p.errors.push(
    `${listed([c])}: the channel is web-public and this plan leaves it so (webPublic in lifecycle.ignoreChanges), and Zulip refuses a web-public channel that is ${breaks.map((x) => (x.property === 'private' ? 'private' : 'of protected history')).join(' or ')} ("Invalid parameters"). Stop ignoring webPublic (it becomes false in the same request), or keep the channel public`,
  );
}

/** The channels whose update in this plan changes the settings that decide who may subscribe. */
function updatedChannelSettings(p: Planner): Set<string> {
  const out = new Set<string>();
  for (const c of p.changes)
    if (
      c.kind === 'channel' &&
      c.action === 'update' &&
      c.properties.some((x) => x.property.startsWith('permissions.'))
    )
      out.add(c.address);
  return out;
}

/** Whether the account holds one of a live channel's settings, or one Zulip lets through instead. */
function holdsChannelSetting(
  l: LiveChannel,
  name: ChannelPermissionName,
  holds: (value: WireGroupSettingValue | undefined) => boolean,
  realm: Readonly<Record<string, WireGroupSettingValue>> | undefined,
): boolean {
  const info: PermissionSettingInfo = CHANNEL_PERMISSIONS[name];
  if (holds(l.permissions[info.wire])) return true;
  return (info.alsoHeldBy ?? []).some((h) =>
    h.kind === 'realm'
      ? realm?.[h.wire] === undefined || holds(realm[h.wire])
      : h.kind === 'setting' &&
        holds(l.permissions[CHANNEL_PERMISSIONS[h.name as ChannelPermissionName].wire]),
  );
}

function checkMembership(
  p: Planner,
  c: Extract<UntaggedChange, { action: 'membership' }>,
  l: LiveChannel,
  admin: boolean,
  holds: (value: WireGroupSettingValue | undefined) => boolean,
  updated: ReadonlySet<string>,
  refuse: (c: UntaggedChange, because: string) => void,
): void {
  const me = p.live.me;
  // require_non_guest_user on add_subscriptions_backend: a guest subscribes no one, itself
  // included (unsubscribing is open to guests).
  if (me.role === ROLES.guest && c.add.length > 0) {
    refuse(
      c,
      `Zulip refuses subscribing to a guest ("Not allowed for guest users"), itself included, and the applying account ${me.email} is one. Apply with an administrator's account`,
    );
    return;
  }
  if (admin || updated.has(c.address)) return;
  const realm = p.live.organizationSettings?.permissions;
  const others = c.add.filter((u) => u.id !== me.userId);
  if (others.length > 0 && !holdsChannelSetting(l, 'canAddSubscribersGroup', holds, realm))
    refuse(
      c,
      `Zulip lets only organization administrators, the organization's canAddSubscribersGroup and the channel's canAddSubscribersGroup or canAdministerChannelGroup subscribe others to an existing channel ("Insufficient permission", for every channel of the request), and the applying account ${me.email} is none of them. Add the account to one of them in Zulip first, or apply with an administrator's account`,
    );
  // user_directly_controls_user: the account itself and its own bots need no permission.
  const removed = c.remove.filter(
    (u) => u.id !== me.userId && p.idx.usersById.get(u.id)?.botOwnerId !== me.userId,
  );
  if (removed.length > 0 && !holdsChannelSetting(l, 'canRemoveSubscribersGroup', holds, realm))
    refuse(
      c,
      `Zulip lets only organization administrators and the channel's canRemoveSubscribersGroup or canAdministerChannelGroup unsubscribe others ("Insufficient permission"), and the applying account ${me.email} is none of them. Add the account to one of them in Zulip first, or apply with an administrator's account`,
    );
}
