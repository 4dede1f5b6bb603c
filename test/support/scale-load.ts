import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Store } from '../../src/store/index.js';

// Several worker processes on one Postgres store, under the slow judges' app: for the relay
// lease's Temporal test and `npm run bench:scale` (so nothing here needs vitest).

export const SLOW_JUDGES_CONFIG = fileURLToPath(
  new URL('./slow-judges.config.ts', import.meta.url),
);
/** Evaluations per run of the slow judges' app: three judges of its turn. */
export const EVALUATIONS_PER_RUN = 3;

/** A database of its own on the server of `url`; `drop` removes it (its users gone first). */
export async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `evalflow_scale_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const system = { kind: 'system', name: 'system' };

async function given(store: Store, workspace_id: string, command: object): Promise<number> {
  const outcome = await store.executeUnchecked({ workspace_id, actor: system, command });
  if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  return outcome.events.at(-1)?.seq ?? 0;
}

/** A run's thread, its start and one answer: its workflow starts, and waits for the end. */
export async function startRun(store: Store, workspace: string, run: string): Promise<void> {
  await given(store, workspace, { type: 'create_thread', thread_id: run });
  await given(store, workspace, { type: 'start_run', run_id: run, thread_id: run });
  await given(store, workspace, {
    type: 'post_message',
    thread_id: run,
    message_id: 'a1',
    role: 'assistant',
    content: 'an answer',
    run_id: run,
  });
}

/** Ends a run; returns the seq of its end. */
export const endRun = (store: Store, workspace: string, run: string) =>
  given(store, workspace, { type: 'end_run', run_id: run, status: 'completed' });

/** The worker's environment for one store, one Temporal and one task queue. */
export function workerEnvironment(options: {
  databaseUrl: string;
  temporalAddress: string;
  /** The namespace on that Temporal (default: the default namespace). */
  temporalNamespace?: string;
  taskQueue: string;
  dir: string;
  judgeMs?: number;
  judgeConcurrency?: number;
}): NodeJS.ProcessEnv {
  // Only what a deployment sets: none of the parent's own evalflow settings leak in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(EVALFLOW_|TEMPORAL_|DATABASE_URL$|LANGFUSE_)/.test(name),
    ),
  );
  return {
    ...inherited,
    DATABASE_URL: options.databaseUrl,
    TEMPORAL_ADDRESS: options.temporalAddress,
    ...(options.temporalNamespace && { TEMPORAL_NAMESPACE: options.temporalNamespace }),
    EVALFLOW_TASK_QUEUE: options.taskQueue,
    EVALFLOW_CONFIG: SLOW_JUDGES_CONFIG,
    EVALFLOW_SCORES_FILE: `${options.dir}/scores.jsonl`,
    EVALFLOW_SCORE_CONFIGS_FILE: `${options.dir}/score-configs.jsonl`,
    EVALFLOW_TEST_JUDGE_MS: String(options.judgeMs ?? 200),
    EVALFLOW_TEST_JUDGE_CONCURRENCY: String(options.judgeConcurrency ?? 4),
  };
}
