/**
 * Custom emoji, by name. Zulip has no way to change an emoji: `DELETE /realm/emoji/{name}`
 * deactivates it (zerver/actions/realm_emoji.py `do_remove_realm_emoji`: the row and its image
 * stay, so messages and reactions that used it still show it), and the name is then free for a
 * new upload (the unique constraint covers active emoji only). A new image is therefore a
 * `replace`: deactivate, then upload under the same name.
 *
 * Planned by the generic keyed planner (`./keyed.ts`): independent of the planner's shared
 * maps (it reads only the live state and the desired state).
 */
import { ROLES } from '../../model/kinds';
import type { DesiredCustomEmoji } from '../../model/desired-state';
import type { LiveCustomEmoji } from '../../model/live-state';
import type { KeyedPlan } from './keyed';
import type { Planner } from './planner';
import { isIgnored } from './planner';

/**
 * zerver/lib/emoji.py `check_remove_custom_emoji`: an administrator removes any emoji, anyone
 * else only the ones they added. A plan error when the applying account can do neither.
 */
function checkRemovable(p: Planner, l: LiveCustomEmoji, address: string, path?: string): void {
  const me = p.live.me;
  if (me.role <= ROLES.administrator || l.authorId === me.userId) return;
  const author = l.authorId === null ? 'nobody known' : p.idx.emailOf(l.authorId);
  p.errors.push(
    `${address}${path === undefined ? ' (undeclared, pruned)' : ` (${path})`}: deactivating the emoji '${l.name}' needs an organization administrator or its author (${author}); Zulip refuses it for ${me.email} ("Must be an organization administrator or emoji author"). Apply with an administrator's account.`,
  );
}

export const customEmoji: KeyedPlan<DesiredCustomEmoji, LiveCustomEmoji> = {
  kind: 'customEmoji',
  declared: (p) => p.desired.customEmoji,
  // A deactivated emoji is not managed: its name is free for a new upload.
  live: (p) => p.live.customEmoji.filter((e) => !e.deactivated),
  // Synth refuses an active emoji without an image.
  check: (_p, d) => d.deactivated === true || d.image !== undefined,
  // Deactivated already (Zulip keeps it), or never uploaded.
  notFound: (p, d, base) => {
    if (!p.live.customEmoji.some((e) => e.name === d.name))
      p.removedNotFound('deactivated', base.address, d.path);
  },
  comparable: (p, d, l, base) => {
    if (isIgnored(d.lifecycle, 'image')) return false;
    if (l.image !== null) return true;
    p.warn(
      'EMOJI_IMAGE_UNKNOWN',
      `the image of the live emoji could not be read (${l.sourceUrl}.original), so it is not compared with ${d.image?.file}; plan again, or add 'image' to ignoreChanges`,
      base.address,
      d.path,
    );
    return false;
  },
  removing: (p, l, base) => checkRemovable(p, l, base.address, base.path ?? undefined),
  replaceIs: 'deactivate and upload again',
};
