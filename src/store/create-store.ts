import { v7 as uuidv7 } from 'uuid';
import {
  type EvaluatorCatalog,
  emptyState,
  type FeedbackTypeRegistry,
  isId,
  type Limits,
  resolveLimits,
} from '../core/index.js';
import { createApiKeys } from './api-records/api-keys.js';
import { createIdempotencyRecords } from './api-records/idempotency.js';
import type { Backend, Sql } from './backend.js';
import { createBudgetStore } from './budget-store.js';
import { execute } from './commands/execute.js';
import { WarmWorkspaces } from './commands/warm-workspaces.js';
import { WorkspaceTurns } from './commands/workspace-turns.js';
import { type Coordination, inProcessCoordination } from './coordination.js';
import { createJudgeVersions } from './judge-versions.js';
import { createLedger } from './ledger-store.js';
import type { ExecuteOptions, ScoreConfigDirectory, Store, Subscription } from './port.js';
import { countArtifactVersions, listArtifactVersions } from './reads/artifact-versions.js';
import {
  countBackfillTargets,
  listBackfillTargets,
  recordedTargets,
} from './reads/backfill-targets.js';
import { readRunList, readThreadList } from './reads/lists.js';
import {
  readArtifact,
  readBacklog,
  readConversation,
  readCursor,
  readEvents,
  readFeedback,
  readHead,
  readMessage,
  readRules,
  readRulesAt,
  readRun,
  readThread,
  readThreadPage,
  readThreadRuns,
  readViews,
  writeCursor,
} from './reads/reads.js';
import { follow, followPages, Wakeups } from './reads/subscription.js';
import { createReviewQueueStore } from './review-queues/review-queue-store.js';
import { staticScoreConfigs } from './score-configs.js';
import { createTraceSignals } from './trace-signals.js';
import { createTraceSpans, type TraceSpans } from './trace-spans.js';
import { createUsageLedger } from './usage-ledger.js';

export interface StoreOptions {
  feedbackTypes: FeedbackTypeRegistry;
  /** Where HUMAN feedback's score configs are looked up; by default none exist. */
  scoreConfigs?: ScoreConfigDirectory;
  /** The evaluator versions rules may name; by default none, so no rule can be set. */
  evaluators?: EvaluatorCatalog;
  /** The clock for envelope timestamps (default: the system clock). */
  now?: () => Date;
  /** Ids for envelopes and unnamed messages (default: UUIDv7, time-ordered). */
  newId?: () => string;
  /**
   * The longest pause between a follower's reads for events appended by other processes (default
   * 1000 ms); under load it reads again within 50 ms. On Postgres, while word of other processes'
   * appends arrives (LISTEN/NOTIFY), the pause grows to 5 s at most: the poll is then a fallback.
   */
  pollMs?: number;
  /**
   * Size limits in bytes of UTF-8 (docs/limits.md); each one given replaces its default in
   * `DEFAULT_LIMITS`. An unknown or non-positive limit throws `InvalidLimitsError` here.
   */
  limits?: Partial<Limits>;
}

/** While other processes' appends wake followers, they poll this seldom (see `pollMs`). */
const LISTENING_POLL_MS = 5000;

/**
 * The store's behaviour over any backend; the adapters only supply SQL connections, and on
 * Postgres the `coordination` with other processes (by default none: a single process).
 */
