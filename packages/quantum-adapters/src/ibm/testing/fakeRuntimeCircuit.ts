// What the fake Runtime server checks of a pub's OpenQASM 3 circuit before running it, as the real
// service may refuse: `include "stdgates.inc";` present, and every gate called either in that file,
// built in (`U`, `gphase`) or defined by an earlier `gate` statement (in a definition's body too).
// A statement-level check, not a parser (qasmGrammar.test.ts parses with the reference grammar).
// Test-only.
import { STDGATES_INC } from '../qasmGates.js';

/** Statement keywords that are not gate calls. */
const NOT_CALLS = new Set([
  'OPENQASM',
  'include',
  'bit',
  'qubit',
  'creg',
  'qreg',
  'input',
  'output',
  'const',
  'int',
  'uint',
  'float',
  'angle',
  'bool',
  'measure',
  'reset',
  'barrier',
  'delay',
  'ctrl',
  'negctrl',
  'inv',
  'pow',
  'if',
  'for',
  'while',
  'def',
  'defcal',
  'cal',
  'let',
  'box',
  'extern',
  'return',
]);

/** Built into OpenQASM 3 (no include needed). */
const BUILT_IN = new Set(['U', 'gphase']);

/**
 * Why the service would refuse `qasm`, or undefined when it passes: the statements (split at `;`,
 * `{` and `}`, comments removed) are walked in order.
 *
 * @example
 * circuitRefusal('OPENQASM 3.0;\nbit[1] c;\nx $0;\n'); // 'the circuit lacks include "stdgates.inc";'
 */
export function circuitRefusal(qasm: string): string | undefined {
  const statements = qasm
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .split(/[;{}]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!statements.some((s) => /^include\s+"stdgates\.inc"$/.test(s)))
    return 'the circuit lacks include "stdgates.inc";';
  const defined = new Set<string>();
  for (const s of statements) {
    const definition = /^gate\s+([A-Za-z_]\w*)/.exec(s);
    if (definition) {
      defined.add(definition[1]!);
      continue;
    }
    const name = /^([A-Za-z_]\w*)(?=\s*[(\s$])/.exec(s)?.[1];
    if (name === undefined || NOT_CALLS.has(name) || /=\s*measure\b/.test(s)) continue;
    if (!STDGATES_INC.has(name) && !BUILT_IN.has(name) && !defined.has(name))
      return `gate ${name} is not defined (neither in stdgates.inc nor by a gate statement before its use)`;
  }
  return undefined;
}
