import { sendableOld } from '../model/group-setting';
import type { WireGroupSettingValue } from '../model/live-state';
import { ZulipCdkError } from '../model/errors';
import type { JsonValue, PropertyChange } from '../engine/plan-format';

/** A plan value that must be a string (a name, a description, a role). */
export function text(v: JsonValue | undefined, what = 'value'): string {
  if (typeof v === 'string') return v;
  throw new ZulipCdkError(
    'PLAN_INVALID',
    `The plan has ${JSON.stringify(v)} where a string ${what} belongs.`,
  );
}

/** `{old}` for a group-setting change, when Zulip can accept one (see {@link sendableOld}). */
export function withOld(old: WireGroupSettingValue | undefined): { old?: WireGroupSettingValue } {
  const sendable = sendableOld(old);
  return sendable === undefined ? {} : { old: sendable };
}

/**
 * The ID of an object a create made that Zulip answered without one, as a read right after
 * found it; an error when the read did not find it.
 */
export function createdId(found: number | undefined, what: string): number {
  if (found === undefined)
    throw new ZulipCdkError('UNEXPECTED_RESPONSE', `${what} was created but cannot be found.`);
  return found;
}

/**
 * Sets the wire parameter of a yes/no property's change, from a kind's table of them
 * (`{ private: 'is_private' }`); false when the change is not of one of them.
 */
export function setFlag<W extends string>(
  params: { [K in W]?: boolean | undefined },
  flags: Readonly<Record<string, W>>,
  change: PropertyChange,
): boolean {
  if (!Object.hasOwn(flags, change.property)) return false;
  params[flags[change.property] as W] = change.after === true;
  return true;
}
