// Minimal typing of the parts of the untyped `quantum-circuit` package (a dev dependency) that the
// benchmark and the cross-simulator test use.
declare module 'quantum-circuit' {
  interface Complex {
    re: number;
    im: number;
  }
  export default class QuantumCircuit {
    constructor(numQubits: number);
    appendGate(
      name: string,
      wires: number | number[],
      options?: { params?: Record<string, number> },
    ): void;
    run(): void;
    state: Record<string, Complex>;
  }
}
