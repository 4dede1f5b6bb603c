// npm run bench:chaos — evalflow under faults, the long versions of test/chaos (issue 14).
//
// Each scenario deploys evalflow as a user does (a Temporal dev server, `evalflow api` and
// `evalflow worker` as processes, or the engine on Temporal's time-skipping server) and breaks
// something: the requests (schemathesis fuzzing every route), the credentials (every route at
// every boundary), the sink (the Langfuse test server's faults), the store, the processes. It
// prints one table of figures against their goals and ends with one JSON line. Not part of
// `npm test`. BENCH_CHAOS_ONLY picks scenarios (worker-kills, temporal-restart, fuzz,
// boundaries, sink, store, api-kills, two-of-everything); the BENCH_CHAOS_* numbers below size
// them. The Postgres scenarios use DATABASE_URL's server, else a throwaway cluster.
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { bundleWorkflows, createWorker } from '../src/worker/create-worker.js';
import { LangfuseTestServer } from '../test/support/langfuse-server/index.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';
import { killApiWhileWriting } from './chaos/api-kills.js';
import { tryEveryBoundary } from './chaos/boundaries.js';
import { principalKeys } from './chaos/credentials.js';
import { startDeployment } from './chaos/deployment.js';
import { fuzzApi } from './chaos/fuzz.js';
import { type Figure, printTable } from './chaos/report.js';
import { sinkFaults } from './chaos/sink-faults.js';
import { type CrashTarget, crashStore } from './chaos/store-crashes.js';
import { restartTemporalDuringReevaluation } from './chaos/temporal-restart.js';
import { twoOfEverything } from './chaos/two-of-everything.js';
import { killWorkerWhileEvaluating } from './chaos/worker-kills.js';

const only = process.env.BENCH_CHAOS_ONLY?.split(',');
const wanted = (scenario: string) => !only || only.includes(scenario);
const FUZZ_REQUESTS = Number(process.env.BENCH_CHAOS_FUZZ_REQUESTS ?? 10_000);
const SINK_RUNS = Number(process.env.BENCH_CHAOS_SINK_RUNS ?? 25);
const STORE_KILLS = Number(process.env.BENCH_CHAOS_STORE_KILLS ?? 10);
const API_KILLS = Number(process.env.BENCH_CHAOS_API_KILLS ?? 10);
const WORKER_RUNS = Number(process.env.BENCH_CHAOS_WORKER_RUNS ?? 1000);
const WORKER_KILLS = Number(process.env.BENCH_CHAOS_WORKER_KILLS ?? 20);
const REEVALUATED_VERSIONS = Number(process.env.BENCH_CHAOS_REEVALUATED_VERSIONS ?? 2000);
const TWO_RUNS = Number(process.env.BENCH_CHAOS_TWO_RUNS ?? 60);
const TWO_KILLS = Number(process.env.BENCH_CHAOS_TWO_KILLS ?? 3);

// Activities failing on purpose log each attempt at WARN; the figures say what came of them.
Runtime.install({ logger: new DefaultLogger('ERROR') });

const binaries = await ensureTemporalBinaries();
if (!('path' in binaries.cli)) throw new Error('bench:chaos needs the temporal CLI on disk');
const temporalCli = binaries.cli.path;

const figures: Figure[] = [];
// The figures, null until their scenario ran.
const json: Record<string, number | string | null> = {
  bench: 'chaos',
  missing_verdicts: null,
  duplicate_feedback: null,
  duplicate_scores: null,
  max_recovery_s: null,
  lost_acknowledged_writes: null,
  sink_unaccounted: null,
  fuzz_requests: null,
  fuzz_5xx: null,
  boundary_attempts: null,
  boundary_breaches: null,
};
const started = Date.now();