export function createStore(
  backend: Backend,
  options: StoreOptions,
  coordination: Coordination = inProcessCoordination(),
): Store {
  const deps = {
    backend,
    feedbackTypes: options.feedbackTypes,
    evaluators: options.evaluators,
    scoreConfigs: options.scoreConfigs ?? staticScoreConfigs(),
    limits: resolveLimits(options.limits),
    now: options.now ?? (() => new Date()),
    newId: options.newId ?? (() => uuidv7()),
    warm: new WarmWorkspaces(),
    turns: new WorkspaceTurns(),
  };
  const wakeups = new Wakeups();
  const following = new Set<Subscription>();
  const read = backend.read.bind(backend);
  // An id the id rule refuses names nothing, so reading it answers "absent" without asking the
  // database, which could mangle it (a lone surrogate) or refuse it untyped (NUL in Postgres).
  const lookup = <T>(ids: readonly unknown[], absent: T, work: (sql: Sql) => Promise<T>) =>
    ids.every(isId) ? read(work) : Promise.resolve(absent);
  const pollMs = options.pollMs ?? 1000;
  const idlePollMs = () => (coordination.listening ? Math.max(pollMs, LISTENING_POLL_MS) : pollMs);
  const tracked = (subscription: Subscription) => {
    coordination.listen(wakeups);
    following.add(subscription);
    void subscription.done.finally(() => following.delete(subscription)).catch(() => {});
    return subscription;
  };
  const executeAndWake = async (input: unknown, options?: ExecuteOptions) => {
    const outcome = await execute(deps, input, options);
    if (outcome.type === 'recorded' && outcome.events.length > 0) {
      const workspace = outcome.events[0]?.workspace_id as string;
      wakeups.wake(workspace);
      coordination.announce(workspace);
    }
    return outcome;
  };
  const store: Store = {
    id: backend.storeId,
    execute: (input, options) => executeAndWake(input, options),
    executeUnchecked: (input) => executeAndWake(input),
    events: (options) =>
      lookup(
        options.thread_id === undefined
          ? [options.workspace_id]
          : [options.workspace_id, options.thread_id],
        [],
        (sql) => readEvents(sql, options),
      ),
    subscribe: (subscribeOptions, listener) =>
      tracked(follow(store.events, wakeups, idlePollMs, subscribeOptions, listener)),
    subscribePages: (subscribeOptions, listener) =>
      tracked(followPages(store.events, wakeups, idlePollMs, subscribeOptions, listener)),
    head: (workspace_id) => lookup([workspace_id], 0, (sql) => readHead(sql, workspace_id)),
    thread: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], null, (sql) => readThread(sql, workspace_id, thread_id)),
    run: (workspace_id, run_id) =>
      lookup([workspace_id, run_id], null, (sql) => readRun(sql, workspace_id, run_id)),
    threads: (workspace_id, options) =>
      lookup([workspace_id], [], (sql) => readThreadList(sql, workspace_id, options)),
    runs: (workspace_id, options) =>
      lookup([workspace_id], [], (sql) => readRunList(sql, workspace_id, options)),
    artifact: (workspace_id, artifact_id, version) =>
      lookup([workspace_id, artifact_id], null, (sql) =>
        readArtifact(sql, workspace_id, artifact_id, version),
      ),
    message: (workspace_id, thread_id, message_id) =>
      lookup([workspace_id, thread_id, message_id], null, (sql) =>
        readMessage(sql, workspace_id, thread_id, message_id),
      ),
    conversation: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], null, (sql) =>
        readConversation(sql, workspace_id, thread_id),
      ),
    turn: (workspace_id, run_id) =>
      lookup([workspace_id, run_id], null, async (sql) => {
        const run = await readRun(sql, workspace_id, run_id);
        if (run === null) return null;
        return {
          run,
          conversation: (await readConversation(sql, workspace_id, run.thread_id)) ?? [],
        };
      }),
    threadRuns: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], [], (sql) => readThreadRuns(sql, workspace_id, thread_id)),
    threadPage: (workspace_id, thread_id, range) =>
      lookup([workspace_id, thread_id], [], (sql) =>
        readThreadPage(sql, workspace_id, thread_id, range),
      ),
    feedback: (workspace_id, filter) =>
      lookup([workspace_id], [], (sql) => readFeedback(sql, workspace_id, filter)),
    views: (workspace_id) =>
      lookup([workspace_id], emptyState(), (sql) => readViews(sql, workspace_id)),
    rules: (workspace_id) => read((sql) => readRules(sql, workspace_id)),
    rulesAt: (workspace_id, seq) => read((sql) => readRulesAt(sql, workspace_id, seq)),
    cursor: (workspace_id, name) => read((sql) => readCursor(sql, workspace_id, name)),
    saveCursor: (workspace_id, name, seq) =>
      backend.transaction((sql) => writeCursor(sql, workspace_id, name, seq)),
    async workspaces() {
      // A refused command rolls its row back; `last_seq > 0` also passes over any row a store
      // before that left behind.
      const rows = await read((sql) =>
        sql.all('SELECT workspace_id FROM workspaces WHERE last_seq > 0 ORDER BY workspace_id'),
      );
      return rows.map((row) => String(row.workspace_id));
    },
    watchAppends(listener) {
      coordination.listen(wakeups);
      return wakeups.watch(listener);
    },
    get listening() {
      return coordination.listening;
    },
    backlog: (cursor) => read((sql) => readBacklog(sql, cursor)),
    ledger: createLedger(backend, deps.now),
    usage: createUsageLedger(backend, deps.now),
    budgets: createBudgetStore(backend, deps.now),
    apiKeys: createApiKeys(backend, deps.now),
    idempotency: createIdempotencyRecords(backend, deps.now),
    traceSpans: wakingOnEnds(createTraceSpans(backend, deps.now), (workspace) => {
      wakeups.wake(workspace);
      coordination.announce(workspace);
    }),
    traceSignals: createTraceSignals(backend),
    artifactVersions: {
      count: (workspace_id, selector) => countArtifactVersions(backend, workspace_id, selector),
      list: (workspace_id, selector, after, limit) =>
        listArtifactVersions(backend, workspace_id, selector, after, limit),
    },
    backfillTargets: {
      count: (workspace_id, selector) => countBackfillTargets(backend, workspace_id, selector),
      list: (workspace_id, selector, after, limit) =>
        listBackfillTargets(backend, workspace_id, selector, after, limit),
      recorded: (workspace_id, participants, targets) =>
        recordedTargets(backend, workspace_id, participants, targets),
    },
    leases: coordination.leases,
    reviewQueues: createReviewQueueStore(backend),
    judgeVersions: createJudgeVersions(backend),
    // Followers stop first (none reads a closed connection), then the last appends' word goes out.
    async close() {
      await Promise.all([...following].map((subscription) => subscription.close()));
      await coordination.close();
      await backend.close();
    },
  };
  return store;
}

/** Spans whose batches may end a run wake the signaller once they are committed. */
function wakingOnEnds(spans: TraceSpans, wake: (workspace_id: string) => void): TraceSpans {
  return {
    ...spans,
    async put(workspace_id, received, batches) {
      await spans.put(workspace_id, received, batches);
      if (batches.some((batch) => batch.may_end)) wake(workspace_id);
    },
  };
}
