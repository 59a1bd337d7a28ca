/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON bodies are untyped by nature */
/**
 * POST /users/me/subscriptions, the view's own checks and its notifications
 * (zerver/views/streams.py `add_subscriptions_backend` and
 * `send_user_subscribed_and_new_channel_notifications`), ported from Zulip's
 * zerver/tests/test_subs.py (feature level 442). Zulip's test users map onto the demo
 * organization: hamlet is alice, iago is admin, desdemona is owner.
 */
import { expectError, expectSuccess } from '../support/emulator-client';
import { World } from './channels-support';

let w: World;
beforeEach(async () => {
  w = await World.start();
});
afterEach(() => w.close());

const subscribe = (who: string, names: string[], extra: Record<string, unknown> = {}) =>
  w.as(who).post('/users/me/subscriptions', {
    subscriptions: names.map((name) => ({ name })),
    ...extra,
  });

describe('test_subs.py SubscriptionAPITest.test_can_set_topics_policy_group', () => {
  const policy = JSON.stringify('allow_empty_topic');

  it('a member outside the group is refused; an administrator outside it is not (can_set_topics_policy)', async () => {
    w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:owners').id;
    expectError(
      await subscribe('alice', ['new_test_stream'], { topics_policy: policy }),
      'Insufficient permission',
    );
    expect(w.z.org.channels.some((c) => c.name === 'new_test_stream')).toBe(false);
    expectSuccess(await subscribe('admin', ['new_test_stream'], { topics_policy: policy }));
    expect(w.ch('new_test_stream').topicsPolicy).toBe('allow_empty_topic');
  });

  it('checked in the loop over the requested channels, existing ones too (validate_topics_policy)', async () => {
    w.z.org.realm.settings.can_set_topics_policy_group = w.group('role:owners').id;
    await w.create('existing', { subscribers: ['owner'] });
    expectError(
      await subscribe('alice', ['existing'], { topics_policy: policy }),
      'Insufficient permission',
    );
    // `inherit` needs no permission.
    expectSuccess(
      await subscribe('alice', ['existing'], { topics_policy: JSON.stringify('inherit') }),
    );
  });

  it('so is the retention value (parse_message_retention_days), and the folder comes first', async () => {
    await w.create('existing', { subscribers: ['owner'] });
    expectError(
      await subscribe('alice', ['existing'], { message_retention_days: JSON.stringify(0) }),
      "Bad value for 'message_retention_days': 0",
      'REQUEST_VARIABLE_INVALID',
    );
    expectError(
      await subscribe('alice', ['existing'], {
        folder_id: 4242,
        message_retention_days: JSON.stringify(0),
      }),
      'Invalid channel folder ID',
    );
    expect(
      w.z.org.subscriptions.some(
        (s) => s.channelId === w.ch('existing').id && s.userId === w.user('alice').id,
      ),
    ).toBe(false);
  });
});
