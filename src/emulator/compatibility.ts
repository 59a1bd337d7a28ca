/**
 * What Zulip serves old clients differently, read from their `User-Agent`
 * (zerver/lib/compatibility.py, zerver/lib/user_agent.py).
 */
import { PROFILE_FIELD_TYPES } from '../model/custom-profile-fields';
import { InternalServerError } from './errors';

/**
 * zerver/lib/user_agent.py `parse_user_agent`: the client's name and version (the pattern
 * matches every string).
 */
function parseUserAgent(userAgent: string): { name: string; version: string | undefined } {
  const m = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/.exec(userAgent);
  return { name: m?.groups?.name ?? '', version: m?.groups?.version };
}

/** zerver/lib/compatibility.py `pop_numerals`: the leading dotted numbers and the rest. */
function popNumerals(ver: string): [number[], string] {
  const m = /^(\d+(?:\.\d+)*)(.*)/.exec(ver);
  if (m === null) return [[], ver];
  return [m[1]!.split('.').map(Number), m[2]!];
}

/**
 * zerver/lib/compatibility.py `version_lt`: whether `ver1` < `ver2`, by their dotted numbers
 * first; undefined when it cannot tell (Python's None).
 */
function versionLt(ver1: string, ver2: string): boolean | undefined {
  const [num1, rest1] = popNumerals(ver1);
  const [num2, rest2] = popNumerals(ver2);
  if (num1.length === 0 || num2.length === 0) return undefined;
  const common = Math.min(num1.length, num2.length);
  for (let i = 0; i < common; i++) if (num1[i] !== num2[i]) return num1[i]! < num2[i]!;
  const restNum1 = num1.length > common;
  const restNum2 = num2.length > common;
  // More numbers beat the end of the string; trailing text against more numbers is unknown.
  if (rest1 === '' && restNum2) return true;
  if (restNum1 && rest2 === '') return false;
  if (restNum1 || restNum2) return undefined;
  return rest1 === rest2 ? false : undefined;
}

/**
 * zerver/lib/compatibility.py `is_pronouns_field_type_supported`: false for the mobile app
 * (`ZulipMobile`) before 27.192, which shows pronouns fields as short text fields. A
 * `ZulipMobile` agent without a version fails there (`pop_numerals(None)` raises TypeError):
 * an internal server error.
 */
export function isPronounsFieldTypeSupported(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return true;
  const { name, version } = parseUserAgent(userAgent);
  if (name !== 'ZulipMobile') return true;
  if (version === undefined) throw new InternalServerError();
  return versionLt(version, '27.192') !== true;
}

/**
 * Profile fields as a client without the pronouns type gets them: PRONOUNS fields as
 * SHORT_TEXT (zerver/lib/events.py `fetch_initial_state_data`, Tornado's
 * `process_custom_profile_fields_event`). Copies; the fields given are not changed.
 */
export function withoutPronounsType(
  fields: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  return fields.map((f) =>
    f.type === PROFILE_FIELD_TYPES.pronouns ? { ...f, type: PROFILE_FIELD_TYPES['short-text'] } : f,
  );
}
