import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { embeddedDefaults, finished, runCli, temporalBinaries } from '../support/processes.js';

// `evalflow demo` as `npm run demo` runs it: its own engine on embedded defaults, the story
// through the HTTP API, the tables, exit 0, within a minute, and nothing left behind.

const cwd = mkdtempSync(join(tmpdir(), 'evalflow-demo-test-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

it('tells the story through the API and prints the tables, within a minute', async () => {
  const before = readdirSync(tmpdir()).filter(
    (name) => name.startsWith('evalflow-demo-') && !cwd.endsWith(name),
  );
  const { code, out, err } = await finished(
    runCli(['demo'], { cwd, env: { ...embeddedDefaults(), ...temporalBinaries() } }),
  );
  expect(err).toBe('');
  expect(code).toBe(0);

  // The story, as each step answered.
  expect(out).toContain('run-2 on support-1: paused (waiting for the customer), resumed: true');
  expect(out).toContain('run-3 on support-2: paused (the customer went quiet) and left');
  expect(out).toContain(
    "ada rates run-1's answer 2 stars (isUpdate false), then 4 (isUpdate true: replaced)",
  );
  expect(out).toContain('then deletes the rating (removed true)');
  expect(out).toMatch(
    /grace submits fail \(position \d+\), then revises to pass \(position \d+, isUpdate true\)/,
  );
  expect(out).toContain('artifact_schema@1: disabled (origin workspace)');
  expect(out).toMatch(/batch [0-9a-f-]{36}: 5\/5 done, 0 failed, .*complete/);

  // The tables.
  expect(out).toMatch(/^run\s+status\s+target\s+evaluator\s+state\s+verdict$/m);
  expect(out).toMatch(/^run-3\s+abandoned \(paused 3000 ms\)\s+/m);
  expect(out).toMatch(/^run-4\s+completed\s+.*$/m);
  expect(out).toMatch(
    /artifact invoice-3001@1\s+artifact_schema@2\s+recorded\s+valid=true issues=0/,
  );
  expect(out).toMatch(
    /^artifact version\s+artifact_schema@1 \(run\)\s+artifact_schema@2 \(batch\)\s+artifact_schema@2 \(run\)$/m,
  );
  // @1 passed the invoice without a currency; @2, judging it again, does not.
  expect(out).toMatch(/^invoice-1042@1\s+valid=true issues=0\s+valid=false issues=1\s+-$/m);
  expect(out).toMatch(/^source\s+producer\s+label\s+score\s+count\s+mean\s+distribution$/m);
  for (const source of ['USER', 'HUMAN', 'HARNESS'])
    expect(out).toMatch(new RegExp(`^${source}\\s`, 'm'));
  // ada's replaced rating and bob's: the deleted one is gone.
  expect(out).toMatch(/^USER\s+-\s+-\s+helpfulness\.stars\s+2\s+4\.5\s+-$/m);
  expect(out).toMatch(/^HUMAN\s+-\s+-\s+review_verdict\.verdict\s+1\s+-\s+pass:1$/m);
  expect(out).toMatch(/^generation\s+evaluator\s+target\s+state\s+reason$/m);
  expect(out).toMatch(/sampled_out\s+outside the sample rate 0\.5$/m);

  const seconds = Number(/evalflow demo: finished in ([\d.]+) s/.exec(out)?.[1]);
  expect(seconds).toBeLessThan(60);
  // Its temporary folder is gone.
  const after = readdirSync(tmpdir()).filter(
    (name) => name.startsWith('evalflow-demo-') && !cwd.endsWith(name),
  );
  expect(after.filter((name) => !before.includes(name))).toEqual([]);
}, 120_000);
