/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-require-imports -- zulip-js is untyped JavaScript */
/**
 * Zulip's official JavaScript client (zulip-js) against the embedded server, with that client's
 * own encoding: POSTs as multipart/form-data (arrays JSON-encoded by the client), GET, PATCH
 * and DELETE parameters in the query string. Every call succeeds as it would on Zulip, and every
 * response matches zulip.yaml. Where zulip-js has no helper, its generic `callEndpoint` is used.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { yamlCheck } from './yaml-check';

const zulipInit = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

type Body = Record<string, any>;

let z: Emulator;
let check: ReturnType<typeof yamlCheck>;
let owner: any;
let alice: any;
let bobId: number;
let aliceId: number;

/** The body of a zulip-js call, failing with the whole answer unless it is a success. */
async function ok(call: Promise<Body>): Promise<Body> {
  const body = await call;
  if (body.result !== 'success') throw new Error(`zulip-js call failed: ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  check = yamlCheck();
  z = await startEmulator({ rateLimit: false, observe: check.observe });
  const login = async (local: string): Promise<any> => {
    const username = `${local}@zulip-cdk.example`;
    return zulipInit({ username, apiKey: z.apiKeyOf(username), realm: z.site });
  };
  owner = await login('owner');
  alice = await login('alice');
  aliceId = z.org.users.find((u) => u.email.startsWith('alice@'))!.id;
  bobId = z.org.users.find((u) => u.email.startsWith('bob@'))!.id;
});
afterAll(async () => {
  await z.close();
});
afterEach(() => {
  // Every response the calls got matched zulip.yaml.
  expect(check.problems).toEqual([]);
});

describe('zulip-js against the embedded server', () => {
  test('server, users and realm emoji', async () => {
    expect((await ok(owner.server.settings())).zulip_feature_level).toBe(478);
    expect((await ok(owner.users.retrieve())).members.length).toBeGreaterThan(5);
    expect((await ok(alice.users.me.getProfile())).user_id).toBe(aliceId);
    expect((await ok(alice.emojis.retrieve())).emoji).toEqual({});
  });

  test('channels and subscriptions', async () => {
    const channels = await ok(alice.streams.retrieve());
    expect(channels.streams.map((s: Body) => s.name)).toContain('general');
    const general = await ok(alice.streams.getStreamId('general'));
    expect(general.stream_id).toBe(z.org.channels.find((c) => c.name === 'general')!.id);

    const created = await ok(
      owner.callEndpoint('/channels/create', 'POST', {
        name: 'zulip-js',
        description: 'made by zulip-js',
        subscribers: [aliceId],
      }),
    );
    const id = created.id as number;
    await ok(owner.callEndpoint(`/streams/${id}`, 'PATCH', { description: 'changed' }));
    expect(z.org.channels.find((c) => c.id === id)!.description).toBe('changed');

    const mine = await ok(alice.streams.subscriptions.retrieve());
    expect(mine.subscriptions.map((s: Body) => s.name)).toContain('zulip-js');
    await ok(
      alice.callEndpoint('/users/me/subscriptions/properties', 'POST', {
        subscription_data: [{ stream_id: id, property: 'pin_to_top', value: true }],
      }),
    );
    await ok(alice.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js-2' }] }));
    const removed = await ok(
      alice.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['zulip-js-2']) }),
    );
    expect(removed.removed).toEqual(['zulip-js-2']);
    await ok(owner.streams.deleteById({ stream_id: id }));
    expect(z.org.channels.find((c) => c.id === id)!.isArchived).toBe(true);
  });

  test('user groups', async () => {
    const created = await ok(
      owner.callEndpoint('/user_groups/create', 'POST', {
        name: 'zulip-js group',
        description: 'made by zulip-js',
        members: [aliceId],
      }),
    );
    const id = created.group_id as number;
    await ok(owner.callEndpoint(`/user_groups/${id}`, 'PATCH', { description: 'changed' }));
    await ok(owner.callEndpoint(`/user_groups/${id}/members`, 'POST', { add: [bobId] }));
    const members = await ok(owner.callEndpoint(`/user_groups/${id}/members`, 'GET'));
    expect(members.members.sort()).toEqual([aliceId, bobId].sort());
    const groups = await ok(owner.callEndpoint('/user_groups', 'GET'));
    expect(groups.user_groups.find((g: Body) => g.id === id).description).toBe('changed');
    await ok(owner.callEndpoint(`/user_groups/${id}/deactivate`, 'POST'));
  });

  test('linkifiers and playgrounds', async () => {
    const created = await ok(
      owner.callEndpoint('/realm/filters', 'POST', {
        pattern: 'JS-(?P<id>[0-9]+)',
        url_template: 'https://example.com/js/{id}',
      }),
    );
    await ok(
      owner.callEndpoint(`/realm/filters/${created.id}`, 'PATCH', {
        pattern: 'JSX-(?P<id>[0-9]+)',
        url_template: 'https://example.com/jsx/{id}',
      }),
    );
    const linkifiers = await ok(owner.callEndpoint('/realm/linkifiers', 'GET'));
    expect(linkifiers.linkifiers.map((l: Body) => l.pattern)).toContain('JSX-(?P<id>[0-9]+)');
    await ok(owner.callEndpoint(`/realm/filters/${created.id}`, 'DELETE'));

    const playground = await ok(
      owner.callEndpoint('/realm/playgrounds', 'POST', {
        name: 'JS playground',
        pygments_language: 'javascript',
        url_template: 'https://example.com/play?code={code}',
      }),
    );
    await ok(owner.callEndpoint(`/realm/playgrounds/${playground.id}`, 'DELETE'));
  });

  test('saved snippets and channel folders', async () => {
    const snippet = await ok(
      alice.callEndpoint('/saved_snippets', 'POST', { title: 'hi', content: 'Hello!' }),
    );
    await ok(
      alice.callEndpoint(`/saved_snippets/${snippet.saved_snippet_id}`, 'PATCH', {
        content: 'Hello again!',
      }),
    );
    const snippets = await ok(alice.callEndpoint('/saved_snippets', 'GET'));
    expect(snippets.saved_snippets.map((s: Body) => s.content)).toContain('Hello again!');
    await ok(alice.callEndpoint(`/saved_snippets/${snippet.saved_snippet_id}`, 'DELETE'));

    const folder = await ok(
      owner.callEndpoint('/channel_folders/create', 'POST', {
        name: 'zulip-js folder',
        description: 'made by zulip-js',
      }),
    );
    await ok(
      owner.callEndpoint(`/channel_folders/${folder.channel_folder_id}`, 'PATCH', {
        description: 'changed',
      }),
    );
    const folders = await ok(owner.callEndpoint('/channel_folders', 'GET'));
    expect(
      folders.channel_folders.find((f: Body) => f.id === folder.channel_folder_id).description,
    ).toBe('changed');
  });

  test('messages, reactions and flags', async () => {
    const sent = await ok(
      alice.messages.send({ to: 'general', type: 'stream', topic: 'zulip-js', content: 'hello' }),
    );
    const id = sent.id as number;
    const dm = await ok(alice.messages.send({ to: [bobId], type: 'direct', content: 'psst' }));

    const inTopic = await ok(
      alice.messages.retrieve({
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [
          { operator: 'channel', operand: 'general' },
          { operator: 'topic', operand: 'zulip-js' },
        ],
      }),
    );
    expect(inTopic.messages.map((m: Body) => m.id)).toEqual([id]);
    expect(inTopic.messages[0]).toMatchObject({
      content: '<p>hello</p>',
      subject: 'zulip-js',
      display_recipient: 'general',
      sender_id: aliceId,
    });
    expect(inTopic).toMatchObject({ found_newest: true, found_oldest: true });
    const dms = await ok(
      alice.messages.retrieve({
        anchor: dm.id,
        num_before: 0,
        num_after: 0,
        narrow: [{ operator: 'dm', operand: [bobId] }],
      }),
    );
    expect(dms.messages.map((m: Body) => m.id)).toEqual([dm.id]);
    expect(dms.found_anchor).toBe(true);

    await ok(alice.messages.update({ message_id: id, content: 'hello, edited' }));
    const edited = await ok(
      alice.messages.retrieve({ anchor: id, num_before: 0, num_after: 0, apply_markdown: false }),
    );
    expect(edited.messages[0].content).toBe('hello, edited');

    await ok(alice.reactions.add({ message_id: id, emoji_name: 'smile' }));
    const reacted = await ok(alice.messages.retrieve({ anchor: id, num_before: 0, num_after: 0 }));
    expect(reacted.messages[0].reactions).toEqual([
      {
        emoji_name: 'smile',
        emoji_code: '1f642',
        reaction_type: 'unicode_emoji',
        user_id: aliceId,
      },
    ]);
    await ok(alice.reactions.remove({ message_id: id, emoji_name: 'smile' }));

    await ok(alice.messages.flags.add({ messages: [id], flag: 'starred' }));
    const starred = await ok(
      alice.messages.retrieve({
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [{ operator: 'is', operand: 'starred' }],
      }),
    );
    expect(starred.messages.map((m: Body) => m.id)).toEqual([id]);
    await ok(alice.messages.flags.remove({ messages: [id], flag: 'starred' }));
  });

  test('drafts, presence and user status', async () => {
    const general = z.org.channels.find((c) => c.name === 'general')!.id;
    const drafts = await ok(
      alice.callEndpoint('/drafts', 'POST', {
        drafts: [{ type: 'stream', to: [general], topic: 'draft', content: 'later' }],
      }),
    );
    const draftId = drafts.ids[0] as number;
    await ok(
      alice.callEndpoint(`/drafts/${draftId}`, 'PATCH', {
        draft: JSON.stringify({ type: 'stream', to: [general], topic: 'draft', content: 'now' }),
      }),
    );
    const listed = await ok(alice.callEndpoint('/drafts', 'GET'));
    expect(listed.drafts.map((d: Body) => d.content)).toEqual(['now']);
    await ok(alice.callEndpoint(`/drafts/${draftId}`, 'DELETE'));

    await ok(alice.callEndpoint('/users/me/presence', 'POST', { status: 'active' }));
    const presence = await ok(owner.callEndpoint('/realm/presence', 'GET'));
    expect(Object.keys(presence.presences)).toContain('alice@zulip-cdk.example');

    await ok(
      alice.callEndpoint('/users/me/status', 'POST', { status_text: 'coding', emoji_name: 'car' }),
    );
    const status = await ok(owner.callEndpoint(`/users/${aliceId}/status`, 'GET'));
    expect(status.status).toMatchObject({ status_text: 'coding', emoji_name: 'car' });
  });

  test('the event queue: register, GET /events, DELETE /events', async () => {
    // A realm_playgrounds event: every queue registered for the type gets it.
    const queue = await ok(owner.queues.register({ event_types: ['realm_playgrounds'] }));
    expect(queue.queue_id).toEqual(expect.any(String));
    await ok(
      owner.callEndpoint('/realm/playgrounds', 'POST', {
        name: 'Event playground',
        pygments_language: 'python',
        url_template: 'https://example.com/py?code={code}',
      }),
    );
    const events = await ok(
      owner.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1, dont_block: true }),
    );
    expect(events.events.map((e: Body) => e.type)).toContain('realm_playgrounds');
    await ok(owner.queues.deregister({ queue_id: queue.queue_id }));
    expect(z.requestLog.at(-1)).toMatchObject({ method: 'DELETE', path: '/events', status: 200 });
  });
});
