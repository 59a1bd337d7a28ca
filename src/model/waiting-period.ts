/**
 * Zulip's waiting period for full members, shared by the plan (who is in role:fullmembers after
 * it) and the embedded server (who it puts there).
 */

/** A day in milliseconds: Python's `timedelta(days=1)`. */
export const DAY_MS = 86_400_000;

/**
 * The local `is_provisional_member` of zerver/actions/user_groups.py
 * `update_users_in_full_members_system_group`: `(timezone_now() - date_joined).days <
 * waiting_period_threshold`, whole days floored as Python's timedelta does, whatever the role.
 * A join date that does not parse is not within it.
 */
export function joinedWithinWaitingPeriod(
  dateJoined: string,
  threshold: number,
  now: number,
): boolean {
  return Math.floor((now - Date.parse(dateJoined)) / DAY_MS) < threshold;
}
