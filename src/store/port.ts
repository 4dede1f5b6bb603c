import type {
  Actor,
  ArtifactVersion,
  CommandInput,
  Envelope,
  EvaluationTarget,
  FeedbackRecord,
  Message,
  Recorded,
  Rejection,
  Run,
  ScoreConfigDirectory,
  ScoreSource,
  StoredEvaluationRule,
  Target,
  TargetKind,
  Thread,
  WorkspaceState,
} from '../core/index.js';
import type { ApiKeys } from './api-records/api-keys.js';
import type { IdempotencyRecords } from './api-records/idempotency.js';
import type { BudgetStore } from './budgets.js';
import type { JudgeVersions } from './judge-versions.js';
import type { EvaluationEntry, Ledger, VerdictSettlement } from './ledger.js';
import type { ArtifactVersionKey, ArtifactVersionSelector } from './reads/artifact-versions.js';
import type { BackfillCursor, BackfillRow, BackfillSelector } from './reads/backfill-targets.js';
import type { RunListOptions, ThreadListOptions } from './reads/lists.js';
import type { ReviewQueueStore } from './review-queues/port.js';
import type { TraceSignals } from './trace-signals.js';
import type { TraceSpans } from './trace-spans.js';
import type { UsageLedger } from './usage.js';

/**
 * A command to execute in a workspace, in the log's wire shape (snake_case, as the core's
 * `Command` schemas take it). The types are the compiler's check on evalflow's own callers; the
 * store still parses the whole input, so input off the wire gets an outcome whatever it holds
 * (`executeUnchecked`).
 */
export interface ExecuteInput {
  workspace_id: string;
  actor: Actor;
  command: Command;
  /**
   * Makes the command idempotent (also accepted as `command.command_id`): executing it again
   * returns the first outcome and appends nothing, and its envelope ids are derived from it
   * (`envelopeIdFor`), so a retried activity records the same feedback identity.
   */
  command_id?: string;
}

/** A command as its schema takes it: fields with a default may be left out. */
export type Command = CommandInput;

/** What executing returns: the events as appended, or the rejection (which changed nothing). */
export type Outcome = Recorded<Envelope> | Rejection;

export interface ReadEventsOptions {
  workspace_id: string;
  /** Only events with a greater seq (default 0: from the start). */
  after?: number;
  /** Only this thread's events: its lifecycle, messages, and feedback on it, its runs and messages. */
  thread_id?: string;
  limit?: number;
}

export interface SubscribeOptions extends Omit<ReadEventsOptions, 'limit'> {}

export interface Subscription {
  /** Stops following; resolves once no listener call is running. */
  close(): Promise<void>;
  /** Settles when the subscription stops: resolved after close(), rejected with a listener's error. */
  readonly done: Promise<void>;
}

/** This process's hold on a named lease (see `Store.leases`). */
export interface Lease {
  readonly name: string;
  /**
   * Settles if the hold ends without `release`: the connection holding it dropped, so another
   * process may hold the lease now. Stop the work it guards.
   */
  readonly lost: Promise<void>;
  /** Gives the lease up; another process may take it at once. */
  release(): Promise<void>;
}

/**
 * Named leases, one holder at a time across every process on the store: work that must run once
 * per store (a workspace's trigger relay) takes one first. On Postgres a lease is an advisory
 * lock held by a connection of its own, so a holder that dies (even by SIGKILL) loses it as soon
 * as the server sees the connection close; on SQLite, which serves one engine process, leases
 * are held within the process.
 */
export interface Leases {
  /** Takes those of `names` that no one holds, at once; returns the leases taken. */
  take(names: readonly string[]): Promise<Lease[]>;
  /**
   * How many of `names` are held right now, by any process on the store (this one included):
   * how the relays of many processes count each other (`followWorkspaces`).
   */
  countHeld(names: readonly string[]): Promise<number>;
}

/** How far a named cursor trails the log, over every workspace (`Store.backlog`). */
export interface CursorBacklog {
  /** Events after the cursor, summed over the workspaces. */
  events: number;
  /** The workspaces with any. */
  workspaces: number;
  /** When the oldest of those events was appended; null when there are none. */
  oldest_ts: string | null;
}

/** An artifact version with its artifact's current state. */
export interface ArtifactAtVersion extends ArtifactVersion {
  current_version: number;
  archived: boolean;
}

/** A conversation entry: the message, and for an assistant message its feedback by source. */
export interface ConversationMessage extends Message {
  feedback?: Partial<Record<ScoreSource, FeedbackRecord[]>>;
}

/** A run and its thread's conversation, as `Store.turn` reads them together. */
export interface RunWithConversation {
  run: Run;
  conversation: ConversationMessage[];
  /** The ledger's entries on the run's turn in the generation asked for (none when not asked). */
  settled: EvaluationEntry[];
}

