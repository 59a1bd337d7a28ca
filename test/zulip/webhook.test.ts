import { inspect } from 'node:util';
import { parseOutgoingWebhook, tokensEqual } from '../../src/zulip';
import { thrownError } from '../support/errors';

const TOKEN = 'xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0';

/** The payload of Zulip's outgoing-webhook documentation, shaped per seed 6.3. */
function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bot_email: 'outgoing-bot@localhost',
    bot_full_name: 'Outgoing webhook test',
    data: '@**Outgoing webhook test** Zulip is the world\u2019s most productive group chat!',
    trigger: 'mention',
    token: TOKEN,
    message: {
      avatar_url:
        'https://secure.gravatar.com/avatar/1f4f1575bf002ae562fea8fc4b861b09?d=identicon&version=1',
      client: 'website',
      content: '@**Outgoing webhook test** Zulip is the world\u2019s most productive group chat!',
      content_type: 'text/x-markdown',
      display_recipient: 'Verona',
      id: 112,
      is_me_message: false,
      reactions: [],
      recipient_id: 20,
      rendered_content: '<p>Zulip</p>',
      sender_email: 'iago@zulip.com',
      sender_full_name: 'Iago',
      sender_id: 5,
      sender_realm_str: 'zulip',
      stream_id: 5,
      subject: 'Verona2',
      submessages: [],
      timestamp: 1527876931,
      topic_links: [],
      type: 'stream',
    },
    ...overrides,
  };
}

describe('parseOutgoingWebhook', () => {
  it('parses a JSON string body with the right token, and drops the token', () => {
    const hook = parseOutgoingWebhook(JSON.stringify(payload()), TOKEN);
    expect(hook.trigger).toBe('mention');
    expect(hook.message.sender_id).toBe(5);
    expect(hook.message.display_recipient).toBe('Verona');
    expect(JSON.stringify(hook)).not.toContain(TOKEN);
  });

  it('parses a Buffer and a parsed object, direct messages and unknown fields', () => {
    const dm = payload({
      trigger: 'direct_message',
      brand_new: 1,
      message: {
        ...(payload().message as object),
        type: 'private',
        display_recipient: [
          { id: 5, email: 'iago@zulip.com', full_name: 'Iago', is_mirror_dummy: false },
        ],
      },
    });
    expect(parseOutgoingWebhook(Buffer.from(JSON.stringify(dm)), TOKEN).message.type).toBe(
      'private',
    );
    expect((parseOutgoingWebhook(dm, TOKEN) as Record<string, unknown>).brand_new).toBe(1);
  });

  it('rejects a wrong token without echoing either token', () => {
    const wrong = 'wrongTOKENwrongTOKENwrongTOKEN12';
    const e = thrownError(() => parseOutgoingWebhook(payload({ token: wrong }), TOKEN));
    expect(e.code).toBe('WEBHOOK_BAD_TOKEN');
    for (const text of [e.message, e.hint ?? '', inspect(e), JSON.stringify(e)]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(wrong);
    }
  });

  it('rejects a token that is a prefix of the expected one', () => {
    expect(
      thrownError(() => parseOutgoingWebhook(payload({ token: TOKEN.slice(0, 10) }), TOKEN)).code,
    ).toBe('WEBHOOK_BAD_TOKEN');
  });

  it('rejects invalid payloads naming fields, never values', () => {
    const bad = payload({ token: 12345, message: { id: 'x' } });
    const e = thrownError(() => parseOutgoingWebhook(bad, TOKEN));
    expect(e.code).toBe('WEBHOOK_INVALID_PAYLOAD');
    expect(e.message).toContain('token');
    expect(e.message).toContain('message.id');
    expect(e.message).not.toContain('12345');
    expect(thrownError(() => parseOutgoingWebhook('{not json', TOKEN)).code).toBe(
      'WEBHOOK_INVALID_PAYLOAD',
    );
  });

  it('refuses an empty expected token', () => {
    expect(thrownError(() => parseOutgoingWebhook(payload({ token: '' }), '')).code).toBe(
      'WEBHOOK_BAD_TOKEN',
    );
  });
});

describe('tokensEqual', () => {
  it('compares exactly', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'abcd')).toBe(false);
    expect(tokensEqual('', 'a')).toBe(false);
  });
});
