import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Construct } from 'constructs';
import { z } from 'zod';
import { CustomEmojiSchema } from '../model/desired-state';
import type { DesiredCustomEmoji, EmojiImage } from '../model/desired-state';
import { MAX_EMOJI_FILE_SIZE_MIB, checkEmojiName, sniffImageType } from '../model/emoji';
import type { CustomEmojiProperty } from '../model/ignorable';
import { definedProps, propsSchema } from './props';
import { KeyedResource } from './resource';
import type { ResourceOptions } from './resource';
import { resourceGuard } from './symbols';

/**
 * Props of a {@link CustomEmoji}. No `renamedFrom`: Zulip cannot rename an emoji (declare the
 * new name, and the old one `deactivated: true`).
 */
export interface CustomEmojiProps extends Omit<
  ResourceOptions<CustomEmojiProperty>,
  'renamedFrom'
> {
  /**
   * The name people type between colons (`:party_parrot:`): lower-case letters, digits, `-`
   * and `_`, ending in a letter or digit (Zulip's `check_valid_emoji_name`).
   */
  readonly name: string;
  /**
   * The image file: PNG, GIF, JPEG, WebP or AVIF, at most 5 MiB (Zulip's default
   * `MAX_EMOJI_FILE_SIZE_MIB`). A relative path is taken from the directory synth runs in;
   * `path.join(__dirname, 'emoji', 'x.png')` works from anywhere. Synth records the file's
   * SHA-256 and size (never its bytes); apply uploads it only if it still has that digest.
   * Required unless `deactivated`.
   */
  readonly image?: string;
  /**
   * Deactivate the emoji (Zulip never deletes one: messages and reactions that used it keep
   * showing it, and the name can be uploaded again as a new emoji).
   * @default false
   */
  readonly deactivated?: boolean;
}

const PropsSchema = propsSchema('customEmoji', CustomEmojiSchema, {
  image: z.string().min(1).optional(),
});

/**
 * A custom emoji of the organization: a name and an image file kept in the repository. A new
 * image under a declared name is a `replace` in the plan: Zulip cannot change an emoji's
 * image, so the old emoji is deactivated and the new image uploaded under the same name.
 *
 * Checked offline: the name (Zulip's rules), that the file exists, its type (by its first
 * bytes: a file that merely ends in `.png` is not enough) and size. Checked by `plan`: who may
 * deactivate an emoji (an administrator, or its author).
 *
 * @example
 * // A path relative to the directory synth runs in (or path.join(__dirname, ...)).
 * new CustomEmoji(org, 'shipit', { name: 'shipit', image: 'examples/acme/emoji/shipit.png' });
 * new CustomEmoji(org, 'old-logo', { name: 'old_logo', deactivated: true });
 */
export class CustomEmoji extends KeyedResource<CustomEmojiProps> {
  /** True when `x` is a {@link CustomEmoji}. */
  public static readonly isCustomEmoji = resourceGuard<CustomEmoji>('customEmoji');

  private image: EmojiImage | undefined;

  public constructor(scope: Construct, id: string, props: CustomEmojiProps) {
    super(scope, id, 'customEmoji', 'CustomEmoji', PropsSchema, props, 'name');
  }

  protected override describeKey(): string {
    return `custom emoji '${this.props.name}'`;
  }

  protected validateResource(): string[] {
    const p = this.props;
    const problems: string[] = [];
    if ((p as ResourceOptions<CustomEmojiProperty>).renamedFrom !== undefined)
      problems.push(
        'renamedFrom is not supported for custom emoji: Zulip cannot rename an emoji; declare the old name with deactivated: true and the new one with its image',
      );
    const invalid = checkEmojiName(p.name);
    if (invalid !== undefined)
      problems.push(
        `name '${p.name}': Zulip refuses it ("${invalid}"): use lower-case letters, digits, '-' and '_', ending in a letter or digit, such as party_parrot`,
      );
    if (p.image === undefined) {
      if (p.deactivated !== true)
        problems.push(
          'image is missing: give the path of a PNG, GIF, JPEG, WebP or AVIF file (or set deactivated: true)',
        );
      return problems;
    }
    const problem = this.readImage(p.image);
    if (problem !== undefined) problems.push(problem);
    return problems;
  }

  /** Reads the image once: its digest, size and type; a problem sentence when it is unusable. */
  private readImage(image: string): string | undefined {
    const cwd = process.cwd();
    const file = resolve(cwd, image);
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) return `image '${image}' is not a file: give the path of an image file`;
      size = st.size;
    } catch {
      return isAbsolute(image)
        ? `image '${image}' does not exist: put the image file there (an app made by import names the images it could not download), or fix the path`
        : `image '${image}' does not exist (looked for ${file}): a relative path is taken from the directory synth runs in (${cwd}); use path.join(__dirname, ...) to be independent of it`;
    }
    const limit = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;
    if (size > limit)
      return `image '${image}' is ${size} bytes; Zulip refuses emoji files over ${MAX_EMOJI_FILE_SIZE_MIB} MiB ("Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB"): make it smaller (Zulip shows emoji at 64×64 pixels)`;
    const bytes = readFileSync(file);
    const contentType = sniffImageType(bytes);
    if (contentType === undefined)
      return `image '${image}' is not a PNG, GIF, JPEG, WebP or AVIF image (by its first bytes); Zulip refuses other files ("Invalid image format"): convert it`;
    const rel = relative(cwd, file);
    const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    this.image = {
      file: inside ? rel.split(sep).join('/') : file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size,
      contentType,
    };
    return undefined;
  }

  /** @internal */
  public _toDesired(): DesiredCustomEmoji {
    const p = this.props;
    if (p.image !== undefined && this.image === undefined) this.readImage(p.image);
    return {
      ...this.desiredBase(),
      name: p.name,
      ...(this.image !== undefined && { image: this.image }),
      ...definedProps(p, ['deactivated']),
    };
  }
}
