// npm run bench:chaos — evalflow under faults, the long versions of test/chaos (issue 14).
//
// Each scenario deploys evalflow as a user does (a Temporal dev server, `evalflow api` and
// `evalflow worker` as processes, or the engine on Temporal's time-skipping server) and breaks
// something: the requests (schemathesis fuzzing every route), the credentials (every route at
// every boundary), the sink (the Langfuse test server's faults), the store, the processes. It
// prints one table of figures against their goals and ends with one JSON line. Not part of
// `npm test`; BENCH_CHAOS_ONLY=fuzz,boundaries runs a subset, BENCH_CHAOS_FUZZ_REQUESTS sizes
// the fuzzing.
import { execSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { ensureTemporalBinaries } from '../src/cli/setup.js';
import { tryEveryBoundary } from './chaos/boundaries.js';
import { principalKeys } from './chaos/credentials.js';
import { startDeployment } from './chaos/deployment.js';
import { fuzzApi } from './chaos/fuzz.js';
import { type Figure, printTable } from './chaos/report.js';

const only = process.env.BENCH_CHAOS_ONLY?.split(',');
const wanted = (scenario: string) => !only || only.includes(scenario);
const FUZZ_REQUESTS = Number(process.env.BENCH_CHAOS_FUZZ_REQUESTS ?? 10_000);

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

const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
json.seconds = Math.round((Date.now() - started) / 1000);
json.load_average = load;
json.uptime = execSync('uptime').toString().trim();
printTable(figures, `bench:chaos — load average ${load}, ${json.seconds} s`);
console.log(JSON.stringify(json));
