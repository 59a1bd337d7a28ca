/**
 * The generated app's file layout and printing: which file each declaration goes to, and the
 * text of `main.ts` (one file) or of one file per kind.
 */
import { KIND_SPECS, RESOURCE_KINDS } from '../model/kinds';
import type { ResourceKind } from '../model/kinds';
import { commentLines, printCall, printImport } from './code';
import type { Entry, Expr, RefResolver, RefTarget } from './code';
import { NameAllocator, identifierFor } from './names';
import { SPLIT_THRESHOLD } from './options';
import type { ImportKind, ImportLayout } from './options';

/** A file of the generated app: the declarations of one kind, named by its collection. */
export type FileKey = ImportKind;

/** What a file is called, the function it exports (split layout) and its section comment. */
export interface FileMeta {
  readonly file: string;
  readonly fn: string;
  /** The parameter other files' functions take its result as (a file others refer to). */
  readonly param?: string;
  readonly title: string;
}

/**
 * The files that are not named by default ({@link fileMeta}): each kind's section comment, and
 * where the file or its function has another name.
 */
const FILES: Partial<Record<FileKey, Partial<FileMeta> & { readonly title: string }>> = {
  users: {
    title:
      "Roles of the users who are not plain members, and users' custom profile field values (zulip-cdk does not create users).",
  },
  userGroups: {
    file: 'groups.ts',
    fn: 'declareUserGroups',
    param: 'groups',
    title: 'User groups, each after the groups it refers to.',
  },
  channels: {
    param: 'channels',
    title:
      "Channel folders in Zulip's order, each followed by its channels; then the channels in no folder.",
  },
  linkifiers: { title: 'Linkifiers, in the order Zulip applies them.' },
  playgrounds: { fn: 'declareCodePlaygrounds', title: 'Code playgrounds.' },
  savedSnippets: { title: 'Saved snippets of the applying account.' },
  customEmoji: { title: 'Custom emoji; their images are in emoji/, next to this file.' },
  subscriptionSettings: { title: "The applying account's own settings of its subscriptions." },
  organizationSettings: {
    title:
      "The organization's settings and permissions, as they are live (leave one out to leave it alone).",
  },
  defaultUserSettings: {
    title: 'The settings new users start with, as they are live (leave one out to leave it alone).',
  },
  defaultChannelGroups: {
    title: 'Default channel groups: the channels people signing up can join as a set.',
  },
  customProfileFields: {
    title: "Custom profile fields, in Zulip's order; users' values are on the users.",
  },
  allowedDomains: {
    title:
      'The e-mail domains people may sign up from when the organization restricts sign-up to them (emailsRestrictedToDomains).',
  },
};

/**
 * A file's name, function and section comment: its entry in {@link FILES} over the defaults, the
 * collection's name (`defaultChannelGroups`: `default-channel-groups.ts`,
 * `declareDefaultChannelGroups`) and the kind's title.
 */
export function fileMeta(file: FileKey): FileMeta {
  const kind = RESOURCE_KINDS.find((k) => KIND_SPECS[k].collection === file);
  return {
    file: `${file.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`,
    fn: `declare${file.charAt(0).toUpperCase()}${file.slice(1)}`,
    title: `${kind ? KIND_SPECS[kind].title : file}.`,
    ...FILES[file],
  };
}

/**
 * The kinds in the order the importer declares them, which is also the order of the files:
 * users first, then the order of `RESOURCE_KINDS` (construct ids are unique across kinds, and
 * the first kind to take one keeps it).
 */
export const IMPORT_ORDER: readonly ResourceKind[] = [
  'user',
  ...RESOURCE_KINDS.filter((k) => k !== 'user'),
];

/** A kind whose declarations go to another kind's file: folders go with their channels. */
const IN_FILE_OF: Partial<Record<ImportKind, FileKey>> = { channelFolders: 'channels' };

/** The file a kind's declarations go to. */
export function fileOfKind(kind: ImportKind): FileKey {
  return IN_FILE_OF[kind] ?? kind;
}

/** The files in the order they are printed (sections of `main.ts`, calls in it). */
export const FILE_ORDER: readonly FileKey[] = IMPORT_ORDER.map(
  (k) => KIND_SPECS[k].collection,
).filter((c) => fileOfKind(c) === c);

