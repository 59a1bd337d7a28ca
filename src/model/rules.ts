import { RE2JS } from 're2js';
import { INVALID_GROUP_NAME_PREFIXES, LIMITS } from './kinds';
import { pyStrip } from './py-strip';

/**
 * Zulip's own validation rules, with Zulip's own messages. Synth uses them to reject bad
 * config before any request; the embedded server uses them to answer as Zulip does.
 * Each check returns the message Zulip would give, or undefined when the value is fine.
 */

/** Length in code points, as Python's `len` counts. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Zulip's `check_string_is_printable`: the 1-based position of the first control, surrogate
 * or unassigned character, or undefined.
 */
export function firstUnprintablePosition(s: string): number | undefined {
  let i = 0;
  for (const ch of s) {
    i++;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) return i;
  }
  return undefined;
}

export { pyStrip } from './py-strip';

/**
 * `UserProfile.NAME_INVALID_CHARS` (zerver/models/users.py): characters no full name may
 * contain, because they would break Zulip's mention syntax.
 */
export const NAME_INVALID_CHARS: readonly string[] = ['*', '`', '\\', '>', '"', '@'];

/** Why Zulip refuses a full name, with Zulip's own message. */
export type FullNameProblem =
  | { readonly reason: 'too-long' | 'empty' | 'format'; readonly message: string }
  | {
      readonly reason: 'invalid-character';
      readonly message: string;
      /** The first character Zulip objects to: unprintable, or one of {@link NAME_INVALID_CHARS}. */
      readonly character: string;
    };

/**
 * `check_full_name` (zerver/lib/users.py), in Zulip's order: on the stripped name its length,
 * emptiness, then unprintable or reserved characters; then a trailing `|<digits>` on the raw
 * value (Python's `\d` is any Unicode digit, its `$` also matches before a final newline).
 * `require_unique_names` is the caller's ({@link fullNameKey}). Undefined when Zulip accepts the name, which it
 * stores stripped ({@link pyStrip}).
 */
export function checkFullName(raw: string): FullNameProblem | undefined {
  const name = pyStrip(raw);
  if (codePointLength(name) > LIMITS.userFullName)
    return { reason: 'too-long', message: 'Name too long!' };
  if (name === '') return { reason: 'empty', message: 'Name must not be empty!' };
  for (const character of name) {
    if (firstUnprintablePosition(character) !== undefined || NAME_INVALID_CHARS.includes(character))
      return { reason: 'invalid-character', message: 'Invalid characters in name!', character };
  }
  if (/\|\p{Nd}+\n?$/u.test(raw)) return { reason: 'format', message: 'Invalid format!' };
  return undefined;
}

/**
 * A full name as `check_full_name` compares it when the organization's `require_unique_names`
 * is on ("Unique names required in this organization."): NFKC-normalized, then case-folded as
 * Python's `casefold` does. JavaScript has no case folding: each code point is upper- then
 * lower-cased on its own (whole strings would lower a final Σ to ς, which `casefold` folds to
 * σ), except the dotless ı, which `casefold` keeps apart from i; the capital sharp ẞ lowers to
 * ß, which folds to ss as `casefold` folds both. Checked against CPython's `casefold` for every
 * assigned code point: the keys differ only for letters whose NFKC mapping is newer than one
 * of the two Unicode tables. Zulip compares the stripped name with every other user's stored
 * one, bots and deactivated users included.
 */
export function fullNameKey(name: string): string {
  let key = '';
  for (const ch of pyStrip(name).normalize('NFKC'))
    key += ch === '\u0131' ? ch : ch.toUpperCase().toLowerCase();
  return key.replaceAll('\u00df', 'ss');
}

/**
 * The rule `check_stream_name` and `check_channel_folder_name` share, in Zulip's order and
 * words for `what` (`Channel`, `Channel folder`): not blank, at most `maxLength` code points,
 * printable.
 */
