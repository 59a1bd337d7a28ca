import { botChannelMessage, sendChannelCreatedNotice } from './channel-notices';
import { realmProperty } from './realm-settings';
import type { RequestContext } from './router';
import type { StoredChannel, StoredUser } from './state';
import { sendNotificationDm, silentUserMention } from './system-bots';

/**
 * zerver/views/streams.py `send_user_subscribed_and_new_channel_notifications`: what Notification
 * Bot posts after a subscription request or a channel creation, sent together
 * (`do_send_messages(..., mark_as_read=[acting user])`) in this order:
 *
 * - a direct message to each newly subscribed user (`you_were_just_subscribed_message`) naming
 *   the channels they were added to that the request did not create, unless they subscribed
 *   themselves or are bots, and only when `dms` (send_new_subscription_messages and at most
 *   MAX_BULK_NEW_SUBSCRIPTION_MESSAGES users);
 * - with `announce` and created channels, one message in the organization's new channel
 *   announcements channel, topic "new channels" ("" in an empty-topic-only one);
 * - the "channel created" notice in each created channel, when the organization sends channel
 *   event messages.
 */
export function sendSubscribedAndNewChannelNotifications(
  ctx: RequestContext,
  n: {
    newSubscriptions: ReadonlyArray<readonly [StoredUser, readonly string[]]>;
    created: readonly StoredChannel[];
    announce: boolean;
    dms: boolean;
  },
): void {
  if (n.dms) {
    const createdNames = new Set(n.created.map((c) => c.name));
    for (const [user, names] of n.newSubscriptions) {
      if (user.id === ctx.user.id || user.isBot) continue;
      const notify = [...new Set(names)].filter((x) => !createdNames.has(x));
      if (notify.length > 0)
        sendNotificationDm(ctx, user, youWereJustSubscribedMessage(ctx.user, notify));
    }
  }
  if (n.announce && n.created.length > 0) announceNewChannels(ctx, n.created);
  for (const ch of n.created) sendChannelCreatedNotice(ctx, ch);
}

/** `you_were_just_subscribed_message`: channel names sorted (Python's code-point order). */
function youWereJustSubscribedMessage(acting: StoredUser, names: string[]): string {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const who = silentUserMention(acting);
  if (sorted.length === 1) return `${who} subscribed you to #**${sorted[0]}**.`;
  let message = `${who} subscribed you to the following channels:\n\n`;
  for (const name of sorted) message += `* #**${name}**\n`;
  // normalize_body: a message is stored without trailing whitespace.
  return message.trimEnd();
}

/** The new channel announcement, in the realm's `new_stream_announcements_stream` if set. */
function announceNewChannels(ctx: RequestContext, created: readonly StoredChannel[]): void {
  const target = realmProperty(ctx.org, 'new_stream_announcements_stream_id');
  const ch = ctx.org.channels.find((c) => c.id === target);
  if (ch === undefined) return;
  const who = silentUserMention(ctx.user);
  const links = created.map(streamLinkSyntax).join(', ');
  const content =
    created.length > 1
      ? `${who} created the following channels: ${links}.`
      : `${who} created a new channel ${links}.`;
  // Only the channel's own policy counts here, not the organization's it may inherit.
  const topic = ch.topicsPolicy === 'empty_topic_only' ? '' : 'new channels';
  botChannelMessage(ctx, ch, topic, content, { readBy: ctx.user.id });
}

/**
 * zerver/lib/topic_link_util.py `get_stream_link_syntax`: `#**name**`, or a plain Markdown
 * link when the name would break that syntax (`` ` ``, `>`, `*`, `&`, `[`, `]`, `$$`).
 */
export function streamLinkSyntax(ch: Pick<StoredChannel, 'id' | 'name'>): string {
  const broken = /[`>*&[\]]|\$\$/g;
  if (ch.name.search(broken) === -1) return `#**${ch.name}**`;
  const escaped = ch.name.replace(broken, (c) => ESCAPES[c] ?? c);
  return `[#${escaped}](#narrow/channel/${ch.id}-${encodeHashComponent(ch.name.replaceAll(' ', '-'))})`;
}

const ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

/**
 * zerver/lib/url_encoding.py `encode_hash_component`: `urllib.parse.quote(s, safe="*")` (letters,
 * digits, `_.-~*` kept, other UTF-8 bytes as `%XX`), then `%` → `.`, `(` → `.28`, `)` → `.29`,
 * `.` → `.2E`.
 */
function encodeHashComponent(s: string): string {
  let quoted = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    quoted += /[A-Za-z0-9_.\-~*]/.test(c)
      ? c
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  const replacements: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };
  return [...quoted].map((c) => replacements[c] ?? c).join('');
}
