import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { createActivities } from '../../src/activities/create-activities.js';
import {
  type Budget,
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type FeedbackType,
  type Pricing,
} from '../../src/core/index.js';
import {
  createEvaluatorRegistry,
  type EvaluationPlan,
  type Evaluator,
  type EvaluatorRegistry,
  everyTargetRules,
  planOf,
} from '../../src/evaluators/index.js';
import type { ActivityObservers, OperationsLog } from '../../src/metrics/index.js';
import { type RelayOptions, TriggerRelay } from '../../src/relay/relay.js';
import type { ScoreReader, ScoreSink } from '../../src/scores/index.js';
import { openSqliteStore, type Store, staticScoreConfigs } from '../../src/store/index.js';
import { InMemoryScoreSink } from '../../src/testing/index.js';

/** HUMAN feedback for reviewers, validated against a score config the store knows exists. */
export const reviewQuality = defineFeedbackType({
  name: 'review_quality',
  targets: ['turn', 'message', 'artifact'],
  source: 'HUMAN',
  configName: 'review_quality',
  schema: z.object({ score: z.int().min(1).max(5), note: z.string().nullable().default(null) }),
});

export interface TestEngine {
  store: Store;
  /** The SQLite file, for a worker in another process to open. */
  storePath: string;
  evaluators: EvaluatorRegistry;
  sink: ScoreSink;
  activities: ReturnType<typeof createActivities>;
  /** A relay for a workspace, pinning the plan of every registered evaluator. */
  relay(
    client: Client,
    taskQueue: string,
    workspaceId: string,
    options?: Pick<RelayOptions, 'online' | 'abandonAfterMs' | 'cursor' | 'onWarning' | 'log'>,
  ): TriggerRelay;
  /** The plan of rules that make every registered evaluator judge everything it can. */
  plan(): EvaluationPlan;
  close(): Promise<void>;
}

/**
 * The store and registries of a test engine on a SQLite file: what a worker in another process
 * opens to share the engine's store.
 */
export function engineStore(
  path: string,
  options: { evaluators: Evaluator[]; feedbackTypes?: FeedbackType[] },
) {
  const evaluators = createEvaluatorRegistry(options.evaluators);
  const types = [
    ...new Set([
      ...options.evaluators.map((e) => e.feedbackType),
      reviewQuality,
      ...(options.feedbackTypes ?? []),
    ]),
  ];
  const feedbackTypes = createFeedbackTypeRegistry(types);
  const store = openSqliteStore(path, {
    feedbackTypes,
    evaluators,
    // The provider has a score config for every HUMAN type the test gives.
    scoreConfigs: staticScoreConfigs(
      Object.fromEntries(
        types.flatMap((type) =>
          type.configName === undefined ? [] : [[type.configName, { archived: false }]],
        ),
      ),
    ),
    pollMs: 50,
  });
  return { store, evaluators, feedbackTypes };
}

/** The engine's real parts for a test: a SQLite store in a temp folder, real activities. */
export function testEngine(options: {
  evaluators: Evaluator[];
  sink?: ScoreSink;
  reader?: ScoreReader | null;
  feedbackTypes?: FeedbackType[];
  observers?: ActivityObservers;
  pricing?: Pricing;
  budgets?: Budget[];
  now?: () => number;
  warn?: (line: string) => void;
  log?: OperationsLog;
}): TestEngine {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-engine-'));
  const storePath = join(dir, 'evalflow.db');
  const { store, evaluators, feedbackTypes } = engineStore(storePath, options);
  const rules = everyTargetRules(options.evaluators);
  const sink = options.sink ?? new InMemoryScoreSink();
  const reader = options.reader === undefined ? (sink as unknown as ScoreReader) : options.reader;
  const activities = createActivities({
    store,
    evaluators,
    feedbackTypes,
    scoreSink: sink,
    scoreReader: reader,
    ...(options.pricing ? { pricing: options.pricing } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.observers ? { observers: options.observers } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    store,
    storePath,
    evaluators,
    sink,
    activities,
    plan: () => planOf(rules, 'any'),
    relay: (client, taskQueue, workspaceId, relayOptions = {}) =>
      new TriggerRelay({
        store,
        client,
        taskQueue,
        workspaceId,
        rules,
        evaluators,
        ...relayOptions,
      }),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const system = { kind: 'system', name: 'system' };

/** Executes commands as the system, failing the test on any rejection. */
export async function given(
  store: Store,
  workspaceId: string,
  ...commands: object[]
): Promise<void> {
  for (const command of commands) {
    const outcome = await store.executeUnchecked({
      workspace_id: workspaceId,
      actor: system,
      command,
    });
    if (outcome.type !== 'recorded')
      throw new Error(`${JSON.stringify(command)}: ${JSON.stringify(outcome)}`);
  }
}

/** Every feedback event in the workspace's log. */
export async function feedbackEvents(store: Store, workspaceId: string) {
  const events = await store.events({ workspace_id: workspaceId, limit: 100_000 });
  return events.filter((e) => e.event.type === 'feedback_given');
}
