import { v7 as uuidv7 } from 'uuid';
import {
  type EvaluatorCatalog,
  type FeedbackTypeRegistry,
  type Limits,
  resolveLimits,
} from '../core/index.js';
import { createApiKeys } from './api-records/api-keys.js';
import { createIdempotencyRecords } from './api-records/idempotency.js';
import type { Backend } from './backend.js';
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
import { entityReads } from './reads/entity-reads.js';
import { eventLog } from './reads/event-log.js';
import { readRules, readRulesAt } from './reads/reads.js';
import { Wakeups } from './reads/subscription.js';
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
  // An append's word: this process's followers at once, other processes' through coordination.
  const announce = (workspace_id: string) => {
    wakeups.wake(workspace_id);
    coordination.announce(workspace_id);
  };
  const executeAndAnnounce = async (input: unknown, options?: ExecuteOptions) => {
    const outcome = await execute(deps, input, options);
    const workspace_id = outcome.type === 'recorded' ? outcome.events[0]?.workspace_id : undefined;
    if (workspace_id !== undefined) announce(workspace_id);
    return outcome;
  };
  return {
    id: backend.storeId,
    execute: (input, options) => executeAndAnnounce(input, options),
    executeUnchecked: (input) => executeAndAnnounce(input),
    ...eventLog({ backend, coordination, wakeups, following, pollMs: options.pollMs ?? 1000 }),
    get listening() {
      return coordination.listening;
    },
    ...entityReads(backend),
    rules: (workspace_id) => backend.read((sql) => readRules(sql, workspace_id)),
    rulesAt: (workspace_id, seq) => backend.read((sql) => readRulesAt(sql, workspace_id, seq)),
    ...records(backend, deps.now, announce),
    leases: coordination.leases,
    // Followers stop first (none reads a closed connection), then the last appends' word goes out.
    async close() {
      await Promise.all([...following].map((subscription) => subscription.close()));
      await coordination.close();
      await backend.close();
    },
  };
}

/** The store's tables beside the log: ledgers, budgets, the API's records, spans, queues. */
function records(backend: Backend, now: () => Date, announce: (workspace_id: string) => void) {
  return {
    ledger: createLedger(backend, now),
    usage: createUsageLedger(backend, now),
    budgets: createBudgetStore(backend, now),
    apiKeys: createApiKeys(backend, now),
    idempotency: createIdempotencyRecords(backend, now),
    traceSpans: wakingOnEnds(createTraceSpans(backend, now), announce),
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
    reviewQueues: createReviewQueueStore(backend),
    judgeVersions: createJudgeVersions(backend),
  } satisfies Partial<Store>;
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
