import { LangfuseClient } from '@langfuse/client';
import { createActivities } from '../activities/create-activities.js';
import { createFeedbackTypeRegistry } from '../core/index.js';
import {
  answerLengthEvaluator,
  createEvaluatorRegistry,
  type Evaluator,
  type EvaluatorRegistry,
  jsonValidityEvaluator,
  llmJudgeFromEnvironment,
  refusalEvaluator,
  turnOutcomeEvaluator,
} from '../evaluators/index.js';
import { JsonlScoreSink } from '../scores/file/jsonl-sink.js';
import type { ScoreReader, ScoreSink } from '../scores/index.js';
import { LangfuseScoreReader, LangfuseScoreSink } from '../scores/langfuse/index.js';
import { openStore, type Store } from '../store/index.js';
import type { Config } from './config.js';

/** The evaluators a worker runs on embedded defaults: the heuristics, and the judge when configured. */
export function defaultEvaluators(env: NodeJS.ProcessEnv = process.env): Evaluator[] {
  const judge = llmJudgeFromEnvironment(env);
  return [
    answerLengthEvaluator(),
    refusalEvaluator(),
    jsonValidityEvaluator(),
    turnOutcomeEvaluator(),
    ...(judge ? [judge] : []),
  ];
}

export interface Engine {
  store: Store;
  evaluators: EvaluatorRegistry;
  activities: ReturnType<typeof createActivities>;
  close(): Promise<void>;
}

/**
 * The worker's dependencies from configuration: the store (Postgres or SQLite), the evaluators
 * and their feedback types, and the score sink (Langfuse, or a JSONL file).
 */
export async function openEngine(
  config: Config,
  evaluators: Evaluator[] = defaultEvaluators(),
): Promise<Engine> {
  const registry = createEvaluatorRegistry(evaluators);
  const feedbackTypes = createFeedbackTypeRegistry([
    ...new Set(evaluators.map((e) => e.feedbackType)),
  ]);
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    feedbackTypes,
    onWait: (line) => console.log(`evalflow: ${line}`),
  });
  const { sink, reader } = scoreBackend(config);
  return {
    store,
    evaluators: registry,
    activities: createActivities({
      store,
      evaluators: registry,
      feedbackTypes,
      scoreSink: sink,
      scoreReader: reader,
    }),
    close: () => store.close(),
  };
}

function scoreBackend(config: Config): { sink: ScoreSink; reader: ScoreReader } {
  if (config.langfuse === null) {
    const file = new JsonlScoreSink(config.scoresFile);
    return { sink: file, reader: file };
  }
  const client = new LangfuseClient(config.langfuse);
  return { sink: new LangfuseScoreSink(client), reader: new LangfuseScoreReader(client) };
}
