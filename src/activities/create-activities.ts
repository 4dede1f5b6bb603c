import type { Budget, FeedbackTypeRegistry, Pricing } from '../core/index.js';
import type { EvaluatorRegistry } from '../evaluators/index.js';
import type { ActivityObservers } from '../metrics/observers.js';
import type { OperationsLog } from '../metrics/operations-log.js';
import type { ScoreReader, ScoreSink } from '../scores/index.js';
import type {
  Commands,
  EntityReads,
  EvaluationRecords,
  EventLog,
  TargetIndexes,
  TraceInbox,
} from '../store/index.js';
import { heartbeating } from './activity-context.js';
import { backfillActivities } from './backfill.js';
import { evaluationActivities } from './evaluation.js';
import { mirrorActivities } from './mirror.js';
import { traceActivities } from './record-trace.js';
import { reviewActivities } from './review.js';
import { threadProgressActivities } from './thread-progress.js';
import type { EvalflowActivities } from './types.js';

/** What the activities work with: the ports, built by the worker (tests hand in their own). */
export interface ActivityDeps {
  /** Every port some activity uses: not the API's records, the rules, review queues, leases or `close`. */
  store: Commands &
    EventLog &
    EntityReads &
    Pick<EvaluationRecords, 'ledger' | 'usage' | 'budgets' | 'judgeVersions'> &
    TargetIndexes &
    Pick<TraceInbox, 'traceSpans'>;
  evaluators: EvaluatorRegistry;
  /** Prices by model, for evaluators' usage reported without a cost. */
  pricing?: Readonly<Pricing>;
  /** The config's budgets; a workspace's own are read from the store. */
  budgets?: readonly Budget[];
  /** Where budget warnings are written (the engine's log). */
  warn?: (line: string) => void;
  /** The clock budgets' periods are read by (default the system's). */
  now?: () => number;
  feedbackTypes: FeedbackTypeRegistry;
  scoreSink: ScoreSink;
  scoreReader: ScoreReader | null;
  /** Recorded on every score's source, to tell tenants apart in one Langfuse project. */
  tenantId?: string;
  /** Told of evaluations settled and judged, and of the mirror's writes (for the metrics). */
  observers?: ActivityObservers;
  /** Told of each evaluation started and finished, and of one a budget holds back. */
  log?: OperationsLog;
}

/** The activities, each heartbeating while it runs (see `heartbeating`). */
export function createActivities(deps: ActivityDeps): EvalflowActivities {
  const activities: EvalflowActivities = {
    ...evaluationActivities({ ...deps, observer: deps.observers?.evaluations }),
    ...reviewActivities(deps),
    ...threadProgressActivities(deps),
    ...mirrorActivities({
      store: deps.store,
      feedbackTypes: deps.feedbackTypes,
      sink: deps.scoreSink,
      reader: deps.scoreReader,
      tenantId: deps.tenantId ?? 'default',
      observer: deps.observers?.mirror,
    }),
    countArtifactVersions: ({ workspaceId, selector }) =>
      deps.store.artifactVersions.count(workspaceId, selector),
    listArtifactVersions: ({ workspaceId, selector, after, limit }) =>
      deps.store.artifactVersions.list(workspaceId, selector, after, limit),
    ...backfillActivities(deps),
    ...traceActivities(deps),
  };
  return Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [name, heartbeating(activity)]),
  ) as unknown as EvalflowActivities;
}
