import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually } from '../support/processes.js';
import { devServerEnvironment } from '../support/temporal.js';

// Threads over HTTP, on the dev server: ending one (its evaluator judges it at once), reading
// it with every generation judged, the summary counting each evaluator's latest verdict, and
// thread rules' idleFor. The rule waits 30 minutes, so nothing here is judged but by an end.

const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'resolution',
    targets: ['thread'],
    schema: z.object({ resolved: z.boolean(), messages: z.int() }),
  }),
  targets: ['thread'],
  source: 'JUDGE',
  async evaluate(subject) {
    if (subject.kind !== 'thread') throw new TypeError(`expected a thread, got a ${subject.kind}`);
    const roles: string[] = [];
    for await (const page of subject.pages()) {
      for (const entry of page) if (entry.kind === 'message') roles.push(entry.message.role);
    }
    return { resolved: roles.at(-1) === 'assistant', messages: roles.length };
  },
});
const app = defineConfig({
  evaluators: [resolution, answerLengthEvaluator()],
  rules: [
    { evaluator: 'resolution@1', idleFor: '30m' },
    { evaluator: 'answer_length@1', targets: ['message'] },
  ],
});

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let system = '';
let agent = '';
let ada = '';
let admin = '';
beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
  const keys = await Promise.all(['system', 'agent', 'user:ada', 'admin'].map((p) => h.key(p)));
  const at = (i: number) => keys[i] ?? '';
  [system, agent, ada, admin] = [at(0), at(1), at(2), at(3)];
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

async function post(threadId: string, role: string, content: string) {
  const reply = await h.call('POST', `/v1/threads/${threadId}/messages`, {
    key: agent,
    body: { role, content },
  });
  expect(reply.status).toBe(201);
}

