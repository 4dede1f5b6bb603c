import { randomUUID } from 'node:crypto';

// Numbered migrations, applied in order and recorded in `schema_migrations`. A new table is a
// new entry at the end; an applied entry never changes. Both adapters run the same list: the
// statements keep to SQL that SQLite and Postgres read alike (JSON is kept as text so a replayed
// outcome comes back exactly as first written).

export interface Migration {
  version: number;
  name: string;
  statements: readonly MigrationStatement[];
}

/**
 * SQL, or SQL with `?` placeholders whose values are made when the migration is applied (a value
 * that must differ from store to store, such as the store's id), or a statement written for each
 * dialect where they differ (SQLite's `WITHOUT ROWID`).
 */
export type MigrationStatement =
  | string
  | { text: string; params: () => readonly unknown[] }
  | DialectStatement;

/** One statement written for each dialect, where they read JSON differently (a backfill). */
export interface DialectStatement {
  sqlite: string;
  postgres: string;
}

/** A table whose primary key is the whole row's identity: SQLite keeps it in the key's b-tree. */
const keyedTable = (definition: string): DialectStatement => ({
  sqlite: `${definition} WITHOUT ROWID`,
  postgres: definition,
});

/** A text column added to `table`, filled from the same-named field of each row's JSON body. */
const columnFromBody = (table: string, column: string): MigrationStatement[] => [
  `ALTER TABLE ${table} ADD COLUMN ${column} TEXT`,
  {
    sqlite: `UPDATE ${table} SET ${column} = json_extract(body, '$.${column}')`,
    postgres: `UPDATE ${table} SET ${column} = body::jsonb ->> '${column}'`,
  },
];

const viewTable = (name: string, columns: string) => `CREATE TABLE ${name} (
  workspace_id TEXT NOT NULL,
  key TEXT NOT NULL,
  ${columns}
  body TEXT NOT NULL,
  PRIMARY KEY (workspace_id, key)
)`;

/**
 * Migration 2: the ledger's tables, and the artifact version columns batch re-evaluation selects
 * on (kind, creation time, producing run).
 */
const ledgerMigration: Migration = {
  version: 2,
  name: 'evaluation and score ledger; artifact version selectors',
  statements: [
    'ALTER TABLE artifact_versions ADD COLUMN kind TEXT',
    'ALTER TABLE artifact_versions ADD COLUMN created_at TEXT',
    'CREATE INDEX artifact_versions_by_kind ON artifact_versions (workspace_id, kind, artifact_id, version)',
    `CREATE TABLE evaluation_ledger (
      workspace_id TEXT NOT NULL,
      generation TEXT NOT NULL,
      participant TEXT NOT NULL,
      target_key TEXT NOT NULL,
      target TEXT NOT NULL,
      state TEXT NOT NULL,
      reason TEXT,
      envelope_id TEXT,
      settled_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, generation, participant, target_key)
    )`,
    `CREATE TABLE score_ledger (
      workspace_id TEXT NOT NULL,
      score_id TEXT NOT NULL,
      seq BIGINT NOT NULL,
      state TEXT NOT NULL,
      reason TEXT,
      score TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, score_id)
    )`,
    'CREATE INDEX score_ledger_by_state ON score_ledger (workspace_id, state, seq)',
  ],
};

/** Migration 3: each workspace's evaluation rules, a view like the others. */
const rulesMigration: Migration = {
  version: 3,
  name: 'evaluation rules view',
  statements: [viewTable('rules', 'seq BIGINT NOT NULL,')],
};

/**
 * Migration 4: the store's identity, a UUID made by the migration run that creates it. Workflow
 * ids are scoped by it, so a second store on the same Temporal namespace (or a new database beside
 * a kept Temporal state) never meets the first store's workflows.
 */
const identityMigration: Migration = {
  version: 4,
  name: 'store identity',
  statements: [
    'CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    {
      text: "INSERT INTO store_meta (key, value) VALUES ('store_id', ?)",
      params: () => [randomUUID()],
    },
  ],
};

