import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/store/index.js';
import type { LangfuseTestServer } from '../../test/support/langfuse-server/index.js';
import type { Deployment } from './deployment.js';
import { seeded } from './seeded.js';

// Scenario 1: concurrent clients report runs through the HTTP API (a thread, a run, one
// assistant message, the run's end), and the app's three evaluators judge each message, while
// the `evalflow worker` process is SIGKILLed at random moments and started again. Afterwards:
// every run has its three verdicts, no feedback event is there twice (same participant, target
// and type in one generation), no score is at Langfuse twice, and each restart is followed by the
// last verdict of the runs then in flight within the recovery time measured here.

const EVALUATORS = 3;

export interface WorkerKillFigures {
  runs: number;
  kills: number;
  missingVerdicts: number;
  duplicateFeedback: number;
  duplicateScoresById: number;
  duplicateScoresByTarget: number;
  /**
   * Seconds from each restart to the last verdict of the runs in flight then: with a backlog of
   * reported runs, this is the time to drain it, bounded by the machine's throughput.
   */
  recoveries: number[];
  /** Seconds from each restart to the next new verdict: how soon the worker resumes. */
  resumes: number[];
  /** Seconds from the last run reported to its last verdict. */
  drainSeconds: number;
}

export interface WorkerKillOptions {
  runs: number;
  kills: number;
  clients: number;
  langfuse: LangfuseTestServer;
  seed?: number;
  /** How long, after the clients are done, verdicts may take to arrive (default 5 minutes). */
  settleMs?: number;
}

export async function post(url: string, key: string, path: string, body: object): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': createHash('sha256')
            .update(`${path} ${JSON.stringify(body)}`)
            .digest('hex'),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (response.status < 300) return;
      if (response.status < 500 && response.status !== 429) {
        throw new Error(`${path} answered ${response.status}: ${text}`);
      }
    } catch (error) {
      if (error instanceof Error && error.message.includes('answered')) throw error;
    }
    await sleep(100 * Math.min(attempt + 1, 10));
  }
}

