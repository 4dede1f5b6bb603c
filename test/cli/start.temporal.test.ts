import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { builtinApp } from '../../src/config/index.js';
import { JsonlScoreSink } from '../../src/scores/file/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  listening,
  runCli,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';

const home = mkdtempSync(join(tmpdir(), 'evalflow-start-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('evalflow start evaluates a run end to end into the scores file, and Ctrl-C stops everything', async () => {
  const [port, uiPort] = [await freePort(), await freePort()];
  const child = runCli(['start', '--port', String(port), '--ui-port', String(uiPort)], {
    cwd: home,
    env: { ...embeddedDefaults(), ...temporalBinaries(), EVALFLOW_TASK_QUEUE: 'start-test' },
  });
  child.stderr?.pipe(process.stderr);
  // Everything it prints, to read what it logged and that a clean stop logs no error.
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  }
  const ready = await waitForLine(child, /worker polling/);
  expect(ready).toContain(`Temporal UI at http://127.0.0.1:${uiPort}`);
  const pidFile = join(home, '.evalflow', 'temporal.pid');
  expect(JSON.parse(readFileSync(pidFile, 'utf8'))).toMatchObject({ port, uiPort });
  // One metrics endpoint, on 9464 by default, for the engine and the API of the one process.
  expect((await fetch('http://127.0.0.1:8787/healthz')).status).toBe(200);
  const metrics = await (await fetch('http://127.0.0.1:9464/metrics')).text();
  expect(metrics).toMatch(/^evalflow_relay_workspaces \d+$/m);
  expect(metrics).toMatch(
    /^evalflow_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1$/m,
  );
  expect(metrics).toMatch(/^temporal_worker_task_slots_available\{/m);

  // The host app writes to the engine's store; the relay, worker and mirror do the rest.
  const store = openSqliteStore(join(home, '.evalflow', 'evalflow.db'), builtinApp(null));
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
        content: 'Your refund is on its way.',
        run_id: 'r',
      },
      // JSON validity is checked on what claims to be JSON: a json artifact, not a note or prose.
      { type: 'put_artifact', artifact_id: 'j', kind: 'json', data: '{"ok": tru', run_id: 'r' },
      { type: 'put_artifact', artifact_id: 'n', kind: 'note', data: 'call back', run_id: 'r' },
      { type: 'end_run', run_id: 'r', status: 'completed' },
    ]) {
      expect(
        (await store.executeUnchecked({ workspace_id: 'demo', actor: system, command })).type,
      ).toBe('recorded');
    }
    const scoresFile = new JsonlScoreSink(join(home, '.evalflow', 'scores.jsonl'));
    // answer_length (2 fields), refusal and turn_outcome (2) on the answer and the run;
    // json_validity (valid and its error) on the json artifact alone.
    const scores = await eventually(
      () => scoresFile.all(),
      (all) => all.size >= 7,
    );
    const values = new Map([...scores.values()].map((score) => [score.name, score.value]));
    expect(Object.fromEntries(values)).toEqual({
      'answer_length.characters': 26,
      'answer_length.within_limit': true,
      'json_validity.error': expect.stringContaining('JSON'),
      'json_validity.valid': false,
      'refusal.refused': false,
      'turn_outcome.assistant_messages': 1,
      'turn_outcome.completed': true,
    });
    const ledger = await store.ledger.evaluations('demo');
    expect(
      ledger
        .map((entry) => [entry.participant, (entry.target as { kind: string }).kind, entry.state])
        .sort(),
    ).toEqual([
      ['evaluator:answer_length@1', 'message', 'recorded'],
      ['evaluator:json_validity@1', 'artifact', 'recorded'],
      ['evaluator:json_validity@1', 'artifact', 'skipped'],
      ['evaluator:refusal@1', 'message', 'recorded'],
      ['evaluator:turn_outcome@1', 'turn', 'recorded'],
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
  expect(existsSync(pidFile)).toBe(false);
  expect(await listening(port)).toBe(false);
  expect(await listening(uiPort)).toBe(false);
  // Its operations log, JSON on a pipe: what it resumed at start, what it judged; and a clean
  // stop logs no error, from the engine, Temporal's SDK or the dev server.
  const logged = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  expect(logged.filter((line) => line.event === 'engine.resumed')).toEqual([
    expect.objectContaining({ level: 30, runEvaluations: 0, batches: 0 }),
  ]);
  const judged = logged.filter((line) => line.event === 'evaluation.finished');
  expect(judged.map((line) => [line.workspace, line.outcome])).toEqual(
    Array(4).fill(['demo', 'recorded']),
  );
  expect(output).not.toMatch(/level=ERROR|\[ERROR\]|"level":(50|60)/);
});
