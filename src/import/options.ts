/** The options and result of `generateApp`: the import's public vocabulary. */
import { KIND_SPECS, LISTED_KINDS } from '../model/kinds';
import type { KindCollection } from '../model/kinds';

/** The kinds `import --include` accepts: the desired state's collection names. */
export type ImportKind = KindCollection;
export const IMPORT_KINDS: readonly ImportKind[] = LISTED_KINDS.map(
  (k) => KIND_SPECS[k].collection,
);

/**
 * Which channels get their subscribers imported (with mode `exact`): `private` (the default:
 * who may read a private channel is access control, worth reviewing; who follows a public
 * channel is each person's choice), `all`, or `none`.
 */
export const SUBSCRIBER_POLICIES = ['private', 'all', 'none'] as const;
export type SubscriberPolicy = (typeof SUBSCRIBER_POLICIES)[number];

/** File layouts: everything in `main.ts`, one file per kind, or by size (`auto`). */
export const IMPORT_LAYOUTS = ['auto', 'single', 'split'] as const;
export type ImportLayout = (typeof IMPORT_LAYOUTS)[number];

/** Options of {@link generateApp}. */
export interface GenerateAppOptions {
  /**
   * The Organization construct's id (it names the synthesized file).
   * @default - derived from the organization's name, such as `acme`
   */
  readonly orgId?: string;
  /**
   * The kinds to import. Objects of other kinds that an imported object refers to (a channel's
   * folder, a group in a permission) are imported too, and listed in the header.
   * @default - every kind
   */
  readonly include?: readonly ImportKind[];
  /** @default 'auto' (one file per kind above {@link SPLIT_THRESHOLD} constructs) */
  readonly layout?: ImportLayout;
  /** @default 'private' */
  readonly subscribers?: SubscriberPolicy;
}

/** Above this many constructs, `auto` writes one file per kind. */
export const SPLIT_THRESHOLD = 30;

/** Something live that the generated code does not declare, and why. */
export interface SkippedObject {
  readonly kind: string;
  readonly name: string;
  readonly reason: string;
}

/**
 * A file the generated code needs besides its source: an emoji image, to download from the
 * organization (`url`, without credentials) and write at `file` (relative to the app's
 * directory), with the SHA-256 the live read found.
 */
export interface ImportAsset {
  readonly file: string;
  readonly url: string;
  readonly sha256: string;
}

/** What {@link generateApp} produced. */
export interface GeneratedApp {
  /** File name (relative, such as `main.ts`) → content. */
  readonly files: Record<string, string>;
  /** Binary files the code refers to (emoji images), for the caller to download and write. */
  readonly assets: readonly ImportAsset[];
  /** Live objects or settings left out, with the reason (also listed in `main.ts`). */
  readonly skipped: readonly SkippedObject[];
  /** How many constructs of each kind were generated. */
  readonly counts: Readonly<Record<ImportKind, number>>;
}