/** An entry of a thread's conversation, with the seq that orders it in the log. */
export type ThreadEntry =
  | { kind: 'message'; seq: number; message: Message }
  | { kind: 'artifact'; seq: number; artifact: ArtifactVersion };

/** Which page of a thread's conversation: seq after `after`, at most `through`, `limit` entries. */
export interface ThreadPageRange {
  after: number;
  through: number;
  limit: number;
}

export interface FeedbackFilter {
  target?: Target;
  source?: ScoreSource;
  participant?: string;
  thread_id?: string;
  feedback_type?: string;
  /** Only feedback on targets of this kind. */
  target_kind?: TargetKind;
  /** Only feedback last given at or after this instant (ISO-8601), and before `updated_before`. */
  updated_from?: string;
  updated_before?: string;
}

/** What an append does besides the command's own rows, in the same transaction. */
export interface ExecuteOptions {
  /** The evaluation whose verdict the command gives: settled as recorded with its event. */
  settles?: VerdictSettlement;
}

/**
 * Ports: each names the role that uses it, so code doing one job depends only on what it uses.
 * `Store` bundles them all for wiring (opening a store, the engine's and the API's startup).
 */

/** What scopes workflow ids: a `Store`, or its id alone where the store is opened elsewhere. */
export interface StoreIdentity {
  /**
   * The store's identity: a UUID made when its schema was created, the same for every process
   * that opens that database. Workflow ids are scoped by it, so two stores on one Temporal
   * namespace, or a new database beside a kept Temporal state, never share a workflow.
   */
  readonly id: string;
}

/** The command path: decides and appends in one transaction (the API, activities, tools). */
export interface Commands extends StoreIdentity {
  execute(input: ExecuteInput, options?: ExecuteOptions): Promise<Outcome>;
  /**
   * `execute` for input nothing has checked (JSON a host parsed, a conformance case): the same
   * parsing and the same outcome, typed as what it is.
   */
  executeUnchecked(input: unknown): Promise<Outcome>;
}

/** The log and its followers: reads in seq order, subscriptions, cursors, append wake-ups. */
export interface EventLog {
  /** Events in seq order (a page of at most `limit`, default 1000). */
  events(options: ReadEventsOptions): Promise<Envelope[]>;
  /** Replays the events after `after`, then follows new ones, one listener call at a time. */
  subscribe(options: SubscribeOptions, listener: (envelope: Envelope) => unknown): Subscription;
  /**
   * As `subscribe`, a page of at most `limit` events (default 500) per listener call: for
   * followers that do one write per page, not one per event.
   */
  subscribePages(
    options: SubscribeOptions & { limit?: number },
    listener: (page: Envelope[]) => unknown,
  ): Subscription;
  /** The workspace's last seq (0 before its first event). */
  head(workspace_id: string): Promise<number>;
  /** A named cursor's seq (0 when never saved). */
  cursor(workspace_id: string, name: string): Promise<number>;
  /** Moves a named cursor forward; a lower seq leaves it. Returns the cursor's seq afterwards. */
  saveCursor(workspace_id: string, name: string, seq: number): Promise<number>;

  /** Every workspace with at least one event (a refused command creates none). */
  workspaces(): Promise<string[]>;
  /**
   * Calls `listener` with a workspace's id after appends to it: this process's at once, another
   * process's as word of them arrives (on Postgres, LISTEN/NOTIFY, where a store's own word comes
   * back too). Word may come late, twice or not at all, so it is for latency only (a follower of
   * new workspaces still looks for them on a timer). The listener must not throw. Returns what
   * stops it.
   */
  watchAppends(listener: (workspace_id: string) => void): () => void;
  /**
   * Whether word of other processes' appends reaches this store right now (on Postgres, its
   * LISTEN session is up); false on a store no other process shares.
   */
  readonly listening: boolean;
  /** How far the named cursor trails the log over every workspace, in one read. */
  backlog(cursor: string): Promise<CursorBacklog>;
}

