/**
 * Every error the embedded server answers with has a conformance case (the project's rule: each
 * rule of src/emulator follows a Zulip function and has a case ported from Zulip's tests that
 * checks its status, code and msg). This finds the messages in the emulator's source, the first
 * argument of each error it builds, and looks for each in test/conformance: a rule added without
 * its case fails here, with the file and line of the rule.
 *
 * A message built from pieces (`Invalid user ID: ${id}`) is looked for by its longest literal
 * piece. Messages made by the shared parameter checks (`${name} is not an integer`) say nothing
 * without the name; their cases are in test/conformance/request-parsing.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const EMULATOR = path.join(ROOT, 'src', 'emulator');
const CONFORMANCE = __dirname;

/** Functions whose first argument is the message of the error they build (src/emulator/errors.ts). */
const ERROR_BUILDERS = new Set(['badRequest', 'notFound', 'ApiError']);

/** Literal pieces shorter than this name no rule (`${name} is not a list`). */
const MIN_PIECE = 8;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

interface Rule {
  readonly where: string;
  /** The longest literal piece of its message. */
  readonly text: string;
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = node.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

/** The literal pieces of a message expression; none when it is not written out here. */
function pieces(arg: ts.Expression): string[] {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return [arg.text];
  if (ts.isTemplateExpression(arg))
    return [arg.head.text, ...arg.templateSpans.map((s) => s.literal.text)];
  if (ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return [...pieces(arg.left), ...pieces(arg.right)];
  return [];
}

function rulesOf(file: string): Rule[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Rule[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments?.[0]) {
      const name = calleeName(node);
      if (name && ERROR_BUILDERS.has(name)) {
        const longest = pieces(node.arguments[0]).sort((a, b) => b.length - a.length)[0];
        if (longest !== undefined && longest.trim().length >= MIN_PIECE) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          out.push({ where: `${path.relative(ROOT, file)}:${line + 1}`, text: longest });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * Rules that are Django's, not Zulip's (no Zulip function or test has them): looked for in the
 * emulator test that covers them instead.
 */
const DJANGO_RULES: Readonly<Record<string, string>> = {
  // RequestDataTooBig, TooManyFieldsSent, MultiPartParserError: Django's request parsing.
  'src/emulator/request-body.ts': path.join(ROOT, 'test', 'emulator', 'request-parsing.test.ts'),
};

const rules = sourceFiles(EMULATOR).flatMap(rulesOf);
/** The text of every string the conformance cases write (unescaped, as the rules' are). */
function stringsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node))
      out.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    else if (ts.isRegularExpressionLiteral(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const cases = sourceFiles(CONFORMANCE).flatMap(stringsOf).join('\n');

test('the emulator builds its errors where this test can find them', () => {
  // Guards the test itself: a change in how errors are built must not leave it checking nothing.
  expect(rules.length).toBeGreaterThan(250);
  expect(rules.some((r) => r.text === 'Invalid channel ID')).toBe(true);
});

const casesOf = (r: Rule): string => {
  const django = DJANGO_RULES[r.where.slice(0, r.where.lastIndexOf(':'))];
  return django ? stringsOf(django).join('\n') : cases;
};

test('every error message of the emulator has a conformance case', () => {
  const missing = rules
    .filter((r) => !casesOf(r).includes(r.text))
    .map((r) => `${r.where}: ${r.text}`);
  expect(missing).toEqual([]);
});
