/**
 * Every export of the package's entry points (package.json `exports`) carries TSDoc: what users
 * read in their editor when they import `zulip-cdk/client`, `zulip-cdk/emulator`,
 * `zulip-cdk/testing` or `zulip-cdk/watch`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string }>;
};

/** `./client` → `src/zulip/index.ts`, from the `types` of each code entry point. */
const ENTRIES = Object.entries(pkg.exports)
  .filter(([sub, v]) => sub !== '.' && typeof v === 'object')
  .map(([sub, v]) => ({
    sub,
    name: sub.slice(2),
    file: path.join(
      ROOT,
      (v as { types: string }).types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    ),
  }));

const program = ts.createProgram(
  ENTRIES.map((e) => e.file),
  { strict: true, skipLibCheck: true, noEmit: true },
);
const checker = program.getTypeChecker();
const docHost = (d: ts.Node): ts.Node => (ts.isVariableDeclaration(d) ? d.parent.parent : d);
const hasDoc = (d: ts.Node): boolean => ts.getJSDocCommentsAndTags(docHost(d)).length > 0;

test('the entry points are client, emulator, testing and watch', () => {
  expect(ENTRIES.map((e) => e.sub).sort()).toEqual([
    './client',
    './emulator',
    './testing',
    './watch',
  ]);
});

test.each(ENTRIES)('every export of zulip-cdk/$name has TSDoc', ({ file }) => {
  const sf = program.getSourceFile(file);
  const mod = sf && checker.getSymbolAtLocation(sf);
  if (!mod) throw new Error(`cannot read ${file}`);
  const missing: string[] = [];
  for (const s of checker.getExportsOfModule(mod)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    const decls = (target.declarations ?? []).filter(
      (d) => !d.getSourceFile().fileName.includes('node_modules'),
    );
    if (decls.length > 0 && !decls.some(hasDoc))
      missing.push(`${s.name} (${path.relative(ROOT, decls[0]!.getSourceFile().fileName)})`);
  }
  expect(missing).toEqual([]);
});
