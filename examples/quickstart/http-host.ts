// The host of host.ts, over the HTTP API with EvalflowClient: it reports an agent's run, a user
// rates the answer, a reviewer judges the run. Start evalflow with the quickstart app (`evalflow
// start`, or `evalflow worker` and `evalflow api`) and make two keys:
//   npx evalflow start --config examples/quickstart/evalflow.config.ts
//   npx evalflow keys create --workspace quickstart --principal system          (SYSTEM_KEY)
//   npx evalflow keys create --workspace quickstart --principal reviewer:grace  (REVIEWER_KEY)
// then: EVALFLOW_URL=http://127.0.0.1:8787 SYSTEM_KEY=efk_... REVIEWER_KEY=efk_... npm run example:http
import { randomBytes } from 'node:crypto';
import { EvalflowClient } from 'evalflow/client';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}, as the comment at the top of this file says`);
  return value;
}

const host = new EvalflowClient({
  baseUrl: setting('EVALFLOW_URL'),
  apiKey: setting('SYSTEM_KEY'),
});

// New ids on every run, so this runs any number of times, beside the other examples.
const id = randomBytes(4).toString('hex');
const [threadId, runId] = [`thread-${id}`, `run-${id}`];
await host.createThread({ threadId });
await host.startRun(threadId, { runId, traceId: randomBytes(16).toString('hex') });
await host.postMessage(threadId, { role: 'ROLE_USER', content: 'Where is my refund?', runId });
const answer = await host.postMessage(threadId, {
  role: 'ROLE_ASSISTANT',
  content: 'On its way. Thank you!',
  runId,
});
await host.endRun(runId, { status: 'completed' }); // evaluators judge the run now

// The user rates the answer through a short-lived token acting as them.
const ada = host.withKey((await host.userTokens.create({ userId: 'ada' })).token);
const rated = await ada.rateMessage(threadId, answer.messageId, {
  feedbackType: 'helpfulness',
  value: { helpful: true, stars: 5 },
});
console.log('rated; raters on the message:', rated.ratedMessage.feedback.length);

// The reviewer's verdict on the whole run, validated against its score config.
const grace = host.withKey(setting('REVIEWER_KEY'));
const review = await grace.reviews.submit({
  target: { kind: 'turn', runId },
  feedbackType: 'review_verdict',
  value: { verdict: 'pass', note: 'clear and kind' },
  configId: 'review_verdict',
});
console.log('review: recorded at position', review.position);

// Where to look once the engine has judged the run.
console.log(`${runId} in workspace quickstart: see its verdicts and the scores with
  npx evalflow ledger --workspace quickstart --run ${runId}
  npx evalflow scores summary --workspace quickstart --config examples/quickstart/evalflow.config.ts
  and the engine's .evalflow/scores.jsonl (or Langfuse, when its keys are set)`);
