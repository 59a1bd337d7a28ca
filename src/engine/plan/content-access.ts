/**
 * Content access that the plan itself would take away from the applying account in the middle
 * of an apply.
 *
 * On a private channel, Zulip checks the account's access to the content
 * (`user_has_content_access`: subscribed, or in the channel's `can_add_subscribers_group` or
 * `can_subscribe_group`; administrators get no exception) at three points:
 * - `update_stream_backend` checks it for each of those two settings as it reaches it, in
 *   `Stream.stream_permission_group_settings` order (`can_add_subscribers_group` first). It
 *   checks against the channel as changed so far in the same request: "Channel content access
 *   is required.";
 * - `add_subscriptions_backend` checks it when subscribers are added, after the channel's
 *   update: "Unable to access channel (NAME).".
 *
 * So a change that takes the account out of the setting through which it has access would make
 * Zulip refuse what comes after it in the same apply. Such a change is left for the next plan,
 * with a NO_CONTENT_ACCESS warning. Applied after the rest, it finds the access still there, and
 * a second apply converges. (Without access at all, `dropGatedProps` leaves the changes out.)
 */
import { settingIncludes } from '../../model/access';
import type { GroupSettingValue } from '../../model/desired-state';
import type { LiveChannel } from '../../model/live-state';
import type { PropertyChange } from '../plan-format';
import { joinAnd } from '../words';
import { holdsDeclared } from './account';
import { CHANGING, contentAccess, myGroupIds, subscribedLive } from './cross-kind';
import type { Planner } from './planner';
import { CONTENT_ACCESS_WIRES } from './planner';

/**
 * Leaves out of a private channel's update (`props`) the changes that take the account's
 * content access away before something later in the apply needs it: a later setting of the
 * same request, or, when `addsSubscribers`, the subscribers added after it. Returns whether it
 * left anything out.
 */
export function deferAccessLoss(
  p: Planner,
  l: LiveChannel,
  props: PropertyChange[],
  address: string,
  path: string,
  addsSubscribers: boolean,
): boolean {
  if (!l.private || l.webPublic || subscribedLive(p, l) || !contentAccess(p, l)) return false;
  // Made public in the same request: every member may read it after that.
  if (props.some((x) => x.property === 'private' && x.after === false)) return false;
  const me = p.live.me.userId;
  const changeOf = (wire: string): PropertyChange | undefined => props.find((x) => x.wire === wire);
  const holdsNow = (wire: string): boolean =>
    settingIncludes(l.permissions[wire], me, myGroupIds(p));
  const holdsAfter = (wire: string): boolean => {
    const c = changeOf(wire);
    return c
      ? holdsDeclared(p, c.after as GroupSettingValue, [`${address}#update`])
      : holdsNow(wire);
  };
  // Zulip changes them in the channel permission table's order (that of
  // `Stream.stream_permission_group_settings`); `held`: those giving the account access as the
  // request goes.
  const gates = [...CONTENT_ACCESS_WIRES];
  const held = new Set(gates.filter(holdsNow));
  const needs: string[] = [];
  for (const wire of gates) {
    if (!changeOf(wire)) continue;
    if (held.size === 0) needs.push(CHANGING[wire] ?? wire);
    if (holdsAfter(wire)) held.add(wire);
    else held.delete(wire);
  }
  if (addsSubscribers && held.size === 0) needs.push('subscribing people to it');
  if (needs.length === 0) return false;
  const removing = gates.filter(
    (wire) => changeOf(wire) !== undefined && holdsNow(wire) && !holdsAfter(wire),
  );
  const kept = props.filter((x) => !removing.some((wire) => x.wire === wire));
  props.length = 0;
  props.push(...kept);
  p.warn(
    'NO_CONTENT_ACCESS',
    `left out of this plan, for the next one: ${joinAnd(removing.map((w) => CHANGING[w] ?? w))}. It would take the applying account (${p.live.me.email}) out of the setting that gives it access to #${l.name}'s content, and Zulip checks that access again for what follows in the same apply: ${joinAnd(needs)}. Apply this plan, then plan and apply again: the next plan makes the change, with the access still there.`,
    address,
    path,
  );
  return true;
}
