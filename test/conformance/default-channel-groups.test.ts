/**
 * Conformance: default channel groups, ported from zerver/tests/test_default_channels.py
 * `DefaultStreamGroupTest`, test_subs.py and test_events.py (Zulip at feature level 442),
 * against `POST /default_stream_groups/create`, `PATCH /default_stream_groups/{id}`,
 * `PATCH /default_stream_groups/{id}/streams`, `DELETE /default_stream_groups/{id}` and
 * register's `realm_default_stream_groups`. hamlet made administrator is alice here, iago admin.
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { ROLES } from '../../src/model/kinds';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let hamlet: TestClient;
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  z.org.users.find((u) => u.email.startsWith('alice@'))!.role = ROLES.administrator;
  hamlet = clientFor(z, 'alice');
  for (const name of ['stream1', 'stream2', 'stream3', 'stream4', 'stream5'])
    expectSuccess(await clientFor(z, 'owner').post('/channels/create', { name, subscribers: [] }));
});
afterEach(() => z.close());

interface Group {
  id: number;
  name: string;
  description: string;
  streams: number[];
}

async function groups(who: TestClient = hamlet): Promise<Group[]> {
  const res = await who.post('/register', {
    fetch_event_types: ['default_stream_groups'],
    client_capabilities: { notification_settings_null: true },
  });
  expectSuccess(res);
  await who.delete('/events', { queue_id: res.body.queue_id });
  return res.body.realm_default_stream_groups as Group[];
}

const channelId = (name: string): number => z.org.channels.find((c) => c.name === name)!.id;
const names = (g: Group | undefined): string[] =>
  (g?.streams ?? []).map((id) => z.org.channels.find((c) => c.id === id)!.name);

const create = (group_name: string, stream_names: string[], description = 'This is group1') =>
  hamlet.post('/default_stream_groups/create', { group_name, description, stream_names });

async function makeDefault(name: string): Promise<void> {
  expectSuccess(
    await clientFor(z, 'admin').post('/default_streams', { stream_id: channelId(name) }),
  );
}

describe('test_default_channels.py DefaultStreamGroupTest.test_api_calls', () => {
  it('creates a group, read back sorted; a second one with the same name already exists', async () => {
    expectSuccess(await create('group1', ['stream3', 'stream1', 'stream2']));
    const [g] = await groups();
    expect(g).toEqual({
      id: expect.any(Number),
      name: 'group1',
      description: 'This is group1',
      streams: ['stream1', 'stream2', 'stream3'].map(channelId),
    });
    expectError(
      await create('group1', ['stream1', 'stream2', 'stream3']),
      "Default channel group 'group1' already exists",
    );
  });

  it('PATCH .../streams: op and stream_names required, op checked, unknown group', async () => {
    expectSuccess(await create('group1', ['stream1']));
    const id = (await groups())[0]!.id;
    const path = `/default_stream_groups/${id}/streams`;
    expectError(
      await hamlet.patch(path, { stream_names: ['stream4', 'stream5'] }),
      "Missing 'op' argument",
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await hamlet.patch(path, { op: 'invalid', stream_names: ['stream4', 'stream5'] }),
      'Invalid value for "op". Specify one of "add" or "remove".',
    );
    expectError(
      await hamlet.patch('/default_stream_groups/12345/streams', {
        op: 'add',
        stream_names: ['stream4', 'stream5'],
      }),
      "Default channel group with id '12345' does not exist.",
    );
    expectError(
      await hamlet.patch(path, { op: 'add' }),
      "Missing 'stream_names' argument",
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('adds channels: not a default channel, not twice; removes: known names, present ones', async () => {
    expectSuccess(await create('group1', ['stream1', 'stream2', 'stream3']));
    const id = (await groups())[0]!.id;
    const path = `/default_stream_groups/${id}/streams`;
    await makeDefault('stream4');
    expectError(
      await hamlet.patch(path, { op: 'add', stream_names: ['stream4', 'stream5'] }),
      "'stream4' is a default channel and cannot be added to 'group1'",
    );
    // The refusal is the first channel's: nothing was added.
    expect(names((await groups())[0])).toEqual(['stream1', 'stream2', 'stream3']);
    expectSuccess(
      await clientFor(z, 'admin').delete('/default_streams', { stream_id: channelId('stream4') }),
    );
    expectSuccess(await hamlet.patch(path, { op: 'add', stream_names: ['stream4', 'stream5'] }));
    expect(names((await groups())[0])).toEqual([
      'stream1',
      'stream2',
      'stream3',
      'stream4',
      'stream5',
    ]);
    expectError(
      await hamlet.patch(path, { op: 'add', stream_names: ['stream4', 'stream5'] }),
      "Channel 'stream4' is already present in default channel group 'group1'",
    );
    expectError(
      await hamlet.patch('/default_stream_groups/12345/streams', {
        op: 'remove',
        stream_names: ['stream4'],
      }),
      "Default channel group with id '12345' does not exist.",
    );
    expectError(
      await hamlet.patch(path, { op: 'remove', stream_names: ['random stream name'] }),
      "Invalid channel name 'random stream name'",
    );
    expectSuccess(await hamlet.patch(path, { op: 'remove', stream_names: ['stream4'] }));
    expect(names((await groups())[0])).toEqual(['stream1', 'stream2', 'stream3', 'stream5']);
    expectError(
      await hamlet.patch(path, { op: 'remove', stream_names: ['stream4', 'stream5'] }),
      "Channel 'stream4' is not present in default channel group 'group1'",
    );
  });

  // zerver/actions/default_streams.py do_add_streams_to_default_stream_group adds and saves
  // each channel in its loop and notifies after it; the view (zerver/views/streams.py
  // update_default_stream_group_streams) runs outside a transaction (Zulip's requests are
  // not atomic: views use transaction.atomic(durable=True), which cannot nest). The channels
  // before the refused one stay, and no event tells of them.
  it('a refused add keeps the channels added before the refusal, without an event', async () => {
    expectSuccess(await create('group1', ['stream1']));
    const id = (await groups())[0]!.id;
    const path = `/default_stream_groups/${id}/streams`;
    await makeDefault('stream4');
    const reg = await hamlet.post('/register', { event_types: ['default_stream_groups'] });
    expectSuccess(reg);
    expectError(
      await hamlet.patch(path, { op: 'add', stream_names: ['stream2', 'stream4'] }),
      "'stream4' is a default channel and cannot be added to 'group1'",
    );
    expectError(
      await hamlet.patch(path, { op: 'add', stream_names: ['stream3', 'stream3'] }),
      "Channel 'stream3' is already present in default channel group 'group1'",
    );
    expect(names((await groups())[0])).toEqual(['stream1', 'stream2', 'stream3']);
    const queued = await hamlet.get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expectSuccess(queued);
    expect(queued.body.events).toEqual([]);
  });

  // zerver/lib/streams.py access_stream_by_name → zerver/models/streams.py get_realm_stream:
  // name__iexact=stream_name.strip(); the error names the channel as given.
  it('stream_names are found stripped and case-insensitively', async () => {
    expectSuccess(await create('group1', ['  Stream1\t', 'STREAM2 ']));
    const id = (await groups())[0]!.id;
    expect(names((await groups())[0])).toEqual(['stream1', 'stream2']);
    const path = `/default_stream_groups/${id}/streams`;
    expectSuccess(await hamlet.patch(path, { op: 'add', stream_names: [' stream3 '] }));
    expectSuccess(await hamlet.patch(path, { op: 'remove', stream_names: ['\nstream1 '] }));
    expect(names((await groups())[0])).toEqual(['stream2', 'stream3']);
    expectError(
      await hamlet.patch(path, { op: 'add', stream_names: [' nope '] }),
      "Invalid channel name ' nope '",
    );
  });

  it('PATCH /default_stream_groups/{id}: description and name, with their errors; DELETE', async () => {
    expectSuccess(await create('group1', ['stream1']));
    const id = (await groups())[0]!.id;
    const path = `/default_stream_groups/${id}`;
    expectError(
      await hamlet.patch(path, {}),
      'You must pass "new_description" or "new_group_name".',
    );
    // An empty description alone is the same as none.
    expectError(
      await hamlet.patch(path, { new_description: '' }),
      'You must pass "new_description" or "new_group_name".',
    );
    expectError(
      await hamlet.patch('/default_stream_groups/12345', {
        new_description: 'new group1 description',
      }),
      "Default channel group with id '12345' does not exist.",
    );
    expectSuccess(await hamlet.patch(path, { new_description: 'new group1 description' }));
    expect((await groups())[0]!.description).toBe('new group1 description');

    expectSuccess(await create('group2', [], ''));
    expectError(
      await hamlet.patch(path, { new_group_name: 'group2' }),
      "Default channel group 'group2' already exists",
    );
    const group2 = (await groups()).find((g) => g.name === 'group2')!;
    expectSuccess(await hamlet.delete(`/default_stream_groups/${group2.id}`));

    expectError(
      await hamlet.patch(path, { new_group_name: 'group1' }),
      "This default channel group is already named 'group1'",
    );
    expectSuccess(await hamlet.patch(path, { new_group_name: 'new group1' }));
    expect(await groups()).toEqual([
      {
        id,
        name: 'new group1',
        description: 'new group1 description',
        streams: [channelId('stream1')],
      },
    ]);
    expectSuccess(await hamlet.delete(path));
    expect(await groups()).toEqual([]);
    expectError(await hamlet.delete(path), `Default channel group with id '${id}' does not exist.`);
  });
});

describe('test_default_channels.py DefaultStreamGroupTest', () => {
  it('test_invalid_default_stream_group_name', async () => {
    const streams = ['stream1', 'stream2', 'stream3'];
    expectError(await create('', streams), "Invalid default channel group name ''");
    expectError(
      await create('x'.repeat(100), streams),
      'Default channel group name too long (limit: 60 characters)',
    );
    expectError(
      await create('abc\0', streams),
      "Default channel group name 'abc\0' contains NULL (0x00) characters.",
    );
  });

  it('test_create_update_and_remove_default_stream_group: a default channel cannot be in a new group', async () => {
    await makeDefault('stream1');
    expectError(
      await create('new group1', ['stream1', 'stream2', 'stream3']),
      "'stream1' is a default channel and cannot be added to 'new group1'",
    );
    expect(await groups()).toEqual([]);
  });
});

describe('test_subs.py', () => {
  it('test_deactivate_stream_removes_stream_from_default_stream_groups', async () => {
    expectSuccess(await create('group1', ['stream1', 'stream2', 'stream3']));
    expectSuccess(await clientFor(z, 'owner').delete(`/streams/${channelId('stream3')}`));
    expect(names((await groups())[0])).toEqual(['stream1', 'stream2']);
  });
});

describe('test_events.py', () => {
  it('test_default_stream_group_events_guest: a guest is told there are none', async () => {
    expectSuccess(await create('group1', ['stream1']));
    expect(await groups(clientFor(z, 'guest'))).toEqual([]);
    expect(await groups()).toHaveLength(1);
  });
});