function checkChannelLikeName(what: string, name: string, maxLength: number): string | undefined {
  if (name.trim() === '') return `${what} name can't be empty.`;
  if (codePointLength(name) > maxLength)
    return `${what} name too long (limit: ${maxLength} characters).`;
  const pos = firstUnprintablePosition(name);
  if (pos !== undefined)
    return `Invalid character in ${what.toLowerCase()} name, at position ${pos}.`;
  return undefined;
}

/** `check_stream_name` (zerver/lib/streams.py). */
export function checkChannelName(
  name: string,
  maxLength: number = LIMITS.channelName,
): string | undefined {
  return checkChannelLikeName('Channel', name, maxLength);
}

/**
 * A channel description's length (`Stream.MAX_DESCRIPTION_LENGTH`, checked by the typed
 * endpoints' `ChannelDescription`), in Zulip's words for the parameter `varName`.
 */
export function checkChannelDescription(
  description: string,
  varName = 'description',
): string | undefined {
  if (codePointLength(description) > LIMITS.channelDescription)
    return `${varName} is too long (limit: ${LIMITS.channelDescription} characters)`;
  return undefined;
}

/** A channel description as Zulip stores it: each newline becomes a space (`do_change_stream_description`). */
export function storedChannelDescription(description: string): string {
  return description.replace(/\n/g, ' ');
}

/** A channel's privacy, the fields Zulip's cross-field rules look at. */
export interface ChannelPrivacy {
  readonly private: boolean;
  readonly webPublic: boolean;
  readonly historyPublicToSubscribers: boolean;
  readonly defaultChannel: boolean;
}

/** Which cross-field rule a channel's privacy breaks. */
export type ChannelPrivacyRule =
  | 'web-public-protected-history'
  | 'web-public-private'
  | 'public-protected-history'
  | 'default-private';

const CHANNEL_PRIVACY_RULES: readonly {
  readonly rule: ChannelPrivacyRule;
  readonly message: string;
  readonly breaks: (c: ChannelPrivacy) => boolean;
}[] = [
  {
    rule: 'web-public-protected-history',
    message: 'Invalid parameters',
    breaks: (c) => c.webPublic && !c.historyPublicToSubscribers,
  },
  {
    rule: 'web-public-private',
    message: 'Invalid parameters',
    breaks: (c) => c.webPublic && c.private,
  },
  {
    rule: 'public-protected-history',
    message: 'Invalid parameters',
    breaks: (c) => !c.private && !c.historyPublicToSubscribers,
  },
  {
    rule: 'default-private',
    message: 'A default channel cannot be private.',
    breaks: (c) => c.private && c.defaultChannel,
  },
];

/**
 * The cross-field channel rules Zulip's `update_stream_backend` (zerver/views/streams.py)
 * checks on the proposed privacy, every one `c` breaks, in Zulip's order, with Zulip's message:
 * web-public needs public history and a public channel; a public channel has public history;
 * a default channel is not private (`do_add_default_stream`'s "A default channel cannot be
 * private."). A web-public channel with protected history always breaks a second rule too.
 */
export function channelPrivacyProblems(
  c: ChannelPrivacy,
): { readonly rule: ChannelPrivacyRule; readonly message: string }[] {
  return CHANNEL_PRIVACY_RULES.filter((r) => r.breaks(c)).map(({ rule, message }) => ({
    rule,
    message,
  }));
}

/** `check_channel_folder_name` (zerver/lib/channel_folders.py), without the uniqueness check. */
export function checkChannelFolderName(
  name: string,
  maxLength: number = LIMITS.channelFolderName,
): string | undefined {
  return checkChannelLikeName('Channel folder', name, maxLength);
}

const FOLDER_RENAME_MARK = ' (renaming)';

/**
 * The name a channel folder holds between the two steps of a case-only rename. Zulip's
 * `check_channel_folder_name` compares names case-insensitively against every active folder,
 * the renamed one included, so `ops` cannot become `Ops` in one step ("Channel folder name
 * already in use"): it becomes this first. The planner matches a live folder under this name to
 * the declared `name`, so an apply stopped between the steps is finished by the next one.
 */
