import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import { preparePromotion, prepareTuning } from '../../src/evidence/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import tuningApp from '../cli/fixtures/tuning.config.js';
import { messageOfT, range, tunedVersion } from '../support/judge-versions.js';

// Versions recorded as tuned, over a real SQLite store: promoted on a backtest, and tuned again.
// The reviewers fail m1-m8 of 16 messages, llm_judge@1 passes them all. Three versions are
// recorded as tuned from it, each with m1 as its example: tuned-good agrees with the reviewers
// on 11 of its 12 held-out targets (m5-m16) and on m1, tuned-same answers as its base does on
// the same 12, tuned-small holds out only m5-m9.

const ws = 'acme';
const app = { ...tuningApp, rules: [] };
const system = { kind: 'system', name: 'admin' } as const;
const message = messageOfT;
const reviewersPass = (i: number) => i > 8;
const judgedBy: Record<string, (i: number) => boolean> = {
  '1': () => true,
  'tuned-good': (i) => reviewersPass(i) && i !== 16,
  'tuned-same': () => true,
  'tuned-small': reviewersPass,
};
const heldOutOf: Record<string, number[]> = {
  'tuned-good': range(5, 16),
  'tuned-same': range(5, 16),
  'tuned-small': range(5, 9),
};

let store: Store;
const run = async (actor: object, command: object) => {
  const outcome = await store.executeUnchecked({ workspace_id: ws, actor, command });
  if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
};