if (wanted('worker-kills')) {
  const langfuse = await LangfuseTestServer.start();
  const deployment = await startDeployment({
    temporalCli,
    worker: true,
    env: {
      LANGFUSE_BASE_URL: langfuse.url,
      LANGFUSE_PUBLIC_KEY: langfuse.publicKey,
      LANGFUSE_SECRET_KEY: langfuse.secretKey,
    },
  });
  try {
    const kills = await killWorkerWhileEvaluating(deployment, {
      runs: WORKER_RUNS,
      kills: WORKER_KILLS,
      clients: 8,
      langfuse,
      seed: 1,
      // On a shared, loaded machine 3,000 evaluations take minutes; a missing verdict is one
      // that never came, not one that was slow.
      settleMs: 20 * 60_000,
    });
    const maxRecovery = Math.max(0, ...kills.recoveries);
    json.missing_verdicts = kills.missingVerdicts;
    json.duplicate_feedback = kills.duplicateFeedback;
    json.duplicate_scores = kills.duplicateScoresById + kills.duplicateScoresByTarget;
    json.max_recovery_s = maxRecovery;
    json.worker_runs = kills.runs;
    json.worker_kills = kills.kills;
    json.worker_recoveries_s = kills.recoveries.join(' ');
    json.worker_resumes_s = kills.resumes.join(' ');
    json.worker_drain_s = kills.drainSeconds;
    figures.push(
      {
        scenario: '1 worker kills',
        name: 'runs / kills',
        value: `${kills.runs} / ${kills.kills}`,
        goal: '',
        ok: true,
      },
      {
        scenario: '1 worker kills',
        name: 'runs missing a verdict',
        value: kills.missingVerdicts,
        goal: '0',
        ok: kills.missingVerdicts === 0,
      },
      {
        scenario: '1 worker kills',
        name: 'duplicate feedback',
        value: kills.duplicateFeedback,
        goal: '0',
        ok: kills.duplicateFeedback === 0,
      },
      {
        scenario: '1 worker kills',
        name: 'duplicate scores (id / target)',
        value: `${kills.duplicateScoresById} / ${kills.duplicateScoresByTarget}`,
        goal: '0 / 0',
        ok: kills.duplicateScoresById + kills.duplicateScoresByTarget === 0,
      },
      {
        scenario: '1 worker kills',
        name: 'max recovery s',
        value: maxRecovery,
        goal: '<= 15',
        ok: maxRecovery <= 15,
      },
      {
        scenario: '1 worker kills',
        name: 'max s to the next verdict',
        value: Math.max(0, ...kills.resumes),
        goal: '',
        ok: true,
      },
    );
  } finally {
    await deployment.close();
    await langfuse.close();
  }
}

if (wanted('temporal-restart')) {
  const deployment = await startDeployment({ temporalCli, worker: true });
  try {
    const restart = await restartTemporalDuringReevaluation(deployment, {
      versions: REEVALUATED_VERSIONS,
    });
    json.reevaluation_versions = restart.versions;
    json.reevaluation_done = restart.done;
    json.reevaluation_missing = restart.missing;
    json.reevaluation_duplicated = restart.duplicated;
    json.reevaluation_recovery_s = restart.recoverySeconds;
    figures.push(
      {
        scenario: '3 Temporal restart',
        name: 'versions done (killed at)',
        value: `${restart.done} of ${restart.versions} (${restart.doneAtCrash})`,
        goal: 'all',
        ok: restart.done === restart.versions,
      },
      {
        scenario: '3 Temporal restart',
        name: 'missing / duplicated',
        value: `${restart.missing} / ${restart.duplicated}`,
        goal: '0 / 0',
        ok: restart.missing + restart.duplicated === 0,
      },
      {
        scenario: '3 Temporal restart',
        name: 'restart to completion s',
        value: restart.recoverySeconds,
        goal: '',
        ok: true,
      },
    );
  } finally {
    await deployment.close();
  }
}

