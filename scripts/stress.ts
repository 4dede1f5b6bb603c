// `npm run test:stress -- [--repeat N] [--hogs K] FILE...`: runs the named test files N times
// (default 20) while K busy processes (default: one per core) keep every core loaded, as CI's
// shared machines are. Each run is one `vitest run` of all the files, in an order shuffled by that
// run's seed; a failure is printed with its run, its seed (`vitest run --sequence.shuffle.files
// --sequence.seed=SEED FILE...` runs that order again) and its first line. Not part of `npm test`.
// Exits 1 if any run failed. Ends with one JSON line: {"stress_runs":N,"stress_failures":F,...}.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    repeat: { type: 'string', default: '20' },
    hogs: { type: 'string', default: String(availableParallelism()) },
  },
});
const repeat = wholeNumber('--repeat', values.repeat);
const hogCount = wholeNumber('--hogs', values.hogs, 0);
if (files.length === 0) {
  console.error(
    'test:stress: name the test files to run, e.g. npm run test:stress -- test/a.test.ts',
  );
  process.exit(2);
}

interface VitestReport {
  testResults: {
    name: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

const scratch = mkdtempSync(join(tmpdir(), 'evalflow-stress-'));
const hogs = startHogs(hogCount);
// Stopped early (Ctrl-C), it takes its hogs with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const hog of hogs) hog.kill('SIGKILL');
    process.exit(130);
  });
}
const failures: { run: number; seed: number; test: string; message: string }[] = [];
const startedAt = Date.now();
try {
  for (let run = 1; run <= repeat; run += 1) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const report = join(scratch, `run-${run}.json`);
    const result = spawnSync(
      'npx',
      [
        'vitest',
        'run',
        '--sequence.shuffle.files',
        `--sequence.seed=${seed}`,
        '--reporter=json',
        `--outputFile=${report}`,
        ...files,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    const found = failuresOf(report, result.status, result.stderr);
    for (const failure of found) failures.push({ run, seed, ...failure });
    console.log(
      `run ${run}/${repeat} seed ${seed}: ${found.length === 0 ? 'passed' : `${found.length} failed`} (load ${loadavg()[0]?.toFixed(2)})`,
    );
    for (const { test, message } of found) console.log(`  FAIL ${test}: ${message}`);
  }
} finally {
  for (const hog of hogs) hog.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}

console.log(
  JSON.stringify({
    stress_runs: repeat,
    stress_files: files.length,
    stress_hogs: hogCount,
    stress_failures: failures.length,
    stress_seconds: Math.round((Date.now() - startedAt) / 1000),
  }),
);
process.exitCode = failures.length === 0 ? 0 : 1;

/** The failed tests of one run; a run that wrote no report failed as a whole. */
function failuresOf(
  report: string,
  status: number | null,
  stderr: string,
): { test: string; message: string }[] {
  let parsed: VitestReport;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  } catch {
    return [{ test: '(the run)', message: `exit ${status}, no report: ${firstLine(stderr)}` }];
  }
  const found = parsed.testResults.flatMap((file) => [
    ...file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({
        test: `${file.name} > ${test.fullName}`,
        message: firstLine(test.failureMessages.join('\n')),
      })),
    // A file that failed outside its tests (a hook, an import) reports it on the file.
    ...(file.message && file.assertionResults.every((test) => test.status !== 'failed')
      ? [{ test: file.name, message: firstLine(file.message) }]
      : []),
  ]);
  if (found.length === 0 && status !== 0) {
    return [{ test: '(the run)', message: `exit ${status}: ${firstLine(stderr)}` }];
  }
  return found;
}

/** Busy processes, one per core asked for: each spins until killed. */
function startHogs(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function wholeNumber(flag: string, value: string, least = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < least) {
    console.error(`test:stress: ${flag} is a whole number from ${least}, not ${value}`);
    process.exit(2);
  }
  return n;
}
