import { KL_TAUS, MAX_ANNEAL_SPINS, klDivergence, spinLabel } from '../anneal/annealModel.js';
import type { AnnealResult, AnnealSettings } from '../anneal/annealModel.js';
import { VARIANT_COLORS } from '../charts/color.js';
import { createDistributionChart } from '../charts/distributionChart.js';
import { createLineChart } from '../charts/lineChart.js';
import { formatNumber } from '../charts/scale.js';
import { h, numberRow, rangeRow, selectRow } from '../dom.js';
import { boundNumber, boundNumberField } from '../inputBounds.js';
import type { NumberSpec } from '../inputBounds.js';
import type { AnnealEvent, AnnealRequest } from '../protocol.js';

const TROTTER_STEPS = 64;
const PLAY_MS = 4000;
const SEED: NumberSpec = { label: 'Problem', min: 0, max: 1e6, integer: true, fallback: 1 };

/**
 * The Anneal panel: a random Ising problem of n ≤ 10 spins, the DQA output |ψ(t)|² at a chosen
 * time of the anneal beside the Boltzmann target, and KL(target ‖ DQA) against the anneal time τ.
 * The work runs in its own worker.
 */
export function createAnnealView(parent: HTMLElement): void {
  const worker = new Worker(new URL('../anneal/annealWorker.ts', import.meta.url), {
    type: 'module',
  });
  const spins = rangeRow(
    'anneal-spins',
    'Spins n',
    { min: 2, max: MAX_ANNEAL_SPINS, step: 1, value: 5 },
    (v) => String(v),
  );
  const seed = numberRow('anneal-seed', 'Problem', { ...SEED, step: 1, value: SEED.fallback });
  const fresh = h(
    'button',
    { type: 'button', class: 'secondary', id: 'anneal-new' },
    'New random problem',
  );
  const beta = rangeRow('anneal-beta', 'β', { min: 0.25, max: 3, step: 0.25, value: 1 }, (v) =>
    v.toFixed(2),
  );
  const tau = selectRow(
    'anneal-tau',
    'Anneal time τ',
    KL_TAUS.map((t) => ({ value: String(t), label: String(t) })),
    '8',
  );
  const schedule = selectRow(
    'anneal-schedule',
    'Schedule',
    [
      { value: 'linear', label: 'linear: A = 1 − u, B = u' },
      { value: 'dwave', label: 'D-Wave-like: A = (1 − u)³, B = u²' },
    ],
    'linear',
  );
  const calibrate = selectRow(
    'anneal-calibrate',
    'Calibration',
    [
      { value: 'linear-response', label: 'linear response' },
      { value: 'effective-temperature', label: 'effective temperature' },
      { value: 'none', label: 'none (raw βh, βJ)' },
    ],
    'linear-response',
  );
  const time = rangeRow(
    'anneal-time',
    'Time t',
    { min: 0, max: TROTTER_STEPS, step: 1, value: TROTTER_STEPS },
    (k) => `${(k / TROTTER_STEPS).toFixed(2)} τ`,
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
  const controls = h(
    'div',
    {},
    h(
      'div',
      { class: 'controls' },
      spins.label,
      spins.wrap,
      seed.label,
      seed.input,
      beta.label,
      beta.wrap,
      tau.label,
      tau.select,
      schedule.label,
      schedule.select,
      calibrate.label,
      calibrate.select,
      time.label,
      time.wrap,
    ),
    h('div', { class: 'buttons' }, play, fresh),
    problem,
    readout,
    h(
      'p',
      { class: 'note' },
      `Fields h ~ N(0, 1), couplings J ~ N(0, 0.5²); ${TROTTER_STEPS} second-order Trotter steps of H(u) = A(u) H_D + B(u) H_P from |+⟩^n, u = t/τ, with h and J rescaled by the calibration so that the output matches the Boltzmann distribution at β to first order.`,
    ),
  );
  const charts = h('div', {});
  parent.append(
    h(
      'p',
      { class: 'help' },
      'A diabatic quantum anneal, simulated exactly (statevector), can stand in for the Ising sampler. Drag the time to watch |ψ(t)|² move from uniform towards the Boltzmann distribution; the KL curve shows how close a full anneal gets for each anneal time τ.',
    ),
    h('div', { class: 'anneal-grid' }, controls, charts),
  );
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

  let result: AnnealResult | undefined;
  let settings: AnnealSettings | undefined;
  let requestId = 0;

  const read = (): AnnealSettings => ({
    spins: Number(spins.input.value),
    seed: boundNumber(seed.input.value, SEED).value,
    beta: Number(beta.input.value),
    tau: Number(tau.select.value),
    steps: TROTTER_STEPS,
    schedule: schedule.select.value as AnnealSettings['schedule'],
    calibrate: calibrate.select.value as AnnealSettings['calibrate'],
  });
  const renderFrame = (): void => {
    if (!result || !settings) return;
    const k = Number(time.input.value);
    const frame = result.frames[k]!;
    const n = settings.spins;
    const order = Array.from(result.order);
    const kl = klDivergence(result.target, frame);
    const ground = order[0]!;
    const t = (k / TROTTER_STEPS) * settings.tau;
    distribution.update({
      target: order.map((i) => result!.target[i]!),
      current: order.map((i) => frame[i]!),
      labels: order.map((i) => spinLabel(i, n)),
      targetLabel: `Boltzmann target at β = ${settings.beta}`,
      currentLabel: `DQA |ψ(t)|² at t = ${formatNumber(t)}`,
      summary: `At t = ${formatNumber(t)} of τ = ${settings.tau}, KL(target ‖ DQA) = ${kl.toFixed(4)} nats; ground state ${spinLabel(ground, n)} has target probability ${result.target[ground]!.toFixed(3)} and DQA probability ${frame[ground]!.toFixed(3)}.`,
    });
    readout.textContent = `t = ${formatNumber(t)} (τ = ${settings.tau}): KL(target ‖ |ψ(t)|²) = ${kl.toFixed(4)} nats. Ground state ${spinLabel(ground, n)}: target ${result.target[ground]!.toFixed(3)}, DQA ${frame[ground]!.toFixed(3)}.`;
    readout.dataset.kl = String(kl);
  };
  const renderKl = (): void => {
    if (!result || !settings) return;
    const points = result.klByTau
      .filter((row) => Number.isFinite(row.kl) && row.kl > 0)
      .map((row) => [row.tau, row.kl] as [number, number]);
    klChart.update(
      [
        {
          label: `full anneals (${settings.calibrate} calibration)`,
          color: VARIANT_COLORS.softmax,
          points,
          mode: 'line+points',
        },
      ],
      { x: settings.tau, label: `τ = ${settings.tau}` },
    );
  };
  const request = (): void => {
    const message: AnnealRequest = { type: 'compute', id: ++requestId, settings: read() };
    readout.textContent = 'Computing…';
    worker.postMessage(message);
  };
  worker.addEventListener('message', (event: MessageEvent<AnnealEvent>) => {
    const reply = event.data;
    if (reply.id !== requestId) return;
    if (reply.type === 'error') {
      failure = reply.message;
      showProblem();
      readout.textContent = '';
      return;
    }
    failure = '';
    showProblem();
    result = reply.result;
    settings = reply.settings;
    renderFrame();
    renderKl();
  });
  seed.input.addEventListener('change', () => {
    seedNote = boundNumberField(seed.input, SEED) ?? '';
    showProblem();
  });
  for (const control of [
    spins.input,
    seed.input,
    beta.input,
    tau.select,
    schedule.select,
    calibrate.select,
  ])
    control.addEventListener('change', request);
  time.input.addEventListener('input', renderFrame);
  fresh.addEventListener('click', () => {
    const next = boundNumber(seed.input.value, SEED).value + 1;
    seed.input.value = String(next > SEED.max ? SEED.min : next);
    request();
  });
  let playing: number | undefined;
  play.addEventListener('click', () => {
    if (playing !== undefined) return;
    const started = performance.now();
    const tick = (now: number): void => {
      const k = Math.min(TROTTER_STEPS, Math.round(((now - started) / PLAY_MS) * TROTTER_STEPS));
      time.input.value = String(k);
      time.refresh();
      renderFrame();
      playing = k < TROTTER_STEPS ? requestAnimationFrame(tick) : undefined;
    };
    playing = requestAnimationFrame(tick);
  });
  request();
}