beforeAll(async () => {
  store = openSqliteStore(':memory:', tuningApp);
  await run(system, { type: 'create_thread', thread_id: 't' });
  for (const i of range(1, 16)) {
    await run(system, {
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i}`,
      role: 'assistant',
      content: `answer ${i}`,
    });
    await run(
      { kind: 'reviewer', id: 'ana' },
      {
        type: 'give_feedback',
        feedback_type: 'review',
        target: message(i),
        value: { passed: reviewersPass(i) },
      },
    );
  }
  for (const [version, heldOut] of Object.entries(heldOutOf)) {
    await run(system, {
      type: 'record_judge_version',
      judge_version: tunedVersion({ version, heldOut: heldOut.map(message) }),
    });
  }
  const judgedTargets: Record<string, number[] | undefined> = {
    ...heldOutOf,
    'tuned-good': [1, ...range(5, 16)],
  };
  for (const [version, passes] of Object.entries(judgedBy)) {
    for (const i of judgedTargets[version] ?? range(1, 16)) {
      await run(
        { kind: 'evaluator', name: 'llm_judge', version },
        {
          type: 'give_feedback',
          feedback_type: 'judge_verdict',
          target: message(i),
          value: { score: passes(i) ? 1 : 0, passed: passes(i) },
        },
      );
    }
  }
});
afterAll(() => store.close());

const backtest = (version: string, changes: object = {}) =>
  preparePromotion(store, app, {
    workspaceId: ws,
    evaluator: `llm_judge@${version}`,
    against: 'reviewers:review.passed',
    minKappa: 0.6,
    minMatched: 5,
    backtest: true,
    ...changes,
  });
const promoteOn = async (version: string, changes: object = {}) => {
  const { command } = await backtest(version, changes);
  return store.execute({ workspace_id: ws, actor: system, command });
};

describe('a promotion on a backtest', () => {
  it('is refused, changing nothing, when tuning gained nothing or the held-out set gives no interval', async () => {
    const head = await store.head(ws);
    expect(await promoteOn('tuned-same')).toMatchObject({
      type: 'invalid_state',
      message: expect.stringMatching(
        /^llm_judge@tuned-same was not promoted: the evidence is short \(κ 0\.000 is below 0\.6; no gain over llm_judge@1:passed: κ difference 0\.000\): κ 0\.000 \(95 % interval 0\.000–0\.000\) over 12 matched targets against reviewers:review\.passed on its 12 held-out targets, as of seq \d+$/,
      ),
    });
    expect(await promoteOn('tuned-small')).toMatchObject({
      type: 'invalid_state',
      message: expect.stringContaining(
        '(the held-out set is too small: 5 compared targets give κ no interval)',
      ),
    });
    expect(await store.head(ws)).toBe(head);
  });

  it('refuses, before reading a verdict, a version declared in code, another replaced version and a slice', async () => {
    const refusals = [
      [
        backtest('1'),
        'llm_judge@1 is declared in code, so it has no held-out targets to backtest on: promote it on its agreement',
      ],
      [
        backtest('tuned-good', { replacing: 'llm_judge@tuned-same' }),
        'a backtest compares llm_judge@tuned-good with llm_judge@1, the version it was tuned from: it replaces that one, not llm_judge@tuned-same',
      ],
      [
        backtest('tuned-good', { from: '2026-01-01T00:00:00Z', targetKind: 'message' }),
        "a backtest reads the version's held-out targets, so from, targetKind cannot slice it",
      ],
    ] as const;
    for (const [refused, message] of refusals) {
      await expect(refused).rejects.toMatchObject({
        rejection: { type: 'validation_failed', message },
      });
    }
    await expect(backtest('tuned-9')).rejects.toMatchObject({
      rejection: { type: 'not_found', id: 'llm_judge@tuned-9' },
    });
  });

  it('promotes a tuned version over its base on its held-out targets alone, both versions paired', async () => {
    const { command } = await backtest('tuned-good');
    // The base judged all 16 messages; on the 12 held out it is compared with the version there.
    expect(command).toMatchObject({
      evaluator: 'llm_judge@tuned-good',
      replacing: 'llm_judge@1',
      // It takes over what its base judged.
      rule: { targets: ['artifact', 'message', 'turn'] },
      evidence: {
        compared: 'llm_judge@tuned-good:passed',
        against: 'reviewers:review.passed',
        matched: 12,
        interval: { level: 0.95 },
        replaced: { compared: 'llm_judge@1:passed', matched: 12, kappa: 0 },
        backtest: {
          held_out: 12,
          // Only m16 is wrong now (b = 1), m5-m8 were wrong before (c = 4): 2 · P(X ≤ 1 | 5, ½).
          mcnemar_p: 0.375,
          difference_interval: { level: 0.95 },
        },
      },
    });
    const { kappa, backtest: figures } = command.evidence;
    expect(kappa).toBeCloseTo(0.8235294, 6);
    expect(figures?.kappa_difference).toBe(kappa);
    const outcome = await store.execute({ workspace_id: ws, actor: system, command });
    expect(outcome).toMatchObject({
      type: 'recorded',
      events: [{ event: { type: 'evaluator_promoted', shortfalls: [], forced: false } }],
    });
    expect((await store.rules(ws)).map((rule) => [rule.evaluator, rule.enabled])).toEqual([
      ['llm_judge@1', false],
      ['llm_judge@tuned-good', true],
    ]);
  });
});

describe('a recorded version tuned again', () => {
  it('keeps its rubric, model and examples, first, and splits none of the targets it was taught', async () => {
    const base = await store.judgeVersions.get(ws, 'llm_judge@tuned-good');
    const { command, split, kept } = await prepareTuning(store, app, {
      workspaceId: ws,
      base: 'llm_judge@tuned-good',
      against: 'reviewers:review.passed',
      heldOutShare: 0.5,
      seed: 7,
      by: system,
      now: new Date('2026-12-05T15:00:00Z'),
    });
    const tuned = command.judge_version;
    expect(tuned).toMatchObject({
      judge: 'llm_judge',
      version: 'tuned-1',
      tunedFrom: 'tuned-good',
      rubric: base?.rubric,
      model: base?.model,
      feedbackType: 'judge_verdict',
    });
    expect(kept).toBe(1);
    expect(tuned.examples[0]).toEqual(base?.examples[0]);
    // tuned-good judged m1 and m5-m16; m1 was taught, so 12 targets are split, 6 and 6.
    const splitKeys = [...split.training, ...split.heldOut].map((r) => targetKey(r.target));
    expect(splitKeys.sort()).toEqual(
      range(5, 16)
        .map((i) => targetKey(message(i)))
        .sort(),
    );
    expect(tuned.heldOut).toHaveLength(6);
    expect(tuned.heldOut.map(targetKey)).not.toContain(targetKey(message(1)));
    const outcome = await store.execute({ workspace_id: ws, actor: system, command });
    expect(outcome).toMatchObject({
      type: 'recorded',
      events: [
        { event: { type: 'judge_version_recorded', targets: ['artifact', 'message', 'turn'] } },
      ],
    });
  });

  it('is backtested against the recorded version it was tuned from, which it replaces', async () => {
    // tuned-1 has judged none of its held-out targets yet: the evidence counts none, refused.
    const { command } = await backtest('tuned-1');
    expect(command).toMatchObject({
      replacing: 'llm_judge@tuned-good',
      // It would take over the rule tuned-good holds since its promotion above.
      rule: { targets: ['artifact', 'message', 'turn'] },
      evidence: {
        matched: 0,
        replaced: { compared: 'llm_judge@tuned-good:passed' },
        backtest: { held_out: 6 },
      },
    });
    expect(await store.execute({ workspace_id: ws, actor: system, command })).toMatchObject({
      type: 'invalid_state',
    });
  });
});