export function folderRenameStandIn(
  name: string,
  maxLength: number = LIMITS.channelFolderName,
): string {
  const room = Math.max(1, maxLength - FOLDER_RENAME_MARK.length);
  return `${[...name].slice(0, room).join('')}${FOLDER_RENAME_MARK}`;
}

/** `check_user_group_name` (zerver/lib/user_groups.py). */
export function checkUserGroupName(name: string): string | undefined {
  if (name.trim() === '') return "User group name can't be empty!";
  if (codePointLength(name) > LIMITS.userGroupName)
    return `User group name cannot exceed ${LIMITS.userGroupName} characters.`;
  for (const prefix of INVALID_GROUP_NAME_PREFIXES) {
    if (name.startsWith(prefix)) return `User group name cannot start with '${prefix}'.`;
  }
  return undefined;
}

/**
 * `check_default_stream_group_name` (zerver/actions/default_streams.py): not blank, at most
 * 60 characters, no NULL character. Zulip stores the name as given (it does not strip it).
 */
export function checkDefaultChannelGroupName(name: string): string | undefined {
  if (pyStrip(name) === '') return `Invalid default channel group name '${name}'`;
  if (codePointLength(name) > LIMITS.defaultChannelGroupName)
    return `Default channel group name too long (limit: ${LIMITS.defaultChannelGroupName} characters)`;
  if (name.includes('\0'))
    return `Default channel group name '${name}' contains NULL (0x00) characters.`;
  return undefined;
}

/**
 * A stripped string parameter with a minimum length of 1 and a maximum, as Zulip's
 * typed endpoints check it (`title cannot be blank`, `title is too long (limit: 60 characters)`).
 */
export function checkBoundedText(
  varName: string,
  value: string,
  maxLength: number,
): string | undefined {
  const stripped = value.trim();
  if (stripped === '') return `${varName} cannot be blank`;
  if (codePointLength(stripped) > maxLength)
    return `${varName} is too long (limit: ${maxLength} characters)`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Regular expressions: Zulip compiles linkifier patterns with google-re2. re2js reports the
// same errors in Go's words; map them to RE2's C++ words, which is what Zulip users see.

const RE2_MESSAGES: Record<string, string> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'bad repetition size',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid named capture': 'invalid named capture group',
  'trailing backslash at end of expression': 'trailing \\',
};

/** Compiles with RE2 semantics; returns the named groups or RE2's error text. */
export function compileRe2(pattern: string): { groups: string[] } | { error: string } {
  try {
    const re = RE2JS.compile(pattern);
    return { groups: Object.keys(re.namedGroups()).sort() };
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    const m = /^error parsing regexp: (.*?)(?:: `(.*)`)?$/s.exec(raw);
    if (!m?.[1]) return { error: raw };
    const text = RE2_MESSAGES[m[1]] ?? m[1];
    return { error: m[2] === undefined ? text : `${text}: ${m[2]}` };
  }
}

// ---------------------------------------------------------------------------------------------
// URL templates: Zulip validates them with Python's `uri_template` package (RFC 6570, with that
// package's leniency on literals). This follows its parser rule for rule.

const OPERATORS = '+#./;?&,';
const RESERVED_OPERATORS = '=!@|';
const VAR_START = /^[A-Za-z0-9_%]/;
const VAR_CHAR = /[A-Za-z0-9_.]/;
const HEX = /[0-9A-Fa-f]/;

function parseVariable(spec: string): string {
  if (spec === '' || !VAR_START.test(spec)) throw new Error(`Bad variable: ${spec}`);
  let s = spec;
  const eq = s.indexOf('=');
  if (eq >= 0) s = s.slice(0, eq);
  const colon = s.indexOf(':');
  if (colon >= 0) {
    const max = s.slice(colon + 1);
    s = s.slice(0, colon);
    if (!/^[0-9]{1,3}$/.test(max) || Number(max) === 0) throw new Error(`Bad variable: ${spec}`);
  } else if (s.endsWith('[]')) {
    s = s.slice(0, -2);
  } else if (s.endsWith('*')) {
    s = s.slice(0, -1);
  }
  let name = '';
  let key = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '%' && i + 2 < s.length && HEX.test(s[i + 1] ?? '') && HEX.test(s[i + 2] ?? '')) {
      key += s.slice(i, i + 3);
      i += 2;
    } else if (VAR_CHAR.test(c)) {
      key += c;
    } else if (c === '/') {
      name = key;
      key = '';
    } else {
      throw new Error(`Bad variable: ${spec}`);
    }
  }
  return name || key;
}

