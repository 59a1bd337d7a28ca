import { badRequest } from './errors';
import type { OrgState } from './state';

/**
 * A small table of Unicode emoji names and codes (Zulip ships the full table). Names outside it
 * are refused as Zulip refuses unknown names ("Emoji 'x' does not exist").
 */
export const UNICODE_EMOJI: Record<string, string> = {
  smile: '1f642',
  slight_smile: '1f642',
  grinning: '1f600',
  heart: '2764',
  tada: '1f389',
  car: '1f697',
  palm_tree: '1f334',
  calendar: '1f4c6',
  house: '1f3e0',
  airplane: '2708',
  coffee: '2615',
  sick: '1f912',
  octopus: '1f419',
  thumbs_up: '1f44d',
  '+1': '1f44d',
  eyes: '1f440',
  rocket: '1f680',
  check: '2705',
  working_on_it: '1f6e0',
  hamburger: '1f354',
  smiley: '1f603',
  laughing: '1f606',
  laptop: '1f4bb',
};

/** zerver/lib/emoji.py `get_emoji_data`: an active custom emoji first, then `zulip`, then Unicode. */
export function getEmojiData(org: OrgState, name: string): { code: string; type: string } {
  const custom = (org.emoji ?? []).find((e) => e.name === name && !e.deactivated);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  if (name === 'zulip') return { code: 'zulip', type: 'zulip_extra_emoji' };
  const code = UNICODE_EMOJI[name];
  if (code === undefined) throw badRequest(`Emoji '${name}' does not exist`);
  return { code, type: 'unicode_emoji' };
}

/** zerver/lib/emoji.py `check_emoji_request`: whether a code is valid for a new reaction or status. */
export function checkEmojiRequest(org: OrgState, name: string, code: string, type: string): void {
  if (type === 'realm_emoji') {
    const custom = (org.emoji ?? []).find((e) => String(e.id) === code);
    if (!custom) throw badRequest('Invalid custom emoji.');
    if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (type === 'zulip_extra_emoji') {
    if (code !== 'zulip') throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!Object.values(UNICODE_EMOJI).includes(code)) throw badRequest('Invalid emoji code.');
    if (UNICODE_EMOJI[name] !== code) throw badRequest('Invalid emoji name.');
  } else throw badRequest('Invalid emoji type.');
}
