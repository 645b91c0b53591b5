/**
 * Test helper: the `side × side` king graph (each qubit coupled to its 8 neighbours), a topology
 * no clique layout knows, used to exercise the greedy clique search directly and through the
 * D-Wave sampler. Qubits are numbered row-major, `q = r·side + c`.
 *
 * @param side grid side length.
 * @returns all qubits and the couplers `[q, q']` with `q < q'`.
 */
export function kingGraph(side: number): { qubits: number[]; couplers: [number, number][] } {
  const qubits = Array.from({ length: side * side }, (_, q) => q);
  const couplers: [number, number][] = [];
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      const q = r * side + c;
      if (c + 1 < side) couplers.push([q, q + 1]);
      if (r + 1 < side) couplers.push([q, q + side]);
      if (r + 1 < side && c + 1 < side) couplers.push([q, q + side + 1]);
      if (r + 1 < side && c > 0) couplers.push([q, q + side - 1]);
    }
  }
  return { qubits, couplers };
}