/** The variable names of an RFC 6570 template, or undefined when it is not a valid template. */
export function uriTemplateVariables(template: string): string[] | undefined {
  const names: string[] = [];
  try {
    for (const part of template.split(/(\{[^}]*\})/)) {
      if (!part) continue;
      if (part.startsWith('{') && part.endsWith('}') && part.length >= 2) {
        const body = part.slice(1, -1);
        let vars: string;
        if (/^([A-Za-z0-9_]|%[0-9A-Fa-f]{2})/.test(body)) vars = body;
        else {
          const op = part[1] ?? '';
          if (op === ',' && part[2] === '+') vars = body.slice(2);
          else if (op !== '' && OPERATORS.includes(op)) vars = body.slice(1);
          else if (op !== '' && RESERVED_OPERATORS.includes(op))
            throw new Error(`Unsupported expansion: ${part}`);
          else throw new Error(`Bad expansion: ${part}`);
        }
        for (const spec of vars.split(',')) {
          const name = parseVariable(spec);
          if (!names.includes(name)) names.push(name);
        }
      } else if (part.includes('{') || part.includes('}')) {
        throw new Error(`Bad expansion: ${part}`);
      }
    }
  } catch {
    return undefined;
  }
  return names;
}

/** `uri_template.validate`. */
export function isValidUriTemplate(template: string): boolean {
  return uriTemplateVariables(template) !== undefined;
}

/**
 * The checks of Zulip's linkifier model (`RealmFilter.full_clean`), first error only:
 * blank pattern, RE2 syntax, URL template, then named groups against template variables.
 */
export function checkLinkifier(pattern: string, urlTemplate: string): string | undefined {
  if (pattern === '') return 'This field cannot be blank.';
  const compiled = compileRe2(pattern);
  if ('error' in compiled) return `Bad regular expression: ${compiled.error}`;
  if (urlTemplate === '') return 'This field cannot be blank.';
  const variables = uriTemplateVariables(urlTemplate);
  if (variables === undefined) return 'Invalid URL template.';
  const groups = new Set(compiled.groups);
  const vars = new Set(variables);
  const missingInPattern = [...vars].filter((v) => !groups.has(v)).sort();
  if (missingInPattern[0] !== undefined)
    return `Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`;
  const missingInTemplate = [...groups].filter((g) => !vars.has(g)).sort();
  if (missingInTemplate[0] !== undefined)
    return `Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`;
  return undefined;
}

/** The pygments language rule of Zulip's playground model. */
export function checkPygmentsLanguage(language: string): string | undefined {
  if (codePointLength(language) > LIMITS.playgroundLanguage)
    return `pygments_language is too long (limit: ${LIMITS.playgroundLanguage} characters)`;
  // The character class is Zulip's own; `+-.` is a range that also admits a comma.
  if (!/^[ a-zA-Z0-9_+-./#]*$/.test(language)) return 'Invalid characters in pygments language';
  return undefined;
}

/** The URL template rule of Zulip's playground model: valid, with `code` as its only variable. */
export function checkPlaygroundTemplate(urlTemplate: string): string | undefined {
  const variables = uriTemplateVariables(urlTemplate);
  if (variables === undefined) return 'Invalid URL template.';
  if (!variables.includes('code'))
    return 'Missing the required variable "code" in the URL template';
  if (variables.length !== 1)
    return '"code" should be the only variable present in the URL template';
  return undefined;
}

/** Zulip's hex colour check for subscription colours (`#abc` or `#aabbcc`). */
export function isHexColor(value: string): boolean {
  return /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);
}
export * from './custom-profile-fields';
export * from './domains';
