import { WorkflowNotFoundError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Target } from '../../src/core/index.js';
import { turnOutcomeEvaluator } from '../../src/evaluators/index.js';
import { InvalidRequestError } from '../../src/workflow-clients/errors.js';
import { ReviewClient } from '../../src/workflow-clients/reviews.js';
import type { review } from '../../src/workflows/review.js';
import type { ReviewResult } from '../../src/workflows/review-messages.js';
import { reviewWorkflowId } from '../../src/workflows/review-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import {
  devServerEnvironment,
  recordHistory,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  env = await devServerEnvironment();
  engine = testEngine({ evaluators: [turnOutcomeEvaluator()] });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
});

const target: Target = { kind: 'turn', run_id: 'r' };
const endedRun = (ws: string) =>
  given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    { type: 'end_run', run_id: 'r', status: 'completed' },
  );

type Kind = 'submit' | 'revise' | 'withdraw';
interface Action {
  kind: Kind;
  reviewer: string;
  score: number;
}

/** The review feedback on the target, by reviewer, as a plain comparable value. */
async function reviewState(ws: string) {
  const feedback = await engine.store.feedback(ws, { target, feedback_type: 'review_quality' });
  return Object.fromEntries(feedback.map((f) => [f.participant, f.value]));
}

it('applies 20 concurrent review updates from 5 reviewers as if one at a time, in the order accepted', async () => {
  const ws = 'reviews';
  const taskQueue = uniqueTaskQueue();
  await endedRun(ws);
  // Idle long enough that the updates Temporal asks to retry (it holds at most 10 in flight)
  // still find the workflow running on a loaded machine; it then completes on its own.
  const reviews = new ReviewClient(env.client, engine.store, taskQueue, { idleMs: 8000 });
  const actions: Action[] = [];
  for (let r = 0; r < 5; r++) {
    for (const [i, kind] of (
      ['submit', 'revise', 'revise', r % 2 ? 'withdraw' : 'revise'] as Kind[]
    ).entries()) {
      actions.push({ kind, reviewer: `rv${r}`, score: ((r + i) % 5) + 1 });
    }
  }
  const send = (client: ReviewClient, workspace: string, action: Action) =>
    client[action.kind](
      workspace,
      target,
      { id: action.reviewer },
      {
        feedback_type: 'review_quality',
        ...(action.kind === 'withdraw' ? {} : { value: { score: action.score } }),
      },
    );

  const worker = await testWorker(env, taskQueue, engine.activities);
  const results = await worker.runUntil(async () => {
    const all = await Promise.all(actions.map((action) => send(reviews, ws, action)));
    // Idle past its limit, the workflow completes; the next action starts it again.
    const handle = env.client.workflow.getHandle<typeof review>(
      reviewWorkflowId(engine.store.id, ws, target),
    );
    expect(await handle.result()).toEqual({ applied: 20 });
    await recordHistory(handle, 'review');
    const late = await send(reviews, ws, { kind: 'submit', reviewer: 'rv9', score: 3 });
    expect(late).toMatchObject({ type: 'recorded', position: 0 });
    return all;
  });

  // Positions are a permutation of 0..19: every action applied once, one at a time.
  const positions = results.map((r: ReviewResult) => r.position).sort((a, b) => a - b);
  expect(positions).toEqual(Array.from({ length: 20 }, (_, i) => i));
  expect(results.some((r) => r.type !== 'recorded')).toBe(true);

  // Replaying the same actions one by one in that order gives the same results and state.
  const replayWs = 'reviews-replayed';
  await endedRun(replayWs);
  const ordered = actions
    .map((action, i) => ({ action, result: results[i] as ReviewResult }))
    .sort((a, b) => a.result.position - b.result.position);
  for (const [i, { action, result }] of ordered.entries()) {
    const replayed = await engine.activities.applyReview({
      workspaceId: replayWs,
      target,
      kind: action.kind,
      reviewer: { id: action.reviewer },
      feedback_type: 'review_quality',
      value: action.kind === 'withdraw' ? null : { score: action.score },
      requestId: `replay-${i}`,
    });
    expect(replayed.type, `${action.kind} by ${action.reviewer}`).toBe(result.type);
  }
  const { 'reviewer:rv9': _late, ...concurrent } = await reviewState(ws);
  expect(Object.keys(concurrent).length).toBeGreaterThan(0);
  expect(concurrent).toEqual(await reviewState(replayWs));
});

it("takes the reviewer from the verified caller, never from the request's body", async () => {
  const reviews = new ReviewClient(env.client, engine.store, uniqueTaskQueue());
  await expect(
    reviews.submit('ws', target, { id: 'rv1' }, {
      feedback_type: 'review_quality',
      value: { score: 5 },
      reviewer: { id: 'someone-else' },
    } as never),
  ).rejects.toThrow('a review body does not name its reviewer');
});

it('refuses a malformed action before Temporal: no review workflow exists for it afterwards', async () => {
  const ws = 'reviews-refused';
  const taskQueue = uniqueTaskQueue();
  await endedRun(ws);
  const reviews = new ReviewClient(env.client, engine.store, taskQueue, { idleMs: 1500 });
  const body = { feedback_type: 'review_quality', value: { score: 4 } };
  const unknownKind = { kind: 'span', span_id: 's1' } as unknown as Target;
  await expect(reviews.submit(ws, unknownKind, { id: 'rv1' }, body)).rejects.toThrow(
    new InvalidRequestError(
      "a review's target is invalid: kind: Invalid discriminator value. Expected 'artifact' | 'thread' | 'turn' | 'message'",
    ),
  );
  await expect(reviews.submit(ws, target, { id: '' }, body)).rejects.toThrow(
    new InvalidRequestError("a review's verified reviewer is invalid: id: an id cannot be empty"),
  );
  await expect(
    reviews.revise(ws, target, { id: 'rv1' }, { ...body, value: { note: 'n'.repeat(3 << 20) } }),
  ).rejects.toThrow(InvalidRequestError);
  for (const workflowId of [
    `review:${engine.store.id}:${ws}:undefined`,
    reviewWorkflowId(engine.store.id, ws, target),
  ]) {
    await expect(env.client.workflow.getHandle(workflowId).describe()).rejects.toThrow(
      WorkflowNotFoundError,
    );
  }

  // A well-formed action then starts the target's workflow, and it is the only one.
  const worker = await testWorker(env, taskQueue, engine.activities);
  await worker.runUntil(async () => {
    expect(await reviews.submit(ws, target, { id: 'rv1' }, body)).toMatchObject({
      type: 'recorded',
      position: 0,
    });
  });
  const query = `WorkflowId STARTS_WITH "review:${engine.store.id}:${ws}:"`;
  let ids: string[] = [];
  for (const deadline = Date.now() + 10_000; ids.length === 0 && Date.now() < deadline; ) {
    ids = [];
    for await (const execution of env.client.workflow.list({ query }))
      ids.push(execution.workflowId);
    if (ids.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(ids).toEqual([reviewWorkflowId(engine.store.id, ws, target)]);
});
