// The host of host.ts, over the HTTP API with EvalflowClient: it reports an agent's run, a user
// rates the answer, a reviewer judges the run. Start evalflow with the quickstart app (`evalflow
// start`, or `evalflow worker` and `evalflow api`) and make two keys:
//   evalflow start --config examples/quickstart/evalflow.config.ts
//   evalflow keys create --workspace quickstart --principal system          (SYSTEM_KEY)
//   evalflow keys create --workspace quickstart --principal reviewer:grace  (REVIEWER_KEY)
// then: EVALFLOW_URL=http://127.0.0.1:8787 SYSTEM_KEY=efk_... REVIEWER_KEY=efk_... npm run example:http
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

await host.createThread({ threadId: 'thread-1' });
await host.startRun('thread-1', { runId: 'run-1', traceId: '0af7651916cd43dd8448eb211c80319c' });
await host.postMessage('thread-1', {
  role: 'ROLE_USER',
  content: 'Where is my refund?',
  runId: 'run-1',
});
const answer = await host.postMessage('thread-1', {
  role: 'ROLE_ASSISTANT',
  content: 'On its way. Thank you!',
  runId: 'run-1',
});
await host.endRun('run-1', { status: 'completed' }); // evaluators judge the run now

// The user rates the answer through a short-lived token acting as them.
const ada = host.withKey((await host.userTokens.create({ userId: 'ada' })).token);
const rated = await ada.rateMessage('thread-1', answer.messageId, {
  feedbackType: 'helpfulness',
  value: { helpful: true, stars: 5 },
});
console.log('rated; raters on the message:', rated.ratedMessage.feedback.length);

// The reviewer's verdict on the whole run, validated against its score config.
const grace = host.withKey(setting('REVIEWER_KEY'));
const review = await grace.reviews.submit({
  target: { kind: 'turn', runId: 'run-1' },
  feedbackType: 'review_verdict',
  value: { verdict: 'pass', note: 'clear and kind' },
  configId: 'review_verdict',
});
console.log('review: recorded at position', review.position);