/** Migration 5: events the trigger relay could not deliver, each with its reason. */
const undeliveredMigration: Migration = {
  version: 5,
  name: 'undelivered events ledger',
  statements: [
    `CREATE TABLE undelivered (
      workspace_id TEXT NOT NULL,
      seq BIGINT NOT NULL,
      event_type TEXT NOT NULL,
      run_id TEXT,
      workflow_id TEXT NOT NULL,
      reason TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, seq)
    )`,
  ],
};

/** Migration 6: the HTTP API's keys and user tokens (hashed), and its idempotent responses. */
const apiMigration: Migration = {
  version: 6,
  name: 'api keys and idempotency keys',
  statements: [
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      principal TEXT NOT NULL,
      name TEXT,
      secret_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      revoked_at TEXT
    )`,
    'CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, kind, created_at)',
    `CREATE TABLE idempotency_keys (
      scope TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status INTEGER NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (scope, idempotency_key)
    )`,
  ],
};

/**
 * Migration 7: the run columns the run lists filter and order on (status, start, last change),
 * filled from each run's body, and the indexes those lists read in order.
 */
const runListMigration: Migration = {
  version: 7,
  name: 'run list columns',
  statements: [
    'ALTER TABLE runs ADD COLUMN status TEXT',
    'ALTER TABLE runs ADD COLUMN started_at TEXT',
    'ALTER TABLE runs ADD COLUMN updated_at TEXT',
    {
      sqlite: `UPDATE runs SET status = json_extract(body, '$.status'),
        started_at = json_extract(body, '$.started_at'),
        updated_at = json_extract(body, '$.updated_at')`,
      postgres: `UPDATE runs SET status = body::jsonb ->> 'status',
        started_at = body::jsonb ->> 'started_at',
        updated_at = body::jsonb ->> 'updated_at'`,
    },
    'CREATE INDEX runs_by_start ON runs (workspace_id, started_at, key)',
    'CREATE INDEX runs_by_thread ON runs (workspace_id, thread_id, started_at, key)',
  ],
};

/**
 * Migration 8: review queues. Their definitions are a view of the log like the rules; their
 * items, slots and leases are high-frequency state of their own. An item is one target in one
 * queue (once: the target key is unique per queue); it has a slot per verdict it needs. A slot is
 * free, leased (its holder and the lease's end) or done (its holder's verdict recorded); `rank`
 * orders each state's slots, so one index gives the next claimable slot directly: a free slot's
 * place in the queue, a lease's end (expired leases are claimable again), a verdict's time
 * (throughput). A queue's head row counts its positions and items (written by enqueueing and
 * skips, never by a claim or a verdict, so reviewers never wait on one row); a partial index
 * counts the items done.
 */
const reviewQueuesMigration: Migration = {
  version: 8,
  name: 'review queues: view, items, slots and leases',
  statements: [
    viewTable('review_queues', 'seq BIGINT NOT NULL,'),
    keyedTable(`CREATE TABLE review_items (
      workspace_id TEXT NOT NULL,
      queue_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      target_key TEXT NOT NULL,
      target TEXT NOT NULL,
      slots INTEGER NOT NULL,
      slots_done INTEGER NOT NULL,
      position BIGINT NOT NULL,
      enqueued_by TEXT NOT NULL,
      enqueued_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, queue_id, item_id)
    )`),
    'CREATE UNIQUE INDEX review_items_by_target ON review_items (workspace_id, queue_id, target_key)',
    'CREATE INDEX review_items_done ON review_items (workspace_id, queue_id) WHERE slots_done >= slots',
    keyedTable(`CREATE TABLE review_slots (
      workspace_id TEXT NOT NULL,
      queue_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      slot INTEGER NOT NULL,
      state TEXT NOT NULL,
      rank BIGINT NOT NULL,
      holder TEXT,
      target_key TEXT NOT NULL,
      PRIMARY KEY (workspace_id, queue_id, item_id, slot)
    )`),
    'CREATE INDEX review_slots_by_rank ON review_slots (workspace_id, queue_id, state, rank)',
    // One reviewer holds at most one slot of an item, leased or done: never the same item twice.
    `CREATE UNIQUE INDEX review_slots_by_holder ON review_slots (workspace_id, queue_id, holder, item_id)
      WHERE holder IS NOT NULL`,
    keyedTable(`CREATE TABLE review_queue_heads (
      workspace_id TEXT NOT NULL,
      queue_id TEXT NOT NULL,
      next_position BIGINT NOT NULL,
      items BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, queue_id)
    )`),
    keyedTable(`CREATE TABLE review_skips (
      workspace_id TEXT NOT NULL,
      queue_id TEXT NOT NULL,
      holder TEXT NOT NULL,
      skips BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, queue_id, holder)
    )`),
  ],
};

/**
 * Migration 9: the feedback column agreement's time windows filter on (when each piece was last
 * given), filled from each record's body, and the index a population's verdicts are read by
 * (a feedback type's reviewers' or users' verdicts, in seq order).
 */
const verdictReadMigration: Migration = {
  version: 9,
  name: 'feedback last-given column and population index',
  statements: [
    ...columnFromBody('feedback', 'updated_at'),
    'CREATE INDEX feedback_by_type_source ON feedback (workspace_id, feedback_type, source, seq)',
  ],
};

/**
 * Migration 10: what judging a whole thread reads besides its runs (migration 7 indexes those by
 * thread): its artifact versions by thread in log order (`seq`), filled in for the versions put
 * before from their bodies and their `artifact_put` events; the bodies gain `seq` too, so the view
 * stays a replay of the log. (9 is the agreement's, landing before it.)
 */
const threadsMigration: Migration = {
  version: 10,
  name: 'artifact versions by thread, in log order',
  statements: [
    'ALTER TABLE artifact_versions ADD COLUMN thread_id TEXT',
    'ALTER TABLE artifact_versions ADD COLUMN seq BIGINT',
    {
      sqlite: `UPDATE artifact_versions SET thread_id = artifact_versions.body ->> '$.thread_id',
          seq = put.seq
        FROM (SELECT workspace_id, seq, event ->> '$.artifact_id' AS artifact_id,
            event ->> '$.version' AS version FROM events WHERE type = 'artifact_put') AS put
        WHERE put.workspace_id = artifact_versions.workspace_id
          AND put.artifact_id = artifact_versions.artifact_id
          AND put.version = artifact_versions.version`,
      postgres: `UPDATE artifact_versions SET thread_id = artifact_versions.body::json ->> 'thread_id',
          seq = put.seq
        FROM (SELECT workspace_id, seq, event::json ->> 'artifact_id' AS artifact_id,
            (event::json ->> 'version')::bigint AS version FROM events
            WHERE type = 'artifact_put') AS put
        WHERE put.workspace_id = artifact_versions.workspace_id
          AND put.artifact_id = artifact_versions.artifact_id
          AND put.version = artifact_versions.version`,
    },
    {
      sqlite: `UPDATE artifact_versions SET body = json_set(body, '$.seq', seq)
        WHERE seq IS NOT NULL`,
      postgres: `UPDATE artifact_versions SET body = (body::jsonb || jsonb_build_object('seq', seq))::text
        WHERE seq IS NOT NULL`,
    },
    'CREATE INDEX artifact_versions_by_thread ON artifact_versions (workspace_id, thread_id, seq)',
  ],
};

/**
 * Migration 11: what judging costs. One row per judged attempt of an evaluation (its duration,
 * whether it threw) and one per usage report within an attempt, each keyed so an activity run
 * again writes nothing twice; money in whole nano-dollars. Spend is read by day, so the day is a
 * column and the usage is indexed by it.
 */
const usageMigration: Migration = {
  version: 11,
  name: 'evaluation attempts and usage',
  statements: [
    keyedTable(`CREATE TABLE evaluation_attempts (
      workspace_id TEXT NOT NULL,
      generation TEXT NOT NULL,
      participant TEXT NOT NULL,
      target_key TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      duration_ms BIGINT NOT NULL,
      failed INTEGER NOT NULL,
      day TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, generation, participant, target_key, attempt)
    )`),
    'CREATE INDEX evaluation_attempts_by_participant ON evaluation_attempts (participant, day)',
    keyedTable(`CREATE TABLE evaluation_usage (
      workspace_id TEXT NOT NULL,
      generation TEXT NOT NULL,
      participant TEXT NOT NULL,
      target_key TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      report INTEGER NOT NULL,
      model TEXT NOT NULL,
      input_tokens BIGINT NOT NULL,
      output_tokens BIGINT NOT NULL,
      cost_nanos BIGINT,
      day TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, generation, participant, target_key, attempt, report)
    )`),
    'CREATE INDEX evaluation_usage_by_day ON evaluation_usage (day, participant)',
  ],
};

/**
 * Migration 12: budgets. A workspace's budgets set through the API, each change kept in an
 * append-only audit; each budget's spend and reservations per period, keyed by its scope (a
 * workspace, or `*` for a global budget of the config); and each attempt's reservation, keyed by
 * the attempt so an activity run again reserves once.
 */
const budgetsMigration: Migration = {
  version: 12,
  name: 'budgets, their audit, periods and reservations',
  statements: [
    keyedTable(`CREATE TABLE budgets (
      workspace_id TEXT NOT NULL,
      budget_id TEXT NOT NULL,
      settings TEXT NOT NULL,
      changed_by TEXT NOT NULL,
      changed_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, budget_id)
    )`),
    keyedTable(`CREATE TABLE budget_changes (
      workspace_id TEXT NOT NULL,
      budget_id TEXT NOT NULL,
      change INTEGER NOT NULL,
      settings TEXT,
      changed_by TEXT NOT NULL,
      changed_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, budget_id, change)
    )`),
    keyedTable(`CREATE TABLE budget_periods (
      scope TEXT NOT NULL,
      budget_id TEXT NOT NULL,
      period_key TEXT NOT NULL,
      spent_nanos BIGINT NOT NULL,
      reserved_nanos BIGINT NOT NULL,
      warned INTEGER NOT NULL,
      PRIMARY KEY (scope, budget_id, period_key)
    )`),
    keyedTable(`CREATE TABLE budget_reservations (
      workspace_id TEXT NOT NULL,
      generation TEXT NOT NULL,
      participant TEXT NOT NULL,
      target_key TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      scope TEXT NOT NULL,
      budget_id TEXT NOT NULL,
      period_key TEXT NOT NULL,
      estimate_nanos BIGINT NOT NULL,
      actual_nanos BIGINT,
      PRIMARY KEY (workspace_id, generation, participant, target_key, attempt, scope, budget_id)
    )`),
  ],
};

/**
 * Migration 13: what backfills of runs, messages and threads read. Turns page by (updated_at,
 * run id), an ended run's updated_at being when it ended, so the "ended between" range and the
 * keyset are one index scan; a message is selected through its run, so it gains its run's id as
 * a column (filled from its body); "not yet judged by this version" looks the ledger up by
 * participant and target in any generation, which its key (generation first) does not serve.
 */
const backfillMigration: Migration = {
  version: 13,
  name: 'backfill selections: runs by end, messages by run, verdicts by target',
  statements: [
    'CREATE INDEX runs_by_update ON runs (workspace_id, updated_at, key)',
    ...columnFromBody('messages', 'run_id'),
    'CREATE INDEX evaluation_ledger_by_target ON evaluation_ledger (workspace_id, participant, target_key)',
  ],
};

/**
 * Migration 14: the spans an OTLP exporter sent, kept until their trace's runs are recorded
 * (docs/traces.md). A span sent again is the same row.
 */
const traceSpansMigration: Migration = {
  version: 14,
  name: 'trace spans received over OTLP',
  statements: [
    keyedTable(`CREATE TABLE trace_spans (
      workspace_id TEXT NOT NULL,
      trace_id TEXT NOT NULL,
      span_id TEXT NOT NULL,
      body TEXT NOT NULL,
      received_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, trace_id, span_id)
    )`),
  ],
};

/**
 * Migration 15: the traces whose workflows are still to be told of spans stored (the receiver's
 * outbox): a row per trace, written in the spans' transaction, removed once its workflow is
 * signalled. `quiet_at_ms` is when it goes idle: its last batch's time plus its idle timeout.
 */
const traceSignalsMigration: Migration = {
  version: 15,
  name: 'traces to signal, the OTLP receiver outbox',
  statements: [
    keyedTable(`CREATE TABLE trace_signals (
      workspace_id TEXT NOT NULL,
      trace_id TEXT NOT NULL,
      reporter TEXT NOT NULL,
      settle_ms BIGINT NOT NULL,
      idle_ms BIGINT NOT NULL,
      conversation_attribute TEXT,
      may_end INTEGER NOT NULL,
      since_ms BIGINT NOT NULL,
      quiet_at_ms BIGINT NOT NULL,
      version BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, trace_id)
    )`),
    'CREATE INDEX trace_signals_ending ON trace_signals (may_end, since_ms)',
    'CREATE INDEX trace_signals_quiet ON trace_signals (quiet_at_ms)',
  ],
};

/** Migration 16: each workspace's recorded judge versions, a view of the log like the rules. */
const judgeVersionsMigration: Migration = {
  version: 16,
  name: 'judge versions view',
  statements: [viewTable('judge_versions', 'seq BIGINT NOT NULL,')],
};

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'workspace event log, commands, cursors and views',
    statements: [
      `CREATE TABLE workspaces (
        workspace_id TEXT PRIMARY KEY,
        last_seq BIGINT NOT NULL,
        last_ts TEXT NOT NULL
      )`,
      `CREATE TABLE events (
        workspace_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        id TEXT NOT NULL UNIQUE,
        ts TEXT NOT NULL,
        type TEXT NOT NULL,
        thread_id TEXT,
        run_id TEXT,
        actor TEXT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (workspace_id, seq)
      )`,
      'CREATE INDEX events_by_thread ON events (workspace_id, thread_id, seq)',
      `CREATE TABLE commands (
        workspace_id TEXT NOT NULL,
        command_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (workspace_id, command_id)
      )`,
      `CREATE TABLE cursors (
        workspace_id TEXT NOT NULL,
        name TEXT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (workspace_id, name)
      )`,
      viewTable('threads', ''),
      viewTable('runs', 'thread_id TEXT NOT NULL,'),
      viewTable('artifacts', ''),
      viewTable('artifact_versions', 'artifact_id TEXT NOT NULL, version BIGINT NOT NULL,'),
      viewTable('messages', 'thread_id TEXT NOT NULL, seq BIGINT NOT NULL,'),
      'CREATE INDEX messages_by_thread ON messages (workspace_id, thread_id, seq)',
      viewTable(
        'feedback',
        `seq BIGINT NOT NULL, target_kind TEXT NOT NULL, target_key TEXT NOT NULL,
        thread_id TEXT, run_id TEXT, source TEXT NOT NULL, participant TEXT NOT NULL,
        feedback_type TEXT NOT NULL, rating INTEGER NOT NULL,`,
      ),
      'CREATE INDEX feedback_by_target ON feedback (workspace_id, target_key, seq)',
      'CREATE INDEX feedback_by_thread ON feedback (workspace_id, thread_id, seq)',
      'CREATE INDEX feedback_by_participant ON feedback (workspace_id, participant, seq)',
      'CREATE INDEX feedback_by_source ON feedback (workspace_id, source, seq)',
    ],
  },
  ledgerMigration,
  rulesMigration,
  identityMigration,
  undeliveredMigration,
  apiMigration,
  runListMigration,
  reviewQueuesMigration,
  verdictReadMigration,
  threadsMigration,
  usageMigration,
  budgetsMigration,
  backfillMigration,
  traceSpansMigration,
  traceSignalsMigration,
  judgeVersionsMigration,
];
