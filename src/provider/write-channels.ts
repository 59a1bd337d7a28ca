import { ZulipCdkError, isZulipCdkError } from '../model/errors';
import { supports } from '../model/features';
import { TOPICS_POLICIES } from '../model/kinds';
import type { TopicsPolicy } from '../model/kinds';
import {
  CHANNEL_PERMISSIONS,
  CHANNEL_SETTINGS_ZULIP_ORDER,
  IGNORED_BY_CREATE_CHANNEL,
} from '../model/permissions';
import type { ApplyContext, SubscribeCall, UnsubscribeCall } from '../engine/apply';
import type {
  CreateChange,
  JsonValue,
  MembershipChange,
  PropertyChange,
  UpdateChange,
} from '../engine/plan-format';
import type { ZulipClient } from '../zulip/client';
import type {
  ChannelCreationSettings,
  ChannelGroupSettingName,
  UpdateStreamParams,
} from '../zulip/wire/channel';
import type { GroupSettingUpdate, MessageRetentionParam } from '../zulip/wire/common';
import { createdId, setFlag, text, withOld } from './write-values';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function retention(v: JsonValue | undefined): MessageRetentionParam | undefined {
  if (typeof v === 'number' || v === 'unlimited' || v === 'realm_default') return v;
  return undefined;
}

function topicsPolicy(v: JsonValue | undefined): TopicsPolicy | undefined {
  return typeof v === 'string' && (TOPICS_POLICIES as readonly string[]).includes(v)
    ? (v as TopicsPolicy)
    : undefined;
}

function wireOf(property: string): ChannelGroupSettingName | undefined {
  const name = property.startsWith('permissions.') ? property.slice('permissions.'.length) : '';
  const info = (CHANNEL_PERMISSIONS as Record<string, { wire: string } | undefined>)[name];
  return info?.wire as ChannelGroupSettingName | undefined;
}

/** A new channel's settings, as `POST /channels/create` and the subscribe call take them. */
function creationSettings(change: CreateChange, ctx: ApplyContext): ChannelCreationSettings {
  const p = change.properties;
  const out: Mutable<ChannelCreationSettings> & Record<string, unknown> = {
    invite_only: p.private === true,
    is_web_public: p.webPublic === true,
    history_public_to_subscribers: p.historyPublicToSubscribers !== false,
    is_default_stream: p.defaultChannel === true,
    announce: p.announce === true,
  };
  const r = retention(p.messageRetentionDays);
  // The organization's default needs no parameter (and changing retention needs an owner).
  if (r !== undefined && r !== 'realm_default') out.message_retention_days = r;
  const tp = topicsPolicy(p.topicsPolicy);
  // `inherit` is the default: no parameter.
  if (tp !== undefined && tp !== 'inherit' && supports(ctx.featureLevel, 'topicsPolicy'))
    out.topics_policy = tp;
  if (typeof p.folder === 'string') out.folder_id = ctx.folderId(p.folder);
  for (const [property, value] of Object.entries(p)) {
    const wire = wireOf(property);
    if (wire !== undefined && value !== undefined) out[wire] = ctx.wireGroupSetting(value);
  }
  return out;
}

/**
 * Creates a channel with all its settings and its initial subscribers in one request:
 * `POST /channels/create` (FL 417), else `POST /users/me/subscriptions`, which creates a missing
 * channel with the request's settings. New subscribers are not messaged unless the
 * configuration asks (`announce`).
 */
