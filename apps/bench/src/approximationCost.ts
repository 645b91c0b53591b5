import { summarize } from './summary.js';
import { summaryTables } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import type { RunRecord } from './types.js';

/** The column of exact Boltzmann attention (the exact sampler is the unqualified `boltzmann`). */
const EXACT = 'boltzmann';

/**
 * What the approximate and banded samplers cost against exact Boltzmann attention, where both
 * ran (issue 13's anchor at T = 16): per-seed paired differences of every other `boltzmann (…)`
 * column to exact `boltzmann`, with the paired t-test, in the rows that have exact runs.
 *
 * @returns the table, or null when no row has exact runs beside an approximation.
 */
export function approximationCostTable(
  records: readonly RunRecord[],
  columns: readonly string[],
): Table | null {
  const approximations = columns.filter((c) => c.startsWith(`${EXACT} (`));
  if (!columns.includes(EXACT) || approximations.length === 0) return null;
  const summary = summarize(records, [EXACT, ...approximations], EXACT);
  const rows = summary.rows.filter((r) => r.cells[EXACT] && approximations.some((c) => r.cells[c]));
  if (rows.length === 0) return null;
  return summaryTables({ ...summary, rows }).paired;
}
