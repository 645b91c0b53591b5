// The two documents a report is written as — summary.md and the body of report.html — built
// side by side from its sections, with each plot rendered to plots/<name>.svg.
import { join } from 'node:path';
import { writeFileAtomic } from '../results/atomicWrite.js';
import { renderSvg } from './plots/plots.js';
import type { ReportSection } from './sections.js';
import { htmlTable, mdTable } from './summaryTable.js';

/** Escapes text for HTML. */
export const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Prepares an SVG document for inlining in HTML: strips the XML prolog and prefixes its ids
 * (Vega names legend gradients `gradient_0` in every figure; one HTML document needs unique ids).
 */
function inlineSvg(svg: string, prefix: string): string {
  return svg
    .replace(/^<\?xml[^>]*>\s*/, '')
    .replace(/\bid="([^"]+)"/g, `id="${prefix}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}-$1"`);
}

/** A report being written: its Markdown lines, its HTML body and the SVG files it wrote. */
export interface ReportDocument {
  readonly md: string[];
  readonly html: string[];
  readonly svgPaths: string[];
  /** Opens a headed part (`## heading` / `<section><h1>`); close it with {@link closePart}. */
  openPart(heading: string): void;
  closePart(): void;
  /** Adds a section: a table in both documents, or a plot rendered to `plots/<name>.svg`. */
  add(section: ReportSection): Promise<void>;
}

/**
 * A new report document under `dir` whose Markdown starts with `head`.
 *
 * @example
 * const doc = reportDocument('results/shakespeare', ['# Boltzmann attention bench: shakespeare', '']);
 * await doc.add({ kind: 'table', title: 'Time per training step', table });
 */
export function reportDocument(dir: string, head: readonly string[]): ReportDocument {
  const md = [...head];
  const html: string[] = [];
  const svgPaths: string[] = [];
  return {
    md,
    html,
    svgPaths,
    openPart(heading) {
      md.push(`## ${heading}`, '');
      html.push(`<section><h1>${esc(heading)}</h1>`);
    },
    closePart() {
      html.push('</section>');
    },
    async add(section) {
      if (section.kind === 'table') {
        const { title, table, note } = section;
        if (!table) return;
        md.push(`### ${title}`, '', ...(note ? [note, ''] : []), mdTable(table), '');
        html.push(
          `<h2>${esc(title)}</h2>`,
          ...(note ? [`<p>${esc(note)}</p>`] : []),
          htmlTable(table),
        );
        return;
      }
      const { name, title, spec } = section;
      if (!spec) return;
      const svg = await renderSvg(spec);
      const path = join(dir, 'plots', `${name}.svg`);
      writeFileAtomic(path, svg);
      svgPaths.push(path);
      md.push(`![${title}](plots/${name}.svg)`, '');
      html.push(`<h3>${esc(title)}</h3>`, `<figure>${inlineSvg(svg, name)}</figure>`);
    },
  };
}

/** The whole self-contained report.html around a body. */
export function reportHtml(
  title: string,
  rendererVersion: number,
  lines: {
    readonly runs: number;
    readonly settings: string;
    /** A note shown above everything (seedBanner.ts), or null. */
    readonly banner?: string | null;
    readonly body: readonly string[];
  },
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="boltzmann-report-renderer" content="${rendererVersion}"><title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: right; }
th { background: #f3f3f3; }
figure { margin: 1rem 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
.banner { border-left: 4px solid #d9822b; background: #fff4e5; padding: 0.6rem 1rem; font-weight: 600; }
</style></head>
<body>
<h1>${esc(title)}</h1>
${lines.banner ? `<p class="banner" role="note">${esc(lines.banner)}</p>\n` : ''}<p>${lines.runs} finished runs. Generated ${esc(new Date().toISOString())}.</p>
<p>Settings: ${esc(lines.settings)}.</p>
${lines.body.join('\n')}
</body></html>
`;
}