/** One construct to declare. */
export interface Decl {
  readonly file: FileKey;
  readonly construct: string;
  readonly id: string;
  readonly entries: Entry[];
  /** Comment lines above the declaration. */
  readonly comments: string[];
  /** Set when something may refer to it. */
  target?: RefTarget;
  /** The Zulip name its variable is derived from. */
  label?: string;
  /** Set for `subject.setPermissions({...})` statements (then `construct` is empty). */
  readonly subject?: RefTarget;
  varName?: string;
}

/** Code-unit order, case-insensitive first: the same on every machine. */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export const targetKey = (t: RefTarget): string => `${t.kind}:${t.key}`;

/** What {@link printApp} prints: the declarations and what refers to what. */
export interface AppToPrint {
  readonly decls: readonly Decl[];
  /** Declarations that something may refer to, by {@link targetKey}. */
  readonly byTarget: ReadonlyMap<string, Decl>;
  /** Which files refer to which targets. */
  readonly refs: ReadonlyMap<string, ReadonlySet<FileKey>>;
  /** Section comments to put above a channel's declaration, by channel name. */
  readonly pendingComment: ReadonlyMap<string, string>;
  readonly layout: ImportLayout;
  /** Comment lines at the top of `main.ts`. */
  readonly header: readonly string[];
  /** The Organization construct's id. */
  readonly orgId: string;
}

/** The app's files: file name (relative, such as `main.ts`) → content. */
export function printApp(app: AppToPrint): Record<string, string> {
  return new AppPrinter(app).render();
}

class AppPrinter {
  private readonly decls: readonly Decl[];
  private readonly byTarget: ReadonlyMap<string, Decl>;
  private readonly refs: ReadonlyMap<string, ReadonlySet<FileKey>>;
  private readonly pendingComment: ReadonlyMap<string, string>;
  private readonly vars = new NameAllocator();

  public constructor(private readonly app: AppToPrint) {
    this.decls = app.decls;
    this.byTarget = app.byTarget;
    this.refs = app.refs;
    this.pendingComment = app.pendingComment;
  }

  private split(): boolean {
    const layout = this.app.layout;
    if (layout === 'auto') return this.decls.length > SPLIT_THRESHOLD;
    return layout === 'split';
  }

  /** Gives every referenced declaration a variable name. */
  private nameVariables(): void {
    const suffix = { group: '', folder: 'Folder', channel: 'Channel' } as const;
    for (const d of this.decls) {
      if (!d.target || !this.refs.has(targetKey(d.target))) continue;
      d.varName = this.vars.allocate(
        identifierFor(d.label ?? d.target.key, d.target.kind, suffix[d.target.kind]),
      );
    }
  }

  private declLines(d: Decl, indent: number, resolve: RefResolver): string[] {
    const pad = ' '.repeat(indent);
    const out: string[] = [];
    if (d.target?.kind === 'channel') {
      const section = this.pendingComment.get(d.target.key);
      if (section) out.push(`${pad}// ${section}`);
    }
    for (const c of d.comments) out.push(...commentLines(c, indent));
    const head = d.subject
      ? `${resolve(d.subject)}.setPermissions(`
      : `${d.varName ? `const ${d.varName} = ` : ''}new ${d.construct}(org, '${d.id}', `;
    out.push(...printCall(head, d.entries, indent, resolve));
    return out;
  }

  private constructsUsed(decls: readonly Decl[]): Set<string> {
    const names = new Set<string>();
    const walk = (e: Expr): void => {
      if (e.t === 'raw' && e.code.startsWith('SystemGroup.')) names.add('SystemGroup');
      if (e.t === 'array') e.items.forEach(walk);
      if (e.t === 'object' || e.t === 'call') {
        if (e.t === 'call') names.add('Permission');
        e.entries.forEach((x) => walk(x.value));
      }
    };
    for (const d of decls) {
      if (d.construct !== '') names.add(d.construct);
      d.entries.forEach((x) => walk(x.value));
    }
    return names;
  }

  public render(): Record<string, string> {
    this.nameVariables();
    return this.split() ? this.renderSplit() : this.renderSingle();
  }

  private sectionComment(file: FileKey, indent: number): string[] {
    const title =
      file === 'channels' &&
      !this.decls.some((d) => d.construct === KIND_SPECS.channelFolder.construct)
        ? 'Channels.'
        : fileMeta(file).title;
    return commentLines(title, indent);
  }

