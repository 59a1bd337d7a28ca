/**
 * Conformance: saved snippets, ported from zerver/tests/test_saved_snippets.py (Zulip at feature
 * level 442). hamlet → alice (who has no snippet in the seed; the owner has one).
 */
import { startEmulator } from '../../src/emulator';
import type { Emulator } from '../../src/emulator';
import { validateResponse } from '../support/openapi-validate';
import { clientFor, expectError, expectSuccess } from '../support/emulator-client';
import type { TestClient } from '../support/emulator-client';

let z: Emulator;
let hamlet: TestClient;

// Parse zulip.yaml before any emulator socket exists: a first validation inside a test blocks
// the event loop for seconds under load, past the server's 5 s keep-alive, and the next
// request on the pooled socket can then fail with ECONNRESET.
beforeAll(() => {
  validateResponse('GET', '/users/me', 200, { result: 'success', msg: '' });
});
beforeEach(async () => {
  z = await startEmulator({ rateLimit: false });
  hamlet = clientFor(z, 'alice');
});
afterEach(() => z.close());

interface Snippet {
  id: number;
  title: string;
  content: string;
}

async function snippets(c: TestClient = hamlet): Promise<Snippet[]> {
  const res = await c.get('/saved_snippets');
  expectSuccess(res);
  return res.body.saved_snippets as Snippet[];
}

/** `create_example_saved_snippet`. */
async function example(): Promise<number> {
  const res = await hamlet.post('/saved_snippets', {
    title: 'Welcome message',
    content: '**Welcome** to the organization.',
  });
  expectSuccess(res);
  return res.body.saved_snippet_id as number;
}

describe('test_saved_snippets.py SavedSnippetTests', () => {
  it('test_create_saved_snippet: none at first, then the created one', async () => {
    expect(await snippets()).toEqual([]);
    const id = await example();
    const got = await snippets();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      id,
      title: 'Welcome message',
      content: '**Welcome** to the organization.',
    });
  });

  it('test_create_saved_snippet: a title over 60 characters', async () => {
    expectError(
      await hamlet.post('/saved_snippets', {
        title: 'A'.repeat(120),
        content: '**Welcome** to the organization.',
      }),
      'title is too long (limit: 60 characters)',
    );
    expect(await snippets()).toEqual([]);
  });

  it('create_saved_snippet: content is checked before title (typed_endpoint order)', async () => {
    expectError(
      await hamlet.post('/saved_snippets', { title: 'A'.repeat(61), content: '   ' }),
      'content cannot be blank',
    );
  });

  it('create_saved_snippet: both are stripped', async () => {
    await hamlet.post('/saved_snippets', { title: '  Hi  ', content: '\n body \n' });
    expect((await snippets())[0]).toMatchObject({ title: 'Hi', content: 'body' });
  });

  it('test_edit_saved_snippet: title, then content', async () => {
    const id = await example();
    expectSuccess(await hamlet.patch(`/saved_snippets/${id}`, { title: 'New title' }));
    expect((await snippets())[0]).toMatchObject({
      title: 'New title',
      content: '**Welcome** to the organization.',
    });
    expectSuccess(await hamlet.patch(`/saved_snippets/${id}`, { content: 'New content' }));
    expect((await snippets())[0]).toMatchObject({ title: 'New title', content: 'New content' });
  });

  it('test_edit_saved_snippet: a request without changes succeeds', async () => {
    const id = await example();
    expectSuccess(await hamlet.patch(`/saved_snippets/${id}`, {}));
    expect((await snippets())[0]?.title).toBe('Welcome message');
  });

  it('edit_saved_snippet: without changes it succeeds even for an ID that does not exist', async () => {
    expectSuccess(await hamlet.patch('/saved_snippets/99999', {}));
  });

  it('test_edit_saved_snippet: an unknown ID is 404 "Saved snippet does not exist."', async () => {
    expectError(
      await hamlet.patch('/saved_snippets/99999', { content: 'New content' }),
      'Saved snippet does not exist.',
      'BAD_REQUEST',
      404,
    );
  });

  it("do_edit_saved_snippet: another user's snippet does not exist for the caller", async () => {
    const id = await example();
    expectError(
      await clientFor(z, 'bob').patch(`/saved_snippets/${id}`, { content: 'x' }),
      'Saved snippet does not exist.',
      'BAD_REQUEST',
      404,
    );
    expect((await snippets())[0]?.content).toBe('**Welcome** to the organization.');
  });

  it('test_delete_saved_snippet: delete, then an unknown ID is 404', async () => {
    const id = await example();
    expect(await snippets()).toHaveLength(1);
    expectSuccess(await hamlet.delete(`/saved_snippets/${id}`));
    expect(await snippets()).toEqual([]);
    expectError(
      await hamlet.delete(`/saved_snippets/${id}`),
      'Saved snippet does not exist.',
      'BAD_REQUEST',
      404,
    );
  });
});
