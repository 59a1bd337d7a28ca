import { subscriptionsOfUser } from './indexes';
import type { OrgState, StoredChannel } from './state';

/** Zulip's palette for new subscriptions, in the order it hands colors out (zerver/lib/stream_color.py). */
export const SUBSCRIPTION_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
] as const;

/**
 * The colors of one user's new subscriptions, as zerver/lib/stream_color.py `pick_colors` does
 * in `bulk_add_subscriptions`: a color the request gave for the channel's exact name is used
 * (and counts as used); the others get the palette's colors the user has on no subscription yet
 * (active or not), in ascending channel order (our channel ID stands for Zulip's recipient ID),
 * and once those run out the palette color at `id % 24`. One pass over the user's rows and the
 * new channels.
 */
export function pickColors(
  org: OrgState,
  userId: number,
  newChannels: readonly StoredChannel[],
  requested: ReadonlyMap<string, string> = new Map(),
): Map<number, string> {
  const used = new Set<string>();
  for (const s of subscriptionsOfUser(org, userId).values()) used.add(s.color);
  const out = new Map<number, string>();
  const others: StoredChannel[] = [];
  for (const ch of newChannels) {
    const color = requested.get(ch.name);
    if (color === undefined) others.push(ch);
    else {
      out.set(ch.id, color);
      used.add(color);
    }
  }
  const available = SUBSCRIPTION_COLORS.filter((c) => !used.has(c));
  others
    .sort((a, b) => a.id - b.id)
    .forEach((ch, i) => {
      const color =
        available[i] ?? SUBSCRIPTION_COLORS[ch.id % SUBSCRIPTION_COLORS.length] ?? '#76ce90';
      out.set(ch.id, color);
    });
  return out;
}
