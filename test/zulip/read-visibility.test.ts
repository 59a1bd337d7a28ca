/**
 * What a register response means for an account that is not an administrator: Zulip fills
 * `subscribers: []` for every channel whose subscribers the account may not see
 * (zerver/lib/subscription_info.py `bulk_get_subscriber_user_ids` and
 * `validate_user_access_to_subscribers_helper`). The reader must make those "unknown" (null),
 * or a plan would subscribe everyone again.
 */
import { plan } from '../../src/engine';
import { emptyDesiredState, ROLES } from '../../src/model';
import { liveStateFromRegister } from '../../src/provider/read-live-state';
import { RegisterResponseSchema } from '../../src/zulip/wire/register';

const ME = 10;
const OTHER = 11;
const ENGINEERS = 100;

function channel(id: number, name: string, o: Record<string, unknown> = {}): object {
  return {
    stream_id: id,
    name,
    description: '',
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    can_administer_channel_group: 1,
    can_add_subscribers_group: 1,
    can_subscribe_group: 1,
    ...o,
  };
}

function register(
  role: number,
  lists: { subscriptions?: object[]; unsubscribed?: object[]; never?: object[] },
) {
  return RegisterResponseSchema.parse({
    result: 'success',
    msg: '',
    zulip_feature_level: 442,
    zulip_version: '12.0-dev',
    user_id: ME,
    realm_users: [
      { user_id: ME, email: 'me@x', full_name: 'Me', is_bot: false, role },
      { user_id: OTHER, email: 'other@x', full_name: 'Other', is_bot: false, role: ROLES.member },
    ],
    realm_user_groups: [
      {
        id: 1,
        name: 'role:nobody',
        description: '',
        members: [],
        direct_subgroup_ids: [],
        is_system_group: true,
      },
      {
        id: ENGINEERS,
        name: 'engineers',
        description: '',
        members: [ME],
        direct_subgroup_ids: [],
        is_system_group: false,
      },
      {
        id: 101,
        name: 'all-eng',
        description: '',
        members: [],
        direct_subgroup_ids: [ENGINEERS],
        is_system_group: false,
      },
    ],
    subscriptions: lists.subscriptions ?? [],
    unsubscribed: lists.unsubscribed ?? [],
    never_subscribed: lists.never ?? [],
  });
}

const subscribers = (role: number, lists: Parameters<typeof register>[1]) =>
  Object.fromEntries(
    liveStateFromRegister(register(role, lists), { site: 'https://x' }).channels.map((c) => [
      c.name,
      c.subscribers,
    ]),
  );

describe('subscriber visibility (validate_user_access_to_subscribers_helper)', () => {
  it('a member who left a private channel cannot see its subscribers: unknown, not nobody', () => {
    expect(
      subscribers(ROLES.member, {
        subscriptions: [channel(1, 'mine', { invite_only: true, subscribers: [ME, OTHER] })],
        unsubscribed: [channel(2, 'left', { invite_only: true, subscribers: [] })],
        never: [channel(3, 'public', { subscribers: [OTHER] })],
      }),
    ).toEqual({ mine: [ME, OTHER], left: null, public: [OTHER] });
  });

  it('metadata access through a group (nested) shows them', () => {
    expect(
      subscribers(ROLES.member, {
        never: [
          channel(4, 'admin-by-group', {
            invite_only: true,
            can_administer_channel_group: 101,
            subscribers: [OTHER],
          }),
          channel(5, 'adder', {
            invite_only: true,
            can_add_subscribers_group: { direct_members: [ME], direct_subgroups: [] },
            subscribers: [OTHER],
          }),
        ],
      }),
    ).toEqual({ 'admin-by-group': [OTHER], adder: [OTHER] });
  });

  it('an administrator sees every channel; a guest only subscribed and web-public ones', () => {
    const lists = {
      unsubscribed: [channel(2, 'left', { invite_only: true, subscribers: [OTHER] })],
      never: [
        channel(3, 'public', { subscribers: [OTHER] }),
        channel(6, 'web', { is_web_public: true, subscribers: [OTHER] }),
      ],
    };
    expect(subscribers(ROLES.administrator, lists)).toEqual({
      left: [OTHER],
      public: [OTHER],
      web: [OTHER],
    });
    expect(subscribers(ROLES.guest, lists)).toEqual({ left: null, public: null, web: [OTHER] });
  });

  it('a plan does not subscribe anyone to a channel whose subscribers it cannot see', () => {
    const live = liveStateFromRegister(
      register(ROLES.member, {
        unsubscribed: [
          channel(2, 'left', {
            invite_only: true,
            history_public_to_subscribers: false,
            subscribers: [],
          }),
        ],
      }),
      { site: 'https://x' },
    );
    const d = emptyDesiredState('acme');
    d.channels.push({
      path: 'acme/left',
      name: 'left',
      private: true,
      permissions: {},
      subscribers: { mode: 'atLeast', users: ['other@x'], groups: [] },
    });
    const p = plan(d, live);
    expect(p.changes.filter((c) => c.action === 'membership')).toEqual([]);
    expect(p.warnings.map((w) => w.code)).toContain('SUBSCRIBERS_NOT_VISIBLE');
  });
});
