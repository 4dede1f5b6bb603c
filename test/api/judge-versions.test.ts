import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, buildApi, issueCredential, type Principal } from '../../src/api/index.js';
import { EvalflowApiError, EvalflowClient } from '../../src/client/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';
import tuningApp from '../cli/fixtures/tuning.config.js';

// GET /v1/judge-versions on a real server (no route here reaches Temporal), through the HTTP
// client: the app's LLM judge declared in code, beside the versions recorded in the key's
// workspace and in no other.

let api: Api;
let store: Store;
let url: string;
const client = async (workspaceId: string, principal: Principal) =>
  new EvalflowClient({
    baseUrl: url,
    apiKey: (await issueCredential(store, { kind: 'key', workspaceId, principal })).key,
  });

beforeAll(async () => {
  store = openSqliteStore(':memory:', tuningApp);
  api = await buildApi({
    store,
    app: tuningApp,
    temporal: { client: {} as never, taskQueue: 'unused' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: false,
  });
  url = await api.listen({ host: '127.0.0.1', port: 0 });
  const outcome = await store.executeUnchecked({
    workspace_id: 'acme',
    actor: { kind: 'system', name: 'cli' },
    command: {
      type: 'record_judge_version',
      judge_version: {
        judge: 'llm_judge',
        version: 'tuned-1',
        rubric: 'Is the answer right? Fail what the reviewers fail.',
        model: 'judge-model',
        feedbackType: 'judge_verdict',
        examples: [
          {
            target: { kind: 'message', thread_id: 't', message_id: 'm1', run_id: null },
            text: 'assistant: answer 1',
            expectedVerdict: { score: 0, passed: false },
            reviewersLabel: 'false',
            judgeLabel: 'true',
            reviewers: [{ raterId: 'reviewer:ana', label: 'false', note: null }],
          },
        ],
        tunedFrom: '1',
        heldOut: [
          { kind: 'message', thread_id: 't', message_id: 'm2', run_id: null },
          { kind: 'message', thread_id: 't', message_id: 'm3', run_id: null },
        ],
      },
    },
  });
  if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

describe('GET /v1/judge-versions', () => {
  it('lists the judge declared in code, then the versions recorded in the workspace', async () => {
    const reviewer = await client('acme', { kind: 'reviewer', id: 'ana' });
    const { versions } = await reviewer.judgeVersions.list();
    expect(versions).toEqual([
      {
        id: 'llm_judge@1',
        source: 'declared',
        model: 'judge-model',
        feedbackType: 'judge_verdict',
        tunedFrom: null,
        examples: 0,
        heldOut: 0,
        recordedAt: null,
      },
      {
        id: 'llm_judge@tuned-1',
        source: 'recorded',
        model: 'judge-model',
        feedbackType: 'judge_verdict',
        tunedFrom: 'llm_judge@1',
        examples: 1,
        heldOut: 2,
        recordedAt: expect.any(String),
      },
    ]);
  });

  it('shows another workspace only what the app declares', async () => {
    const other = await client('elsewhere', { kind: 'system' });
    expect((await other.judgeVersions.list()).versions.map((v) => v.id)).toEqual(['llm_judge@1']);
  });

  it('reads one recorded version whole, and answers 404 for one declared in code or recorded elsewhere', async () => {
    const reviewer = await client('acme', { kind: 'reviewer', id: 'ana' });
    expect(await reviewer.judgeVersions.get('llm_judge@tuned-1')).toEqual({
      id: 'llm_judge@tuned-1',
      model: 'judge-model',
      feedbackType: 'judge_verdict',
      tunedFrom: 'llm_judge@1',
      rubric: 'Is the answer right? Fail what the reviewers fail.',
      recordedBy: 'system:cli',
      recordedAt: expect.any(String),
      examples: [
        {
          target: 'message:t/m1',
          text: 'assistant: answer 1',
          reviewersLabel: 'false',
          judgeLabel: 'true',
          reviewers: [{ raterId: 'reviewer:ana', label: 'false', note: null }],
        },
      ],
      heldOut: ['message:t/m2', 'message:t/m3'],
    });
    const other = await client('elsewhere', { kind: 'system' });
    for (const [reader, version] of [
      [reviewer, 'llm_judge@1'],
      [other, 'llm_judge@tuned-1'],
    ] as const) {
      const refused = await reader.judgeVersions.get(version).catch((error: unknown) => error);
      expect([(refused as EvalflowApiError).status, (refused as EvalflowApiError).message]).toEqual(
        [404, `judge version ${version} does not exist`],
      );
    }
  });

  it('refuses a request without a key, typed', async () => {
    const anonymous = new EvalflowClient({ baseUrl: url, apiKey: 'efk_wrong' });
    const refused = await anonymous.judgeVersions.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EvalflowApiError);
    expect((refused as EvalflowApiError).status).toBe(401);
  });
});

describe('GET /v1/judge-versions/{version}/backtest', () => {
  // On the two held-out messages the reviewers fail m2 and pass m3; the base passes both, the
  // candidate agrees with the reviewers.
  beforeAll(async () => {
    const run = async (actor: object, command: object) => {
      const outcome = await store.executeUnchecked({ workspace_id: 'acme', actor, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    };
    await run({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id: 't' });
    const verdicts: [string, boolean, boolean][] = [
      ['m2', true, false],
      ['m3', true, true],
    ];
    for (const [message_id, base, right] of verdicts) {
      const target = { kind: 'message', thread_id: 't', message_id, run_id: null };
      await run(
        { kind: 'system', name: 'host' },
        { type: 'post_message', thread_id: 't', message_id, role: 'assistant', content: 'a' },
      );
      for (const [version, passed] of [
        ['1', base],
        ['tuned-1', right],
      ] as const) {
        await run(
          { kind: 'evaluator', name: 'llm_judge', version },
          {
            type: 'give_feedback',
            feedback_type: 'judge_verdict',
            target,
            value: { score: passed ? 1 : 0, passed },
          },
        );
      }
      await run(
        { kind: 'reviewer', id: 'ana' },
        { type: 'give_feedback', feedback_type: 'review', target, value: { passed: right } },
      );
    }
  });

  it('compares the candidate with its base on its held-out targets, through the client', async () => {
    const reviewer = await client('acme', { kind: 'reviewer', id: 'ana' });
    const backtest = await reviewer.judgeVersions.backtest('llm_judge@tuned-1', {
      against: 'reviewers:review.passed',
    });
    expect(backtest).toMatchObject({
      workspace: 'acme',
      candidate: 'llm_judge@tuned-1',
      base: 'llm_judge@1',
      statistics: {
        targets: 2,
        compared: 2,
        incomplete: [],
        new: { kappa: { value: 1 } },
        mcnemar: { test: 'exact_binomial', b: 0, c: 1 },
        changed: [
          {
            target: 'message:t/m2',
            reviewers: 'false',
            old: 'true',
            new: 'false',
            oldRight: false,
            newRight: true,
          },
        ],
      },
    });
  });

  it('refuses a promotion on a backtest of two held-out targets with its evidence, switching no rule', async () => {
    const admin = await client('acme', { kind: 'admin' });
    const request = { against: 'reviewers:review.passed', minKappa: 0.5, minMatched: 2 };
    const refused = await admin.evaluationRules
      .promote('llm_judge@tuned-1', { ...request, backtest: true })
      .catch((error: unknown) => error as EvalflowApiError);
    expect(refused).toBeInstanceOf(EvalflowApiError);
    expect((refused as EvalflowApiError).status).toBe(409);
    expect((refused as EvalflowApiError).body).toMatchObject({
      type: 'invalid_state',
      message: expect.stringContaining('the held-out set is too small'),
      evidence: {
        compared: 'llm_judge@tuned-1:passed',
        matched: 2,
        kappa: 1,
        replaced: { compared: 'llm_judge@1:passed', matched: 2 },
        backtest: { heldOut: 2, kappaDifference: 1, differenceInterval: null, mcnemarP: 1 },
      },
    });
    // The config's rule stands alone: nothing was set in the workspace.
    expect((await admin.evaluationRules.list()).rules).toMatchObject([
      { evaluator: 'llm_judge@1', origin: 'config', enabled: true },
    ]);
  });

  it('refuses a version not recorded in the workspace, and a side it cannot read, typed', async () => {
    const reviewer = await client('acme', { kind: 'reviewer', id: 'ana' });
    const refusal = (version: string, against: string) =>
      reviewer.judgeVersions.backtest(version, { against }).then(
        () => {
          throw new Error(`${version} against ${against} was answered`);
        },
        (error: unknown) => error as EvalflowApiError,
      );
    const missing = await refusal('llm_judge@tuned-9', 'reviewers:review.passed');
    expect([missing.status, missing.message]).toEqual([
      404,
      'judge version llm_judge@tuned-9 does not exist',
    ]);
    expect((await refusal('llm_judge@tuned-1', 'reviewers:nope.passed')).status).toBe(422);
  });
});

describe('POST /v1/judge-versions/{version}/tune', () => {
  // In workspace `tuning`, llm_judge@1 passes 20 messages and the reviewer fails the first 8.
  beforeAll(async () => {
    const run = async (actor: object, command: object) => {
      const outcome = await store.executeUnchecked({ workspace_id: 'tuning', actor, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    };
    const host = { kind: 'system', name: 'host' };
    await run(host, { type: 'create_thread', thread_id: 't' });
    for (let i = 1; i <= 20; i++) {
      const message_id = `m${i}`;
      const target = { kind: 'message', thread_id: 't', message_id, run_id: null };
      await run(host, {
        type: 'post_message',
        thread_id: 't',
        message_id,
        role: 'assistant',
        content: `answer ${i}`,
      });
      await run(
        { kind: 'evaluator', name: 'llm_judge', version: '1' },
        {
          type: 'give_feedback',
          feedback_type: 'judge_verdict',
          target,
          value: { score: 1, passed: true },
        },
      );
      await run(
        { kind: 'reviewer', id: 'ana' },
        { type: 'give_feedback', feedback_type: 'review', target, value: { passed: i > 8 } },
      );
    }
  });

  it('records a candidate from the reviewed targets, through the client', async () => {
    const admin = await client('tuning', { kind: 'admin' });
    const tuned = await admin.judgeVersions.tune('llm_judge@1', {
      against: 'reviewers:review.passed',
    });
    expect(tuned).toMatchObject({
      workspace: 'tuning',
      candidate: 'llm_judge@tuned-1',
      tunedFrom: 'llm_judge@1',
      split: { reviewed: 20, training: 14, heldOut: 6 },
    });
    expect(tuned.examples.length).toBeGreaterThan(0);
    expect(tuned.examples.some((example) => example.reviewersLabel === 'false')).toBe(true);
    const [recorded] = await store.judgeVersions.list('tuning');
    expect(recorded).toMatchObject({
      version: 'tuned-1',
      recordedBy: { kind: 'system', name: 'admin' },
      seq: tuned.seq,
    });
  });

  it('refuses too few reviewed targets, a version not deployed and a reviewer, recording nothing', async () => {
    const before = await store.judgeVersions.list('acme');
    const refusal = async (principal: Principal, version: string) =>
      (await client('acme', principal)).judgeVersions
        .tune(version, { against: 'reviewers:review.passed' })
        .then(
          () => {
            throw new Error(`${version} was tuned`);
          },
          (error: unknown) => error as EvalflowApiError,
        );
    const few = await refusal({ kind: 'admin' }, 'llm_judge@1');
    expect([few.status, few.body]).toMatchObject([422, { type: 'validation_failed' }]);
    expect((await refusal({ kind: 'admin' }, 'llm_judge@9')).status).toBe(404);
    expect((await refusal({ kind: 'reviewer', id: 'ana' }, 'llm_judge@1')).status).toBe(403);
    expect(await store.judgeVersions.list('acme')).toEqual(before);
  });
});
