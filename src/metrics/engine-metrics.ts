import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { evaluationStates, usdOf } from '../core/index.js';
import type {
  EvaluationObserver,
  EvaluatorVersion,
  MirrorObserver,
  RelayObserver,
} from './observers.js';
import { sharedRead } from './shared-read.js';

// The engine's metrics (the worker process): evaluations, the mirror, the relays. Counters and
// histograms are told by the observers where the work happens; the relays' gauges are read when
// Prometheus scrapes, the store-wide ones from the store in one query (never on a hot path).

/** Judges answer in milliseconds (heuristics) to a minute (an LLM behind a rate limit). */
const JUDGE_SECONDS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A relay under load trails by tens of milliseconds, after an outage by minutes. */
const RELAY_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 300];

export interface EngineMetricsOptions {
  /** The evaluator versions deployed: their series start at zero, so rates and alerts see them. */
  evaluators: readonly EvaluatorVersion[];
  /** The score sink the mirror writes to (`langfuse`, `file`): the `sink` label. */
  sink: string;
}

/** What the relays' gauges read at each scrape. */
export interface RelayFigures {
  /** The workspaces this process relays. */
  relaying(): number;
  /** Events after the relay's cursor over every workspace of the store, and the oldest one's time. */
  backlog(): Promise<{ events: number; oldest_ts: string | null }>;
}

export interface EngineMetrics {
  readonly evaluations: EvaluationObserver;
  readonly mirror: MirrorObserver;
  readonly relay: RelayObserver;
  /** From now on the relays' gauges read `figures` (until then they read nothing). */
  watchRelays(figures: RelayFigures): void;
}

export function engineMetrics(registry: Registry, options: EngineMetricsOptions): EngineMetrics {
  const registers = [registry];
  // Registered in this order, which is the order a scrape lists them in.
  const evaluations = evaluationMetrics(registers, options.evaluators);
  const mirror = mirrorMetrics(registers, options.sink);
  const relay = relayMetrics(registers);
  return {
    evaluations,
    mirror,
    relay: relay.observer,
    watchRelays: relay.watch,
  };
}

type Registers = Registry[];

/** Evaluations settled, judged and paid for, each deployed version's series from zero. */
function evaluationMetrics(
  registers: Registers,
  deployed: readonly EvaluatorVersion[],
): EvaluationObserver {
  const evaluatorLabels = ['evaluator', 'version'] as const;
  const evaluations = new Counter({
    name: 'evalflow_evaluations_total',
    help: 'Evaluations settled in the ledger by this process, by evaluator version and ledger state',
    labelNames: [...evaluatorLabels, 'state'],
    registers,
  });
  const judgeSeconds = new Histogram({
    name: 'evalflow_evaluation_duration_seconds',
    help: 'How long an evaluator took to judge one target, failed attempts included',
    labelNames: evaluatorLabels,
    buckets: JUDGE_SECONDS,
    registers,
  });
  const judgeErrors = new Counter({
    name: 'evalflow_evaluation_errors_total',
    help: 'Judging attempts that threw (retried, or failed for good), by evaluator version',
    labelNames: evaluatorLabels,
    registers,
  });
  const tokens = new Counter({
    name: 'evalflow_evaluation_tokens_total',
    help: 'Tokens evaluators reported using, by evaluator version and direction (input, output)',
    labelNames: [...evaluatorLabels, 'direction'],
    registers,
  });
  const spend = spendCounter(registers, evaluatorLabels);
  for (const { name, version } of deployed) {
    const labels = { evaluator: name, version };
    for (const state of evaluationStates) evaluations.inc({ ...labels, state }, 0);
    judgeSeconds.zero(labels);
    judgeErrors.inc(labels, 0);
    for (const direction of ['input', 'output']) tokens.inc({ ...labels, direction }, 0);
    spend(labels, 0);
  }
  return {
    settled: ({ name, version }, state) => evaluations.inc({ evaluator: name, version, state }),
    judged: ({ name, version }, seconds, threw) => {
      judgeSeconds.observe({ evaluator: name, version }, seconds);
      if (threw) judgeErrors.inc({ evaluator: name, version });
    },
    used: ({ name, version }, usage, costNanos) => {
      const labels = { evaluator: name, version };
      tokens.inc({ ...labels, direction: 'input' }, usage.inputTokens);
      tokens.inc({ ...labels, direction: 'output' }, usage.outputTokens);
      if (costNanos !== null) spend(labels, costNanos);
    },
  };
}