describe('threads over HTTP', () => {
  it("ends a thread as its agent or the system; again is a 409, another's key a 403, an unknown thread a 404", async () => {
    expect(
      (await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 'e1' } })).status,
    ).toBe(201);
    const ended = await h.call('POST', '/v1/threads/e1/end', { key: agent });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ seq: expect.any(Number), eventIds: [expect.any(String)] });
    const again = await h.call('POST', '/v1/threads/e1/end', { key: system });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      type: 'invalid_state',
      message: 'thread e1 has ended already; a new run or message reopens it',
    });
    expect((await h.call('POST', '/v1/threads/e1/end', { key: ada })).status).toBe(403);
    expect((await h.call('POST', '/v1/threads/nope/end', { key: system })).body).toMatchObject({
      type: 'not_found',
      entity: 'thread',
      id: 'nope',
    });
    // The list says which threads their hosts ended, as GET /v1/threads/{threadId} does.
    const listed = await h.call('GET', '/v1/threads', { key: system });
    expect(listed.body.threads).toContainEqual({
      threadId: 'e1',
      title: null,
      createdAt: expect.any(String),
      endedAt: expect.any(String),
    });
  });

  it('reads a thread with every generation it was judged in, oldest first, and the ledger by thread', async () => {
    expect(
      (await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 'g1' } })).status,
    ).toBe(201);
    await post('g1', 'ROLE_USER', 'Where is my refund?');
    await post('g1', 'ROLE_ASSISTANT', 'On its way.');
    expect((await h.call('POST', '/v1/threads/g1/end', { key: agent })).status).toBe(200);
    const first = await eventually(
      () => h.call('GET', '/v1/threads/g1', { key: system }),
      (reply) => reply.body.evaluations?.length === 1,
    );
    expect(first.body.thread).toEqual({
      threadId: 'g1',
      title: null,
      createdAt: expect.any(String),
      endedAt: expect.any(String),
    });
    // The customer writes again: the thread reopens, and its end judges it a second time.
    await post('g1', 'ROLE_USER', 'It has not arrived.');
    expect((await h.call('GET', '/v1/threads/g1', { key: system })).body.thread.endedAt).toBeNull();
    expect((await h.call('POST', '/v1/threads/g1/end', { key: system })).status).toBe(200);
    const second = await eventually(
      () => h.call('GET', '/v1/threads/g1', { key: system }),
      (reply) => reply.body.evaluations?.length === 2,
    );
    const [one, two] = second.body.evaluations;
    expect([one.generation, two.generation]).toEqual([
      expect.stringMatching(/^thread:\d+$/),
      expect.stringMatching(/^thread:\d+$/),
    ]);
    const seqOf = (generation: string) => Number(generation.split(':')[1]);
    expect(seqOf(one.generation)).toBeLessThan(seqOf(two.generation));
    for (const entry of [one, two]) {
      expect(entry).toMatchObject({
        evaluator: 'resolution@1',
        target: { kind: 'thread', threadId: 'g1' },
        state: 'recorded',
        eventId: expect.any(String),
      });
    }
    const ledger = await h.call('GET', '/v1/ledger?threadId=g1', { key: admin });
    expect(ledger.body.entries.map((e: { generation: string }) => e.generation).sort()).toEqual(
      [one.generation, two.generation].sort(),
    );
    expect((await h.call('GET', '/v1/threads/nope', { key: system })).status).toBe(404);
  });

  it("counts each evaluator's latest verdict on a thread in the summary; the earlier ones stay", async () => {
    // g1 was judged twice (e1 ended with nothing said, so never): both verdicts are kept...
    const verdicts = await h.engine.store.feedback('ws', { feedback_type: 'resolution' });
    expect(verdicts.map((r) => [r.target, r.value])).toEqual([
      [
        { kind: 'thread', thread_id: 'g1' },
        { resolved: true, messages: 2 },
      ],
      [
        { kind: 'thread', thread_id: 'g1' },
        { resolved: false, messages: 3 },
      ],
    ]);
    // ...and the summary counts the current one, the second.
    const summary = await h.call('GET', '/v1/scores/summary?name=resolution.resolved', {
      key: system,
    });
    expect(summary.body.groups).toEqual([
      {
        source: 'SCORE_SOURCE_JUDGE',
        producer: 'resolution@1',
        sourceLabel: null,
        shadow: false,
        name: 'resolution.resolved',
        declared: true,
        comparable: true,
        count: 1,
        mean: 0,
        distribution: { false: 1 },
      },
    ]);
  });

  it("lists a thread rule's idleFor, sets another, and refuses one that is no duration or has no thread", async () => {
    const listed = await h.call('GET', '/v1/evaluation-rules', { key: system });
    expect(
      listed.body.rules.map((r: { evaluator: string; idleFor: string | null }) => [
        r.evaluator,
        r.idleFor,
      ]),
    ).toEqual([
      ['answer_length@1', null],
      ['resolution@1', '30m'],
    ]);
    const set = (body: unknown, evaluator = 'resolution@1') =>
      h.call('PUT', `/v1/evaluation-rules/${evaluator}`, { key: admin, body });
    expect((await set({ targets: ['thread'], idleFor: '2h' })).status).toBe(200);
    const after = await h.call('GET', '/v1/evaluation-rules', { key: admin });
    expect(after.body.rules[1]).toMatchObject({
      evaluator: 'resolution@1',
      idleFor: '2h',
      origin: 'workspace',
    });
    const notADuration = await set({ targets: ['thread'], idleFor: '2 hours' });
    expect(notADuration.status).toBe(422);
    expect(notADuration.body.type).toBe('validation_failed');
    expect(JSON.stringify(notADuration.body)).toContain(
      "a duration is whole numbers with units (ms, s, m, h, d), such as '30m' or '1h30m', not '2 hours'",
    );
    const noThread = await set({ targets: ['message'], idleFor: '2h' }, 'answer_length@1');
    expect(noThread.status).toBe(422);
    expect(noThread.body.message).toBe(
      'answer_length@1: idle_for (idleFor) applies only to rules that target thread, not to message',
    );
    expect((await set({ targets: ['thread'] })).status).toBe(200);
  });
});
