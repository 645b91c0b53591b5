import { VARIANT_COLORS } from '../charts/color.js';
import { createHeatmap } from '../charts/heatmap.js';
import { createLineChart } from '../charts/lineChart.js';
import { formatNumber } from '../charts/scale.js';
import type { CouplingsSnapshot } from '../training/trainingSession.js';

export interface CouplingsView {
  update(step: number, snapshot: CouplingsSnapshot, bandwidth: number | undefined): void;
}

/** The J heatmap (upper triangle j < k) and J against the distance k − j. */
export function createCouplingsView(parent: HTMLElement): CouplingsView {
  const heatmap = createHeatmap(parent, {
    title: 'Learned couplings J (boltzmann model)',
    rowTitle: 'key j',
    colTitle: 'key k',
    scale: 'diverging',
    valueLabel: 'J',
    id: 'j-heatmap',
  });
  const chart = createLineChart(parent, {
    title: 'J against distance',
    xLabel: 'distance k − j',
    yLabel: 'J',
    xDomain: [0.5, undefined],
    emptyText: 'press Train',
  });
  return {
    update(step, snapshot, bandwidth) {
      const T = snapshot.length;
      const inBand = (j: number, k: number): boolean =>
        k > j && (bandwidth === undefined || k - j <= bandwidth);
      let maxAbs = 0;
      let at = [0, 1];
      const scatter: Array<[number, number]> = [];
      for (let j = 0; j < T; j++) {
        for (let k = j + 1; k < T; k++) {
          if (!inBand(j, k)) continue;
          const v = snapshot.matrix[j * T + k]!;
          scatter.push([k - j, v]);
          if (Math.abs(v) > maxAbs) {
            maxAbs = Math.abs(v);
            at = [j, k];
          }
        }
      }
      const mean = Array.from(
        snapshot.meanByDistance,
        (v, i) => [i + 1, v] as [number, number],
      ).filter(([d]) => bandwidth === undefined || d <= bandwidth);
      heatmap.update({
        rows: T,
        cols: T,
        values: snapshot.matrix,
        defined: inBand,
        summary: `Step ${step}, T = ${T}: the largest |J| is ${formatNumber(maxAbs)} at j = ${at[0]}, k = ${at[1]}.`,
      });
      heatmap.canvas.dataset.step = String(step);
      heatmap.canvas.dataset.maxAbs = String(maxAbs);
      chart.update([
        {
          label: 'each pair j < k',
          color: VARIANT_COLORS.boltzmann,
          points: scatter,
          mode: 'points',
          opacity: 0.4,
        },
        { label: 'mean at each distance', color: '#1e293b', points: mean, mode: 'line+points' },
      ]);
    },
  };
}