/**
 * Each version's spend, summed in whole nano-dollars and converted once, at each scrape: USD
 * added up as floats drifts (0.010799999999999994 for three spends of 0.0036).
 */
function spendCounter(registers: Registers, labelNames: readonly string[]) {
  const spentNanos = new Map<
    string,
    { labels: { evaluator: string; version: string }; nanos: number }
  >();
  new Counter({
    name: 'evalflow_evaluation_cost_usd_total',
    help: 'What evaluators reported spending (or their tokens at the configured price), in USD',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const { labels, nanos } of spentNanos.values()) this.inc(labels, usdOf(nanos));
    },
  });
  return (labels: { evaluator: string; version: string }, nanos: number) => {
    const key = JSON.stringify([labels.evaluator, labels.version]);
    const sum = spentNanos.get(key) ?? { labels, nanos: 0 };
    sum.nanos += nanos;
    spentNanos.set(key, sum);
  };
}

/** The mirror's writes, deletes, confirmations and failures, labelled by its sink. */
function mirrorMetrics(registers: Registers, sinkName: string): MirrorObserver {
  const sink = { sink: sinkName };
  const mirrorCounter = (name: string, help: string) => {
    const counter = new Counter({ name, help, labelNames: ['sink'], registers });
    counter.inc(sink, 0);
    return counter.labels(sink);
  };
  const written = mirrorCounter(
    'evalflow_mirror_score_writes_total',
    'Scores the mirror sent to its sink, first sends and re-sends',
  );
  const deletes = mirrorCounter(
    'evalflow_mirror_score_deletes_total',
    'Score deletes the mirror sent to its sink',
  );
  const confirmed = mirrorCounter(
    'evalflow_mirror_score_confirmations_total',
    'Scores read back from the sink as sent: writes visible with their value, deletes gone',
  );
  const failed = mirrorCounter(
    'evalflow_mirror_score_failures_total',
    'Score ledger entries settled failed: refused by the sink, or never read back as sent',
  );
  return {
    written: (n) => written.inc(n),
    deletesSent: (n) => deletes.inc(n),
    confirmed: (n) => confirmed.inc(n),
    failed: (n) => failed.inc(n),
  };
}

/** The relays' deliveries as told, and their gauges read at each scrape from `watch`'s figures. */
function relayMetrics(registers: Registers): {
  observer: RelayObserver;
  watch(figures: RelayFigures): void;
} {
  const relayed = new Counter({
    name: 'evalflow_relay_events_total',
    help: "Events this process's trigger relays delivered to their workflows",
    registers,
  });
  const undelivered = new Counter({
    name: 'evalflow_relay_undelivered_events_total',
    help: 'Events no workflow would take (its run closed), recorded in the undelivered ledger',
    registers,
  });
  const relayDelay = new Histogram({
    name: 'evalflow_relay_delay_seconds',
    help: 'How long the oldest event of each page relayed had been in the log',
    buckets: RELAY_SECONDS,
    registers,
  });
  let figures: RelayFigures | null = null;
  new Gauge({
    name: 'evalflow_relay_workspaces',
    help: 'Workspaces whose trigger relay runs in this process',
    registers,
    collect() {
      this.set(figures?.relaying() ?? 0);
    },
  });
  // Both store-wide, from one read per scrape: every engine reports the same figure (take the max).
  const readBacklog = sharedRead(
    () => figures?.backlog() ?? Promise.resolve({ events: 0, oldest_ts: null }),
  );
  new Gauge({
    name: 'evalflow_relay_backlog_events',
    help: "Events in the log after the trigger relay's cursor, over every workspace of the store",
    registers,
    async collect() {
      this.set((await readBacklog()).events);
    },
  });
  new Gauge({
    name: 'evalflow_relay_lag_seconds',
    help: 'Age of the oldest event not yet relayed, over every workspace of the store (0: none)',
    registers,
    async collect() {
      const { oldest_ts } = await readBacklog();
      this.set(oldest_ts === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest_ts)) / 1000));
    },
  });
  return {
    observer: {
      relayed: (events, oldestTs) => {
        relayed.inc(events);
        const age = (Date.now() - Date.parse(oldestTs)) / 1000;
        if (Number.isFinite(age)) relayDelay.observe(Math.max(0, age));
      },
      undelivered: (events) => undelivered.inc(events),
    },
    watch(watched) {
      figures = watched;
    },
  };
}
