import { createActivities } from '../activities/create-activities.js';
import type { EvalflowActivities } from '../activities/types.js';
import { type AppDefinition, type Config, liveScoreConfigDirectory } from '../config/index.js';
import { scoreBackend } from '../config/score-backend.js';
import type { ActivityObservers, OperationsLog } from '../metrics/index.js';
import {
  type ScoreConfigStore,
  type ScoreConfigsSynced,
  syncScoreConfigs,
} from '../scores/index.js';
import { holdSqliteEngineLock, openStore, type Store } from '../store/index.js';

export interface EngineDeps {
  app: AppDefinition;
  store: Store;
  activities: EvalflowActivities;
  /** What syncing the app's score configs into the sink did at open. */
  scoreConfigs: ScoreConfigsSynced;
  /** The sink's score configs. */
  configStore: ScoreConfigStore;
  /** Makes the store's HUMAN config checks read the sink afresh (after an archive, say). */
  forgetScoreConfigs(): void;
  close(): Promise<void>;
}

/**
 * The worker's dependencies for an app: the store (Postgres or SQLite) that knows the app's
 * feedback types, evaluators and score configs, and the score sink (Langfuse, or JSONL files)
 * with the app's score configs synced into it, once per name. Any number of engines may share a
 * Postgres store; a SQLite store has one engine process, so opening a second one throws.
 * @throws SqliteEngineInUseError when another engine runs on the same SQLite file.
 */
export async function openEngineDeps(
  config: Config,
  app: AppDefinition,
  /** Told of waits (for Postgres to answer, say), one line each (default: stdout). */
  log: (line: string) => void = (line) => console.log(`evalflow: ${line}`),
  /** What the activities tell of their work (the engine's metrics); by default no one. */
  observers: ActivityObservers = {},
  /** Told of each evaluation started and finished (the operations log); by default no one. */
  operations?: OperationsLog,
): Promise<EngineDeps> {
  const { databaseUrl, sqlitePath } = config.store;
  const lock = databaseUrl || sqlitePath === ':memory:' ? null : holdSqliteEngineLock(sqlitePath);
  try {
    return await openHeld(config, app, log, observers, operations, () => lock?.release());
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openHeld(
  config: Config,
  app: AppDefinition,
  log: (line: string) => void,
  observers: ActivityObservers,
  operations: OperationsLog | undefined,
  release: () => void,
): Promise<EngineDeps> {
  const { sink, reader, configStore } = scoreBackend(config);
  const synced = await syncScoreConfigs(configStore, app.scoreConfigSync.configs, {
    retired: app.scoreConfigSync.retired,
  });
  const scoreConfigs = liveScoreConfigDirectory(app, configStore);
  const store = await openStore({
    ...app,
    scoreConfigs,
    ...config.store,
    onWait: log,
  });
  return {
    app,
    store,
    activities: createActivities({
      store,
      evaluators: app.evaluators,
      pricing: app.pricing,
      budgets: app.budgets,
      warn: log,
      feedbackTypes: app.feedbackTypes,
      scoreSink: sink,
      scoreReader: reader,
      tenantId: config.tenantId,
      observers,
      ...(operations ? { log: operations } : {}),
    }),
    scoreConfigs: synced,
    configStore,
    forgetScoreConfigs: () => scoreConfigs.forget(),
    close: async () => {
      await store.close();
      release();
    },
  };
}
