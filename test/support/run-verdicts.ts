import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import app, {
  helpfulness,
  politeness,
  reviewVerdict,
} from '../../examples/quickstart/evalflow.config.js';
import { buildApi, issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { targetKey } from '../../src/core/index.js';
import {
  jsonValidityEvaluator,
  refusalEvaluator,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';
import { openStore } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

// A workspace judged under an earlier config of the quickstart app, which also declared
// `refusal` and `turn_outcome`: run r1 with its turn, answer and invoice judged by evaluators,
// a reviewer and a user, and run r2 beside it in the same thread, judged apart. The quickstart
// app, which no longer declares those two types, then reads it back.

export const earlierApp = defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  evaluators: [politeness, jsonValidityEvaluator(), refusalEvaluator(), turnOutcomeEvaluator()],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
});

/** Records the workspace `acme` in the SQLite file at `sqlitePath`; the ids of r1's verdicts. */
export async function recordRunVerdicts(sqlitePath: string) {
  const store = await openStore({ ...earlierApp, sqlitePath });
  try {
    const tell = async (actor: object, command: object) => {
      const outcome = await store.executeUnchecked({ workspace_id: 'acme', actor, command });
      if (outcome.type !== 'recorded') throw new Error(outcome.message);
      return outcome.events[0]?.id as string;
    };
    const agent = { kind: 'agent', thread_id: 't1' };
    const evaluator = (name: string) => ({ kind: 'evaluator', name, version: '1' });
    const answer = (id: string, run: string) => ({
      kind: 'message',
      thread_id: 't1',
      message_id: id,
      run_id: run,
    });
    await tell({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id: 't1' });
    for (const run of ['r1', 'r2']) {
      await tell(agent, { type: 'start_run', run_id: run, thread_id: 't1' });
      await tell(agent, {
        type: 'post_message',
        thread_id: 't1',
        message_id: `answer-${run}`,
        run_id: run,
        role: 'assistant',
        content: run === 'r1' ? 'Thank you for asking.' : 'No.',
      });
      if (run === 'r1') {
        await tell(agent, {
          type: 'put_artifact',
          artifact_id: 'invoice-1',
          kind: 'invoice',
          data: { total: 12 },
          run_id: 'r1',
        });
      }
      await tell(agent, { type: 'end_run', run_id: run, status: 'completed' });
    }
    const polite = await tell(evaluator('politeness'), {
      type: 'give_feedback',
      feedback_type: 'politeness',
      target: answer('answer-r1', 'r1'),
      value: { polite: true },
    });
    await tell(evaluator('politeness'), {
      type: 'give_feedback',
      feedback_type: 'politeness',
      target: answer('answer-r2', 'r2'),
      value: { polite: false },
    });
    await tell(evaluator('refusal'), {
      type: 'give_feedback',
      feedback_type: 'refusal',
      source: 'HARNESS',
      target: answer('answer-r1', 'r1'),
      value: { refused: false },
    });
    await tell(evaluator('turn_outcome'), {
      type: 'give_feedback',
      feedback_type: 'turn_outcome',
      source: 'HARNESS',
      target: { kind: 'turn', run_id: 'r1' },
      value: { completed: true, assistant_messages: 1 },
    });
    await tell(evaluator('json_validity'), {
      type: 'give_feedback',
      feedback_type: 'json_validity',
      source: 'HARNESS',
      target: { kind: 'artifact', artifact_id: 'invoice-1', version: 1 },
      value: { valid: true, error: null },
    });
    await tell(
      { kind: 'reviewer', id: 'grace' },
      {
        type: 'give_feedback',
        feedback_type: 'review_verdict',
        target: { kind: 'turn', run_id: 'r1' },
        value: { verdict: 'pass', note: 'kind and right' },
        source: 'HUMAN',
      },
    );
    await tell(
      { kind: 'user', id: 'ada' },
      {
        type: 'rate_message',
        thread_id: 't1',
        message_id: 'answer-r1',
        feedback_type: 'helpfulness',
        value: { helpful: true, stars: 4 },
      },
    );
    const message = answer('answer-r1', 'r1');
    await store.ledger.settleEvaluation({
      workspace_id: 'acme',
      generation: 'run',
      participant: 'evaluator:politeness@1',
      target_key: targetKey(message as never),
      target: message,
      state: 'recorded',
      reason: null,
      envelope_id: polite,
    });
    await store.ledger.settleEvaluation({
      workspace_id: 'acme',
      generation: 'run',
      participant: 'evaluator:answer_length@1',
      target_key: targetKey(message as never),
      target: message,
      state: 'sampled_out',
      reason: 'outside the sample rate 0.5',
      envelope_id: null,
    });
  } finally {
    await store.close();
  }
}

/**
 * The API on a real server without Temporal (reading needs none), over that workspace read by
 * the quickstart app; a system key of `acme`, and what stops it.
 */
export async function serveRunVerdicts() {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-run-verdicts-'));
  const sqlitePath = join(dir, 'evalflow.db');
  await recordRunVerdicts(sqlitePath);
  const store = await openStore({ ...app, sqlitePath });
  const api = await buildApi({
    store,
    app,
    temporal: { client: {} as never, taskQueue: 'run-verdicts' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: false,
  });
  const url = await api.listen({ host: '127.0.0.1', port: 0 });
  const { key } = await issueCredential(store, {
    kind: 'key',
    workspaceId: 'acme',
    principal: { kind: 'system' },
  });
  return {
    url,
    key,
    async close() {
      await api.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
