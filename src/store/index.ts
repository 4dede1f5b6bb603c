// The store's public surface: the port, its two adapters and the helpers around them. It loads
// better-sqlite3 and pg, so it is its own entry point (`evalflow/store`), apart from the pure core.
export type {
  ApiKeyRecord,
  ApiKeys,
  CredentialKind,
  StoredCredential,
} from './api-records/api-keys.js';
export type { IdempotencyRecords, RememberedResponse } from './api-records/idempotency.js';
export type { Backend, Row, Sql } from './backend.js';
export {
  type BudgetChange,
  type BudgetPeriodRef,
  type BudgetStore,
  GLOBAL_SCOPE,
  type PeriodSpend,
  type ReserveOutcome,
  type SettledReservation,
  type StoredBudget,
} from './budgets.js';
export { commandIdOf } from './commands/command-ids.js';
export { envelopeIdFor } from './commands/envelope-ids.js';
export type { StoreOptions } from './create-store.js';
export { createStore } from './create-store.js';
export {
  type SqliteEngineHolder,
  SqliteEngineInUseError,
  StoreError,
  StoreOpenError,
  StoreUnavailableError,
} from './errors.js';
export type { JudgeVersions } from './judge-versions.js';
export type {
  EvaluationEntry,
  EvaluationFilter,
  EvaluationState,
  Ledger,
  ScoreEntry,
  ScoreRecord,
  ScoreState,
  UndeliveredEntry,
  VerdictSettlement,
} from './ledger.js';
export type { OpenStoreOptions } from './open-store.js';
export {
  DEFAULT_SQLITE_PATH,
  openPostgresStore,
  openSqliteStore,
  openStore,
} from './open-store.js';
export type {
  ApiRecords,
  ArtifactAtVersion,
  ArtifactVersionIndex,
  Command,
  Commands,
  ConversationMessage,
  CursorBacklog,
  EntityReads,
  EvaluationRecords,
  EventLog,
  ExecuteInput,
  ExecuteOptions,
  FeedbackFilter,
  Lease,
  Leases,
  Outcome,
  ReadEventsOptions,
  RuleReads,
  RunWithConversation,
  ScoreConfigDirectory,
  Store,
  StoreIdentity,
  SubscribeOptions,
  Subscription,
  TargetIndexes,
  ThreadEntry,
  ThreadPageRange,
  TraceInbox,
} from './port.js';
export type { PostgresOptions } from './postgres/backend.js';
export { DEFAULT_OPEN_TIMEOUT_MS } from './postgres/backend.js';
export type { ArtifactVersionKey, ArtifactVersionSelector } from './reads/artifact-versions.js';
export {
  type BackfillCountInput,
  type BackfillCounts,
  type BackfillPage,
  type BackfillPageInput,
  type BackfillSelection,
  backfillPage,
  countBackfill,
  type Sample,
} from './reads/backfill-selection.js';
export {
  type BackfillCursor,
  type BackfillKind,
  type BackfillRow,
  type BackfillSelector,
  backfillKinds,
  selectorTargetsProblem,
} from './reads/backfill-targets.js';
export type { RunListKey, RunListOptions, ThreadListOptions } from './reads/lists.js';
export { reviewItemId } from './review-queues/item.js';
export type {
  ClaimedItem,
  Completion,
  EnqueueCounts,
  EnqueuedItem,
  HeldSlot,
  QueueCounts,
  ReviewerCounts,
  ReviewerLeases,
  ReviewItem,
  ReviewItemWithSlots,
  ReviewQueueDefinitions,
  ReviewQueueFilling,
  ReviewQueueReads,
  ReviewQueueStore,
  ReviewSlot,
  ReviewTargetFilter,
} from './review-queues/port.js';
export type { Migration, MigrationStatement } from './schema/migrations.js';
export { migrations } from './schema/migrations.js';
export { staticScoreConfigs } from './score-configs.js';
export {
  engineLockPath,
  holdSqliteEngineLock,
  type SqliteEngineLock,
} from './sqlite/engine-lock.js';
export type { DueTrace, TraceBatch, TraceSignals } from './trace-signals.js';
export type { ReceivedSpan, TraceSpans } from './trace-spans.js';
export {
  type AttemptRecord,
  type EvaluationKeyColumns,
  type EvaluationUsage,
  type MeasuredCost,
  type MeasuredDuration,
  type SpendDimension,
  type SpendFilter,
  type SpendRow,
  spendDimensions,
  type UsageLedger,
  type UsageOnTarget,
  type UsageRecord,
} from './usage.js';
