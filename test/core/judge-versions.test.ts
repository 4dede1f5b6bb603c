import { describe, expect, it } from 'vitest';
import {
  decide,
  type Envelope,
  emptyState,
  replay,
  type WorkspaceState,
} from '../../src/core/index.js';
import { feedbackTypes, promotionContext } from './promotion-fixtures.js';

// record_judge_version: a judge version as data, recorded once. tone@1 and tone@2 are declared in
// code (promotion-fixtures); tone@tuned-1 is recorded from tone@1.

const system = { kind: 'system', name: 'admin' };
const target = { kind: 'message', thread_id: 't1', message_id: 'm1', run_id: null };
const heldOutTarget = { kind: 'message', thread_id: 't1', message_id: 'm2', run_id: null };
const example = {
  target,
  text: 'Answer:\nhello',
  expectedVerdict: { warm: true },
  reviewersLabel: 'true',
  judgeLabel: 'false',
  reviewers: [{ raterId: 'user:ana', label: 'true', note: 'friendly enough' }],
};
const judgeVersion = {
  judge: 'tone',
  version: 'tuned-1',
  rubric: 'Is the answer warm?',
  model: 'gpt-test',
  feedbackType: 'tone',
  examples: [example],
  tunedFrom: '1',
  heldOut: [heldOutTarget],
};
const command = (changes: object = {}) => ({
  type: 'record_judge_version',
  judge_version: { ...judgeVersion, ...changes },
});
const record = (
  changes: object = {},
  state: WorkspaceState = emptyState(),
  actor: object = system,
) => decide(state, actor, command(changes), promotionContext);

/** The state after the version was recorded at seq 1. */
function recordedState(): WorkspaceState {
  const envelope: Envelope = {
    seq: 1,
    id: 'e1',
    ts: '2026-01-02T03:04:05.000Z',
    workspace_id: 'w',
    thread_id: null,
    run_id: null,
    actor: { kind: 'system', name: 'admin' },
    event: { type: 'judge_version_recorded', judge_version: command().judge_version as never },
  };
  return replay([envelope]);
}

describe('record_judge_version', () => {
  it('records a new version of a declared judge as one event, and the view keeps who and when', () => {
    expect(record()).toEqual({
      type: 'recorded',
      events: [{ type: 'judge_version_recorded', judge_version: judgeVersion }],
    });
    expect(recordedState().judgeVersions.get('tone@tuned-1')).toEqual({
      ...judgeVersion,
      recordedBy: { kind: 'system', name: 'admin' },
      recordedAt: '2026-01-02T03:04:05.000Z',
      seq: 1,
    });
  });

  it('refuses a version already recorded: a recorded version never changes', () => {
    expect(record({ rubric: 'Another rubric' }, recordedState())).toMatchObject({
      type: 'conflict',
      message: 'tone@tuned-1 is recorded already, and a recorded version never changes',
    });
  });

  it('refuses a version number declared in code', () => {
    expect(record({ version: '2' })).toMatchObject({
      type: 'conflict',
      message: 'tone@2 is declared in code: a recorded version takes a version of its own',
    });
  });

  it('tunes a recorded version further: its base may be recorded rather than declared', () => {
    expect(record({ version: 'tuned-2', tunedFrom: 'tuned-1' }, recordedState())).toMatchObject({
      type: 'recorded',
    });
  });

  it('refuses a base version neither declared nor recorded', () => {
    expect(record({ tunedFrom: '7' })).toMatchObject({ type: 'not_found', id: 'tone@7' });
    expect(record({ judge: 'nobody' })).toMatchObject({ type: 'not_found', id: 'nobody@1' });
  });

  it('refuses a feedback type other than the base version’s', () => {
    expect(record({ feedbackType: 'mood' })).toMatchObject({
      type: 'validation_failed',
      message:
        "tone@tuned-1 answers with mood feedback, but tone@1 with tone: a tuned version answers with its base's feedback type",
    });
  });

  it('refuses a held-out target among the examples, and a blank rubric, each said', () => {
    const refused = record({ heldOut: [target], rubric: ' ' });
    expect(refused).toMatchObject({ type: 'validation_failed' });
    expect(refused.type === 'validation_failed' && refused.errors).toEqual([
      { code: 'empty_rubric', message: 'the rubric is empty' },
      { code: 'example_held_out', message: 'example message:t1/m1 is a held-out target' },
    ]);
  });

  it('is the system’s alone', () => {
    expect(record({}, emptyState(), { kind: 'user', id: 'ana' })).toMatchObject({
      type: 'forbidden',
    });
  });

  it('refuses a malformed version before deciding', () => {
    expect(record({ version: 'a b' })).toMatchObject({ type: 'validation_failed' });
    expect(decide(emptyState(), system, command(), { feedbackTypes })).toMatchObject({
      type: 'not_found',
    });
  });
});
