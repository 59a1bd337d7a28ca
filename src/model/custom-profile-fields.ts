/**
 * Zulip's custom profile fields: the field types, the rules Zulip applies to a field's label,
 * hint and `field_data`, and to users' values, with Zulip's messages. Used by the construct
 * (synth), the planner and the embedded server, so that all three refuse the same things.
 * Every rule names the Zulip function it follows (zerver/views/custom_profile_fields.py,
 * zerver/lib/validator.py, zerver/lib/external_accounts.py, zerver/lib/users.py).
 */

import { resourceAddress } from './address';
import { nameByWireValue } from './kinds/vocabulary';

/** The field types by the construct's word, with their wire values (`CustomProfileField.*`). */
export const PROFILE_FIELD_TYPES = {
  'short-text': 1,
  'long-text': 2,
  choice: 3,
  date: 4,
  link: 5,
  user: 6,
  'external-account': 7,
  pronouns: 8,
} as const;
export type ProfileFieldType = keyof typeof PROFILE_FIELD_TYPES;
export const PROFILE_FIELD_TYPE_NAMES = Object.keys(PROFILE_FIELD_TYPES) as ProfileFieldType[];
/** The word of a wire field type, or undefined for an unknown one. */
export const profileFieldTypeName = nameByWireValue(PROFILE_FIELD_TYPES);

/** `CustomProfileField.NAME_MAX_LENGTH`, `HINT_MAX_LENGTH`, `MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS`. */
export const PROFILE_FIELD_LIMITS = {
  name: 40,
  hint: 80,
  summaryFields: 2,
  /** `check_short_string` (short text, external account, pronouns). */
  shortValue: 50,
  /** `check_long_string` (long text). */
  longValue: 500,
} as const;

/** The external account subtypes Zulip knows (`DEFAULT_EXTERNAL_ACCOUNTS`), and `custom`. */
export const EXTERNAL_ACCOUNT_SUBTYPES = ['twitter', 'github', 'custom'] as const;
export type ExternalAccountSubtype = (typeof EXTERNAL_ACCOUNT_SUBTYPES)[number];

/**
 * zerver/lib/external_accounts.py `DEFAULT_EXTERNAL_ACCOUNTS`: Zulip names such a field itself
 * (`try_add_realm_default_custom_profile_field` ignores the name and hint sent) and refuses to
 * change its name, hint or data ("Default custom field cannot be updated.").
 */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<
  Record<'twitter' | 'github', { name: string; hint: string; urlPattern: string }>
> = {
  twitter: {
    name: 'Twitter username',
    hint: '',
    urlPattern: 'https://twitter.com/%(username)s',
  },
  github: { name: 'GitHub username', hint: '', urlPattern: 'https://github.com/%(username)s' },
};

/** Types whose values cannot be shown in the profile summary (`validate_display_in_profile_summary_field`). */
export const NOT_IN_SUMMARY: readonly ProfileFieldType[] = ['long-text', 'user'];

/** A choice field's `field_data`: choice key → text and order (both strings). */
export type ChoiceFieldData = Record<string, { text: string; order: string }>;

/**
 * `validate_field_name_and_hint` on the stripped name: blank label, then the hint's length,
 * then the name's; undefined when both are fine.
 */
export function checkProfileFieldNameAndHint(name: string, hint: string): string | undefined {
  if (name.trim() === '') return 'Label cannot be blank.';
  if ([...hint].length > PROFILE_FIELD_LIMITS.hint)
    return `hint is too long (limit: ${PROFILE_FIELD_LIMITS.hint} characters)`;
  if ([...name].length > PROFILE_FIELD_LIMITS.name)
    return `name is too long (limit: ${PROFILE_FIELD_LIMITS.name} characters)`;
  return undefined;
}

/**
 * Django's `URLValidator` as Zulip's `check_url` uses it, closely enough for configuration: a
 * scheme of http, https, ftp or ftps, a host (a domain with a top-level domain, `localhost` or
 * an IPv4 address), an optional port, and no whitespace.
 */
