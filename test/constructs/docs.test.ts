/**
 * TSDoc is what users read in their editor: every export of the construct library is
 * documented, every construct class has an `@example`, and every example type-checks under the
 * project's strict options and synthesizes without a validation problem.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { Organization } from 'zulip-cdk';
import { Testing } from 'zulip-cdk';

const ROOT = path.resolve(__dirname, '..', '..');
const INDEX = path.join(ROOT, 'src', 'index.ts');

/** The library's own files whose exports users read: the constructs and synth. */
const isLibraryFile = (file: string): boolean =>
  [path.join(ROOT, 'src', 'constructs'), path.join(ROOT, 'src', 'synth')].some((dir) =>
    file.startsWith(dir + path.sep),
  );
/** Classes users instantiate or call in their own code: the constructs and Testing. */
const needsExample = (file: string): boolean =>
  file.startsWith(path.join(ROOT, 'src', 'constructs') + path.sep) ||
  file === path.join(ROOT, 'src', 'synth', 'testing.ts');

const program = ts.createProgram([INDEX], {
  strict: true,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

interface Exported {
  readonly name: string;
  readonly decl: ts.Declaration;
  readonly file: string;
}

function libraryExports(): Exported[] {
  const sf = program.getSourceFile(INDEX);
  const mod = sf && checker.getSymbolAtLocation(sf);
  if (!mod) throw new Error('cannot read the exports of src/index.ts');
  const out: Exported[] = [];
  for (const s of checker.getExportsOfModule(mod)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    for (const decl of target.declarations ?? []) {
      const file = decl.getSourceFile().fileName;
      if (isLibraryFile(path.resolve(file))) out.push({ name: s.name, decl, file });
    }
  }
  return out;
}

/** The node carrying the doc comment (a variable's statement, not its declaration). */
const docHost = (d: ts.Node): ts.Node => (ts.isVariableDeclaration(d) ? d.parent.parent : d);
const hasDoc = (d: ts.Node): boolean => ts.getJSDocCommentsAndTags(docHost(d)).length > 0;
const isAbstract = (d: ts.Declaration): boolean =>
  (ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Abstract) !== 0;

/** Every `@example` of the library's files, with where it is. */
function examples(): { where: string; code: string }[] {
  const out: { where: string; code: string }[] = [];
  const files = new Set(libraryExports().map((e) => e.file));
  for (const file of [...files]) if (!needsExample(file)) files.delete(file);
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const visit = (node: ts.Node): void => {
      for (const tag of ts.getJSDocTags(node)) {
        if (tag.tagName.text !== 'example') continue;
        const text = ts.getTextOfJSDocComment(tag.comment) ?? '';
        const { line } = sf.getLineAndCharacterOfPosition(tag.getStart());
        out.push({ where: `${path.relative(ROOT, file)}:${line + 1}`, code: text });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

describe('TSDoc of the construct library', () => {
  const exported = libraryExports();

  test('the library exports its constructs (the walk sees them)', () => {
    expect(exported.map((e) => e.name)).toEqual(
      expect.arrayContaining(['App', 'Organization', 'Channel', 'UserGroup', 'Testing']),
    );
  });

  test('every export has a doc comment', () => {
    const undocumented = exported.filter((e) => !hasDoc(e.decl)).map((e) => e.name);
    expect(undocumented).toEqual([]);
  });

  test('every public member of an exported class or props interface has a doc comment', () => {
    const missing: string[] = [];
    for (const e of exported) {
      if (!ts.isClassDeclaration(e.decl) && !ts.isInterfaceDeclaration(e.decl)) continue;
      for (const m of e.decl.members) {
        if (ts.isConstructorDeclaration(m) || ts.isIndexSignatureDeclaration(m)) continue;
        const flags = ts.getCombinedModifierFlags(m);
        if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        const name = m.name?.getText() ?? '';
        if (name.startsWith('_')) continue;
        // An override reads its documentation from the base class.
        if (name === 'naturalKey' && e.name !== 'ZulipResource') continue;
        if (!hasDoc(m)) missing.push(`${e.name}.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("every option of PruneOptions has a doc comment (built from the kinds' specs)", () => {
    const prune = exported.find((e) => e.name === 'PruneOptions');
    if (!prune || !ts.isTypeAliasDeclaration(prune.decl)) throw new Error('no PruneOptions type');
    const options = checker.getPropertiesOfType(checker.getTypeAtLocation(prune.decl.name));
    expect(options.map((o) => o.name)).toEqual(expect.arrayContaining(['channel', 'linkifier']));
    // Through the mapped type, an option's documentation is the one in its kind's spec.
    const undocumented = options
      .filter((o) => o.getDocumentationComment(checker).length === 0)
      .map((o) => o.name);
    expect(undocumented).toEqual([]);
  });

  test('every concrete class has an @example', () => {
    const classes = exported.filter(
      (e) => ts.isClassDeclaration(e.decl) && !isAbstract(e.decl) && needsExample(e.file),
    );
    expect(classes.length).toBeGreaterThanOrEqual(13);
    const without = classes
      .filter((e) => !ts.getJSDocTags(e.decl).some((t) => t.tagName.text === 'example'))
      .map((e) => e.name);
    expect(without).toEqual([]);
  });
});

describe('the @example blocks', () => {
  const blocks = examples();
  const dir = mkdtempSync(path.join(tmpdir(), 'zulip-cdk-doc-examples-'));
  const outdir = path.join(dir, 'out');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** An example as a module: what it uses but does not declare is declared before it. */
  const moduleOf = (code: string): string => {
    const bare = code.replace(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g, "''");
    const declares = (name: string): boolean =>
      new RegExp(`^(const|let)\\s+${name}\\b`, 'm').test(bare);
    const given: [string, string][] = [
      ['org', "const org = Testing.organization('docs');"],
      [
        'announcements',
        "const announcements = new Channel(org, 'announcements', { name: 'announcements' });",
      ],
      [
        'releaseManagers',
        "const releaseManagers = new UserGroup(org, 'release-managers', { name: 'release-managers' });",
      ],
      // A test inside a test file: run its body at once.
      ['test', 'const test = (_name: string, body: () => void): void => body();'],
    ];
    const preamble = given
      .filter(([name]) => !declares(name) && new RegExp(`\\b${name}\\b`).test(bare))
      .map(([, line]) => line);
    return [
      "import { AllowedDomain, App, Channel, ChannelFolder, CodePlayground, CustomEmoji, CustomProfileField, DefaultChannelGroup, DefaultUserSettings, Linkifier, Organization, OrganizationSettings, Permission, SavedSnippet, SubscriptionSettings, SystemGroup, Testing, User, UserGroup } from 'zulip-cdk';",
      'void [AllowedDomain, App, Channel, ChannelFolder, CodePlayground, CustomEmoji, CustomProfileField, DefaultChannelGroup, DefaultUserSettings, Linkifier, Organization, OrganizationSettings, Permission, SavedSnippet, SubscriptionSettings, SystemGroup, Testing, User, UserGroup];',
      ...preamble,
      code,
      // The organization the example declared into (its own, or the one given to it).
      /\borg\b/.test(bare)
        ? 'export const checked: Organization | undefined = org;'
        : 'export const checked = undefined;',
      '',
    ].join('\n');
  };

  const files = blocks.map((b, i) => {
    const file = path.join(dir, `example-${i}.ts`);
    writeFileSync(file, moduleOf(b.code));
    return { ...b, file };
  });

  test('there are examples to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });

  test('they type-check with the project strict options', () => {
    const repo = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    const { outDir: _o, rootDir: _r, ...options } = repo.compilerOptions;
    const parsed = ts.parseJsonConfigFileContent(
      {
        compilerOptions: {
          ...options,
          noEmit: true,
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
          paths: { 'zulip-cdk': [INDEX] },
        },
        files: files.map((f) => f.file),
      },
      ts.sys,
      dir,
    );
    const diagnostics = ts.getPreEmitDiagnostics(
      ts.createProgram(parsed.fileNames, parsed.options),
    );
    const errors = diagnostics.map((d) => {
      const at = files.find((f) => f.file === d.file?.fileName);
      return `${at?.where ?? d.file?.fileName ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(errors).toEqual([]);
  });

  test.each(files.map((f) => [f.where, f] as const))(
    '%s runs and declares a valid organization',
    (_where, f) => {
      const before = process.env.ZULIP_CDK_OUTDIR;
      process.env.ZULIP_CDK_OUTDIR = outdir;
      let checked: Organization | undefined;
      try {
        jest.isolateModules(() => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- runs the example
          checked = (require(f.file) as { checked: Organization | undefined }).checked;
        });
      } finally {
        if (before === undefined) delete process.env.ZULIP_CDK_OUTDIR;
        else process.env.ZULIP_CDK_OUTDIR = before;
      }
      if (checked) expect(Testing.validate(checked)).toEqual([]);
    },
  );
});