export async function createChannel(
  client: ZulipClient,
  change: CreateChange,
  ctx: ApplyContext,
  fold: MembershipChange | undefined,
  alsoSubscribeMe: boolean,
): Promise<number> {
  const name = typeof change.properties.name === 'string' ? change.properties.name : change.key;
  const description =
    typeof change.properties.description === 'string' ? change.properties.description : '';
  const settings = creationSettings(change, ctx);
  const subscribers = new Set((fold?.add ?? []).map((u) => u.id));
  if (alsoSubscribeMe) subscribers.add(ctx.me.userId);
  const notify = fold?.notify === true;
  const silence = supports(ctx.featureLevel, 'sendNewSubscriptionMessages')
    ? { send_new_subscription_messages: notify }
    : {};
  if (supports(ctx.featureLevel, 'channelsCreate')) {
    // `create_channel` takes no `send_new_subscription_messages`: it never messages the
    // subscribers a channel is created with.
    const res = await client.createChannel({
      name,
      description,
      subscribers: [...subscribers].sort((a, b) => a - b),
      ...settings,
    });
    await settleIgnoredCreateSettings(client, res.id, change, ctx);
    return res.id;
  }
  // Without POST /channels/create the subscribe call creates the channel; it needs at least
  // one principal, so the applying account stands in (and leaves again if it is not wanted).
  const standIn = subscribers.size === 0;
  const principals = standIn ? [ctx.me.userId] : [...subscribers].sort((a, b) => a - b);
  await client.subscribe({
    subscriptions: [{ name, description }],
    principals,
    ...settings,
    ...silence,
  });
  const id = await channelIdByName(client, name);
  if (standIn && fold !== undefined)
    await client.unsubscribe({ subscriptions: [name], principals: [ctx.me.userId] });
  return id;
}

async function settleIgnoredCreateSettings(
  client: ZulipClient,
  id: number,
  change: CreateChange,
  ctx: ApplyContext,
): Promise<void> {
  const settings: Partial<Record<ChannelGroupSettingName, GroupSettingUpdate>> = {};
  for (const name of IGNORED_BY_CREATE_CHANNEL) {
    const value = change.properties[`permissions.${name}`];
    const info = CHANNEL_PERMISSIONS[name];
    if (value === undefined || value === info.default) continue;
    settings[info.wire] = { new: ctx.wireGroupSetting(value) };
  }
  if (Object.keys(settings).length > 0) await client.updateStream(id, settings);
}

async function channelIdByName(client: ZulipClient, name: string): Promise<number> {
  // The subscribe call answers with names only; the account subscribed itself or others, so
  // the channel is visible to it (an admin sees every channel).
  const res = await client.getStreams({ include_all: true, exclude_archived: false });
  const lower = name.trim().toLowerCase();
  const c = res.streams.find((s) => s.name.toLowerCase() === lower);
  return createdId(c?.stream_id, `The channel '${name}'`);
}

/**
 * Updates a channel: its plain fields in one `PATCH /streams/{id}`, its group settings as
 * `{new, old}` in a second one. Kept apart, an `old` mismatch cannot be mistaken for a refused
 * plain field. Zulip writes the group settings of one request one transaction each, in its own
 * order (`update_stream_backend`), so a mismatch may leave earlier settings written: the
 * {@link ChannelSettingsMismatch} error names them.
 *
 * Two rules of `update_stream_backend` shape the requests:
 * - `is_private` without `history_public_to_subscribers` resets history to `not is_private`.
 *   A channel made private whose history stays public (no history change in the plan: a
 *   public channel's history is always public) sends `history_public_to_subscribers: true`.
 * - Protected history needs `can_create_topic_group` to be the everyone group (FL 441,
 *   `validate_can_create_topic_group_setting_for_protected_history_streams`), checked against
 *   the value in the same request: a change of that setting travels with the privacy fields.
 */
export async function updateChannel(
  client: ZulipClient,
  change: UpdateChange,
  ctx: ApplyContext,
): Promise<void> {
  const id = change.liveId ?? ctx.channelId(change.key);
  const fields: Mutable<UpdateStreamParams> = {};
  const settings: Partial<Record<ChannelGroupSettingName, GroupSettingUpdate>> = {};
  for (const p of change.properties) applyProperty(p, fields, settings, ctx);
  if (fields.is_private === true && fields.history_public_to_subscribers === undefined)
    fields.history_public_to_subscribers = true;
  const privacy =
    fields.is_private !== undefined || fields.history_public_to_subscribers !== undefined;
  const withFields: Partial<Record<ChannelGroupSettingName, GroupSettingUpdate>> = {};
  if (privacy && settings.can_create_topic_group !== undefined) {
    withFields.can_create_topic_group = settings.can_create_topic_group;
    delete settings.can_create_topic_group;
  }
  if (Object.keys(fields).length > 0)
    await sendSettings(client, id, { ...fields, ...withFields }, Object.keys(withFields), []);
  const names = Object.keys(settings);
  if (names.length > 0) await sendSettings(client, id, settings, names, Object.keys(fields));
}

