// The reviewers of `npm run bench:queues`, in a process of their own as reviewers' browsers are:
// each message asks for one chunk of verdicts by `keys.length` concurrent reviewers, either
// through the bare review path (POST /v1/reviews, each on a target of `runs`) or through a queue
// (claim, then submit), and the reply is the chunk's elapsed ms, verdicts and each claim's
// latency as the reviewer saw it.
import { performance } from 'node:perf_hooks';

export interface ReviewChunk {
  url: string;
  keys: string[];
  mode: 'review' | 'queue';
  /** How many verdicts the chunk gives. */
  count: number;
  /** `review`: the runs to review, one verdict each. */
  runs?: string[];
  /** `queue`: the queue to claim from. */
  queue?: string;
}
export interface ReviewChunkReply {
  elapsed: number;
  verdicts: number;
  claimLatencies: number[];
}

const verdict = { value: { verdict: 'pass', note: 'benched' }, configId: 'review_verdict' };

async function post(url: string, key: string, body?: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

process.on('message', async (chunk: ReviewChunk) => {
  let given = 0;
  let next = 0;
  const claimLatencies: number[] = [];
  const started = performance.now();
  const reviewer = async (key: string) => {
    while (next < chunk.count) {
      const index = next++;
      if (chunk.mode === 'review') {
        const run = chunk.runs?.[index];
        if (run === undefined) throw new Error(`no run ${index} to review`);
        await post(`${chunk.url}/v1/reviews`, key, {
          action: 'submit',
          target: { kind: 'turn', runId: run },
          feedbackType: 'review_verdict',
          ...verdict,
        });
      } else {
        const at = performance.now();
        const { item } = await post(`${chunk.url}/v1/review-queues/${chunk.queue}/claim`, key);
        claimLatencies.push(performance.now() - at);
        if (item === null) throw new Error('the queue ran out');
        await post(
          `${chunk.url}/v1/review-queues/${chunk.queue}/items/${item.itemId}/submit`,
          key,
          verdict,
        );
      }
      given += 1;
    }
  };
  await Promise.all(chunk.keys.map(reviewer));
  process.send?.({
    elapsed: performance.now() - started,
    verdicts: given,
    claimLatencies,
  } satisfies ReviewChunkReply);
});
process.send?.('ready');
