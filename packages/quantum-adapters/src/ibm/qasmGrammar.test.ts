import { createRng } from '@boltzmann/ising-core';
import type { AnnealOptions, IsingProblem } from '@boltzmann/dqa-sim';
import { ParserRuleContext } from 'antlr4ng';
import type { ParseTree } from 'antlr4ng';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IbmTarget } from './ibmTypes.js';
import { STDGATES_INC } from './qasmGates.js';
import { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT } from './knownDevices.js';
import { gateNameOf, loadOpenQasm3Parser, nodesOf } from './testing/openqasm3Grammar.js';
import type { Qasm3Parser } from './testing/openqasm3Grammar.js';
import { transpileAnneal } from './transpile.js';

let parser: Qasm3Parser;
beforeAll(() => {
  parser = loadOpenQasm3Parser();
}, 60_000);

/** Programs written for this test in the forms the specification shows (https://openqasm.com/language/). */
const PROGRAMS: Readonly<Record<string, string>> = {
  'IBM-style, physical qubits': [
    'OPENQASM 3.0;',
    'include "stdgates.inc";',
    'bit[2] meas;',
    'rz(pi/2) $3;',
    'sx $3;',
    'x $4;',
    'cz $4, $3;',
    'rz(-1.5e-3) $3;',
    'meas[0] = measure $3;',
    'meas[1] = measure $4;',
  ].join('\n'),
  'named registers, a parametrized definition, modifiers and comments': [
    'OPENQASM 3;',
    '/* a block',
    '   comment */',
    'include "stdgates.inc";',
    'gate twist(θ, φ) a, b {',
    '  U(θ, 0, φ / 2) a;',
    '  ctrl @ x a, b;',
    '  inv @ pow(0.5) @ rz(-(θ + φ) * 2) b;',
    '  gphase(-π / 4);',
    '}',
    'qubit[3] q;',
    'bit[3] c;',
    'bit flag;',
    'reset q;',
    'h q[0]; // a trailing comment',
    'twist(0.25, .5e1) q[0], q[2];',
    'barrier q;',
    'c = measure q;',
    'measure q[1] -> flag;',
  ].join('\n'),
};

/** Built into the language: `U` (`gphase` is a token of its own, not an identifier). */
const BUILT_IN = ['U'];

/**
 * The program's gate calls that are neither built in, in stdgates.inc (when included) nor defined
 * by a `gate` statement before them; calls inside a definition's body count too.
 */
function undefinedCalls(tree: ParserRuleContext): string[] {
  const includes = nodesOf(parser, tree, 'include').map((n) => n.getChild(1)!.getText());
  const known = new Set([
    ...BUILT_IN,
    ...(includes.includes('"stdgates.inc"') ? STDGATES_INC : []),
  ]);
  const missing: string[] = [];
  const walk = (node: ParseTree): void => {
    if (!(node instanceof ParserRuleContext)) return;
    const rule = parser.ruleName(node);
    if (rule === 'gateCall') {
      const name = gateNameOf(parser, node);
      if (name !== undefined && !known.has(name)) missing.push(name);
    }
    for (const child of node.children) walk(child);
    if (rule === 'gateDefinition') known.add(gateNameOf(parser, node)!); // usable after its body
  };
  walk(tree);
  return missing;
}

/** {@link undefinedCalls} of a source that must parse. */
function undefinedIn(source: string): string[] {
  const { errors, tree } = parser.parse(source);
  expect(errors).toEqual([]);
  return undefinedCalls(tree);
}

/** A random problem: fields, and couplings within `band` of the diagonal (n − 1 = dense). */
function problem(n: number, band: number, seed: number): IsingProblem {
  const rng = createRng(seed);
  const couplings = new Float64Array(n * n);
  for (let j = 0; j < n; j++)
    for (let k = j + 1; k <= Math.min(n - 1, j + band); k++) couplings[j * n + k] = rng.normal();
  return { fields: Array.from({ length: n }, () => rng.normal()), couplings };
}

const withRzz = (t: IbmTarget): IbmTarget => ({
  configuration: { ...t.configuration, basis_gates: [...t.configuration.basis_gates, 'rzz'] },
  fractionalGates: true,
});

