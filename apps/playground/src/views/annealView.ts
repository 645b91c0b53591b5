import { KL_TAUS, klDivergence, spinLabel } from '../anneal/annealModel.js';
import type { AnnealResult, AnnealSettings } from '../anneal/annealModel.js';
import { VARIANT_COLORS } from '../charts/color.js';
import { createDistributionChart } from '../charts/distributionChart.js';
import type { DistributionChart, DistributionData } from '../charts/distributionChart.js';
import { createLineChart } from '../charts/lineChart.js';
import type { ChartMarker, LineChart, Series } from '../charts/lineChartTypes.js';
import { formatNumber } from '../charts/scale.js';
import { h } from '../dom.js';
import { boundNumber, boundNumberField } from '../inputBounds.js';
import type { AnnealEvent, AnnealRequest } from '../protocol.js';
import {
  SEED,
  TROTTER_STEPS,
  annealFieldGrid,
  annealFields,
  problemInputs,
  readAnnealSettings,
} from './annealFields.js';
import type { AnnealFields } from './annealFields.js';

const PLAY_MS = 4000;

/** The panel's help: what the anneal is and what the two charts show. */
function annealHelp(): HTMLElement {
  return h(
    'p',
    { class: 'help' },
    'A diabatic quantum anneal, simulated exactly (statevector), can stand in for the Ising sampler. Drag the time to watch |ψ(t)|² move from uniform towards the Boltzmann distribution; the KL curve shows how close a full anneal gets for each anneal time τ.',
  );
}

/** The controls column: the fields, the Play and New-problem buttons, the problem and readout lines, a note on the model. */
function annealControls(
  fields: AnnealFields,
  buttons: readonly HTMLElement[],
  lines: readonly HTMLElement[],
): HTMLElement {
  return h(
    'div',
    {},
    annealFieldGrid(fields),
    h('div', { class: 'buttons' }, ...buttons),
    ...lines,
    h(
      'p',
      { class: 'note' },
      `Fields h ~ N(0, 1), couplings J ~ N(0, 0.5²); ${TROTTER_STEPS} second-order Trotter steps of H(u) = A(u) H_D + B(u) H_P from |+⟩^n, u = t/τ, with h and J rescaled by the calibration so that the output matches the Boltzmann distribution at β to first order.`,
    ),
  );
}

/** The charts column: |ψ(t)|² beside the target, and KL against τ. */
function annealCharts(charts: HTMLElement): {
  distribution: DistributionChart;
  klChart: LineChart;
} {
  const distribution = createDistributionChart(
    charts,
    'Probabilities of the 2ⁿ spin configurations',
    VARIANT_COLORS.boltzmann,
  );
  const klChart = createLineChart(charts, {
    title: 'KL(Boltzmann ‖ DQA) against anneal time',
    xLabel: 'anneal time τ',
    yLabel: 'KL (nats)',
    xLog: true,
    xTicks: KL_TAUS,
    yLog: true,
    height: 210,
  });
  return { distribution, klChart };
}

/** The frame at Trotter step `k`: |ψ(t)|² beside the target (lowest energy first), the readout, and the KL. */
function annealFrame(
  result: AnnealResult,
  settings: AnnealSettings,
  k: number,
): { data: DistributionData; readout: string; kl: number } {
  const frame = result.frames[k]!;
  const n = settings.spins;
  const order = Array.from(result.order);
  const kl = klDivergence(result.target, frame);
  const ground = order[0]!;
  const t = (k / TROTTER_STEPS) * settings.tau;
  const groundTarget = result.target[ground]!.toFixed(3);
  const groundDqa = frame[ground]!.toFixed(3);
  const data: DistributionData = {
    target: order.map((i) => result.target[i]!),
    current: order.map((i) => frame[i]!),
    labels: order.map((i) => spinLabel(i, n)),
    targetLabel: `Boltzmann target at β = ${settings.beta}`,
    currentLabel: `DQA |ψ(t)|² at t = ${formatNumber(t)}`,
    summary: `At t = ${formatNumber(t)} of τ = ${settings.tau}, KL(target ‖ DQA) = ${kl.toFixed(4)} nats; ground state ${spinLabel(ground, n)} has target probability ${groundTarget} and DQA probability ${groundDqa}.`,
  };
  const readout = `t = ${formatNumber(t)} (τ = ${settings.tau}): KL(target ‖ |ψ(t)|²) = ${kl.toFixed(4)} nats. Ground state ${spinLabel(ground, n)}: target ${groundTarget}, DQA ${groundDqa}.`;
  return { data, readout, kl };
}

