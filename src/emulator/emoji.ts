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
};