/**
 * Zulip refused a channel's group settings with `EXPECTATION_MISMATCH`: someone changed one of
 * them since the plan. Zulip writes the settings of a request one at a time and stops at the
 * mismatch, so those it checks earlier may have been written (`mayHaveLanded`); `landed` are
 * the plain fields written by an earlier request of the same change.
 */
export class ChannelSettingsMismatch extends ZulipCdkError {
  public constructor(
    public readonly settings: readonly string[],
    public readonly mayHaveLanded: readonly string[],
    public readonly landed: readonly string[],
    cause: unknown,
  ) {
    const parts = [
      `Zulip refused the channel's group settings (${settings.join(', ')}): one of them changed since the plan.`,
    ];
    if (mayHaveLanded.length > 0)
      parts.push(
        `Zulip writes them one at a time, so these may have been written before the mismatch: ${mayHaveLanded.join(', ')}.`,
      );
    if (landed.length > 0) parts.push(`Written before: ${landed.join(', ')}.`);
    super('EXPECTATION_MISMATCH', parts.join(' '), {
      hint: 'Plan again: the new plan shows what is left.',
      cause,
    });
  }
}

async function sendSettings(
  client: ZulipClient,
  id: number,
  params: UpdateStreamParams,
  settings: readonly string[],
  landed: readonly string[],
): Promise<void> {
  try {
    await client.updateStream(id, params);
  } catch (e) {
    if (!isZulipCdkError(e, 'EXPECTATION_MISMATCH')) throw e;
    // Every setting Zulip checks before the mismatching one may have been written, in its own
    // order; which one mismatched, Zulip does not say.
    const ordered = CHANNEL_SETTINGS_ZULIP_ORDER.filter((s) => settings.includes(s));
    throw new ChannelSettingsMismatch(ordered, ordered.slice(0, -1), landed, e);
  }
}

/** The channel's yes/no properties, by the `PATCH /streams/{id}` parameter of each. */
const CHANNEL_FLAGS = {
  private: 'is_private',
  webPublic: 'is_web_public',
  historyPublicToSubscribers: 'history_public_to_subscribers',
  defaultChannel: 'is_default_stream',
} as const satisfies Record<string, keyof UpdateStreamParams>;

function applyProperty(
  p: PropertyChange,
  fields: Mutable<UpdateStreamParams>,
  settings: Partial<Record<ChannelGroupSettingName, GroupSettingUpdate>>,
  ctx: ApplyContext,
): void {
  const wire = wireOf(p.property);
  if (wire !== undefined) {
    settings[wire] = {
      new: ctx.wireGroupSetting(p.after),
      ...withOld(p.old),
    };
    return;
  }
  if (setFlag(fields, CHANNEL_FLAGS, p)) return;
  switch (p.property) {
    case 'name':
      fields.new_name = text(p.after);
      return;
    case 'description':
      fields.description = text(p.after);
      return;
    case 'messageRetentionDays': {
      const r = retention(p.after);
      if (r !== undefined) fields.message_retention_days = r;
      return;
    }
    case 'topicsPolicy': {
      const tp = topicsPolicy(p.after);
      if (tp !== undefined) fields.topics_policy = tp;
      return;
    }
    case 'folder':
      fields.folder_id = typeof p.after === 'string' ? ctx.folderId(p.after) : null;
      return;
    default:
      throw new ZulipCdkError(
        'PLAN_INVALID',
        `The plan changes a channel property zulip-cdk cannot write: ${p.property}`,
      );
  }
}

/** One `POST /users/me/subscriptions`: many channels × many principals, silently by default. */
export async function subscribe(
  client: ZulipClient,
  call: SubscribeCall,
  ctx: ApplyContext,
): Promise<void> {
  await client.subscribe({
    subscriptions: call.channels.map((name) => ({ name })),
    principals: call.principals,
    announce: false,
    ...(supports(ctx.featureLevel, 'sendNewSubscriptionMessages')
      ? { send_new_subscription_messages: call.notify }
      : {}),
  });
}

/** One `DELETE /users/me/subscriptions`: many channels × many principals. */
export async function unsubscribe(client: ZulipClient, call: UnsubscribeCall): Promise<void> {
  await client.unsubscribe({ subscriptions: call.channels, principals: call.principals });
}
