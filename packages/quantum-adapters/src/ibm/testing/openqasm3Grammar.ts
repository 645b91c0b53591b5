// An OpenQASM 3 parser for tests: the grammar of the subset the IBM path uses (Qasm3Subset.g4 beside
// this file, written for this package from the language specification, https://openqasm.com/language/)
// compiled by antlr-ng (the ANTLR 4 tool in TypeScript) into its interpreter data, and run by
// antlr4ng's lexer and parser interpreters. No generated parser is kept in the repository. Test-only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ATNDeserializer,
  BaseErrorListener,
  CharStream,
  CommonTokenStream,
  LexerInterpreter,
  ParserInterpreter,
  ParserRuleContext,
  PredictionMode,
  TerminalNode,
  Vocabulary,
} from 'antlr4ng';
import type { ATN, ATNSimulator, ParseTree, Recognizer, Token } from 'antlr4ng';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ANTLR_NG = join(HERE, '../../../node_modules/antlr-ng/dist/cli/runner.js');

/** One `.interp` file: ANTLR's serialized recognizer (names and ATN). */
interface InterpData {
  readonly vocabulary: Vocabulary;
  readonly ruleNames: string[];
  readonly channelNames: string[];
  readonly modeNames: string[];
  readonly atn: ATN;
}

/** Reads the sections of an ANTLR `.interp` file (blank-line separated, `null` for no name). */
function readInterp(path: string): InterpData {
  const sections = new Map<string, string[]>();
  for (const block of readFileSync(path, 'utf8').split(/\n\s*\n/)) {
    const [title, ...rows] = block.trim().split('\n');
    if (title !== undefined) sections.set(title.replace(/:$/, ''), rows);
  }
  const names = (key: string) => (sections.get(key) ?? []).map((r) => (r === 'null' ? null : r));
  const atnText = (sections.get('atn') ?? []).join('');
  return {
    vocabulary: new Vocabulary(names('token literal names'), names('token symbolic names')),
    ruleNames: (sections.get('rule names') ?? []).slice(),
    channelNames: (sections.get('channel names') ?? []).slice(),
    modeNames: (sections.get('mode names') ?? []).slice(),
    atn: new ATNDeserializer().deserialize(JSON.parse(atnText) as number[]),
  };
}

/** The syntax errors of one parse, as `line:column message`, and its tree. */
export interface Qasm3Parse {
  readonly errors: string[];
  readonly tree: ParserRuleContext;
}

/** A loaded OpenQASM 3 parser. */
export interface Qasm3Parser {
  /** Parses `source` from the grammar's start rule, `program`. */
  parse(source: string): Qasm3Parse;
  /** The name of the grammar rule a tree node was parsed by. */
  ruleName(node: ParserRuleContext): string;
  /** The symbolic name of a token type (`Identifier`, `HardwareQubit`, …). */
  tokenName(type: number): string | undefined;
}

class Collect extends BaseErrorListener {
  constructor(readonly errors: string[]) {
    super();
  }

  override syntaxError<S extends Token, T extends ATNSimulator>(
    _r: Recognizer<T>,
    _s: S | null,
    line: number,
    column: number,
    message: string,
  ): void {
    this.errors.push(`${line}:${column} ${message}`);
  }
}

/**
 * Compiles Qasm3Subset.g4 with antlr-ng (a second or two; once per test file) and returns a parser
 * over it.
 */
export function loadOpenQasm3Parser(): Qasm3Parser {
  const out = mkdtempSync(join(tmpdir(), 'openqasm3-'));
  let lexer: InterpData;
  let parser: InterpData;
  try {
    execFileSync(
      process.execPath,
      [ANTLR_NG, '-Dlanguage=TypeScript', '-o', out, 'Qasm3Subset.g4'],
      { cwd: HERE, stdio: 'pipe' },
    );
    lexer = readInterp(join(out, 'Qasm3SubsetLexer.interp'));
    parser = readInterp(join(out, 'Qasm3Subset.interp'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const start = parser.ruleNames.indexOf('program');
  const run = (source: string, mode: number): Qasm3Parse => {
    const errors: string[] = [];
    const listener = new Collect(errors);
    const lex = new LexerInterpreter(
      'Qasm3Subset.g4',
      lexer.vocabulary,
      lexer.ruleNames,
      lexer.channelNames,
      lexer.modeNames,
      lexer.atn,
      CharStream.fromString(source),
    );
    lex.removeErrorListeners();
    lex.addErrorListener(listener);
    const p = new ParserInterpreter(
      'Qasm3Subset.g4',
      parser.vocabulary,
      parser.ruleNames,
      parser.atn,
      new CommonTokenStream(lex),
    );
    p.interpreter.predictionMode = mode;
    p.removeErrorListeners();
    p.addErrorListener(listener);
    return { errors, tree: p.parse(start) };
  };
  return {
    // SLL prediction is fast and accepts no invalid program; what it refuses is parsed again with
    // full LL, whose errors are the answer (ANTLR's two-stage strategy).
    parse(source) {
      const fast = run(source, PredictionMode.SLL);
      return fast.errors.length === 0 ? fast : run(source, PredictionMode.LL);
    },
    ruleName: (node) => parser.ruleNames[node.ruleIndex] ?? '?',
    tokenName: (type) => parser.vocabulary.getSymbolicName(type) ?? undefined,
  };
}

/** Every node of `tree` parsed by rule `rule`, in source order. */
export function nodesOf(
  parser: Qasm3Parser,
  tree: ParseTree,
  rule: string,
  into: ParserRuleContext[] = [],
): ParserRuleContext[] {
  if (!(tree instanceof ParserRuleContext)) return into;
  if (parser.ruleName(tree) === rule) into.push(tree);
  for (const child of tree.children) nodesOf(parser, child, rule, into);
  return into;
}

/**
 * The name a `gateDefinition` defines or a `gateCall` calls: the first `Identifier` token directly
 * under the node (modifiers sit in their own child nodes; `gphase` is its own rule).
 */
export function gateNameOf(parser: Qasm3Parser, node: ParserRuleContext): string | undefined {
  for (const child of node.children)
    if (child instanceof TerminalNode && parser.tokenName(child.symbol.type) === 'Identifier')
      return child.getText();
  return undefined;
}
