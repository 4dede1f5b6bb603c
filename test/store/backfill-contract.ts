import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType, nanosOf } from '../../src/core/index.js';
import {
  createEvaluatorRegistry,
  defineEvaluator,
  isInBackfillSample,
} from '../../src/evaluators/index.js';
import type { Commands, EvaluationRecords, TargetIndexes } from '../../src/store/index.js';
import {
  type BackfillCursor,
  type BackfillSelection,
  backfillPage,
  countBackfill,
  type Store,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import {
  DEFAULT_ATTEMPT_MS,
  EVALUATION_OVERHEAD_MS,
  PAGE_OVERHEAD_MS,
  previewReevaluation,
  WORKFLOW_TASK_MS,
} from '../../src/workflow-clients/reevaluation-preview.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Commands &
  Pick<EvaluationRecords, 'ledger' | 'usage' | 'judgeVersions'> &
  TargetIndexes;

// A backfill's selections over runs (turns), messages and threads, and its preview, run unchanged
// against every adapter: every page in keyset order, the filters, the sample, the limit and
// "not yet judged by this version".

let counter = 0;
const freshWorkspace = () => `backfill-${Date.now().toString(36)}-${++counter}`;
const system = { kind: 'system', name: 'host' } as const;
const judge = { name: 'judge', version: '1' };
const quality = defineFeedbackType({
  name: 'quality',
  targets: ['thread', 'turn'],
  schema: z.object({ good: z.boolean() }),
});
const evaluatorOf = (name: string, estimatedCostUsd?: number) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: quality,
    targets: ['turn', 'thread'],
    source: 'JUDGE',
    evaluate: () => ({ good: true }),
    ...(estimatedCostUsd === undefined ? {} : { estimatedCostUsd }),
  });