if (wanted('fuzz') || wanted('boundaries')) {
  const deployment = await startDeployment({ temporalCli });
  try {
    if (wanted('fuzz')) {
      const keys = await principalKeys(deployment);
      const t0 = Date.now();
      const fuzz = await fuzzApi({
        url: deployment.url,
        snapshot: deployment.snapshot,
        keys: Object.values(keys),
        requests: FUZZ_REQUESTS,
        maxExamples: 5,
        seed: 14,
      });
      const seconds = (Date.now() - t0) / 1000;
      for (const line of fuzz.examples) console.log(`  fuzz: ${line}`);
      if (fuzz.schemathesis.code !== 0) console.log(fuzz.schemathesis.summary);
      json.fuzz_requests = fuzz.requests;
      json.fuzz_5xx = fuzz.fiveXx;
      json.fuzz_undocumented = fuzz.undocumented;
      json.fuzz_stored_by_refused = fuzz.storedByRefused;
      json.fuzz_routes = fuzz.perRoute.size;
      json.fuzz_per_s = Math.round(fuzz.requests / seconds);
      figures.push(
        {
          scenario: '7 fuzz',
          name: 'requests',
          value: fuzz.requests,
          goal: '>= 10000',
          ok: fuzz.requests >= 10_000,
        },
        {
          scenario: '7 fuzz',
          name: '5xx answers',
          value: fuzz.fiveXx,
          goal: '0',
          ok: fuzz.fiveXx === 0,
        },
        {
          scenario: '7 fuzz',
          name: 'undocumented statuses',
          value: fuzz.undocumented,
          goal: '0',
          ok: fuzz.undocumented === 0,
        },
        {
          scenario: '7 fuzz',
          name: 'refusals that stored',
          value: fuzz.storedByRefused,
          goal: '0',
          ok: fuzz.storedByRefused === 0,
        },
        {
          scenario: '7 fuzz',
          name: 'schemathesis exit code',
          value: fuzz.schemathesis.code ?? -1,
          goal: '0',
          ok: fuzz.schemathesis.code === 0,
        },
      );
    }
    if (wanted('boundaries')) {
      const boundaries = await tryEveryBoundary(deployment);
      for (const line of boundaries.breaches) console.log(`  boundary: ${line}`);
      json.boundary_attempts = boundaries.attempts;
      json.boundary_breaches = boundaries.breaches.length;
      json.boundary_routes = boundaries.routes;
      figures.push(
        {
          scenario: '8 boundaries',
          name: 'attempts',
          value: boundaries.attempts,
          goal: `every route (${boundaries.routes})`,
          ok: true,
        },
        {
          scenario: '8 boundaries',
          name: 'breaches',
          value: boundaries.breaches.length,
          goal: '0',
          ok: boundaries.breaches.length === 0,
        },
      );
    }
  } finally {
    await deployment.close();
  }
}

if (wanted('sink')) {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: executableOption(binaries.testServer) },
  });
  try {
    const bundle = await bundleWorkflows();
    const t0 = Date.now();
    const sink = await sinkFaults({
      env,
      worker: (taskQueue, activities) =>
        createWorker({
          connection: env.nativeConnection,
          taskQueue,
          activities,
          workflowBundle: bundle,
        }),
      runs: SINK_RUNS,
      messagesPerRun: 6,
      seed: 4,
      // The mirror's last read-back is 7.2 hours after a write: 12 hours settle what can settle.
      maxHours: 12,
    });
    for (const [reason, n] of sink.reasons) console.log(`  sink: ${n} failed: ${reason}`);
    for (const line of sink.violations) console.log(`  sink: ${line}`);
    for (const line of sink.unsettled) console.log(`  sink: did not settle: ${line}`);
    const expected = sink.expectedWrites + sink.expectedDeletions;
    json.sink_unaccounted = sink.unaccounted;
    json.sink_expected = expected;
    json.sink_confirmed = sink.confirmed;
    json.sink_deleted = sink.deleted;
    json.sink_failed = sink.failed;
    json.sink_ledger_wrong = sink.ledgerWrong;
    json.sink_faults_injected = sink.randomFaults;
    json.sink_dropped = sink.dropped;
    json.sink_ignored_deletes = sink.ignoredDeletes;
    json.sink_seconds = Math.round((Date.now() - t0) / 1000);
    figures.push(
      {
        scenario: '4 sink',
        name: 'scores + deletions expected',
        value: expected,
        goal: '',
        ok: true,
      },
      {
        scenario: '4 sink',
        name: 'confirmed / deleted / failed',
        value: `${sink.confirmed} / ${sink.deleted} / ${sink.failed}`,
        goal: `sum ${expected}`,
        ok: sink.confirmed + sink.deleted + sink.failed === expected,
      },
      {
        scenario: '4 sink',
        name: 'unaccounted',
        value: sink.unaccounted,
        goal: '0',
        ok: sink.unaccounted === 0,
      },
      {
        scenario: '4 sink',
        name: 'ledger contradicts Langfuse',
        value: sink.ledgerWrong,
        goal: '0',
        ok: sink.ledgerWrong === 0,
      },
      {
        scenario: '4 sink',
        name: 'faults / drops / ignored deletes',
        value: `${sink.randomFaults} / ${sink.dropped} / ${sink.ignoredDeletes}`,
        goal: 'injected',
        ok: sink.randomFaults > 0,
      },
    );
  } finally {
    await env.teardown();
  }
}

