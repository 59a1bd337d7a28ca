/** Declared values as Zulip stores them, for comparing them with live ones. */

/**
 * A declared channel description as Zulip stores it: newlines become spaces (PATCH /streams and
 * create). Whitespace at the ends is dropped too, so the plan converges whether or not the
 * server strips it (unverified).
 */
export function normaliseChannelDescription(description: string): string {
  return description.replace(/\r?\n/g, ' ').trim();
}

/**
 * A declared channel-folder description as the server stores it (the emulator strips it; what
 * Zulip does is unverified, NOTES 2.3): trimmed, so the plan converges either way.
 */
export function normaliseFolderDescription(description: string): string {
  return description.trim();
}

/** Live `message_retention_days` in desired-state terms. */
export function retentionToNatural(value: number | null): number | 'realm_default' | 'unlimited' {
  if (value === null) return 'realm_default';
  if (value === -1) return 'unlimited';
  return value;
}
