/**
 * Custom emoji and user lifecycle end to end on the embedded server: plan, apply, plan again
 * is empty; an image change is a replace; deactivation by review, with the plan's refusals.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomEmoji, Organization, Testing, User } from 'zulip-cdk';
import type { CustomEmojiProps, UserProps } from 'zulip-cdk';
import { renderText } from '../../src/engine/render/text';
import { harness, summary } from './helpers';
import type { Harness } from './helpers';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let h: Harness;
let dir: string;
beforeEach(async () => {
  h = await harness();
  dir = mkdtempSync(join(tmpdir(), 'zulip-cdk-emoji-'));
});
afterEach(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

function desired(emoji: CustomEmojiProps[], users: UserProps[] = []) {
  const app = Testing.app();
  const org = new Organization(app, 'acme');
  emoji.forEach((e, i) => new CustomEmoji(org, `e${i}`, e));
  users.forEach((u, i) => new User(org, `u${i}`, u));
  return Testing.synth(org);
}

describe('custom emoji', () => {
  it('uploads, then plans empty; a new image is a replace; deactivated: true deactivates', async () => {
    const png = file('parrot.png', PNG);
    const one = await h.converge(desired([{ name: 'party_parrot', image: png }]));
    expect(summary(one.first)).toEqual(['create customEmoji["party_parrot"]']);
    expect(one.result.outcome).toBe('applied');
    expect(summary(one.after)).toEqual([]);
    const created = one.first.changes[0];
    expect(created?.action === 'create' && created.properties.image).toMatchObject({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      size: PNG.length,
      contentType: 'image/png',
    });
    // The plan shows the digest, never the bytes.
    expect(JSON.stringify(one.first)).not.toContain(PNG.toString('base64'));

    const gif = file('parrot.gif', GIF);
    const two = await h.converge(desired([{ name: 'party_parrot', image: gif }]));
    expect(summary(two.first)).toEqual(['replace customEmoji["party_parrot"]']);
    expect(renderText(two.first)).toContain("Zulip cannot change an emoji's image");
    expect(summary(two.after)).toEqual([]);
    const live = h.z.org.emoji ?? [];
    expect(live.map((e) => [e.name, e.deactivated, e.contentType])).toEqual([
      ['party_parrot', true, 'image/png'],
      ['party_parrot', false, 'image/gif'],
    ]);

    const three = await h.converge(desired([{ name: 'party_parrot', deactivated: true }]));
    expect(summary(three.first)).toEqual(['deactivate customEmoji["party_parrot"]']);
    expect(three.first.changes[0]?.tags).toEqual(['destructive', 'irreversible']);
    expect(summary(three.after)).toEqual([]);
  });

  it('synth refuses a bad name and a file that is not an image, on the construct path', () => {
    const txt = file('notes.png', Buffer.from('hello'));
    expect(() => desired([{ name: 'Bad_Name_', image: txt }])).toThrow(
      /acme\/e0.*name 'Bad_Name_'.*Emoji names must contain only lowercase[\s\S]*is not a PNG, GIF, JPEG, WebP or AVIF image/,
    );
    expect(() => desired([{ name: 'ok' }])).toThrow(/acme\/e0.*image is missing/);
    // A missing file: where it was looked for; the advice on relative paths only for one.
    const gone = join(dir, 'gone.png');
    expect(() => desired([{ name: 'ok', image: gone }])).toThrow(
      `image '${gone}' does not exist: put the image file there`,
    );
    expect(() => desired([{ name: 'ok', image: 'emoji/gone.png' }])).toThrow(
      /image 'emoji\/gone.png' does not exist \(looked for .*\): a relative path is taken from the directory synth runs in/,
    );
  });

  it("deactivating someone else's emoji needs an administrator: a plan error", async () => {
    const png = file('parrot.png', PNG);
    await h.converge(desired([{ name: 'party_parrot', image: png }]));
    const me = h.z.org.users.find((u) => u.email === h.z.owner.email);
    const bob = h.z.org.users.find((u) => u.email.startsWith('bob@'));
    const emoji = h.z.org.emoji?.[0];
    if (me) me.role = 400;
    if (emoji && bob) emoji.authorId = bob.id;
    await expect(h.plan(desired([{ name: 'party_parrot', deactivated: true }]))).rejects.toThrow(
      /needs an organization administrator or its author \(bob@zulip-cdk.example\)/,
    );
  });

  it('apply refuses an image that changed after the plan', async () => {
    const png = file('parrot.png', PNG);
    const p = await h.plan(desired([{ name: 'party_parrot', image: png }]));
    writeFileSync(png, GIF);
    const result = await h.apply(p);
    expect(result.outcome).toBe('nothing');
    expect(JSON.stringify(result.events)).toMatch(/changed since the plan was made/);
    expect(h.z.org.emoji ?? []).toEqual([]);
  });
});

describe('user lifecycle', () => {
  it('active: false deactivates (with the bots they own), active: true reactivates', async () => {
    const owner = h.z.owner.email;
    const bot = h.z.org.users.find((u) => u.isBot);
    const botOwner = h.z.org.users.find((u) => u.id === bot?.botOwnerId);
    expect(botOwner?.email).toBe(owner);
    const alice = 'alice@zulip-cdk.example';
    const off = await h.converge(desired([], [{ email: alice, active: false }]));
    expect(summary(off.first)).toEqual([`deactivate user["${alice}"]`]);
    expect(off.first.changes[0]?.tags).toEqual(['destructive', 'archive-only']);
    const text = renderText(off.first);
    expect(text).toContain('logs alice@zulip-cdk.example out of every session');
    expect(summary(off.after)).toEqual([]);
    expect(h.z.org.users.find((u) => u.email === alice)?.isActive).toBe(false);

    const on = await h.converge(desired([], [{ email: alice, active: true }]));
    expect(summary(on.first)).toEqual([`reactivate user["${alice}"]`]);
    expect(summary(on.after)).toEqual([]);
    expect(h.z.org.users.find((u) => u.email === alice)?.isActive).toBe(true);
  });

  it('lists the bots Zulip deactivates with their owner', async () => {
    const bot = h.z.org.users.find((u) => u.isBot);
    const admin = h.z.org.users.find((u) => u.email.startsWith('admin@'));
    if (bot && admin) bot.botOwnerId = admin.id;
    const p = await h.plan(desired([], [{ email: admin?.email ?? '', active: false }]));
    expect(renderText(p)).toContain(`deactivated first: ${bot?.email}`);
  });

  it('refuses the applying account and the last owner at plan time', async () => {
    await expect(h.plan(desired([], [{ email: h.z.owner.email, active: false }]))).rejects.toThrow(
      /active: false on the applying account/,
    );
    // A second owner deactivated while the applying owner is demoted: no owner would be left.
    const ada = h.z.org.users.find((u) => u.email.startsWith('admin@'));
    if (ada) ada.role = 100;
    const both = desired(
      [],
      [
        { email: h.z.owner.email, role: 'administrator' },
        { email: ada?.email ?? '', active: false },
      ],
    );
    await expect(h.plan(both)).rejects.toThrow(
      /only owner after this plan; Zulip refuses \("Cannot deactivate the only organization owner"\)/,
    );
    // With the applying owner kept, the same deactivation is fine.
    const one = await h.plan(desired([], [{ email: ada?.email ?? '', active: false }]));
    expect(summary(one)).toEqual([`deactivate user["${ada?.email}"]`]);
  });

  it('a member cannot deactivate: the plan says so before apply', async () => {
    const me = h.z.org.users.find((u) => u.email === h.z.owner.email);
    if (me) me.role = 400;
    await expect(
      h.plan(desired([], [{ email: 'alice@zulip-cdk.example', active: false }])),
    ).rejects.toThrow(/needs an organization administrator.*"Insufficient permission"/);
  });
});
