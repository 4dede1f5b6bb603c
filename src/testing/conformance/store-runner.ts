import type { FeedbackTypeRegistry, ScoreConfigStatus } from '../../core/index.js';
import type { ScoreConfigDirectory, Store } from '../../store/index.js';
import type { ConformanceCase } from './case-file.js';
import { conformanceFeedbackTypes } from './feedback-types.js';
import { givenCommands } from './given-commands.js';
import { expectationMismatches } from './matcher.js';

export interface StoreCaseRunner {
  /** Runs one case in its own workspace; returns its mismatches (none: it passed). */
  run(testCase: ConformanceCase, workspace_id: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Opens the store the cases run on, with the feedback types and score configs they need. */
export type OpenCaseStore = (options: {
  feedbackTypes: FeedbackTypeRegistry;
  scoreConfigs: ScoreConfigDirectory;
}) => Store | Promise<Store>;

/**
 * Runs cases on one store, each in its own workspace, building its `given` through the store's
 * `execute`. The score configs are those of the case running, so run cases one at a time.
 *
 * @param feedbackTypes What the cases are written against; the conformance types by default.
 */
export function storeCaseRunner(
  open: OpenCaseStore,
  feedbackTypes: FeedbackTypeRegistry = conformanceFeedbackTypes(),
): StoreCaseRunner {
  let configs = new Map<string, ScoreConfigStatus>();
  const opened = Promise.resolve(
    open({ feedbackTypes, scoreConfigs: { statusOf: async () => configs } }),
  );
  return {
    async run(testCase, workspace_id) {
      const store = await opened;
      configs = new Map(
        testCase.given.score_configs.map((c) => [c.name, { archived: c.archived }]),
      );
      for (const step of givenCommands(testCase.given)) {
        const built = await store.execute({ workspace_id, ...step });
        if (built.type !== 'recorded') {
          return [`given: ${JSON.stringify(step.command)} was refused: ${built.message}`];
        }
      }
      const outcome = await store.executeUnchecked({
        workspace_id,
        actor: testCase.actor,
        command: testCase.command,
      });
      return expectationMismatches(testCase.expect, outcome);
    },
    close: async () => (await opened).close(),
  };
}
