import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, it } from 'vitest';
import { createFeedbackTypeRegistry } from '../../src/core/index.js';
import { JsonlScoreSink } from '../../src/scores/file/jsonl-sink.js';
import { openSqliteStore } from '../../src/store/index.js';
import { ENVIRONMENT } from '../../src/worker/config.js';
import { defaultEvaluators } from '../../src/worker/engine.js';
import { freePort } from '../support/free-port.js';

const cli = fileURLToPath(new URL('../../bin/evalflow.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'evalflow-start-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The environment without evalflow's own settings (CI sets DATABASE_URL, say): the defaults. */
function embeddedDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !(name in ENVIRONMENT)));
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 90_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`)),
    );
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

it('evalflow start evaluates a run end to end into the scores file, and Ctrl-C stops everything', async () => {
  const [port, uiPort] = [await freePort(), await freePort()];
  const pathOf = (binary: ReturnType<typeof inject<'temporalCli'>>) =>
    'path' in binary ? binary.path : '';
  const child = spawn(
    process.execPath,
    [cli, 'start', '--port', String(port), '--ui-port', String(uiPort)],
    {
      cwd: home,
      env: {
        ...embeddedDefaults(process.env),
        TEMPORAL_CLI_PATH: pathOf(inject('temporalCli')),
        TEMPORAL_TEST_SERVER_PATH: pathOf(inject('temporalTestServer')),
        EVALFLOW_TASK_QUEUE: 'start-test',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = await waitForLine(child, /worker polling/);
  expect(ready).toContain(`Temporal UI at http://127.0.0.1:${uiPort}`);
  const pidFile = join(home, '.evalflow', 'temporal.pid');
  expect(JSON.parse(readFileSync(pidFile, 'utf8'))).toMatchObject({ port, uiPort });

  // The host app writes to the engine's store; the relay, worker and mirror do the rest.
  const feedbackTypes = createFeedbackTypeRegistry(
    defaultEvaluators({}).map((e) => e.feedbackType),
  );
  const store = openSqliteStore(join(home, '.evalflow', 'evalflow.db'), { feedbackTypes });
  try {
    const system = { kind: 'system', name: 'system' };
    for (const command of [
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't', trace_id: 'cd'.repeat(16) },
      {
        type: 'post_message',
        thread_id: 't',
        message_id: 'a',
        role: 'assistant',
        content: '{"ok": true}',
        run_id: 'r',
      },
      { type: 'end_run', run_id: 'r', status: 'completed' },
    ]) {
      expect((await store.execute({ workspace_id: 'demo', actor: system, command })).type).toBe(
        'recorded',
      );
    }
    const scoresFile = new JsonlScoreSink(join(home, '.evalflow', 'scores.jsonl'));
    const deadline = Date.now() + 60_000;
    // answer_length (2 fields), refusal, json_validity (valid; no error) and turn_outcome (2).
    while ((await scoresFile.all()).size < 6 && Date.now() < deadline) await sleep(250);
    const names = [...(await scoresFile.all()).values()].map((score) => score.name).sort();
    expect(names).toEqual([
      'answer_length.characters',
      'answer_length.within_limit',
      'json_validity.valid',
      'refusal.refused',
      'turn_outcome.assistant_messages',
      'turn_outcome.completed',
    ]);
    const ledger = await store.ledger.evaluations('demo');
    expect(ledger.map((entry) => entry.state)).toEqual([
      'recorded',
      'recorded',
      'recorded',
      'recorded',
    ]);
  } finally {
    await store.close();
  }

  const stopping = Date.now();
  child.kill('SIGINT');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  // Nothing (a forgotten timer, say) keeps it running once the server is stopped.
  expect(Date.now() - stopping).toBeLessThan(8_000);
  expect(await listening(port)).toBe(false);
  expect(await listening(uiPort)).toBe(false);
  expect(existsSync(pidFile)).toBe(false);
});
