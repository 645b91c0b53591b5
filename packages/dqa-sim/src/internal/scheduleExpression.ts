import { echo } from '@boltzmann/ising-core/internal';
import type { FactoryFunctionMap, MathNode } from 'mathjs';
import { scheduleMath } from '../scheduleParser.js';
import { DqaError } from '../errors.js';

/** Longest schedule expression accepted, in characters (the presets are under 10). */
export const MAX_EXPRESSION_LENGTH = 1000;

/** Functions a schedule expression may call. */
export const SCHEDULE_FUNCTIONS = [
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'exp',
  'expm1',
  'log',
  'log10',
  'log2',
  'log1p',
  'sqrt',
  'cbrt',
  'pow',
  'abs',
  'sign',
  'min',
  'max',
  'floor',
  'ceil',
] as const;

/** Constants a schedule expression may name, besides the variable `u`. */
export const SCHEDULE_CONSTANTS = ['pi', 'e'] as const;

/** Operators (mathjs function names) a schedule expression may use: `+ - * / ^`, unary `-` and `+`. */
const OPERATORS = [
  'add',
  'subtract',
  'multiply',
  'divide',
  'pow',
  'unaryMinus',
  'unaryPlus',
] as const;

type Fn = (...args: number[]) => number;
type Compiled = (u: number) => number;

/** The mathjs factories of the allowed operators, functions and constants. */
const FACTORY_NAMES = [...OPERATORS, ...SCHEDULE_FUNCTIONS, ...SCHEDULE_CONSTANTS].map(
  (name) => `${name}Dependencies`,
);

let instance: Record<string, unknown> | undefined;

/**
 * A mathjs instance with the number-only implementations of the allowed functions and nothing
 * else: no parser, no `evaluate`, no matrices (`zeros`, `size`, `range`, `matrix`, …), no units.
 * Created on first use. Only names from the allow-lists above are ever looked up in it.
 */
function restricted(): Record<string, unknown> {
  if (instance === undefined) {
    const math = scheduleMath() as unknown as Record<string, unknown> & {
      create(factories: Record<string, FactoryFunctionMap>, config: object): unknown;
    };
    const factories = Object.fromEntries(
      FACTORY_NAMES.map((name) => [name, math[name] as FactoryFunctionMap]),
    );
    instance = math.create(factories, {}) as Record<string, unknown>;
  }
  return instance;
}

const ALLOWED_TEXT = `numbers, u, ${SCHEDULE_CONSTANTS.join(', ')}, + - * / ^ and ${SCHEDULE_FUNCTIONS.join(', ')}`;

function refuse(which: string, text: string, what: string, node: MathNode): DqaError {
  return new DqaError(
    'DQA_BAD_SCHEDULE',
    `schedule ${which} = ${echo(text)} uses ${what} ${echo(node.toString(), 60)}, which schedules do not allow; allowed: ${ALLOWED_TEXT}`,
  );
}

function call(f: Fn, args: Compiled[]): Compiled {
  if (args.length === 1) {
    const [a] = args as [Compiled];
    return (u) => f(a(u));
  }
  if (args.length === 2) {
    const [a, b] = args as [Compiled, Compiled];
    return (u) => f(a(u), b(u));
  }
  return (u) => f(...args.map((a) => a(u)));
}

