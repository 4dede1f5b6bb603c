import { LangfuseClient } from '@langfuse/client';
import { createActivities } from '../activities/create-activities.js';
import type { EvalflowActivities } from '../activities/types.js';
import type { AppDefinition, Config } from '../config/index.js';
import { FileScoreConfigStore, JsonlScoreSink } from '../scores/file/index.js';
import {
  type ScoreConfigStore,
  type ScoreConfigsSynced,
  type ScoreReader,
  type ScoreSink,
  syncScoreConfigs,
} from '../scores/index.js';
import {
  LangfuseScoreConfigStore,
  LangfuseScoreReader,
  LangfuseScoreSink,
} from '../scores/langfuse/index.js';
import { openStore, type Store } from '../store/index.js';

export interface Engine {
  app: AppDefinition;
  store: Store;
  activities: EvalflowActivities;
  /** What syncing the app's score configs into the sink did at open. */
  scoreConfigs: ScoreConfigsSynced;
  close(): Promise<void>;
}

/**
 * The worker's dependencies for an app: the store (Postgres or SQLite) that knows the app's
 * feedback types, evaluators and score configs, and the score sink (Langfuse, or JSONL files)
 * with the app's score configs synced into it, once per name.
 */
export async function openEngine(config: Config, app: AppDefinition): Promise<Engine> {
  const { sink, reader, configStore } = scoreBackend(config);
  const synced = await syncScoreConfigs(configStore, app.scoreConfigSync.configs, {
    retired: app.scoreConfigSync.retired,
  });
  const store = await openStore({
    ...app,
    ...config.store,
    onWait: (line) => console.log(`evalflow: ${line}`),
  });
  return {
    app,
    store,
    activities: createActivities({
      store,
      evaluators: app.evaluators,
      feedbackTypes: app.feedbackTypes,
      scoreSink: sink,
      scoreReader: reader,
      tenantId: config.tenantId,
    }),
    scoreConfigs: synced,
    close: () => store.close(),
  };
}

function scoreBackend(config: Config): {
  sink: ScoreSink;
  reader: ScoreReader;
  configStore: ScoreConfigStore;
} {
  if (config.langfuse === null) {
    const file = new JsonlScoreSink(config.scoresFile);
    return {
      sink: file,
      reader: file,
      configStore: new FileScoreConfigStore(config.scoreConfigsFile),
    };
  }
  const client = new LangfuseClient(config.langfuse);
  return {
    sink: new LangfuseScoreSink(client),
    reader: new LangfuseScoreReader(client),
    configStore: new LangfuseScoreConfigStore(client),
  };
}
