import { summarize } from './summary.js';
import { summaryTables } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import type { RunRecord } from '../recordTypes.js';

/** The column of exact Boltzmann attention (the exact sampler is the unqualified `boltzmann`). */
const EXACT = 'boltzmann';

/**
 * The exact computation an approximate column is measured against: the transfer matrix on the
 * same banded J (exact for a band), otherwise exact enumeration with a full J.
 */
function exactReference(column: string): string {
  const band = /^boltzmann \((?!transfer-matrix)[^,]+, (banded:\d+)\)$/.exec(column);
  return band ? `${EXACT} (transfer-matrix, ${band[1]})` : EXACT;
}

/**
 * What the approximate samplers cost against exact Boltzmann attention, where both ran: per-seed
 * paired differences, with the paired t-test, of every `boltzmann (…)` column to its exact
 * reference — exact `boltzmann` (issue 13's anchor at T = 16; for the transfer matrix this is
 * the cost of the band), or for another sampler on a banded J the transfer matrix on the same
 * band — in the rows that have both.
 *
 * @returns the table (a `reference` column after `variant`), or null when nothing pairs.
 */
export function approximationCostTable(
  records: readonly RunRecord[],
  columns: readonly string[],
): Table | null {
  const byReference = new Map<string, string[]>();
  for (const c of columns.filter((c) => c.startsWith(`${EXACT} (`))) {
    const ref = exactReference(c);
    if (columns.includes(ref)) byReference.set(ref, [...(byReference.get(ref) ?? []), c]);
  }
  let head: string[] | null = null;
  const body: string[][] = [];
  for (const [ref, approximations] of byReference) {
    const summary = summarize(records, [ref, ...approximations], ref);
    const rows = summary.rows.filter((r) => r.cells[ref] && approximations.some((c) => r.cells[c]));
    if (rows.length === 0) continue;
    const paired = summaryTables({ ...summary, rows }).paired;
    const at = paired.head.indexOf('variant') + 1;
    const withRef = (cells: readonly string[], value: string): string[] => [
      ...cells.slice(0, at),
      value,
      ...cells.slice(at),
    ];
    head ??= withRef(paired.head, 'exact reference').map((h) =>
      h === `variant − ${ref}` ? 'variant − reference' : h.replace(`vs ${ref}`, 'vs reference'),
    );
    body.push(...paired.body.map((row) => withRef(row, ref)));
  }
  return head ? { head, body } : null;
}
