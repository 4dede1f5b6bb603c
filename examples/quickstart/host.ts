// A host application: it reports an agent's run, a user rates the answer, a reviewer judges the
// run. evalflow (`npm start -- --config examples/quickstart/evalflow.config.ts`) does the rest:
// evaluators judge the run when it ends, and every piece of feedback becomes a score.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { type Actor, loadConfig, temporalConnection } from 'evalflow';
import { type Command, openStore } from 'evalflow/store';
import { ReviewClient } from 'evalflow/workflow-clients';
import app from './evalflow.config.js';

const config = loadConfig(); // DATABASE_URL or EVALFLOW_SQLITE_PATH, TEMPORAL_ADDRESS, ...
const store = await openStore({ ...app, ...config.store });
const workspace_id = 'quickstart';
// New ids on every run, so this runs any number of times, beside the other examples.
const id = randomBytes(4).toString('hex');
const [thread_id, run_id, message_id] = [`thread-${id}`, `run-${id}`, `answer-${id}`];
const agent: Actor = { kind: 'agent', thread_id };
const user: Actor = { kind: 'user', id: 'ada' };
// Commands are the log's wire shape; the compiler checks each against the core's schemas.
const tell = async (actor: Actor, command: Command) => {
  const outcome = await store.execute({ workspace_id, actor, command });
  if (outcome.type !== 'recorded') throw new Error(`${outcome.type}: ${outcome.message}`);
  return outcome;
};

await tell({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id });
await tell(agent, {
  type: 'start_run',
  run_id,
  thread_id,
  trace_id: randomBytes(16).toString('hex'),
});
await tell(user, { type: 'post_message', thread_id, role: 'user', content: 'Refund?' });
await tell(agent, {
  type: 'post_message',
  thread_id,
  message_id,
  run_id,
  role: 'assistant',
  content: 'Your refund is on its way. Thank you for your patience!',
});
await tell(agent, { type: 'end_run', run_id, status: 'completed' });

// The user's rating: their own, replaced if they rate again.
const rated = await tell(user, {
  type: 'rate_message',
  thread_id,
  message_id,
  feedback_type: 'helpfulness',
  value: { helpful: true, stars: 5 },
});
console.log('rated; raters on the message:', rated.rated_message?.feedback.length);

// The reviewer's verdict goes through the run's review workflow, one action at a time.
// TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TLS and API key, or a temporal.toml profile.
const connection = await Connection.connect(temporalConnection(config));
const reviews = new ReviewClient(
  new Client({ connection, namespace: config.namespace }),
  store, // its id scopes the workflow ids, so reviews reach this store's workflows
  config.taskQueue,
);
const review = await reviews.submit(
  workspace_id,
  { kind: 'turn', run_id },
  { id: 'grace' }, // the reviewer your app authenticated
  { feedback_type: 'review_verdict', value: { verdict: 'pass', note: 'clear and kind' } },
);
console.log('review:', review.type, 'at position', review.position);

await connection.close();
await store.close();

// Where to look once the engine has judged the run.
console.log(`${run_id} in workspace ${workspace_id}: see its verdicts and the scores with
  npx evalflow ledger --workspace ${workspace_id} --run ${run_id}
  npx evalflow scores summary --workspace ${workspace_id} --config examples/quickstart/evalflow.config.ts
  and the engine's .evalflow/scores.jsonl (or Langfuse, when its keys are set)`);
