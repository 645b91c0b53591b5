import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPORT_RENDERER_VERSION } from './writeReport.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const RESULTS = join(repo, 'docs/results');

/** Every report.html under `dir`, recursively. */
function reportsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return reportsUnder(path);
    return name === 'report.html' ? [path] : [];
  });
}

/** The renderer version a report.html was written by (0: before reports carried one). */
function rendererVersion(html: string): number {
  const m = html.match(/<meta name="boltzmann-report-renderer" content="(\d+)">/);
  return m ? Number(m[1]) : 0;
}

describe('committed reports', () => {
  it('should all be written by the current renderer (regenerate with `bench report --results <folder>`)', () => {
    const reports = reportsUnder(RESULTS);
    expect(reports.length).toBeGreaterThan(0);
    const stale = reports
      .filter((p) => rendererVersion(readFileSync(p, 'utf8')) < REPORT_RENDERER_VERSION)
      .map((p) => relative(repo, p));
    expect(stale).toEqual([]);
  });

  it('should read the version a report carries, and 0 for one without', () => {
    expect(rendererVersion('<meta name="boltzmann-report-renderer" content="7"><title>')).toBe(7);
    expect(rendererVersion('<meta charset="utf-8"><title>')).toBe(0);
  });
});