export function isUrl(s: string): boolean {
  const m =
    /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?([^\s/?#:]+)(?::\d{1,5})?(?:[/?#]\S*)?$/i.exec(
      s,
    );
  if (!m?.[1]) return false;
  const host = m[1].toLowerCase();
  if (host === 'localhost') return true;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return host.split('.').every((o) => Number(o) < 256);
  const labels = host.split('.');
  const tld = labels.at(-1) ?? '';
  return (
    labels.length >= 2 &&
    labels.every((l) =>
      /^[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?$/i.test(l),
    ) &&
    /^(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})$/i.test(tld)
  );
}

/** `check_external_account_url_pattern`: exactly one `%(username)s`, and a URL with it filled in. */
export function checkUrlPattern(pattern: string): string | undefined {
  if (pattern.split('%(username)s').length !== 2) return "URL pattern must contain '%(username)s'.";
  if (!isUrl(pattern.replace('%(username)s', 'username')))
    return 'field_data["url_pattern"] is not a URL';
  return undefined;
}

/**
 * zerver/views/custom_profile_fields.py `validate_custom_field_data` for a choice field
 * (`validate_select_field_data`): at least one choice, non-blank keys, each choice a dict of
 * exactly `text` and `order`, both non-blank strings, no two with the same text.
 */
export function checkChoiceFieldData(data: Record<string, unknown>): string | undefined {
  const entries = Object.entries(data);
  if (entries.length < 1) return 'Field must have at least one choice.';
  const texts = new Set<string>();
  for (const [key, value] of entries) {
    if (key.trim() === '') return "'value' cannot be blank.";
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'field_data is not a dict';
    const v = value as Record<string, unknown>;
    for (const k of ['text', 'order']) {
      if (!(k in v)) return `${k} key is missing from field_data`;
      const s = v[k];
      if (typeof s !== 'string') return `field_data["${k}"] is not a string`;
      if (s.trim() === '') return `field_data["${k}"] cannot be blank.`;
    }
    const extra = Object.keys(v).filter((k) => k !== 'text' && k !== 'order');
    if (extra.length > 0) return `Unexpected arguments: ${extra.join(', ')}`;
    texts.add(v.text as string);
  }
  if (texts.size !== entries.length) return 'Field must not have duplicate choices.';
  return undefined;
}

/**
 * zerver/lib/external_accounts.py `validate_external_account_field_data`: a non-blank
 * `subtype`, an optional `url_pattern` and nothing else; the subtype `twitter`, `github` or
 * `custom`, and `custom` needs a URL pattern.
 */
export function checkExternalAccountFieldData(data: Record<string, unknown>): string | undefined {
  if (!('subtype' in data)) return 'subtype key is missing from field_data';
  const subtype = data.subtype;
  if (typeof subtype !== 'string') return 'field_data["subtype"] is not a string';
  if (subtype.trim() === '') return 'field_data["subtype"] cannot be blank.';
  if ('url_pattern' in data) {
    const p = data.url_pattern;
    if (typeof p !== 'string') return 'field_data["url_pattern"] is not a string';
    const problem = checkUrlPattern(p);
    if (problem) return problem;
  }
  const extra = Object.keys(data).filter((k) => k !== 'subtype' && k !== 'url_pattern');
  if (extra.length > 0) return `Unexpected arguments: ${extra.join(', ')}`;
  if (subtype !== 'twitter' && subtype !== 'github') {
    if (subtype !== 'custom') return 'Invalid external account type';
    if (!('url_pattern' in data)) return 'Custom external account must define URL pattern';
  }
  return undefined;
}

/** `check_date`: `YYYY-MM-DD` that Python's `date.fromisoformat(...).isoformat()` gives back. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate();
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 ? (leap ? 29 : 28) : days);
}

/**
 * zerver/lib/users.py `validate_user_custom_profile_field` for a value that is not a user
 * list: the field's type decides (`FIELD_VALIDATORS`, `validate_select_field`). `name` is the
 * field's label (Zulip's variable name in its messages); `choiceKeys` the keys of a choice
 * field. Undefined when Zulip takes the value.
 */
export function checkProfileTextValue(
  type: ProfileFieldType,
  name: string,
  value: string,
  choiceKeys: readonly string[] = [],
): string | undefined {
  switch (type) {
    case 'short-text':
    case 'external-account':
    case 'pronouns':
      return [...value].length > PROFILE_FIELD_LIMITS.shortValue
        ? `${name} is too long (limit: ${PROFILE_FIELD_LIMITS.shortValue} characters)`
        : undefined;
    case 'long-text':
      return [...value].length > PROFILE_FIELD_LIMITS.longValue
        ? `${name} is too long (limit: ${PROFILE_FIELD_LIMITS.longValue} characters)`
        : undefined;
    case 'date':
      return isIsoDate(value) ? undefined : `${name} is not a date`;
    case 'link':
      return isUrl(value) ? undefined : `${name} is not a URL`;
    case 'choice':
      return choiceKeys.includes(value)
        ? undefined
        : `'${value}' is not a valid choice for '${name}'.`;
    case 'user':
      return 'User IDs is not a list';
  }
}

/**
 * The `field_data` zulip-cdk sends for a choice field with these texts, in this order: a text
 * the live field already has keeps its key (Zulip deletes users' values whose key disappears,
 * `remove_custom_profile_field_value_if_required`); a new text gets the next number after the
 * largest numeric key in use. `order` is the position, from 1.
 * Deterministic: the planner and apply compute the same keys from the same live field.
 */
export function choiceFieldData(
  live: ChoiceFieldData | undefined,
  texts: readonly string[],
): ChoiceFieldData {
  const byText = new Map<string, string>();
  for (const [key, c] of Object.entries(live ?? {}))
    if (!byText.has(c.text)) byText.set(c.text, key);
  let next =
    Math.max(
      -1,
      ...Object.keys(live ?? {})
        .filter((k) => /^\d+$/.test(k))
        .map(Number),
    ) + 1;
  const out: ChoiceFieldData = {};
  texts.forEach((text, i) => {
    let key = byText.get(text);
    if (key === undefined) {
      while (Object.prototype.hasOwnProperty.call(live ?? {}, String(next))) next++;
      key = String(next++);
    }
    out[key] = { text, order: String(i + 1) };
  });
  return out;
}

/** A live choice field's texts, in Zulip's display order (`order` as a number, then key). */
export function choiceTexts(data: ChoiceFieldData): string[] {
  return Object.entries(data)
    .sort(
      ([ka, a], [kb, b]) => Number(a.order) - Number(b.order) || (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    .map(([, c]) => c.text);
}

/**
 * A live field's `field_data` (a JSON string; `""` for types that have none) as an object, or
 * undefined when it is empty or not JSON.
 */
export function parseFieldData(raw: string): Record<string, unknown> | undefined {
  if (raw === '') return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A choice field's data from its raw `field_data`, keeping only well-formed choices. */
export function choiceDataOf(raw: string): ChoiceFieldData {
  const out: ChoiceFieldData = {};
  for (const [k, v] of Object.entries(parseFieldData(raw) ?? {})) {
    if (typeof v !== 'object' || v === null) continue;
    const c = v as Record<string, unknown>;
    if (typeof c.text === 'string')
      out[k] = { text: c.text, order: typeof c.order === 'string' ? c.order : '0' };
  }
  return out;
}

/**
 * Where apply records the key a choice got when it created or changed a choice field (the
 * number is the key), so that users' values set in the same apply find it.
 */
export function choiceKeyAddress(field: string, text: string): string {
  return `${resourceAddress('customProfileField', field)}/choice[${JSON.stringify(text)}]`;
}

/** An external account field's `field_data`, or undefined when it is not one. */
export function externalAccountOf(
  raw: string,
): { subtype: string; urlPattern?: string } | undefined {
  const d = parseFieldData(raw);
  if (!d || typeof d.subtype !== 'string') return undefined;
  return typeof d.url_pattern === 'string'
    ? { subtype: d.subtype, urlPattern: d.url_pattern }
    : { subtype: d.subtype };
}

/** Whether an external account subtype is one Zulip names and fixes itself (`is_default_external_field`). */
export function isDefaultExternalAccount(
  subtype: string | undefined,
): subtype is 'twitter' | 'github' {
  return subtype === 'twitter' || subtype === 'github';
}
