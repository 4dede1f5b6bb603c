// Where the environment sends scores: Langfuse when its keys are set, else JSONL files. Kept out of
// this folder's index, so reading the config loads no Langfuse client.

import { LangfuseClient } from '@langfuse/client';
import { FileScoreConfigStore, JsonlScoreSink } from '../scores/file/index.js';
import type { ScoreConfigStore, ScoreReader, ScoreSink } from '../scores/index.js';
import {
  LangfuseScoreConfigStore,
  LangfuseScoreReader,
  LangfuseScoreSink,
} from '../scores/langfuse/index.js';
import type { Config } from './environment.js';

export interface ScoreBackend {
  sink: ScoreSink;
  reader: ScoreReader;
  configStore: ScoreConfigStore;
}

/** The sink `scoreBackend` picks, by name: what the mirror's metrics call it (their `sink` label). */
export const scoreSinkName = (config: Config): 'langfuse' | 'file' =>
  config.langfuse === null ? 'file' : 'langfuse';

/** Where scores and their configs go: Langfuse when its keys are set, else JSONL files. */
export function scoreBackend(config: Config): ScoreBackend {
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