/** Turns a parse tree into a closure, refusing every node outside the allow-lists before anything runs. */
function build(node: MathNode, which: string, text: string): Compiled {
  const math = restricted();
  const n = node as MathNode & {
    value?: unknown;
    name?: string;
    fn?: unknown;
    args?: MathNode[];
    content?: MathNode;
  };
  switch (node.type) {
    case 'ConstantNode': {
      const value = n.value;
      if (typeof value !== 'number') throw refuse(which, text, 'the non-numeric constant', node);
      return () => value;
    }
    case 'ParenthesisNode':
      return build(n.content!, which, text);
    case 'SymbolNode': {
      const name = n.name!;
      if (name === 'u') return (u) => u;
      if (!(SCHEDULE_CONSTANTS as readonly string[]).includes(name))
        throw refuse(which, text, 'the symbol', node);
      const value = math[name] as number;
      return () => value;
    }
    case 'OperatorNode': {
      const name = n.fn as string;
      if (!(OPERATORS as readonly string[]).includes(name))
        throw refuse(which, text, `the operator ${echo((node as { op?: unknown }).op)} in`, node);
      return call(
        math[name] as Fn,
        n.args!.map((a) => build(a, which, text)),
      );
    }
    case 'FunctionNode': {
      const fn = n.fn as MathNode & { name?: string };
      const name = fn.type === 'SymbolNode' ? fn.name! : '';
      if (!(SCHEDULE_FUNCTIONS as readonly string[]).includes(name))
        throw refuse(which, text, 'the function call', node);
      return call(
        math[name] as Fn,
        n.args!.map((a) => build(a, which, text)),
      );
    }
    default: {
      const kind = `${node.type.replace(/Node$/, '').toLowerCase()} expression`;
      throw refuse(which, text, `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`, node);
    }
  }
}

/**
 * Compiles a schedule expression of `u` into a plain function: checks the length, parses it with
 * mathjs (parsing evaluates nothing), accepts only numbers, `u`, `pi`, `e`, `+ - * / ^` and the
 * functions in {@link SCHEDULE_FUNCTIONS}, and evaluates them with a restricted mathjs instance.
 * Anything else (`zeros(…)`, `size(…)`, indexing, assignments, strings, matrices) is refused
 * before a single evaluation, so no expression can allocate or run code.
 *
 * @throws {DqaError} DQA_BAD_SCHEDULE naming the offending part (echoed in bounded form).
 */
export function compileExpression(text: string, which: 'A' | 'B'): Compiled {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `schedule ${which} is ${text.length.toLocaleString('en-US')} characters long (limit ${MAX_EXPRESSION_LENGTH.toLocaleString('en-US')}): ${echo(text, 80)}`,
    );
  }
  let tree: MathNode;
  try {
    tree = scheduleMath().parse(text);
  } catch (cause) {
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `schedule ${which} = ${echo(text)} does not parse: ${(cause as Error).message}`,
      { cause },
    );
  }
  return build(tree, which, text);
}

/** Points of the finiteness check on `[0, 1]`. */
export const CHECK_POINTS = 1001;

/**
 * Time the 1001-point check of a schedule expression may take, in milliseconds. The allowed
 * functions are cheap (a 1,000-character expression checks in a few ms), so only a pathological
 * expression or a starved machine gets near it.
 */
export const CHECK_BUDGET_MS = 250;

/**
 * Checks that `f` is a finite real number at {@link CHECK_POINTS} points of `[0, 1]`, giving up
 * with DQA_BAD_SCHEDULE once the check has taken more than `budgetMs` (when given).
 *
 * @param source the schedule as the user gave it, for messages (echoed in bounded form).
 * @throws {DqaError} DQA_BAD_SCHEDULE
 */
export function checkSchedule(
  f: (u: number) => number,
  which: 'A' | 'B',
  source: string,
  budgetMs?: number,
): void {
  const started = budgetMs === undefined ? 0 : performance.now();
  for (let i = 0; i < CHECK_POINTS; i++) {
    const u = i / (CHECK_POINTS - 1);
    let v: number;
    try {
      v = f(u);
    } catch (cause) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `schedule ${which} = ${source} throws at u = ${u}: ${(cause as Error).message}`,
        { cause },
      );
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `schedule ${which} = ${source} is ${echo(v)} at u = ${u}; it must be a finite real number on [0, 1]`,
      );
    }
    if (budgetMs !== undefined && i % 16 === 15 && performance.now() - started > budgetMs) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `schedule ${which} = ${source} took more than ${budgetMs} ms to evaluate at ${i + 1} of the ${CHECK_POINTS} check points; use a simpler expression or a JS function`,
      );
    }
  }
}
