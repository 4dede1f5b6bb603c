import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluatorCatalog } from '../../src/core/index.js';
import type { Commands, EntityReads, EvaluationRecords, EventLog } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Commands &
  Pick<EventLog, 'events'> &
  Pick<EntityReads, 'views'> &
  Pick<EvaluationRecords, 'judgeVersions'>;

// Recorded judge versions, run unchanged against every adapter (sqlite.test.ts,
// postgres.test.ts): a version recorded once is kept whole with who and when, listed, and never
// changed by recording it again, from this store or another on the same database.

let counter = 0;
const freshWorkspace = () => `jv-${Date.now().toString(36)}-${++counter}`;
const system = { kind: 'system', name: 'admin' } as const;
/** The app declares review@1 (of the `review` feedback type) in code. */
const evaluators: EvaluatorCatalog = {
  targetsOf: (id) => (id === 'review@1' ? ['turn'] : undefined),
  feedbackTypeOf: (id) => (id === 'review@1' ? 'review' : undefined),
};
const judge_version = {
  judge: 'review',
  version: 'tuned-1',
  rubric: 'Is the answer right?',
  model: 'gpt-test',
  feedbackType: 'review',
  examples: [
    {
      target: { kind: 'turn', run_id: 'r1' },
      text: 'user: hi',
      expectedVerdict: { passed: true },
      reviewersLabel: 'true',
      judgeLabel: 'false',
      reviewers: [{ raterId: 'user:ana', label: 'true', note: null }],
    },
  ],
  tunedFrom: '1',
  heldOut: [{ kind: 'turn', run_id: 'r2' }],
};
const record = (store: Ports, workspace_id: string, changes: object = {}) =>
  store.executeUnchecked({
    workspace_id,
    actor: system,
    command: { type: 'record_judge_version', judge_version: { ...judge_version, ...changes } },
  });

export function judgeVersionsContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} judge versions`, () => {
    let store: Opened<Ports>;
    let other: Opened<Ports>;
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes(), evaluators });
      other = await open({ feedbackTypes: conformanceFeedbackTypes(), evaluators });
    });
    afterAll(async () => {
      await store?.close();
      await other?.close();
    });

    it('keeps a recorded version whole, with who recorded it and when, and lists it', async () => {
      const ws = freshWorkspace();
      expect(await store.judgeVersions.list(ws)).toEqual([]);
      expect(await store.judgeVersions.get(ws, 'review@tuned-1')).toBeNull();
      const outcome = await record(store, ws);
      expect(outcome.type).toBe('recorded');
      const kept = await store.judgeVersions.get(ws, 'review@tuned-1');
      expect(kept).toEqual({
        ...judge_version,
        recordedBy: system,
        recordedAt: expect.any(String),
        seq: 1,
        targets: ['turn'],
      });
      expect(await other.judgeVersions.list(ws)).toEqual([kept]);
      expect((await store.views(ws)).judgeVersions.get('review@tuned-1')).toEqual(kept);
    });

    it('refuses recording a version again, from either store, and changes nothing', async () => {
      const ws = freshWorkspace();
      await record(store, ws);
      const before = await store.judgeVersions.list(ws);
      // The other store decides with what it loads; this store with what it keeps warm.
      for (const deciding of [other, store]) {
        expect(await record(deciding, ws, { rubric: 'Changed' })).toMatchObject({
          type: 'conflict',
          message: 'review@tuned-1 is recorded already, and a recorded version never changes',
        });
      }
      expect(await store.judgeVersions.list(ws)).toEqual(before);
      expect(await store.events({ workspace_id: ws })).toHaveLength(1);
    });

    it('refuses a version number declared in code, and records nothing', async () => {
      const ws = freshWorkspace();
      expect(await record(store, ws, { version: '1', tunedFrom: '0' })).toMatchObject({
        type: 'conflict',
      });
      expect(await store.judgeVersions.list(ws)).toEqual([]);
      expect(await store.events({ workspace_id: ws })).toEqual([]);
    });

    it('records a version tuned from a recorded one', async () => {
      const ws = freshWorkspace();
      await record(store, ws);
      expect(await record(other, ws, { version: 'tuned-2', tunedFrom: 'tuned-1' })).toMatchObject({
        type: 'recorded',
      });
      const ids = (await store.judgeVersions.list(ws)).map((v) => `${v.judge}@${v.version}`);
      expect(ids).toEqual(['review@tuned-1', 'review@tuned-2']);
    });

    it('sets a rule on a recorded version from either store, and refuses one in a workspace that never recorded it', async () => {
      const ws = freshWorkspace();
      await record(store, ws);
      const rule = (deciding: Ports, workspace_id: string, mode: string) =>
        deciding.executeUnchecked({
          workspace_id,
          actor: system,
          command: {
            type: 'set_evaluation_rule',
            evaluator: 'review@tuned-1',
            targets: ['turn'],
            mode,
          },
        });
      // The other store loads the version to decide; this one decides with what it keeps warm.
      expect(await rule(other, ws, 'shadow')).toMatchObject({ type: 'recorded' });
      expect(await rule(store, ws, 'live')).toMatchObject({ type: 'recorded' });
      expect(await rule(store, freshWorkspace(), 'live')).toMatchObject({
        type: 'not_found',
        id: 'review@tuned-1',
      });
    });
  });
}