export async function killWorkerWhileEvaluating(
  deployment: Deployment,
  options: WorkerKillOptions,
): Promise<WorkerKillFigures> {
  const random = seeded(options.seed ?? 1);
  const key = await deployment.key('agent');
  const reported = new Map<number, number>(); // run -> when its end was acknowledged
  const judged = new Map<number, number>(); // run -> when its last verdict was seen

  // Counts verdicts (final evaluation states in the ledger) per run, every half second.
  let watching = true;
  const verdictsOf = async () => {
    const entries = await deployment.store.ledger.evaluations('ws');
    const perRun = new Map<number, number>();
    for (const entry of entries) {
      const match = /m(\d+)/.exec(entry.target_key);
      if (match) perRun.set(Number(match[1]), (perRun.get(Number(match[1])) ?? 0) + 1);
    }
    return perRun;
  };
  const progress: number[] = []; // when the verdict count was seen to grow
  let total = 0;
  const watcher = (async () => {
    while (watching) {
      const perRun = await verdictsOf();
      const now = Date.now();
      const count = [...perRun.values()].reduce((sum, n) => sum + n, 0);
      if (count > total) progress.push(now);
      total = count;
      for (const [run, count] of perRun) {
        if (count >= EVALUATORS && !judged.has(run)) judged.set(run, now);
      }
      await sleep(500);
    }
  })();

  let next = 0;
  const clients = Array.from({ length: options.clients }, async () => {
    for (;;) {
      const i = next++;
      if (i >= options.runs) return;
      await post(deployment.url, key, '/v1/threads', { threadId: `t${i}` });
      await post(deployment.url, key, `/v1/threads/t${i}/runs`, {
        runId: `r${i}`,
        traceId: i.toString(16).padStart(32, '0'),
      });
      await post(deployment.url, key, `/v1/threads/t${i}/messages`, {
        messageId: `m${i}`,
        role: 'ROLE_ASSISTANT',
        content: i % 2 === 0 ? 'Thank you for asking.' : 'x'.repeat(i % 200),
        runId: `r${i}`,
      });
      await post(deployment.url, key, `/v1/runs/r${i}/end`, { status: 'completed' });
      reported.set(i, Date.now());
    }
  });
  const writing = Promise.all(clients);

  // Kills at random moments: some soon after a start (while it connects and catches up), most
  // later (mid-activity), after 5 to 20 s: a worker killed every few seconds never gets past
  // its first workflow tasks (each waits 3 s for the dead worker's sticky queue).
  const restarts: { at: number; inFlight: number[] }[] = [];
  for (let kill = 0; kill < options.kills; kill++) {
    await sleep(random() < 0.3 ? random() * 300 : 5000 + random() * 15_000);
    await deployment.kill('worker');
    await deployment.restart('worker');
    const at = Date.now();
    restarts.push({ at, inFlight: [...reported.keys()].filter((run) => !judged.has(run)) });
  }
  await writing;
  const lastReported = Date.now();
  const deadline = Date.now() + (options.settleMs ?? 300_000);
  while (judged.size < options.runs && Date.now() < deadline) await sleep(500);
  watching = false;
  await watcher;

  const perRun = await verdictsOf();
  const missingVerdicts = Array.from({ length: options.runs }, (_, i) => i).filter(
    (i) => (perRun.get(i) ?? 0) < EVALUATORS,
  ).length;

  const duplicateFeedback = await countDuplicateFeedback(deployment.store, 'ws');
  const duplicateScores = await countDuplicateScores(options.langfuse);
  const recoveries = restarts.map(({ at, inFlight }) => {
    const last = Math.max(
      at,
      ...inFlight.map((run) => judged.get(run) ?? Number.POSITIVE_INFINITY),
    );
    return Number(((last - at) / 1000).toFixed(1));
  });
  const resumes = restarts.map(({ at, inFlight }) => {
    // Nothing left to judge: nothing to resume.
    if (inFlight.length === 0) return 0;
    const next = progress.find((time) => time >= at);
    return next === undefined ? Number.POSITIVE_INFINITY : Number(((next - at) / 1000).toFixed(1));
  });
  const lastJudged = Math.max(0, ...judged.values());
  return {
    runs: options.runs,
    kills: restarts.length,
    missingVerdicts,
    duplicateFeedback,
    duplicateScoresById: duplicateScores.byId,
    duplicateScoresByTarget: duplicateScores.byTarget,
    recoveries,
    resumes,
    drainSeconds: Number((Math.max(0, lastJudged - lastReported) / 1000).toFixed(1)),
  };
}

/** Feedback events there more than once: same participant, target and type in one generation. */
export async function countDuplicateFeedback(store: Store, workspace: string): Promise<number> {
  const events = await store.events({ workspace_id: workspace, limit: 10_000_000 });
  const feedback = new Map<string, number>();
  for (const { event, actor } of events) {
    if (event.type !== 'feedback_given') continue;
    const identity = JSON.stringify([actor, event.target, event.feedback_type]);
    feedback.set(identity, (feedback.get(identity) ?? 0) + 1);
  }
  return [...feedback.values()].filter((n) => n > 1).length;
}

/**
 * Scores at Langfuse more than once, by id and by target + participant + name, once they have
 * settled: the mirror sends the verdicts' scores after them, so this waits until Langfuse has
 * some and no more arrive for a few seconds.
 */
export async function countDuplicateScores(
  langfuse: LangfuseTestServer,
): Promise<{ scores: number; byId: number; byTarget: number }> {
  let seen = -1;
  for (let quiet = 0, waited = 0; quiet < 6 && waited < 240; waited++) {
    await sleep(500);
    const now = langfuse.scores().length;
    quiet = now > 0 && now === seen ? quiet + 1 : 0;
    seen = now;
  }
  const scores = langfuse.scores();
  const byId = new Map<string, number>();
  const byTarget = new Map<string, number>();
  for (const row of scores) {
    byId.set(row.id, (byId.get(row.id) ?? 0) + 1);
    const target = JSON.stringify([
      row.traceId,
      row.observationId,
      row.name,
      row.metadata.evaluator ?? '',
      row.metadata.version ?? '',
    ]);
    byTarget.set(target, (byTarget.get(target) ?? 0) + 1);
  }
  return {
    scores: scores.length,
    byId: [...byId.values()].filter((n) => n > 1).length,
    byTarget: [...byTarget.values()].filter((n) => n > 1).length,
  };
}