  private renderSingle(): Record<string, string> {
    const resolve: RefResolver = (t) => this.byTarget.get(targetKey(t))?.varName ?? 'undefined';
    const used = this.constructsUsed(this.decls);
    used.add('App');
    used.add('Organization');
    const lines = [...this.app.header, '', ...printImport([...used], 'zulip-cdk'), ''];
    lines.push('const app = new App();');
    lines.push(`const org = new Organization(app, ${quoteId(this.app.orgId)});`);
    for (const file of FILE_ORDER) {
      const decls = this.decls.filter((d) => d.file === file);
      if (decls.length === 0) continue;
      lines.push('', ...this.sectionComment(file, 0));
      decls.forEach((d, i) => {
        if (i > 0) lines.push('');
        lines.push(...this.declLines(d, 0, resolve));
      });
    }
    lines.push('', 'app.synth();', '');
    return { 'main.ts': lines.join('\n') };
  }

  private renderSplit(): Record<string, string> {
    const files: Record<string, string> = {};
    /** Which files each file's function takes (by parameter) and what it returns. */
    const exportsOf = new Map<FileKey, Decl[]>();
    const needs = new Map<FileKey, Set<FileKey>>();
    for (const d of this.decls) {
      if (!d.target) continue;
      const users = this.refs.get(targetKey(d.target));
      if (!users) continue;
      for (const f of users) {
        if (f === d.file) continue;
        const list = exportsOf.get(d.file) ?? [];
        if (!list.includes(d)) list.push(d);
        exportsOf.set(d.file, list);
        const n = needs.get(f) ?? new Set();
        n.add(d.file);
        needs.set(f, n);
      }
    }
    const present = FILE_ORDER.filter((f) => this.decls.some((d) => d.file === f));
    const typeName = (f: FileKey): string => (f === 'userGroups' ? 'UserGroups' : 'Channels');
    for (const file of present) {
      const meta = fileMeta(file);
      const decls = this.decls.filter((d) => d.file === file);
      const resolve: RefResolver = (t) => {
        const d = this.byTarget.get(targetKey(t));
        if (!d) return 'undefined';
        return d.file === file
          ? (d.varName ?? 'undefined')
          : `${fileMeta(d.file).param ?? ''}.${d.varName ?? ''}`;
      };
      const params = [...(needs.get(file) ?? [])].sort(
        (a, b) => FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b),
      );
      const lines: string[] = [];
      lines.push(...printImport(['Organization'], 'zulip-cdk', true));
      lines.push(...printImport([...this.constructsUsed(decls)], 'zulip-cdk'));
      for (const p of params)
        lines.push(
          ...printImport([typeName(p)], `./${fileMeta(p).file.replace(/\.ts$/, '')}`, true),
        );
      lines.push('');
      lines.push(...this.sectionComment(file, 0).map((l) => l.replace(/^\/\/ /, '// ')));
      const sig = [
        'org: Organization',
        ...params.map((p) => `${fileMeta(p).param ?? ''}: ${typeName(p)}`),
      ];
      lines.push(`export function ${meta.fn}(${sig.join(', ')}) {`);
      decls.forEach((d, i) => {
        if (i > 0) lines.push('');
        lines.push(...this.declLines(d, 2, resolve));
      });
      const exported = (exportsOf.get(file) ?? []).map((d) => d.varName ?? '');
      if (exported.length > 0) {
        lines.push('  return {', ...exported.sort(compareNames).map((v) => `    ${v},`), '  };');
      }
      lines.push('}');
      if (exported.length > 0) {
        lines.push('', `/** What \`${meta.fn}\` declared that other files refer to. */`);
        lines.push(`export type ${typeName(file)} = ReturnType<typeof ${meta.fn}>;`);
      }
      lines.push('');
      files[meta.file] = lines.join('\n');
    }
    const main = [...this.app.header, '', ...printImport(['App', 'Organization'], 'zulip-cdk')];
    for (const file of [...present].sort((a, b) =>
      compareNames(fileMeta(a).file, fileMeta(b).file),
    ))
      main.push(
        ...printImport([fileMeta(file).fn], `./${fileMeta(file).file.replace(/\.ts$/, '')}`),
      );
    main.push(
      '',
      'const app = new App();',
      `const org = new Organization(app, ${quoteId(this.app.orgId)});`,
    );
    for (const file of present) {
      const meta = fileMeta(file);
      const args = ['org', ...[...(needs.get(file) ?? [])].map((p) => fileMeta(p).param ?? '')];
      const call = `${meta.fn}(${args.join(', ')});`;
      main.push(exportsOf.has(file) ? `const ${meta.param ?? ''} = ${call}` : call);
    }
    main.push('app.synth();', '');
    files['main.ts'] = main.join('\n');
    return files;
  }
}

function quoteId(id: string): string {
  return `'${id.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