/** The views a page or an evaluator reads: entities, conversations, feedback. */
export interface EntityReads {
  thread(workspace_id: string, thread_id: string): Promise<Thread | null>;
  run(workspace_id: string, run_id: string): Promise<Run | null>;
  artifact(
    workspace_id: string,
    artifact_id: string,
    version?: number,
  ): Promise<ArtifactAtVersion | null>;
  message(workspace_id: string, thread_id: string, message_id: string): Promise<Message | null>;
  /** A page of the workspace's threads, by id. */
  threads(workspace_id: string, options: ThreadListOptions): Promise<Thread[]>;
  /** A page of the workspace's runs matching every given filter, newest start first. */
  runs(workspace_id: string, options: RunListOptions): Promise<Run[]>;
  /**
   * The thread's messages in the order they were sent (`posted_at`; ties in log order), each
   * assistant message with its feedback; null without the thread.
   */
  conversation(workspace_id: string, thread_id: string): Promise<ConversationMessage[] | null>;
  /**
   * A run with its thread's conversation and, given a generation, the ledger's entries on its
   * turn in it, read in one call: what a run's turn evaluators share (one round trip per run
   * instead of one per evaluator); null without the run.
   */
  turn(
    workspace_id: string,
    run_id: string,
    generation?: string,
  ): Promise<RunWithConversation | null>;
  /** A thread's runs, in the order they started (none for a thread that does not exist). */
  threadRuns(workspace_id: string, thread_id: string): Promise<Run[]>;
  /**
   * A page of a thread's conversation in log order: its messages and the artifact versions put
   * in it (by its runs, or by its agent), as `range` says. What judging a whole thread reads.
   */
  threadPage(
    workspace_id: string,
    thread_id: string,
    range: ThreadPageRange,
  ): Promise<ThreadEntry[]>;
  /** Current feedback matching every given filter, in seq order. */
  feedback(workspace_id: string, filter?: FeedbackFilter): Promise<FeedbackRecord[]>;
  /** Every view of the workspace at once, for audits and tests. */
  views(workspace_id: string): Promise<WorkspaceState>;
}

/** The workspace's own evaluation rules, now or as they stood: what plans a run's evaluation. */
export interface RuleReads {
  /** The workspace's own evaluation rules (the app's defaults are not stored), by evaluator. */
  rules(workspace_id: string): Promise<StoredEvaluationRule[]>;
  /** The workspace's own rules as they stood right after `seq`, for pinning a run's plan. */
  rulesAt(workspace_id: string, seq: number): Promise<StoredEvaluationRule[]>;
}

/** What evaluation records beside the log: verdicts, usage, budgets, judges, review. */
export interface EvaluationRecords {
  /** The evaluation and score ledger, kept beside the log. */
  readonly ledger: Ledger;
  /** What each evaluation's attempts used and cost. */
  readonly usage: UsageLedger;
  /** Workspaces' own budgets, and every budget's spend and reservations per period. */
  readonly budgets: BudgetStore;
  /** The workspace's recorded judge versions (`record_judge_version`), a view. */
  readonly judgeVersions: JudgeVersions;
  /** Review queues: their definitions (a view), items, slots and reviewers' leases. */
  readonly reviewQueues: ReviewQueueStore;
}

/** Keyset indexes over the views, for batch re-evaluation and backfills. */
export interface TargetIndexes {
  /** Keyset pages of artifact versions, for batch re-evaluation. */
  readonly artifactVersions: ArtifactVersionIndex;
  /** Keyset pages of runs (turns), messages and threads, for backfills. */
  readonly backfillTargets: BackfillTargetIndex;
}

/** What the HTTP API keeps: keys and idempotent responses. */
export interface ApiRecords {
  /** The HTTP API's keys and user tokens. */
  readonly apiKeys: ApiKeys;
  /** The HTTP API's first response to each idempotency key. */
  readonly idempotency: IdempotencyRecords;
}

/** OTLP spans and the outbox that tells trace workflows of them. */
export interface TraceInbox {
  /**
   * Spans received over OTLP, until their trace's runs are recorded. A put whose batches may end
   * a run wakes the watchers of appends (`watchAppends`), as an append does: the signaller.
   */
  readonly traceSpans: TraceSpans;
  /** The traces whose workflows are due to be told of their stored spans (the outbox). */
  readonly traceSignals: TraceSignals;
}

/**
 * The workspace event log and its views, every port at once: what wiring opens and closes. `execute`
 * decides and appends in one transaction, so `seq` is gap-free per workspace and every view always
 * equals a replay of the log.
 */
export interface Store
  extends Commands,
    EventLog,
    EntityReads,
    RuleReads,
    EvaluationRecords,
    TargetIndexes,
    ApiRecords,
    TraceInbox {
  /** Leases for work that runs in one process at a time (each workspace's relay). */
  readonly leases: Leases;

  close(): Promise<void>;
}

export interface ArtifactVersionIndex {
  count(workspace_id: string, selector: ArtifactVersionSelector): Promise<number>;
  /** Versions ordered by (artifact id, version), after `after`, at most `limit`. */
  list(
    workspace_id: string,
    selector: ArtifactVersionSelector,
    after: ArtifactVersionKey | null,
    limit: number,
  ): Promise<ArtifactVersionKey[]>;
}

export interface BackfillTargetIndex {
  count(workspace_id: string, selector: BackfillSelector): Promise<number>;
  /** Targets in their kind's keyset order (`BackfillCursor`), after `after`, at most `limit`. */
  list(
    workspace_id: string,
    selector: BackfillSelector,
    after: BackfillCursor | null,
    limit: number,
  ): Promise<BackfillRow[]>;
  /** `{participant}|{target key}` of the pairs recorded in any generation. */
  recorded(
    workspace_id: string,
    participants: readonly string[],
    targets: readonly EvaluationTarget[],
  ): Promise<Set<string>>;
}

export type { ScoreConfigDirectory };
