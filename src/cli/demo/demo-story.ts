import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { WireRule } from '../../wire/entities.js';
import type { LedgerEntry } from '../../wire/ledger-entries.js';
import type { Print } from '../context.js';
import { ProgressReporter, type ProgressStream } from '../presentation/progress-bar.js';
import { DEMO_WORKSPACE } from './demo-app.js';
import type { DemoHttp } from './demo-http.js';

// What the demo does, all of it through the HTTP API with the keys of the people and programs
// involved: agent runs (one paused and resumed, one paused and left until it is abandoned), a
// user's rating replaced and another deleted, a reviewer's submit and revise, a rule switched to a
// new evaluator version, a run after the switch, and a re-evaluation of every invoice version.

export type Keys = Record<'agent' | 'ada' | 'bob' | 'grace' | 'admin' | 'system', string>;
type Rule = z.output<typeof WireRule>;

/** What a run reported, to know how many ledger entries its evaluation settles. */
export interface ReportedRun {
  runId: string;
  answers: number;
  artifactVersions: number;
  /** The rules in force when it started. */
  rules: Rule[];
  /** Left paused: evaluated once the abandon window passes. */
  abandoned: boolean;
}

export interface StoryResult {
  runs: ReportedRun[];
  batchId: string;
}

const trace = (n: number) => n.toString(16).padStart(32, '0');

interface StoryOptions {
  abandonAfterMs: number;
  print: Print;
  stream: ProgressStream;
}