const TARGETS: readonly [string, IbmTarget][] = [
  ['ibm_fez (cz)', IBM_FEZ_SNAPSHOT],
  ['ibm_brisbane (ecr)', IBM_BRISBANE_SNAPSHOT],
  ['ibm_fez with fractional rzz', withRzz(IBM_FEZ_SNAPSHOT)],
  ['ibm_brisbane with fractional rzz', withRzz(IBM_BRISBANE_SNAPSHOT)],
];

describe('the OpenQASM 3 subset grammar (testing/Qasm3Subset.g4, via antlr-ng)', () => {
  it('parses programs in the forms the specification shows', () => {
    for (const [name, source] of Object.entries(PROGRAMS))
      expect(parser.parse(source).errors, name).toEqual([]);
  });

  it('rejects broken programs', () => {
    const broken = [
      'OPENQASM 3.0;\ninclude "stdgates.inc";\nbit[1] c;\nrz(0.5 $0;\n', // unclosed (
      'OPENQASM 3.0;\nbit[1] c;\nrz(0.5) $0\nsx $0;\n', // missing ;
      'OPENQASM 3.0;\ngate foo a { x a;\nbit[1] c;\n', // unclosed gate body
      'OPENQASM 3.0;\nbit[1] c;\nc[0] = measure;\n', // nothing measured
      'OPENQASM 3.0;\ncz $0 $1;\n', // operands without a comma
    ];
    for (const source of broken) expect(parser.parse(source).errors, source).not.toEqual([]);
  });

  it('finds calls to gates neither included nor defined (the check below can fail)', () => {
    expect(undefinedIn('OPENQASM 3.0;\nbit[2] c;\necr $0, $1;\n')).toEqual(['ecr']);
    expect(undefinedIn('OPENQASM 3.0;\nbit[1] c;\nsx $0;\n')).toEqual(['sx']);
    expect(
      undefinedIn(
        'OPENQASM 3.0;\ninclude "stdgates.inc";\ngate e a, b { iswap a, b; }\ne $0, $1;\n',
      ),
    ).toEqual(['iswap']);
    expect(
      undefinedIn(
        'OPENQASM 3.0;\ninclude "stdgates.inc";\nrzz(0.1) $0, $1;\ngate rzz(t) a, b { cx a, b; rz(t) b; cx a, b; }\n',
      ),
    ).toEqual(['rzz']);
    for (const source of Object.values(PROGRAMS)) expect(undefinedIn(source)).toEqual([]);
  });
});

describe('every circuit the ibm adapter emits is OpenQASM 3 with every gate defined', () => {
  const anneals: AnnealOptions[] = [
    { tau: 2, steps: 2 },
    { tau: 1.5, steps: 2, order: 2, beta: 0.8 },
  ];
  for (const [name, target] of TARGETS) {
    it(`on ${name}: 1–12 spins, chain, banded and dense couplings, orders 1 and 2`, () => {
      let circuits = 0;
      for (const n of [1, 2, 3, 5, 8, 12]) {
        for (const band of new Set([1, Math.min(3, n - 1), n - 1])) {
          for (const anneal of anneals) {
            const isa = transpileAnneal(
              problem(n, Math.max(band, 0), 31 * n + band),
              anneal,
              target,
            );
            const { errors, tree } = parser.parse(isa.qasm);
            expect(errors, `${n} spins, band ${band}`).toEqual([]);
            expect(nodesOf(parser, tree, 'version')).toHaveLength(1);
            const includes = nodesOf(parser, tree, 'include').map((s) => s.getText());
            expect(includes).toEqual(['include"stdgates.inc";']);
            expect(undefinedCalls(tree)).toEqual([]);
            // Only the definitions the program uses, and the measured bits as before.
            const defined = nodesOf(parser, tree, 'gateDefinition').map((g) =>
              gateNameOf(parser, g),
            );
            const called = new Set(
              nodesOf(parser, tree, 'gateCall').map((g) => gateNameOf(parser, g)),
            );
            for (const d of defined) expect(called.has(d)).toBe(true);
            expect(isa.qasm).toContain(`\nbit[${n}] c;\n`);
            for (let k = 0; k < n; k++)
              expect(isa.qasm).toContain(`\nc[${k}] = measure $${isa.physicalQubits[k]};`);
            circuits++;
          }
        }
      }
      expect(circuits).toBeGreaterThanOrEqual(28);
    }, 60_000);
  }
});
