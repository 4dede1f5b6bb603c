import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRunVerdicts } from '../support/run-verdicts.js';

// A run read back over HTTP with what was judged: the verdicts on its turn, its messages and the
// artifact versions it produced, from evaluators, reviewers and users, each with its value,
// label, source and evaluator version; another run's verdicts in the same thread stay apart.

let served: Awaited<ReturnType<typeof serveRunVerdicts>>;
beforeAll(async () => {
  served = await serveRunVerdicts();
});
afterAll(async () => {
  await served?.close();
});

const read = async <T>(path: string) => {
  const response = await fetch(`${served.url}${path}`, {
    headers: { authorization: `Bearer ${served.key}` },
  });
  return { status: response.status, body: (await response.json()) as T };
};
type RunRead = { verdicts: unknown[]; evaluations: { state: string }[] };

const verdict = (fields: object) => ({
  id: expect.any(String),
  sourceLabel: null,
  updatedAt: expect.any(String),
  ...fields,
});
const answer = { kind: 'message', messageId: 'answer-r1', threadId: 't1', runId: 'r1' };
const turn = { kind: 'turn', runId: 'r1' };

describe('GET /v1/runs/{runId}', () => {
  it("lists the run's verdicts with values, labels, sources and evaluator versions", async () => {
    const { status, body } = await read<RunRead>('/v1/runs/r1');
    expect(status).toBe(200);
    expect(body.verdicts).toEqual([
      verdict({
        feedbackType: 'politeness',
        target: answer,
        value: { polite: true },
        source: 'SCORE_SOURCE_JUDGE',
        rater: 'evaluator:politeness@1',
        evaluator: 'politeness@1',
        label: null,
      }),
      verdict({
        feedbackType: 'refusal',
        target: answer,
        value: { refused: false },
        source: 'SCORE_SOURCE_HARNESS',
        rater: 'evaluator:refusal@1',
        evaluator: 'refusal@1',
        label: null,
      }),
      verdict({
        feedbackType: 'turn_outcome',
        target: turn,
        value: { completed: true, assistant_messages: 1 },
        source: 'SCORE_SOURCE_HARNESS',
        rater: 'evaluator:turn_outcome@1',
        evaluator: 'turn_outcome@1',
        label: null,
      }),
      verdict({
        feedbackType: 'json_validity',
        target: { kind: 'artifact', artifactId: 'invoice-1', version: 1 },
        value: { valid: true, error: null },
        source: 'SCORE_SOURCE_HARNESS',
        rater: 'evaluator:json_validity@1',
        evaluator: 'json_validity@1',
        label: null,
      }),
      verdict({
        feedbackType: 'review_verdict',
        target: turn,
        value: { verdict: 'pass', note: 'kind and right' },
        source: 'SCORE_SOURCE_HUMAN',
        rater: 'reviewer:grace',
        evaluator: null,
        label: 'pass',
      }),
      verdict({
        feedbackType: 'helpfulness',
        target: answer,
        value: { helpful: true, stars: 4 },
        source: 'SCORE_SOURCE_USER',
        rater: 'user:ada',
        evaluator: null,
        label: null,
      }),
    ]);
    // The ledger beside them is unchanged.
    expect(body.evaluations.map((e) => e.state).sort()).toEqual(['recorded', 'sampled_out']);
  });

  it("keeps another run's verdicts in the same thread apart", async () => {
    const { body } = await read<RunRead>('/v1/runs/r2');
    expect(body.verdicts).toEqual([
      verdict({
        feedbackType: 'politeness',
        target: { kind: 'message', messageId: 'answer-r2', threadId: 't1', runId: 'r2' },
        value: { polite: false },
        source: 'SCORE_SOURCE_JUDGE',
        rater: 'evaluator:politeness@1',
        evaluator: 'politeness@1',
        label: null,
      }),
    ]);
  });

  it('documents the verdicts in the OpenAPI document', async () => {
    type Schema = { required: string[]; properties: Record<string, unknown> };
    type Get = { responses: Record<string, { content: Record<string, { schema: Schema }> }> };
    const { body } = await read<{ paths: Record<string, { get: Get }> }>('/openapi.json');
    const reply = body.paths['/v1/runs/{runId}']?.get.responses['200']?.content['application/json']
      ?.schema as Schema;
    expect(reply.required).toContain('verdicts');
    expect(JSON.stringify(reply.properties.verdicts)).toMatch(/"label"/);
  });
});
