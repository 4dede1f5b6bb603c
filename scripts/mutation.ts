// `npm run test:mutation`: StrykerJS mutates src/core and src/scores (stryker.config.json), runs
// the unit tests that pin their rules against each mutant (vitest.mutation.config.ts), and this
// reads its JSON report back into one score per folder. Not part of `npm test`: a full run takes
// minutes on two cores. Arguments go to `stryker run` (e.g. `-- --incremental` while iterating).
//
// Each score is Stryker's: mutants detected (killed or timed out) over valid mutants (detected,
// survived or without coverage); mutants that do not compile or fail at run time are left out.
// Exits 1 when a folder is below its goal (core ≥ 95, scores ≥ 90). Ends with one JSON line:
// {"mutation_core":S,"mutation_scores":S}.
//
// Without DATABASE_URL one throwaway Postgres serves the whole run: Stryker restarts a test runner
// after each mutant that times out, and each would otherwise start (and initdb) a cluster of its own.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';

const REPORT = join('reports', 'mutation', 'mutation.json');
const GROUPS = [
  { key: 'mutation_core', folder: 'src/core/', goal: 95 },
  { key: 'mutation_scores', folder: 'src/scores/', goal: 90 },
] as const;

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

interface Report {
  files: Record<string, { mutants: { status: string; static?: boolean }[] }>;
}

// Stryker still reports static mutants under --ignoreStatic, tried against only the tests that
// cover them per test (which cannot see code run at load): they are not measured, so not counted.
const ignoreStatic = process.argv.includes('--ignoreStatic');

// A report left by an earlier run must not pass for this one's.
rmSync(REPORT, { force: true });
const cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
const started = performance.now();
let stryker: ReturnType<typeof spawnSync>;
try {
  stryker = spawnSync(join('node_modules', '.bin', 'stryker'), ['run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...(cluster && { DATABASE_URL: cluster.url }) },
  });
} finally {
  cluster?.stop();
}
const minutes = (performance.now() - started) / 60_000;
if (stryker.status !== 0 || !existsSync(REPORT)) {
  console.error(`stryker run failed (exit ${stryker.status ?? stryker.signal}); no scores`);
  process.exit(stryker.status || 1);
}

const report = JSON.parse(readFileSync(REPORT, 'utf8')) as Report;
const results = GROUPS.map(({ key, folder, goal }) => {
  let detected = 0;
  let undetected = 0;
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!file.replaceAll('\\', '/').startsWith(folder)) continue;
    for (const { status, static: isStatic } of mutants) {
      if (ignoreStatic && isStatic) continue;
      if (DETECTED.has(status)) detected += 1;
      else if (UNDETECTED.has(status)) undetected += 1;
    }
  }
  const valid = detected + undetected;
  const score = valid === 0 ? 0 : Math.round((detected / valid) * 1000) / 10;
  return { key, folder, goal, score, detected, undetected };
});

for (const { folder, goal, score, detected, undetected } of results) {
  console.log(
    `${folder}: ${score}% (${detected} detected, ${undetected} undetected; goal ≥ ${goal}%)`,
  );
}
console.log(`full run: ${minutes.toFixed(1)} min; report: reports/mutation/mutation.html`);
console.log(JSON.stringify(Object.fromEntries(results.map(({ key, score }) => [key, score]))));
if (results.some(({ score, goal }) => score < goal)) process.exitCode = 1;