export function backfillContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} backfill selections`, () => {
    let store: Opened<Ports>;
    let clock = Date.parse('2026-05-01T10:00:00Z');
    const ws = freshWorkspace();
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) });
      const run = (command: Parameters<Store['execute']>[0]['command']) =>
        store.execute({ workspace_id: ws, actor: system, command });
      // Threads a and b; runs a1..a3 in a, b1 in b, ended an hour apart (a3 still running); a
      // message in each run of a and one without a run.
      for (const thread_id of ['a', 'b']) await run({ type: 'create_thread', thread_id });
      for (const [run_id, thread_id] of [
        ['a1', 'a'],
        ['a2', 'a'],
        ['b1', 'b'],
        ['a3', 'a'],
      ] as const) {
        clock += 3_600_000;
        await run({ type: 'start_run', run_id, thread_id });
        if (thread_id === 'a') {
          await run({
            type: 'post_message',
            thread_id,
            run_id,
            message_id: `m-${run_id}`,
            role: 'assistant',
            content: 'hi',
          });
        }
        if (run_id !== 'a3') {
          await run({ type: 'end_run', run_id, status: run_id === 'a2' ? 'failed' : 'completed' });
        }
      }
      await run({
        type: 'post_message',
        thread_id: 'b',
        role: 'user',
        content: 'no run',
        message_id: 'm-free',
      });
    });
    afterAll(async () => {
      await store?.close();
    });

    /** Every page of a selection, two rows at a time, as the targets' ids. */
    const all = async (selection: BackfillSelection, evaluators = [judge]) => {
      const ids: string[] = [];
      let after: BackfillCursor | null = null;
      for (;;) {
        const page = await backfillPage(store.backfillTargets, isInBackfillSample, {
          workspaceId: ws,
          selection,
          evaluators,
          after,
          limit: 2,
        });
        for (const { target, judgedBy } of page.targets) {
          const id =
            target.kind === 'turn'
              ? target.run_id
              : target.kind === 'message'
                ? target.message_id
                : target.kind === 'thread'
                  ? target.thread_id
                  : '?';
          ids.push(judgedBy.length > 0 ? `${id}(judged)` : id);
        }
        if (page.exhausted) return ids;
        after = page.after;
      }
    };
    const count = (selection: BackfillSelection) =>
      countBackfill(store.backfillTargets, isInBackfillSample, {
        workspaceId: ws,
        selection,
        evaluators: [judge],
      });

    it('selects only its own targets of each kind, with the other filters, and none not stored', async () => {
      const turn = (run_id: string) => ({ kind: 'turn', run_id }) as const;
      const message = (thread_id: string, message_id: string) =>
        ({ kind: 'message', thread_id, message_id, run_id: null }) as const;
      const thread = (thread_id: string) => ({ kind: 'thread', thread_id }) as const;
      const turns = { kind: 'turn', targets: [turn('b1'), turn('a1'), turn('nope')] } as const;
      expect(await all(turns)).toEqual(['a1', 'b1']);
      expect(await count(turns)).toMatchObject({ targets: 2 });
      expect(await all({ ...turns, statuses: ['failed'] })).toEqual([]);
      const messages = {
        kind: 'message',
        targets: [message('a', 'm-a2'), message('b', 'm-free'), message('b', 'm-a1')],
      } as const;
      expect(await all(messages)).toEqual(['m-a2', 'm-free']);
      expect(await all({ kind: 'thread', targets: [thread('b')] })).toEqual(['b']);
      expect(await all({ kind: 'thread', targets: [] })).toEqual([]);
    });

    it('pages turns by when they ended, filtered by thread, status and end time', async () => {
      expect(await all({ kind: 'turn' })).toEqual(['a1', 'a2', 'b1', 'a3']);
      expect(await all({ kind: 'turn', threadIds: ['a'] })).toEqual(['a1', 'a2', 'a3']);
      expect(await all({ kind: 'turn', statuses: ['completed'] })).toEqual(['a1', 'b1']);
      // a3 is still running: it has not ended at all, so a time range leaves it out.
      expect(
        await all({
          kind: 'turn',
          endedFrom: '2026-05-01T12:00:00Z',
          endedTo: '2026-05-01T15:00:00Z',
        }),
      ).toEqual(['a2', 'b1']);
      expect((await count({ kind: 'turn', threadIds: ['a'] })).targets).toBe(3);
      expect((await count({ kind: 'turn', threadIds: [] })).targets).toBe(0);
    });

    it('pages messages by thread and seq, selected through their run', async () => {
      expect(await all({ kind: 'message' })).toEqual(['m-a1', 'm-a2', 'm-a3', 'm-free']);
      expect(await all({ kind: 'message', statuses: ['failed'] })).toEqual(['m-a2']);
      expect(await all({ kind: 'message', threadIds: ['b'] })).toEqual(['m-free']);
      expect((await count({ kind: 'message', endedTo: '2026-05-01T13:00:00Z' })).targets).toBe(2);
    });

    it('pages threads by id, selected when any of their runs matches', async () => {
      expect(await all({ kind: 'thread' })).toEqual(['a', 'b']);
      expect(await all({ kind: 'thread', statuses: ['running'] })).toEqual(['a']);
      expect(await all({ kind: 'thread', endedFrom: '2026-05-01T12:30:00Z' })).toEqual(['b']);
    });

    it('samples the same targets on every read, and limits after the sample', async () => {
      const sampled = await all({ kind: 'turn', sampleFraction: 0.5 });
      expect(await all({ kind: 'turn', sampleFraction: 0.5 })).toEqual(sampled);
      const expected = ['a1', 'a2', 'b1', 'a3'].filter((id) =>
        isInBackfillSample(`turn:${id}`, 0.5),
      );
      expect(sampled).toEqual(expected);
      expect((await count({ kind: 'turn', sampleFraction: 0.5 })).targets).toBe(expected.length);
      expect(await count({ kind: 'turn', limit: 3 })).toEqual({
        targets: 3,
        pairs: { 'judge@1': 3 },
      });
      expect((await count({ kind: 'turn', limit: 3, sampleFraction: 0.999 })).targets).toBe(3);
    });

    it('leaves out the pairs a version has recorded in any generation, and only those', async () => {
      const entry = (run_id: string, participant: string, state: 'recorded' | 'failed') => ({
        workspace_id: ws,
        generation: 'run',
        participant,
        target_key: `turn:${run_id}`,
        target: { kind: 'turn', run_id },
        state,
        reason: null,
        envelope_id: null,
      });
      await store.ledger.settleEvaluation(entry('a1', 'evaluator:judge@1', 'recorded'));
      await store.ledger.settleEvaluation({ ...entry('a2', 'evaluator:judge@1', 'failed') });
      await store.ledger.settleEvaluation(entry('b1', 'evaluator:judge@2', 'recorded'));
      expect(await all({ kind: 'turn', unjudgedOnly: true })).toEqual([
        'a1(judged)',
        'a2',
        'b1',
        'a3',
      ]);
      const two = [judge, { name: 'judge', version: '2' }];
      expect(
        await countBackfill(store.backfillTargets, isInBackfillSample, {
          workspaceId: ws,
          selection: { kind: 'turn', unjudgedOnly: true },
          evaluators: two,
        }),
      ).toEqual({ targets: 4, pairs: { 'judge@1': 3, 'judge@2': 3 } });
    });

    it('previews the count, the cost from the measured mean or the estimate, and the duration', async () => {
      const measured = evaluatorOf('judge');
      const declared = evaluatorOf('guess', 0.002);
      const unknown = evaluatorOf('blank');
      // judge@1 judged two evaluations at 3000 and 5000 nano-dollars, attempts of 100 and 300 ms.
      for (const [target_key, cost, ms] of [
        ['turn:x1', 3_000, 100],
        ['turn:x2', 5_000, 300],
      ] as const) {
        const key = {
          workspace_id: ws,
          generation: 'run',
          participant: 'evaluator:judge@1',
          target_key,
        };
        await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: ms, failed: false });
        await store.usage.recordUsage({
          ...key,
          attempt: 1,
          report: 0,
          model: 'm',
          input_tokens: 1,
          output_tokens: 1,
          cost_nanos: cost,
        });
      }
      const deps = {
        store,
        evaluators: createEvaluatorRegistry([measured, declared, unknown]),
        limits: { judge: { perSecond: 1 } },
        pricing: {},
      };
      const preview = await previewReevaluation(deps, ws, {
        selection: { kind: 'turn' },
        evaluators: ['judge@1', 'guess@1'],
        concurrency: 2,
      });
      expect(preview.targets).toBe(4);
      expect(preview.versions[0]).toEqual({
        evaluator: 'judge@1',
        targets: 4,
        costPerEvaluationNanos: 4_000,
        costNanos: 16_000,
        costBasis: 'recorded',
        meanAttemptMs: 200,
        recordedAttempts: 2,
        durationBasis: 'recorded',
        // 4 evaluations at 1 a second outlast 4 × (200 ms and the engine's) over 2 slots.
        durationMs: 4_000,
      });
      // Never judged here: its attempts are assumed to take the default, and it says so.
      expect(preview.versions[1]).toMatchObject({
        costPerEvaluationNanos: nanosOf(0.002),
        costNanos: 4 * nanosOf(0.002),
        costBasis: 'declared',
        meanAttemptMs: null,
        recordedAttempts: 0,
        durationBasis: 'default',
        durationMs: (4 * (DEFAULT_ATTEMPT_MS + EVALUATION_OVERHEAD_MS)) / 2,
      });
      expect(preview.costNanos).toBe(16_000 + 4 * nanosOf(0.002));
      // Both versions share the 2 slots; one page.
      expect(preview.durationMs).toBe(
        (4 * (200 + EVALUATION_OVERHEAD_MS) + 4 * (DEFAULT_ATTEMPT_MS + EVALUATION_OVERHEAD_MS)) /
          2 +
          PAGE_OVERHEAD_MS,
      );
      expect(preview.durationBasis).toBe('default');
      const blank = await previewReevaluation(deps, ws, {
        selection: { kind: 'thread' },
        evaluators: ['blank@1'],
      });
      expect(blank).toMatchObject({ targets: 2, costNanos: null, durationBasis: 'default' });
      expect(blank.versions[0]?.costBasis).toBe('unknown');
      await expect(
        previewReevaluation(deps, ws, { selection: { kind: 'turn' }, evaluators: ['nope@1'] }),
      ).rejects.toThrow('evaluator nope@1 is not deployed');
    });

    it('estimates the duration from the recorded attempts, and follows them as more are recorded', async () => {
      const deps = {
        store,
        evaluators: createEvaluatorRegistry([evaluatorOf('slow')]),
        limits: {},
        pricing: {},
      };
      const recordAttempts = async (ms: number, keys: string[]) => {
        for (const target_key of keys) {
          await store.usage.recordAttempt({
            workspace_id: ws,
            generation: 'run',
            participant: 'evaluator:slow@1',
            target_key,
            attempt: 1,
            duration_ms: ms,
            failed: false,
          });
        }
      };
      const preview = () =>
        previewReevaluation(deps, ws, {
          selection: { kind: 'turn' },
          evaluators: ['slow@1'],
          concurrency: 2,
        });
      const before = await preview();
      expect(before.versions[0]).toMatchObject({ recordedAttempts: 0, durationBasis: 'default' });
      // Two attempts of 1 s: 4 turns over 2 slots, each its attempt and the engine's time.
      await recordAttempts(1_000, ['turn:s1', 'turn:s2']);
      const measured = await preview();
      const slotMs = (attemptMs: number) => attemptMs + EVALUATION_OVERHEAD_MS;
      expect(measured.versions[0]).toMatchObject({
        meanAttemptMs: 1_000,
        recordedAttempts: 2,
        durationBasis: 'recorded',
        durationMs: (4 * slotMs(1_000)) / 2,
      });
      expect(measured.durationBasis).toBe('recorded');
      expect(measured.durationMs).toBe((4 * slotMs(1_000)) / 2 + PAGE_OVERHEAD_MS);
      // Two more of 3 s: the mean is 2 s, and the estimate follows it.
      await recordAttempts(3_000, ['turn:s3', 'turn:s4']);
      expect((await preview()).versions[0]).toMatchObject({
        meanAttemptMs: 2_000,
        recordedAttempts: 4,
        durationMs: (4 * slotMs(2_000)) / 2,
      });
      // However wide the window, the batch's one workflow takes each result in a task of its own.
      const wide = await previewReevaluation(deps, ws, {
        selection: { kind: 'turn' },
        evaluators: ['slow@1'],
        concurrency: 10_000,
      });
      expect(wide.versions[0]?.durationMs).toBe(4 * WORKFLOW_TASK_MS);
    });
  });
}
