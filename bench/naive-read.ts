import type { LiveState } from '../src/model/live-state';
import type { ZulipClient } from '../src/zulip/client';
import { liveStateFromRegister } from '../src/provider/read-live-state';
import type { RegisterResponse } from '../src/zulip/wire/register';
import type { WireSubscription } from '../src/zulip/wire/subscription';

/**
 * The baseline: how a naive tool reads an organization, with one list call per kind and one
 * `GET /streams/{id}/members` per channel, sequentially (the way a straightforward script or
 * a per-resource Terraform provider does it). It builds the same LiveState as
 * `readLiveState` (through the same mapping), so the two reads feed the planner identical
 * data and only the read strategy differs.
 *
 * Requests: `GET /server_settings`, `GET /users/me`, `GET /users`, `GET /user_groups`,
 * `GET /streams`, one `GET /streams/{id}/members` per channel, `GET /users/me/subscriptions`,
 * `GET /realm/linkifiers`, `GET /saved_snippets`, `GET /channel_folders`: 9 + channels.
 * (Zulip has no list endpoint for code playgrounds; the bench organization has none.)
 */
export async function readLiveStateNaively(client: ZulipClient): Promise<LiveState> {
  const before = client.requestCount;
  const settings = await client.getServerSettings();
  const me = await client.getOwnUser();
  const users = (await client.getUsers()).members;
  const groups = (await client.getUserGroups({ include_deactivated_groups: true })).user_groups;
  const streams = (
    await client.getStreams({ include_all: true, exclude_archived: false, include_default: true })
  ).streams;
  const withSubscribers: WireSubscription[] = [];
  for (const s of streams) {
    const { subscribers } = await client.getStreamMembers(s.stream_id);
    withSubscribers.push({ ...s, subscribers });
  }
  const mine = (await client.getSubscriptions()).subscriptions;
  const linkifiers = (await client.getLinkifiers()).linkifiers;
  const snippets = (await client.getSavedSnippets()).saved_snippets;
  const folders = (await client.getChannelFolders({ include_archived: true })).channel_folders;

  const reg = {
    result: 'success',
    msg: '',
    zulip_feature_level: settings.zulip_feature_level,
    zulip_version: settings.zulip_version,
    user_id: me.user_id,
    email: me.email,
    realm_name: settings.realm_name ?? '',
    realm_users: users.filter((u) => u.is_active !== false),
    realm_non_active_users: users.filter((u) => u.is_active === false),
    realm_user_groups: groups,
    // Settings of the caller's own subscriptions first, then every channel with its subscribers.
    subscriptions: mine,
    never_subscribed: withSubscribers,
    streams,
    realm_linkifiers: linkifiers,
    saved_snippets: snippets,
    channel_folders: folders,
  } satisfies Partial<RegisterResponse> as RegisterResponse;
  const state = liveStateFromRegister(reg, { site: client.site, channelFolders: folders });
  return { ...state, requestCount: client.requestCount - before };
}
