/**
 * Custom emoji, by name. Zulip has no way to change an emoji: `DELETE /realm/emoji/{name}`
 * deactivates it (zerver/actions/realm_emoji.py `do_remove_realm_emoji`: the row and its image
 * stay, so messages and reactions that used it still show it), and the name is then free for a
 * new upload (the unique constraint covers active emoji only). A new image is therefore a
 * `replace`: deactivate, then upload under the same name.
 *
 * A function of the planner's phases (see `Planner` in `./planner.ts`): independent of the
 * shared maps (it reads only the live state and the desired state).
 */
import { resourceAddress } from '../../model/address';
import { ROLES } from '../../model/kinds';
import type { LiveCustomEmoji } from '../../model/live-state';
import type { JsonValue } from '../plan-format';
import type { Planner } from './planner';
import { isIgnored } from './planner';

/** What a reviewer sees of a live emoji: its name and its image's digest, never its bytes. */
function liveImage(l: LiveCustomEmoji): Record<string, JsonValue> {
  return {
    name: l.name,
    image: l.image === null ? null : { sha256: l.image.sha256, size: l.image.size },
  };
}

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

export function planCustomEmoji(p: Planner): void {
  const active = new Map<string, LiveCustomEmoji>();
  const known = new Set<string>();
  for (const e of p.live.customEmoji) {
    known.add(e.name);
    if (!e.deactivated) active.set(e.name, e);
  }
  const declared = new Set(p.desired.customEmoji.map((d) => d.name));
  for (const d of p.desired.customEmoji) {
    const address = resourceAddress('customEmoji', d.name);
    const base = { kind: 'customEmoji' as const, address, key: d.name, path: d.path };
    const l = active.get(d.name);
    if (d.deactivated === true) {
      if (!l) {
        // Deactivated already (Zulip keeps it), or never uploaded.
        if (!known.has(d.name)) p.removedNotFound('deactivated', address, d.path);
        continue;
      }
      if (d.lifecycle?.protect) {
        p.protectedFinding(address, d.path, 'deactivate');
        continue;
      }
      checkRemovable(p, l, address, d.path);
      p.add({
        ...base,
        id: `${address}#deactivate`,
        action: 'deactivate',
        dependsOn: [],
        liveId: l.id,
        reason: 'declared',
        before: liveImage(l),
      });
      continue;
    }
    // Synth refuses an active emoji without an image.
    if (!d.image) continue;
    const after = { name: d.name, image: { ...d.image } };
    if (!l) {
      p.addCreate(base, after);
      continue;
    }
    if (isIgnored(d.lifecycle, 'image')) continue;
    if (l.image === null) {
      p.warn(
        'EMOJI_IMAGE_UNKNOWN',
        `the image of the live emoji could not be read (${l.sourceUrl}.original), so it is not compared with ${d.image.file}; plan again, or add 'image' to ignoreChanges`,
        address,
        d.path,
      );
      continue;
    }
    if (l.image.sha256 === d.image.sha256) continue;
    if (d.lifecycle?.protect) {
      p.protectedFinding(address, d.path, 'replace (deactivate and upload again)');
      continue;
    }
    checkRemovable(p, l, address, d.path);
    p.add({
      ...base,
      id: `${address}#replace`,
      action: 'replace',
      dependsOn: [],
      liveId: l.id,
      before: liveImage(l),
      after,
    });
  }
  for (const l of active.values()) {
    if (declared.has(l.name)) continue;
    const removed = p.undeclared('customEmoji', l.name, l.id, liveImage(l));
    if (removed) checkRemovable(p, l, resourceAddress('customEmoji', l.name));
  }
}
