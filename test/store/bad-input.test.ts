import { afterAll, describe, expect, it } from 'vitest';
import { type Envelope, rejectionTypes, replay } from '../../src/core/index.js';
import {
  type Outcome,
  openPostgresStore,
  openSqliteStore,
  type Store,
  type StoreOptions,
  staticScoreConfigs,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { sampleSteps } from '../core/arbitraries.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';

// 10,000 generated and mutated commands against each adapter: every one is recorded or a typed
// rejection, nothing escapes as an exception, the log stays gap-free, and every view equals a
// replay of the log.

const STEPS = 10_000;
const schema = freshSchemaName();
afterAll(() => dropSchema(databaseUrl(), schema));

const adapters: [string, (options: StoreOptions) => Promise<Store>][] = [
  ['SQLite', async (options) => openSqliteStore(':memory:', options)],
  ['Postgres', (options) => openPostgresStore({ databaseUrl: databaseUrl(), schema }, options)],
];

function problemsWith(outcome: Outcome, head: number): string | null {
  if (outcome.type === 'recorded') {
    const seqs = outcome.events.map((e) => e.seq);
    const expected = outcome.events.map((_, i) => head + 1 + i);
    return JSON.stringify(seqs) === JSON.stringify(expected)
      ? null
      : `seqs ${seqs} after head ${head}`;
  }
  if (!rejectionTypes.includes(outcome.type) || typeof outcome.message !== 'string') {
    return `not a typed rejection: ${JSON.stringify(outcome)}`;
  }
  if (
    outcome.type === 'not_found' &&
    (typeof outcome.entity !== 'string' || typeof outcome.id !== 'string')
  ) {
    return `not_found without entity and id: ${JSON.stringify(outcome)}`;
  }
  if (outcome.type === 'validation_failed' && !Array.isArray(outcome.errors)) {
    return `validation_failed without errors: ${JSON.stringify(outcome)}`;
  }
  return null;
}

describe.each(adapters)('the %s store given bad input', (_name, open) => {
  it(`records or rejects each of ${STEPS.toLocaleString('en')} generated and mutated commands, and its views equal a replay`, async () => {
    const store = await open({
      feedbackTypes: conformanceFeedbackTypes(),
      scoreConfigs: staticScoreConfigs({
        review: { archived: false },
        escalation: { archived: false },
      }),
    });
    const workspace_id = `fuzz-${_name}`;
    try {
      let head = 0;
      const withIds: { step: { actor: unknown; command: unknown }; outcome: Outcome }[] = [];
      const counts = { recorded: 0, rejected: 0 };
      for (const step of sampleSteps(STEPS)) {
        const outcome = await store.execute({ workspace_id, ...step });
        const problem = problemsWith(outcome, head);
        if (problem) expect.fail(`${JSON.stringify(step)} → ${problem}`);
        if (outcome.type === 'recorded') {
          counts.recorded += 1;
          head += outcome.events.length;
          const command = step.command as { command_id?: unknown };
          if (typeof command.command_id === 'string') withIds.push({ step, outcome });
        } else {
          counts.rejected += 1;
        }
      }
      expect(counts.recorded).toBeGreaterThan(500);
      expect(counts.rejected).toBeGreaterThan(500);

      // Idempotent commands replayed: the first outcome, and nothing appended.
      expect(withIds.length).toBeGreaterThan(5);
      for (const { step, outcome } of withIds) {
        expect(await store.execute({ workspace_id, ...step })).toEqual(outcome);
      }
      expect(await store.head(workspace_id)).toBe(head);

      const log: Envelope[] = [];
      for (let page = await store.events({ workspace_id }); page.length > 0; ) {
        log.push(...page);
        page = await store.events({ workspace_id, after: page.at(-1)?.seq ?? 0 });
      }
      expect(log.map((e) => e.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      const replayed = replay(log);
      expect(await store.views(workspace_id)).toEqual(replayed);
      for (const [thread_id, thread] of replayed.threads) {
        expect(await store.thread(workspace_id, thread_id)).toEqual(thread);
        const conversation = await store.conversation(workspace_id, thread_id);
        expect(conversation?.map((m) => m.message_id)).toEqual(
          [...replayed.messages.values()]
            .filter((m) => m.thread_id === thread_id)
            .sort((a, b) => a.seq - b.seq)
            .map((m) => m.message_id),
        );
      }
      for (const [run_id, run] of replayed.runs)
        expect(await store.run(workspace_id, run_id)).toEqual(run);
      for (const record of replayed.feedback.values()) {
        const byTarget = await store.feedback(workspace_id, {
          target: record.target,
          participant: record.participant,
        });
        expect(byTarget).toContainEqual(record);
      }
    } finally {
      await store.close();
    }
  }, 180_000);
});
