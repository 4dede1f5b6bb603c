import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';
import type { Store } from '../../src/store/index.js';
import { graceVerdicts, stored, userRatings, warmth } from './verdict-data.js';

// The app and the storing of verdict-data.ts's verdicts, for the evidence tests, the API's and
// the page's.

export const politeness = defineFeedbackType({
  name: 'politeness',
  targets: ['message', 'turn'],
  configName: 'politeness',
  schema: z.object({ polite: z.boolean(), warmth: z.int().min(1).max(5).optional() }),
});
export const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['message', 'turn'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']) }),
});
export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});
const version = (v: string) =>
  defineEvaluator({
    name: 'politeness',
    version: v,
    feedbackType: politeness,
    targets: ['message', 'turn'],
    source: 'JUDGE',
    evaluate: () => ({ polite: true }),
  });

/** The app: politeness@1 live, @2 in shadow, and a queue for a second look at messages. */
export const judgesApp = defineConfig({
  feedbackTypes: [reviewVerdict, helpfulness],
  evaluators: [version('1'), version('2')],
  rules: [{ evaluator: 'politeness@1' }, { evaluator: 'politeness@2', mode: 'shadow' }],
  scoreConfigs: { politeness: { source: 'HUMAN' }, review_verdict: { source: 'HUMAN' } },
  // Where disagreements go: reviewers judge politeness on messages again.
  reviewQueues: [
    {
      queueId: 'second-look',
      feedbackType: politeness,
      targetKinds: ['message'],
      instructions: 'A judge and the reviewers disagreed here. Is the answer polite?',
    },
  ],
});

export const clockStart = Date.parse('2026-05-01T08:00:00Z');
export const DAY = 86_400_000;

/**
 * Stores the dataset in `workspace`: on day 0 the thread and run; on day 1 the verdicts on
 * m1-m6, on day 2 those on m7-m12 (m12's second generation two days later); reviews a day after
 * the first verdicts they follow; grace's review_verdict on m1-m6 on day 2. On day 5 a turn gets
 * one verdict and one review (a slice by target kind leaves them out), and three users rate
 * m1-m3. `setClock` moves the store's clock.
 */
export async function storeVerdicts(
  store: Store,
  workspace: string,
  setClock: (ms: number) => void,
): Promise<void> {
  const run = async (actor: object, command: object) => {
    const outcome = await store.executeUnchecked({ workspace_id: workspace, actor, command });
    if (outcome.type !== 'recorded') {
      throw new Error(`${JSON.stringify(command)}: ${JSON.stringify(outcome)}`);
    }
  };
  const system = { kind: 'system', name: 'host' };
  const judge = (v: string) => ({ kind: 'evaluator', name: 'politeness', version: v });
  const reviewer = (id: string) => ({ kind: 'reviewer', id });
  const message = (i: number) => ({
    kind: 'message',
    thread_id: 't',
    message_id: `m${i + 1}`,
    run_id: 'r',
  });
  const give = (target: object, value: object, feedback_type = 'politeness') => ({
    type: 'give_feedback',
    feedback_type,
    target,
    value,
  });
  setClock(clockStart);
  await run(system, { type: 'create_thread', thread_id: 't' });
  await run(system, { type: 'start_run', run_id: 'r', thread_id: 't' });
  for (const [i] of stored.entries()) {
    await run(system, {
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i + 1}`,
      role: 'assistant',
      content: `answer ${i + 1}`,
      run_id: 'r',
    });
  }
  // Each write at its moment, then all of them in time order: the log's ts never goes back.
  const writes: [number, object, object][] = [];
  for (const [i, [v1, v2, ...reviews]] of stored.entries()) {
    const day = i < 6 ? 1 : 2;
    const at = (d: number) => clockStart + d * DAY + i * 1000;
    if (v1 !== null) writes.push([at(day), judge('1'), give(message(i), { polite: v1 })]);
    const warm = warmth[i];
    for (const [generation, polite] of v2.entries()) {
      const value = { polite, ...(warm ? { warmth: warm[0] } : {}) };
      writes.push([at(day + 2 * generation), judge('2'), give(message(i), value)]);
    }
    for (const [r, who] of ['grace', 'ada', 'bo'].entries()) {
      const polite = reviews[r];
      if (polite === null || polite === undefined) continue;
      const w = warm?.[r + 1];
      const value = { polite, ...(w !== null && w !== undefined ? { warmth: w } : {}) };
      writes.push([at(day + 1), reviewer(who), give(message(i), value)]);
    }
  }
  const late = clockStart + 5 * DAY;
  for (const [i, verdict] of graceVerdicts.entries()) {
    writes.push([
      clockStart + 2 * DAY + 30_000,
      reviewer('grace'),
      give(message(i), { verdict }, 'review_verdict'),
    ]);
  }
  const turn = { kind: 'turn', run_id: 'r' };
  writes.push([late, judge('2'), give(turn, { polite: false })]);
  writes.push([late, reviewer('grace'), give(turn, { polite: true })]);
  for (const [id, i, helpful] of userRatings) {
    const value = { helpful, stars: helpful ? 5 : 2 };
    writes.push([late, { kind: 'user', id }, give(message(i), value, 'helpfulness')]);
  }
  // A stable sort: writes of one moment keep the order above.
  writes.sort((x, y) => x[0] - y[0]);
  for (const [at, actor, command] of writes) {
    setClock(at);
    await run(actor, command);
  }
}
