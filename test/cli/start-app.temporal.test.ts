import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFeedbackTypeRegistry } from '../../src/core/index.js';
import { answerLengthEvaluator, createEvaluatorRegistry } from '../../src/evaluators/index.js';
import { FileScoreConfigStore, JsonlScoreSink } from '../../src/scores/file/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { cliInProcess } from '../support/cli.js';
import { exampleIds, reportedRun } from '../support/examples.js';
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

// Issue 8's "done when": `evalflow start` with the README's example app and its host program,
// run exactly as written, in separate processes on one store.

const home = mkdtempSync(join(tmpdir(), 'evalflow-app-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const example = join(repoRoot, 'examples', 'quickstart');
const sqlitePath = join(home, '.evalflow', 'evalflow.db');
const ws = 'quickstart';

describe('evalflow start with an app definition', () => {
  it('stops at once with one line naming the file when the config is bad', async () => {
    writeFileSync(join(home, 'bad.config.ts'), 'export default { rules: [{ evaluator: "x@1" }] };');
    const result = await finished(
      runCli(['start', '--config', 'bad.config.ts'], { cwd: home, env: embeddedDefaults() }),
    );
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      'evalflow: bad.config.ts: rules[0] names x@1, which is not among the evaluators (none declared)\n',
    );
  });

  it("judges, rates and reviews the example host's run, then follows a rule switch for later runs only", async () => {
    const [port, uiPort, apiPort, metricsPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const env = {
      ...embeddedDefaults(),
      ...temporalBinaries(),
      EVALFLOW_TASK_QUEUE: 'start-app-test',
      EVALFLOW_SQLITE_PATH: sqlitePath,
    };
    const engine = runCli(
      [
        'start',
        '--config',
        join(example, 'evalflow.config.ts'),
        '--port',
        String(port),
        '--ui-port',
        String(uiPort),
        ...['--api-port', String(apiPort), '--metrics-port', String(metricsPort)],
      ],
      { cwd: home, env },
    );
    engine.stderr?.pipe(process.stderr);
    await waitForLine(engine, /worker polling/);

    const host = await finished(
      runTypeScript(join(example, 'host.ts'), [], {
        cwd: example,
        env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
      }),
    );
    expect(host.err).toBe('');
    expect(host.code).toBe(0);
    const runId = reportedRun(host.out, [
      'rated; raters on the message: 1',
      'review: recorded at position 0',
    ]);
    const { threadId, answerId } = exampleIds(runId);

    // A second process on the same store, as a host or the CLI would be.
    const store = openSqliteStore(sqlitePath, {
      feedbackTypes: createFeedbackTypeRegistry([]),
      evaluators: createEvaluatorRegistry([
        answerLengthEvaluator(),
        answerLengthEvaluator({ version: '2' }),
      ]),
    });
    try {
      const scores = new JsonlScoreSink(join(home, '.evalflow', 'scores.jsonl'));
      const expected = [
        'answer_length.characters',
        'answer_length.within_limit',
        'helpfulness.helpful',
        'helpfulness.stars',
        'politeness.polite',
        'review_verdict.note',
        'review_verdict.verdict',
      ];
      const held = await eventually(
        () => scores.all(),
        (all) => all.size >= expected.length,
      );
      const byName = new Map([...held.values()].map((score) => [score.name, score]));
      expect([...byName.keys()].sort()).toEqual(expected);
      // The custom evaluator's verdict, the user's rating and the reviewer's verdict, kept apart.
      expect(byName.get('politeness.polite')).toMatchObject({
        value: true,
        evaluator: 'politeness',
        source: { score_source: 'JUDGE' },
      });
      expect(byName.get('helpfulness.stars')).toMatchObject({
        value: 5,
        source: { score_source: 'USER', actor: 'user:ada' },
      });
      expect(byName.get('review_verdict.verdict')).toMatchObject({
        value: 'pass',
        source: { score_source: 'HUMAN', actor: 'reviewer:grace' },
      });
      // The score configs of every declared type were created in the sink at startup.
      const configs = new FileScoreConfigStore(join(home, '.evalflow', 'score-configs.jsonl'));
      expect(await configs.names()).toEqual(
        expect.arrayContaining([
          'helpfulness.stars',
          'review_verdict.verdict',
          'politeness.polite',
        ]),
      );

      // The CLI beside the running engine reads the engine's app: its rules and its types.
      const rules = await cliInProcess(['rules', 'list', '--workspace', ws], { cwd: home, env });
      expect(rules.code).toBe(0);
      expect(rules.err).toBe(
        `evalflow: the app of the running engine (pid ${engine.pid}): ${join(example, 'evalflow.config.ts')}\n`,
      );
      expect(rules.out).toContain('politeness@1');
      // A reviewer's link points at the API this engine serves, on its --api-port.
      const link = await cliInProcess(
        ['reviewers', 'link', '--workspace', ws, '--reviewer', 'grace', '--json'],
        { cwd: home, env },
      );
      expect(link.code).toBe(0);
      expect(JSON.parse(link.out).url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${apiPort}/ui/#token=esi_`),
      );
      writeFileSync(join(home, 'other.config.mjs'), 'export default {};\n');
      const other = await cliInProcess(
        ['rules', 'list', '--workspace', ws, '--config', 'other.config.mjs'],
        {
          cwd: home,
          env,
        },
      );
      expect(other.err).toBe(
        `evalflow: this command reads other.config.mjs, not the app of the running engine (pid ${engine.pid}): ${join(example, 'evalflow.config.ts')}\n`,
      );
      const summary = await cliInProcess(['scores', 'summary', '--workspace', ws, '--json'], {
        cwd: home,
        env,
      });
      expect(summary.code).toBe(0);
      expect(summary.out).toContain('review_verdict');
      expect(summary.out).toContain('helpfulness');

      // The deployed but non-live answer_length@2 judged nothing.
      expect(await judgesOf(store, answerId)).toEqual([
        'evaluator:answer_length@1',
        'evaluator:politeness@1',
      ]);

      // Switch the rule: @2 live, @1 retired. The run already judged keeps its plan.
      const system = { kind: 'system', name: 'operator' };
      for (const command of [
        { type: 'set_evaluation_rule', evaluator: 'answer_length@2', targets: ['message'] },
        {
          type: 'set_evaluation_rule',
          evaluator: 'answer_length@1',
          targets: ['message'],
          enabled: false,
        },
      ]) {
        expect(
          (await store.executeUnchecked({ workspace_id: ws, actor: system, command })).type,
        ).toBe('recorded');
      }
      const agent = { kind: 'agent', thread_id: threadId };
      for (const command of [
        { type: 'start_run', run_id: 'run-2', thread_id: threadId, trace_id: 'ab'.repeat(16) },
        {
          type: 'post_message',
          thread_id: threadId,
          message_id: 'answer-2',
          run_id: 'run-2',
          role: 'assistant',
          content: 'Done, thank you.',
        },
        { type: 'end_run', run_id: 'run-2', status: 'completed' },
      ]) {
        expect(
          (await store.executeUnchecked({ workspace_id: ws, actor: agent, command })).type,
        ).toBe('recorded');
      }
      const later = await eventually(
        () => judgesOf(store, 'answer-2'),
        (judges) => judges.length >= 2,
      );
      expect(later).toEqual(['evaluator:answer_length@2', 'evaluator:politeness@1']);
      expect(await judgesOf(store, answerId)).toEqual([
        'evaluator:answer_length@1',
        'evaluator:politeness@1',
      ]);
    } finally {
      await store.close();
    }

    engine.kill('SIGINT');
    const [code] = await once(engine, 'exit');
    expect(code).toBe(0);
  });
});

/** The evaluator versions that settled a message in the ledger, sorted. */
async function judgesOf(store: Store, messageId: string): Promise<string[]> {
  const entries = await store.ledger.evaluations(ws);
  return entries
    .filter((entry) => (entry.target as { message_id?: string }).message_id === messageId)
    .map((entry) => entry.participant)
    .sort();
}
