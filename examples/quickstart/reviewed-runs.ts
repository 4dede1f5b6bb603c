// Runs a reviewer has judged, to compare evaluators with: the host of host.ts reports 30 runs
// with assorted answers, and grace gives each run her verdict (the README's rollout uses them).
// Run it beside the engine (`npm start -- --config examples/quickstart/evalflow.config.ts`).
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { type Actor, loadConfig, temporalConnection } from 'evalflow';
import { type Command, openStore } from 'evalflow/store';
import { ReviewClient } from 'evalflow/workflow-clients';
import app from './evalflow.config.js';

/** Answers and grace's verdict on each: she fails the curt ones, however they are worded. */
const answers: [string, 'pass' | 'fail'][] = [
  ['Your refund is on its way. Thank you for your patience!', 'pass'],
  ['Sorry for the wait: your refund was sent today.', 'pass'],
  ['Glad to help: the refund reaches your card within three days.', 'pass'],
  ['Refund sent.', 'fail'],
  ['Read the FAQ.', 'fail'],
  ['Thank you. Not my problem.', 'fail'],
];
const runs = 30;

const config = loadConfig();
const store = await openStore({ ...app, ...config.store });
const connection = await Connection.connect(temporalConnection(config));
const reviews = new ReviewClient(
  new Client({ connection, namespace: config.namespace }),
  store,
  config.taskQueue,
);
const workspace_id = 'quickstart';
const tell = async (actor: Actor, command: Command) => {
  const outcome = await store.execute({ workspace_id, actor, command });
  if (outcome.type !== 'recorded') throw new Error(`${outcome.type}: ${outcome.message}`);
};

const id = randomBytes(4).toString('hex');
for (let n = 0; n < runs; n++) {
  const [content, verdict] = answers[n % answers.length] as [string, 'pass' | 'fail'];
  const [thread_id, run_id] = [`thread-${id}-${n}`, `run-${id}-${n}`];
  const agent: Actor = { kind: 'agent', thread_id };
  await tell({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id });
  await tell(agent, {
    type: 'start_run',
    run_id,
    thread_id,
    trace_id: randomBytes(16).toString('hex'),
  });
  await tell(agent, { type: 'post_message', thread_id, run_id, role: 'assistant', content });
  await tell(agent, { type: 'end_run', run_id, status: 'completed' });
  const review = await reviews.submit(
    workspace_id,
    { kind: 'turn', run_id },
    { id: 'grace' },
    { feedback_type: 'review_verdict', value: { verdict, note: '' } },
  );
  if (review.type !== 'recorded') throw new Error(`${review.type}: ${run_id} was not reviewed`);
}
console.log(`reported and reviewed ${runs} runs in workspace ${workspace_id} (run-${id}-*)`);

await connection.close();
await store.close();