/** KL against τ of full anneals (the KLs a log axis can show), and a marker at the chosen τ. */
function klCurve(
  result: AnnealResult,
  settings: AnnealSettings,
): { series: Series[]; marker: ChartMarker } {
  const points = result.klByTau
    .filter((row) => Number.isFinite(row.kl) && row.kl > 0)
    .map((row) => [row.tau, row.kl] as [number, number]);
  return {
    series: [
      {
        label: `full anneals (${settings.calibrate} calibration)`,
        color: VARIANT_COLORS.softmax,
        points,
        mode: 'line+points',
      },
    ],
    marker: { x: settings.tau, label: `τ = ${settings.tau}` },
  };
}

/** Plays the anneal once: moves the time slider from where it is to t = τ over PLAY_MS, showing each frame. */
function playAnneal(time: AnnealFields['time'], showFrame: () => void): () => void {
  let playing: number | undefined;
  return () => {
    if (playing !== undefined) return;
    const started = performance.now();
    const tick = (now: number): void => {
      const k = Math.min(TROTTER_STEPS, Math.round(((now - started) / PLAY_MS) * TROTTER_STEPS));
      time.input.value = String(k);
      time.refresh();
      showFrame();
      playing = k < TROTTER_STEPS ? requestAnimationFrame(tick) : undefined;
    };
    playing = requestAnimationFrame(tick);
  };
}

/**
 * The Anneal panel: a random Ising problem of n ≤ 10 spins, the DQA output |ψ(t)|² at a chosen
 * time of the anneal beside the Boltzmann target, and KL(target ‖ DQA) against the anneal time τ.
 * The work runs in its own worker.
 *
 * @param parent - the panel's element
 */
export function createAnnealView(parent: HTMLElement): void {
  const worker = new Worker(new URL('../anneal/annealWorker.ts', import.meta.url), {
    type: 'module',
  });
  const fields = annealFields();
  const { seed, time } = fields;
  const fresh = h(
    'button',
    { type: 'button', class: 'secondary', id: 'anneal-new' },
    'New random problem',
  );
  const play = h('button', { type: 'button', id: 'anneal-play' }, 'Play the anneal');
  const readout = h(
    'p',
    { class: 'readout', id: 'anneal-readout', 'aria-live': 'polite' },
    'Computing…',
  );
  const problem = h('p', { class: 'problem', role: 'alert', id: 'anneal-problem' });
  // What the seed's bounds changed, then the worker's last error.
  let seedNote = '';
  let failure = '';
  const showProblem = (): void => {
    problem.textContent = [seedNote, failure].filter((t) => t !== '').join(' ');
  };
  const charts = h('div', {});
  parent.append(
    annealHelp(),
    h(
      'div',
      { class: 'anneal-grid' },
      annealControls(fields, [play, fresh], [problem, readout]),
      charts,
    ),
  );
  const { distribution, klChart } = annealCharts(charts);

  let result: AnnealResult | undefined;
  let settings: AnnealSettings | undefined;
  let requestId = 0;
  const renderFrame = (): void => {
    if (!result || !settings) return;
    const frame = annealFrame(result, settings, Number(time.input.value));
    distribution.update(frame.data);
    readout.textContent = frame.readout;
    readout.dataset.kl = String(frame.kl);
  };
  const request = (): void => {
    const message: AnnealRequest = {
      type: 'compute',
      id: ++requestId,
      settings: readAnnealSettings(fields),
    };
    readout.textContent = 'Computing…';
    worker.postMessage(message);
  };
  worker.addEventListener('message', (event: MessageEvent<AnnealEvent>) => {
    const reply = event.data;
    if (reply.id !== requestId) return;
    failure = reply.type === 'error' ? reply.message : '';
    showProblem();
    if (reply.type === 'error') {
      readout.textContent = '';
      return;
    }
    result = reply.result;
    settings = reply.settings;
    renderFrame();
    const kl = klCurve(result, settings);
    klChart.update(kl.series, kl.marker);
  });
  seed.input.addEventListener('change', () => {
    seedNote = boundNumberField(seed.input, SEED) ?? '';
    showProblem();
  });
  for (const control of problemInputs(fields)) control.addEventListener('change', request);
  time.input.addEventListener('input', renderFrame);
  fresh.addEventListener('click', () => {
    const next = boundNumber(seed.input.value, SEED).value + 1;
    seed.input.value = String(next > SEED.max ? SEED.min : next);
    request();
  });
  play.addEventListener('click', playAnneal(time, renderFrame));
  request();
}
