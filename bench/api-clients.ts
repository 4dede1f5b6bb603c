// The HTTP clients of `npm run bench:api`, in a process of their own as clients are: autocannon
// (made for load-testing Node servers; a node:http client cost several times what the server
// spends on a request, and the two share this machine's cores). Each message from the bench
// asks for one chunk of create_thread requests; the reply is its elapsed ms and every latency.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface ChunkRequest {
  /** The route's whole URL: the API's `/v1/threads`, or the bare route's. */
  url: string;
  key: string;
  count: number;
  offset: number;
  connections: number;
}
export interface ChunkReply {
  elapsed: number;
  latencies: number[];
}

process.on('message', async ({ url, key, count, offset, connections }: ChunkRequest) => {
  let next = offset;
  const latencies: number[] = [];
  const started = performance.now();
  // autocannon notices the last answer only at its next once-a-second tick: the chunk ends at
  // the last answer's arrival.
  let last = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url,
        connections,
        amount: count,
        requests: [
          {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            // Each request a new thread, as the baseline's commands are.
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ threadId: `t${next++}` }),
            }),
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    run.on('response', (_client, status, _bytes, responseTime) => {
      if (status !== 201) reject(new Error(`HTTP ${status}`));
      latencies.push(responseTime);
      last = performance.now();
    });
  });
  const elapsed = last - started;
  if (result.errors > 0 || result.non2xx > 0 || latencies.length !== count) {
    throw new Error(`${result.errors} errors, ${result.non2xx} refusals of ${count} requests`);
  }
  process.send?.({ elapsed, latencies } satisfies ChunkReply);
});
process.send?.('ready');
