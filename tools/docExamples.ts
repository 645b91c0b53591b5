// The `@example` blocks of the public API: every name an entry point of typedoc.json exports (and the
// members of its classes and interfaces), found through the TypeScript checker, with the code as a
// reader of the reference site sees it. tools/docExamples.test.ts runs each as a program of its own.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One `@example` of a public name, and where its comment is. */
export interface DocExample {
  /** The documented name, e.g. `@boltzmann/attention.createEngineTrainer`. */
  readonly name: string;
  /** The source file, relative to the repository. */
  readonly file: string;
  /** The 1-based line of the `@example` tag. */
  readonly line: number;
  /** The code, without the comment's leading `*`s. */
  readonly code: string;
}

/** The JSDoc comments attached to a declaration, as TypeScript parsed them. */
function jsDocsOf(node: ts.Node): readonly ts.JSDoc[] {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  // A `const x = …` carries its comment on the statement, two levels up.
  if (docs.length === 0 && ts.isVariableDeclaration(node)) return jsDocsOf(node.parent.parent);
  return docs;
}

/**
 * The examples in one comment's raw text, as TypeDoc reads them: an `@example` runs to the next
 * block tag outside a code fence; its code is its fenced blocks, or all of it when it has none.
 */
export function examplesOfComment(
  raw: string,
  firstLine: number,
): { line: number; code: string }[] {
  const lines = raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''));
  const found: { line: number; code: string }[] = [];
  let current: { line: number; body: string[] } | undefined;
  let fenced = false;
  const close = (): void => {
    if (current !== undefined) found.push({ line: current.line, code: codeOf(current.body) });
    current = undefined;
  };
  lines.forEach((text, i) => {
    if (!fenced && /^@\w+/.test(text)) {
      close();
      if (text.startsWith('@example')) current = { line: firstLine + i, body: [] };
      return;
    }
    if (/^\s*```/.test(text)) fenced = !fenced;
    current?.body.push(text);
  });
  close();
  return found;
}

/** The code of an example's body: its fenced blocks joined, or the whole body. */
function codeOf(body: readonly string[]): string {
  if (!body.some((l) => /^\s*```/.test(l))) return `${body.join('\n').trim()}\n`;
  const code: string[] = [];
  let inside = false;
  for (const l of body) {
    if (/^\s*```/.test(l)) inside = !inside;
    else if (inside) code.push(l);
  }
  return `${code.join('\n').trim()}\n`;
}

/** The declarations whose comments document `symbol` on the site: its own, and its members'. */
function documentedDeclarations(symbol: ts.Symbol): { decl: ts.Node; member?: string }[] {
  const out: { decl: ts.Node; member?: string }[] = [];
  for (const decl of symbol.declarations ?? []) {
    out.push({ decl });
    if (ts.isClassDeclaration(decl) || ts.isInterfaceDeclaration(decl)) {
      for (const m of decl.members) out.push({ decl: m, member: m.name?.getText() });
    }
  }
  return out;
}

/** One exported name of an entry point, and the symbol it stands for. */
interface PublicName {
  /** The documented name, e.g. `@boltzmann/attention.createEngineTrainer`. */
  readonly name: string;
  readonly symbol: ts.Symbol;
}

/** Every name the entry points of `typedocJson` export, resolved through re-exports. */
function publicNames(root: string, typedocJson: string): PublicName[] {
  const config = JSON.parse(readFileSync(join(root, typedocJson), 'utf8')) as {
    entryPoints: string[];
  };
  const tsconfig = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.base.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const entries = config.entryPoints.map((p) => join(root, p));
  const program = ts.createProgram(entries, tsconfig?.options ?? {});
  const checker = program.getTypeChecker();
  return entries.flatMap((entry) => {
    const source = program.getSourceFile(entry);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`no module symbol for ${entry}`);
    const pkg = packageName(root, entry);
    return checker.getExportsOfModule(moduleSymbol).map((exported) => ({
      name: `${pkg}.${exported.name}`,
      symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
    }));
  });
}

/** Every `@example` of the public API of the entry points in `typedocJson` (repository-relative). */
export function collectDocExamples(root: string, typedocJson = 'typedoc.json'): DocExample[] {
  const seen = new Set<string>();
  const examples: DocExample[] = [];
  for (const { name, symbol } of publicNames(root, typedocJson)) {
    for (const { decl, member } of documentedDeclarations(symbol)) {
      const file = decl.getSourceFile();
      for (const doc of jsDocsOf(decl)) {
        const key = `${file.fileName}:${doc.pos}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const firstLine = file.getLineAndCharacterOfPosition(doc.getStart(file)).line + 1;
        const raw = file.text.slice(doc.getStart(file), doc.end);
        for (const ex of examplesOfComment(raw, firstLine)) {
          const full = member === undefined ? name : `${name}.${member}`;
          examples.push({ name: full, file: relative(root, file.fileName), ...ex });
        }
      }
    }
  }
  return examples;
}

/**
 * The public names whose own declaration carries no `@category` (the reference groups a package's
 * page by category), as `file:line (name)`. A name another package owns (a re-export) is skipped.
 */
export function uncategorizedNames(root: string, typedocJson = 'typedoc.json'): string[] {
  const missing = new Set<string>();
  for (const { name, symbol } of publicNames(root, typedocJson)) {
    const decls = symbol.declarations ?? [];
    const first = decls[0];
    if (first === undefined) continue;
    const owner = relative(root, first.getSourceFile().fileName).split('/').slice(0, 2).join('/');
    const pkg = name.replace(/^@boltzmann\/([\w-]+).*$/, 'packages/$1');
    if (owner !== pkg) continue;
    const tagged = decls.some((d) =>
      jsDocsOf(d).some((doc) => (doc.tags ?? []).some((t) => t.tagName.text === 'category')),
    );
    if (tagged) continue;
    const file = first.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(first.getStart(file)).line + 1;
    missing.add(`${relative(root, file.fileName)}:${line} (${name})`);
  }
  return [...missing];
}

/** The first paragraph of a comment's text (what TypeDoc shows on a package page without `@summary`). */
function firstParagraph(doc: ts.JSDoc): string {
  const text =
    typeof doc.comment === 'string' ? doc.comment : (doc.comment ?? []).map((c) => c.text).join('');
  return (text.split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The public names whose summary on the package page (`@summary`, else the first paragraph of the
 * comment) is longer than `limit` characters, as `file:line (name): length`.
 */
export function longSummaries(root: string, limit: number, typedocJson = 'typedoc.json'): string[] {
  const long = new Set<string>();
  for (const { name, symbol } of publicNames(root, typedocJson)) {
    const first = symbol.declarations?.[0];
    if (first === undefined) continue;
    const doc = jsDocsOf(first).at(-1);
    if (doc === undefined) continue;
    if ((doc.tags ?? []).some((t) => t.tagName.text === 'summary')) continue;
    const length = firstParagraph(doc).length;
    if (length <= limit) continue;
    const file = first.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(doc.getStart(file)).line + 1;
    long.add(`${relative(root, file.fileName)}:${line} (${name}): ${length} characters`);
  }
  return [...long];
}

/** The import specifier of an entry point, e.g. `@boltzmann/ising-core/testing`. */
function packageName(root: string, entry: string): string {
  const rel = relative(root, entry).split('/');
  const dir = join(root, rel[0] ?? '', rel[1] ?? '');
  const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
  const sub = rel
    .slice(3)
    .join('/')
    .replace(/(^|\/)index\.ts$/, '')
    .replace(/\.ts$/, '');
  return sub === '' ? name : `${name}/${sub}`;
}