if (wanted('store')) {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-chaos-store-'));
  const cluster = process.env.DATABASE_URL ? null : await startThrowawayCluster();
  const url = process.env.DATABASE_URL ?? (cluster as { url: string }).url;
  const targets: [string, CrashTarget][] = [
    ['SQLite', { backend: 'sqlite', path: join(dir, 'evalflow.db') }],
    ['Postgres', { backend: 'postgres', url, schema: `evalflow_chaos_${process.pid}` }],
  ];
  let lost = 0;
  try {
    for (const [name, target] of targets) {
      const crash = await crashStore(target, { kills: STORE_KILLS, seed: 5 });
      lost += crash.lost;
      json[`store_${name.toLowerCase()}_acknowledged`] = crash.acknowledged;
      json[`store_${name.toLowerCase()}_lost`] = crash.lost;
      json[`store_${name.toLowerCase()}_duplicated`] = crash.duplicated;
      json[`store_${name.toLowerCase()}_gaps`] = crash.gaps;
      json[`store_${name.toLowerCase()}_views_equal_replay`] = String(crash.viewsEqualReplay);
      figures.push(
        {
          scenario: `5 store ${name}`,
          name: 'kills / acknowledged',
          value: `${crash.kills} / ${crash.acknowledged}`,
          goal: '',
          ok: crash.acknowledged > 0,
        },
        {
          scenario: `5 store ${name}`,
          name: 'lost / duplicated / gaps',
          value: `${crash.lost} / ${crash.duplicated} / ${crash.gaps}`,
          goal: '0 / 0 / 0',
          ok: crash.lost + crash.duplicated + crash.gaps === 0,
        },
        {
          scenario: `5 store ${name}`,
          name: 'views equal replay',
          value: String(crash.viewsEqualReplay),
          goal: 'true',
          ok: crash.viewsEqualReplay,
        },
      );
    }
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  json.store_lost_acknowledged = lost;
  json.lost_acknowledged_writes = lost;
}

if (wanted('api-kills')) {
  const deployment = await startDeployment({ temporalCli });
  try {
    const kills = await killApiWhileWriting(deployment, {
      kills: API_KILLS,
      clients: 8,
      writesPerClient: 50,
      seed: 2,
    });
    for (const line of kills.refusedRetries.slice(0, 10)) console.log(`  api kills: ${line}`);
    json.api_kills = kills.kills;
    json.api_acknowledged = kills.acknowledged;
    json.api_lost = kills.lost;
    json.api_duplicated = kills.duplicated;
    json.api_retries = kills.retries;
    json.lost_acknowledged_writes = kills.lost + Number(json.store_lost_acknowledged ?? 0);
    figures.push(
      {
        scenario: '2 API kills',
        name: 'kills / writes acknowledged',
        value: `${kills.kills} / ${kills.acknowledged} of ${kills.attempted}`,
        goal: 'all',
        ok: kills.acknowledged === kills.attempted,
      },
      {
        scenario: '2 API kills',
        name: 'lost / duplicated',
        value: `${kills.lost} / ${kills.duplicated}`,
        goal: '0 / 0',
        ok: kills.lost + kills.duplicated === 0,
      },
      {
        scenario: '2 API kills',
        name: 'retries refused',
        value: kills.refusedRetries.length,
        goal: '0',
        ok: kills.refusedRetries.length === 0,
      },
    );
  } finally {
    await deployment.close();
  }
}

if (wanted('two-of-everything')) {
  const langfuse = await LangfuseTestServer.start();
  const cluster = process.env.DATABASE_URL ? null : await startThrowawayCluster();
  try {
    const two = await twoOfEverything({
      temporalCli,
      postgresUrl: process.env.DATABASE_URL ?? (cluster as { url: string }).url,
      langfuse,
      runs: TWO_RUNS,
      kills: TWO_KILLS,
      clients: 8,
      settleMs: 10 * 60_000,
    });
    const scenario = '6 two of everything';
    const duplicateScores = two.duplicateScoresById + two.duplicateScoresByTarget;
    const relayFailover = Math.max(0, ...two.kills.map((kill) => kill.relaySeconds));
    const leaseFailover = Math.max(0, ...two.kills.map((kill) => kill.leaseSeconds));
    const holdersAgree = two.kills.every((kill) => kill.holderAgrees);
    json.two_runs = two.runs;
    json.two_runs_per_api = two.runsPerApi.join(' ');
    json.two_kills = two.kills.length;
    json.two_missing_verdicts = two.missingVerdicts;
    json.two_duplicate_feedback = two.duplicateFeedback;
    json.two_scores = two.scores;
    json.two_duplicate_scores = duplicateScores;
    json.two_relay_failover_s = relayFailover;
    json.two_relay_failovers_s = two.kills.map((kill) => kill.relaySeconds).join(' ');
    json.two_lease_failovers_s = two.kills.map((kill) => kill.leaseSeconds).join(' ');
    json.two_judged_at_kills = two.kills.map((kill) => kill.judgedAtKill).join(' ');
    json.two_holders_agree = String(holdersAgree);
    json.two_max_simultaneous_relays = two.maxSimultaneousRelays;
    json.two_max_lease_holders = two.maxLeaseHolders;
    json.two_drain_s = two.drainSeconds;
    figures.push(
      {
        scenario,
        name: 'runs (per API) / holder kills',
        value: `${two.runs} (${two.runsPerApi.join(' + ')}) / ${two.kills.length}`,
        goal: 'both APIs',
        ok: two.runsPerApi.every((n) => n > 0) && two.kills.length === TWO_KILLS,
      },
      {
        scenario,
        name: 'runs reported / judged at each kill',
        value: two.kills.map((kill) => `${kill.reportedAtKill}/${kill.judgedAtKill}`).join(' '),
        goal: 'some in flight',
        ok: two.kills.every((kill) => kill.judgedAtKill < kill.reportedAtKill),
      },
      {
        scenario,
        name: 'runs missing a verdict',
        value: two.missingVerdicts,
        goal: '0',
        ok: two.missingVerdicts === 0,
      },
      {
        scenario,
        name: 'duplicate feedback',
        value: two.duplicateFeedback,
        goal: '0',
        ok: two.duplicateFeedback === 0,
      },
      {
        scenario,
        name: 'scores / duplicates (id / target)',
        value: `${two.scores} / ${two.duplicateScoresById} / ${two.duplicateScoresByTarget}`,
        goal: 'some / 0 / 0',
        ok: two.scores > 0 && duplicateScores === 0,
      },
      {
        scenario,
        name: 'max relay failover s (line / pg_locks)',
        value: `${relayFailover} / ${leaseFailover}`,
        goal: 'moves (poll 2 s)',
        ok: Number.isFinite(relayFailover) && Number.isFinite(leaseFailover),
      },
      {
        scenario,
        name: 'holder by its line = by pg_locks',
        value: String(holdersAgree),
        goal: 'true',
        ok: holdersAgree,
      },
      {
        scenario,
        name: 'most relays at once (lines / pg_locks)',
        value: `${two.maxSimultaneousRelays} / ${two.maxLeaseHolders}`,
        goal: '1 / 1',
        ok: two.maxSimultaneousRelays === 1 && two.maxLeaseHolders === 1,
      },
    );
  } finally {
    cluster?.stop();
    await langfuse.close();
  }
}

const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
json.seconds = Math.round((Date.now() - started) / 1000);
json.load_average = load;
json.uptime = execSync('uptime').toString().trim();
printTable(figures, `bench:chaos — load average ${load}, ${json.seconds} s`);
console.log(JSON.stringify(json));