/** Calls the API as one of the cast, with that one's key. */
interface Caller {
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

/** What every chapter of the story takes: the cast's calls, the options, how to report a run. */
interface Story extends StoryOptions {
  as(key: keyof Keys): Caller;
  rulesNow(): Promise<Rule[]>;
  run(runId: string, thread: string, steps: RunSteps): Promise<ReportedRun>;
}

/** What a run does: the question, the answer, invoices; then ended, or paused and left. */
interface RunSteps {
  answer: string;
  invoices?: [string, unknown][];
  pauseFirst?: string;
  leave?: string;
}

export async function runStory(
  http: DemoHttp,
  keys: Keys,
  options: StoryOptions,
): Promise<StoryResult> {
  const as = (key: keyof Keys): Caller => ({
    call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
      http.call<T>(keys[key], method, path, body),
  });
  const rulesNow = async () =>
    (await as('admin').call<{ rules: Rule[] }>('GET', '/v1/evaluation-rules')).rules;
  const cast = { ...options, as, rulesNow };
  const story: Story = { ...cast, run: (...reported) => reportRun(cast, ...reported) };
  const runs = await reportRuns(story);
  await rateAnswers(story);
  await reviewRunOne(story);
  runs.push(await switchInvoiceRule(story));
  options.print('5. Waiting for every run to be evaluated');
  for (const reported of runs) await settled(http, keys.system, reported);
  return { runs, batchId: await reevaluateInvoices(story) };
}

/** A run on a thread, reported by the agent as `steps` say, and the line that tells it. */
async function reportRun(
  story: Omit<Story, 'run'>,
  runId: string,
  thread: string,
  steps: RunSteps,
): Promise<ReportedRun> {
  const agent = story.as('agent');
  const rules = await story.rulesNow();
  await agent.call('POST', `/v1/threads/${thread}/runs`, { runId, traceId: trace(Date.now()) });
  await agent.call('POST', `/v1/threads/${thread}/messages`, {
    role: 'ROLE_USER',
    content: 'Where is my refund for order 1042?',
    runId,
  });
  const said: string[] = [];
  if (steps.pauseFirst) {
    await agent.call('POST', `/v1/runs/${runId}/pause`, { reason: steps.pauseFirst });
    // Starting a paused run again resumes it.
    const resumed = await agent.call<{ resumed: boolean }>('POST', `/v1/threads/${thread}/runs`, {
      runId,
      traceId: trace(Date.now() + 1),
    });
    said.push(`paused (${steps.pauseFirst}), resumed: ${resumed.resumed}`);
  }
  await agent.call('POST', `/v1/threads/${thread}/messages`, {
    messageId: `${runId}-answer`,
    role: 'ROLE_ASSISTANT',
    content: steps.answer,
    runId,
  });
  for (const [artifactId, data] of steps.invoices ?? []) {
    const put = await agent.call<{ version: number }>('PUT', `/v1/artifacts/${artifactId}`, {
      kind: 'invoice',
      data,
      runId,
    });
    said.push(`${artifactId} v${put.version}`);
  }
  if (steps.leave) {
    await agent.call('POST', `/v1/runs/${runId}/pause`, { reason: steps.leave });
    said.push(`paused (${steps.leave}) and left: abandoned after ${story.abandonAfterMs} ms`);
  } else {
    await agent.call('POST', `/v1/runs/${runId}/end`, { status: 'completed' });
    said.push('completed');
  }
  story.print(`  ${runId} on ${thread}: ${said.join(', ')}`);
  return {
    runId,
    answers: 1,
    artifactVersions: steps.invoices?.length ?? 0,
    rules,
    abandoned: steps.leave !== undefined,
  };
}

async function reportRuns(story: Story): Promise<ReportedRun[]> {
  story.print('1. The agent reports its runs');
  for (const thread of ['support-1', 'support-2']) {
    await story
      .as('agent')
      .call('POST', '/v1/threads', { threadId: thread, title: `Refunds (${thread})` });
  }
  return [
    await story.run('run-1', 'support-1', {
      answer: 'Your refund of 42 EUR is on its way. Thank you for your patience!',
      invoices: [['invoice-1042', { total: 42 }]],
    }),
    await story.run('run-2', 'support-1', {
      pauseFirst: 'waiting for the customer',
      answer:
        'I have checked both orders: the refund for 1042 was sent yesterday, and the one for 2077 is being prepared now.',
      invoices: [
        ['invoice-1042', { total: 42, currency: 'EUR' }],
        ['invoice-2077', { total: -5, currency: 'EUR' }],
      ],
    }),
    await story.run('run-3', 'support-2', {
      answer: 'Let me look into that for you.',
      leave: 'the customer went quiet',
    }),
  ];
}

async function rateAnswers({ as, print }: Story): Promise<void> {
  print('2. Users rate the answers');
  const rating = (runId: string) => `/v1/threads/support-1/messages/${runId}-answer/rating`;
  const rate = async (user: 'ada' | 'bob', runId: string, stars: number) => {
    const answer = await as(user).call<{ isUpdate: boolean }>('PUT', rating(runId), {
      feedbackType: 'helpfulness',
      value: { helpful: stars >= 3, stars },
    });
    return answer.isUpdate;
  };
  const first = await rate('ada', 'run-1', 2);
  const replaced = await rate('ada', 'run-1', 4);
  print(
    `  ada rates run-1's answer 2 stars (isUpdate ${first}), then 4 (isUpdate ${replaced}: replaced)`,
  );
  await rate('ada', 'run-2', 3);
  const deleted = await as('ada').call<{ removed?: boolean }>(
    'DELETE',
    `${rating('run-2')}?feedbackType=helpfulness`,
  );
  print(
    `  ada rates run-2's answer 3 stars, then deletes the rating (removed ${deleted.removed ?? false})`,
  );
  await rate('bob', 'run-1', 5);
  print("  bob rates run-1's answer 5 stars; ada's rating stays");
}

async function reviewRunOne({ as, print }: Story): Promise<void> {
  print('3. A reviewer judges run-1');
  const review = (action: 'submit' | 'revise', verdict: 'pass' | 'fail', note: string) =>
    as('grace').call<{ position: number; isUpdate: boolean }>('POST', '/v1/reviews', {
      action,
      target: { kind: 'turn', runId: 'run-1' },
      feedbackType: 'review_verdict',
      value: { verdict, note },
      configId: 'review_verdict',
    });
  const submitted = await review('submit', 'fail', 'the invoice has no currency');
  const revised = await review('revise', 'pass', 'the answer names the currency');
  print(
    `  grace submits fail (position ${submitted.position}), then revises to pass ` +
      `(position ${revised.position}, isUpdate ${revised.isUpdate})`,
  );
}

/** Switches the invoices' rule to the new version, and reports a run under it. */
async function switchInvoiceRule(story: Story): Promise<ReportedRun> {
  story.print('4. The rule for invoices switches to artifact_schema@2');
  const admin = story.as('admin');
  await admin.call('PUT', '/v1/evaluation-rules/artifact_schema@2', { targets: ['artifact'] });
  await admin.call('PUT', '/v1/evaluation-rules/artifact_schema@1', {
    targets: ['artifact'],
    enabled: false,
  });
  const switched = await story.rulesNow();
  for (const rule of switched.filter((r) => r.evaluator.startsWith('artifact_schema@'))) {
    story.print(
      `  ${rule.evaluator}: ${rule.enabled ? 'enabled' : 'disabled'} (origin ${rule.origin})`,
    );
  }
  return story.run('run-4', 'support-1', {
    answer: 'Both refunds are on their way.',
    invoices: [
      ['invoice-2077', { total: 5, currency: 'EUR' }],
      ['invoice-3001', { total: 99, currency: 'USD' }],
    ],
  });
}

/** Judges every invoice version again with the new version, showing the batch's progress. */
async function reevaluateInvoices({ as, print, stream }: Story): Promise<string> {
  print('6. Every invoice version judged again with artifact_schema@2');
  const system = as('system');
  const { id: batchId } = await system.call<{ id: string }>('POST', '/v1/reevaluations', {
    selector: { kind: 'invoice' },
    evaluators: ['artifact_schema@2'],
  });
  const reporter = new ProgressReporter(stream, `  batch ${batchId}`);
  const deadline = Date.now() + 45_000;
  for (;;) {
    const progress = await system.call<Progress>('GET', `/v1/reevaluations/${batchId}`);
    const complete = progress.total > 0 && progress.done >= progress.total;
    if (complete) {
      reporter.finish(progress);
      return batchId;
    }
    reporter.update(progress);
    if (Date.now() > deadline) throw new Error(`batch ${batchId} did not complete within 45 s`);
    await sleep(200);
  }
}

interface Progress {
  total: number;
  done: number;
  failed: number;
  paused: boolean;
  cancelled: boolean;
}

/** How many ledger entries a run's evaluation settles: every live rule × its targets in the run. */
function expectedEntries(run: ReportedRun): number {
  let count = 0;
  for (const rule of run.rules) {
    if (!rule.enabled || rule.sampleRate === 0) continue;
    if (rule.targets.includes('turn')) count += 1;
    if (rule.targets.includes('message')) count += run.answers;
    if (rule.targets.includes('artifact')) count += run.artifactVersions;
  }
  return count;
}

/** Waits until the run's evaluation has settled every entry it will (at most 45 s). */
async function settled(http: DemoHttp, key: string, run: ReportedRun): Promise<void> {
  const expected = expectedEntries(run);
  const deadline = Date.now() + 45_000;
  for (;;) {
    const { evaluations } = await http.call<{ evaluations: LedgerEntry[] }>(
      key,
      'GET',
      `/v1/runs/${run.runId}`,
    );
    if (evaluations.length >= expected) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${run.runId} in workspace ${DEMO_WORKSPACE} settled ${evaluations.length} of ${expected} evaluations within 45 s`,
      );
    }
    await sleep(200);
  }
}
