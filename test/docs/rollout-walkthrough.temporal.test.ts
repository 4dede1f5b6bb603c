import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import app from '../../examples/quickstart/evalflow.config.js';
import { openStore } from '../../src/store/index.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  finished,
  repoRoot,
  runCli,
  runTypeScript,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';
import { blocksOf } from './doc-blocks.js';

// The README's rollout, as written, on the quickstart app beside a real engine: rules set, the
// reviewed runs reported, then agreement and promotion give a real κ and promote on it.

const home = mkdtempSync(join(tmpdir(), 'evalflow-rollout-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const example = join(repoRoot, 'examples', 'quickstart');

/** The rollout's shell block: each line's words, its comment dropped. */
const walkthrough = blocksOf('README.md')
  .filter((block) => block.language === 'sh' && block.text.includes('npm run example:reviews'))
  .flatMap((block) => block.text.split('\n'))
  .map((line) =>
    line
      .replace(/\s+#.*$/, '')
      .split(/\s+/)
      .filter(Boolean),
  )
  .filter((words) => words.length > 0);

it("the README's rollout gives a real κ on the quickstart app and promotes on it", async () => {
  expect(walkthrough.map((words) => words.slice(0, 3).join(' '))).toEqual([
    'npx evalflow rules',
    'npx evalflow rules',
    'npm run example:reviews',
    'npx evalflow agreement',
    'npx evalflow rules',
  ]);
  const [port, uiPort, apiPort, metricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const sqlitePath = join(home, '.evalflow', 'evalflow.db');
  const env = {
    ...embeddedDefaults(),
    ...temporalBinaries(),
    EVALFLOW_TASK_QUEUE: 'rollout-test',
    EVALFLOW_SQLITE_PATH: sqlitePath,
  };
  const engine = runCli(
    [
      'start',
      ...['--config', join(example, 'evalflow.config.ts')],
      ...['--port', String(port), '--ui-port', String(uiPort)],
      ...['--api-port', String(apiPort), '--metrics-port', String(metricsPort)],
    ],
    { cwd: home, env },
  );
  engine.stderr?.pipe(process.stderr);
  try {
    await waitForLine(engine, /worker polling/);
    const outputs: string[] = [];
    for (const words of walkthrough) {
      if (words[0] === 'npx' && words[1] === 'evalflow') {
        const ran = await cliInProcess(words.slice(2), { cwd: home, env });
        expect(ran.code, `${words.join(' ')}: ${ran.err}`).toBe(0);
        outputs.push(ran.out);
        continue;
      }
      const reviewed = await finished(
        runTypeScript(join(example, 'reviewed-runs.ts'), [], {
          cwd: example,
          env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
        }),
      );
      expect([reviewed.code, reviewed.err]).toEqual([0, '']);
      expect(reviewed.out).toMatch(/^reported and reviewed 30 runs in workspace quickstart/);
      await judged(sqlitePath, 60);
    }
    const [, , agreement = '', promotion = ''] = outputs;
    expect(agreement.split('\n')).toContain('matched 30 of 30 targets (only A 0, only B 0)');
    expect(agreement).toMatch(/^Cohen's κ\s+0\.667\s+95 % interval /m);
    expect(promotion).toMatch(
      /^promoted courtesy@2 in quickstart, replacing courtesy@1 \(now disabled\) \(seq \d+\)$/m,
    );
    expect(promotion).toMatch(/^beside it: courtesy@1:courteous: κ 0\.000 /m);
  } finally {
    engine.kill('SIGINT');
    await once(engine, 'exit');
  }
}, 300_000);

/** Waits until the engine has recorded `count` courtesy verdicts, as a reader would wait. */
async function judged(sqlitePath: string, count: number): Promise<void> {
  const store = await openStore({ ...app, sqlitePath });
  try {
    const courtesy = async () =>
      (await store.ledger.evaluations('quickstart')).filter(
        (entry) =>
          entry.participant.startsWith('evaluator:courtesy@') && entry.state === 'recorded',
      ).length;
    expect(await eventually(courtesy, (n) => n >= count, 120_000)).toBe(count);
  } finally {
    await store.close();
  }
}
