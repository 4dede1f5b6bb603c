import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowClient, type RunVerdict } from '../../src/client/index.js';
import { serveRunVerdicts } from '../support/run-verdicts.js';

// The TypeScript client reads a run back with its verdicts, typed as the API writes them.

let served: Awaited<ReturnType<typeof serveRunVerdicts>>;
beforeAll(async () => {
  served = await serveRunVerdicts();
});
afterAll(async () => {
  await served?.close();
});

describe('EvalflowClient.run', () => {
  it("returns the run's verdicts: values, labels, sources and evaluator versions", async () => {
    const client = new EvalflowClient({ baseUrl: served.url, apiKey: served.key });
    const { verdicts } = await client.run('r1');
    const read = (v: RunVerdict) =>
      `${v.feedbackType} ${v.source} ${v.evaluator ?? v.rater} ${v.label} ${JSON.stringify(v.value)}`;
    expect(verdicts.map(read)).toEqual([
      'politeness SCORE_SOURCE_JUDGE politeness@1 null {"polite":true}',
      'refusal SCORE_SOURCE_HARNESS refusal@1 null {"refused":false}',
      'turn_outcome SCORE_SOURCE_HARNESS turn_outcome@1 null {"completed":true,"assistant_messages":1}',
      'json_validity SCORE_SOURCE_HARNESS json_validity@1 null {"valid":true,"error":null}',
      'review_verdict SCORE_SOURCE_HUMAN reviewer:grace pass {"verdict":"pass","note":"kind and right"}',
      'helpfulness SCORE_SOURCE_USER user:ada null {"helpful":true,"stars":4}',
    ]);
  });
});
