import { channelNameKey, playgroundKey } from '../../model/address';
import type { LiveState } from '../../model/live-state';
import type { CreateChange } from '../plan-format';

/**
 * The ID of the object a create made, found by natural key in a fresh read, or undefined when
 * the create did not land. Used after a create whose outcome is unknown (a dropped connection,
 * a 5xx): Zulip creates are not idempotent, so apply never repeats one without this check.
 * `before` is the state read before writing: a snippet (titles are not unique) counts as
 * landed only if it is new.
 */
export function findCreated(
  change: CreateChange,
  live: LiveState,
  before: LiveState,
): number | undefined {
  const key = change.key;
  switch (change.kind) {
    case 'channel':
      return live.channels.find((c) => channelNameKey(c.name) === channelNameKey(key))?.id;
    case 'channelFolder':
      return live.channelFolders.find(
        (f) => !f.archived && channelNameKey(f.name) === channelNameKey(key),
      )?.id;
    case 'userGroup':
      return live.userGroups.find((g) => g.name === key)?.id;
    case 'linkifier':
      return live.linkifiers.find((l) => l.pattern === key)?.id;
    case 'playground':
      return live.playgrounds.find((p) => playgroundKey(p) === key)?.id;
    case 'savedSnippet': {
      const old = new Set(before.savedSnippets.map((s) => s.id));
      return live.savedSnippets.find((s) => s.title === key && !old.has(s.id))?.id;
    }
    case 'defaultChannelGroup':
      return live.defaultChannelGroups.find((g) => g.name === key)?.id;
    case 'customProfileField':
      // Labels are unique per organization (`unique_together`), as stored: stripped.
      return live.customProfileFields.find((f) => f.name === key.trim())?.id;
    case 'customEmoji': {
      // An archived emoji keeps its name: only a new, active one of that name is the create.
      const old = new Set(before.customEmoji.map((e) => e.id));
      return live.customEmoji.find((e) => e.name === key && !e.deactivated && !old.has(e.id))?.id;
    }
    case 'user':
    case 'subscriptionSettings':
    case 'organizationSettings':
      return undefined;
  }
}
