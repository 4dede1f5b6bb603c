import { describe, expect, it } from 'vitest';
import {
  decide,
  type Envelope,
  emptyState,
  replay,
  type WorkspaceState,
} from '../../src/core/index.js';
import { feedbackTypes, promotion, promotionContext } from './promotion-fixtures.js';

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

/** The state after the version was recorded at seq 1, by the event its decision gave. */
function recordedState(event: object = recordedEvent()): WorkspaceState {
  const envelope: Envelope = {
    seq: 1,
    id: 'e1',
    ts: '2026-01-02T03:04:05.000Z',
    workspace_id: 'w',
    thread_id: null,
    run_id: null,
    actor: { kind: 'system', name: 'admin' },
    event: event as Envelope['event'],
  };
  return replay([envelope]);
}

function recordedEvent(): object {
  const decision = record();
  if (decision.type !== 'recorded') throw new Error(JSON.stringify(decision));
  return decision.events[0] as object;
}

describe('record_judge_version', () => {
  it('records a new version of a declared judge as one event with the kinds its base judges, and the view keeps who and when', () => {
    expect(record()).toEqual({
      type: 'recorded',
      events: [
        {
          type: 'judge_version_recorded',
          judge_version: judgeVersion,
          targets: ['turn', 'message'],
        },
      ],
    });
    expect(recordedState().judgeVersions.get('tone@tuned-1')).toEqual({
      ...judgeVersion,
      recordedBy: { kind: 'system', name: 'admin' },
      recordedAt: '2026-01-02T03:04:05.000Z',
      seq: 1,
      targets: ['turn', 'message'],
    });
  });

  it('refuses a base recorded before versions kept the kinds they judge, which no rule could name', () => {
    const before = recordedState({ type: 'judge_version_recorded', judge_version: judgeVersion });
    expect(before.judgeVersions.get('tone@tuned-1')?.targets).toBeUndefined();
    expect(record({ version: 'tuned-2', tunedFrom: 'tuned-1' }, before)).toMatchObject({
      type: 'validation_failed',
      message:
        'tone@tuned-1 was recorded before versions kept the kinds they judge: tune from a version declared in code',
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
      events: [{ targets: ['turn', 'message'] }],
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

describe('a rule or a promotion naming a recorded version', () => {
  const rule = (changes: object = {}, state = recordedState()) =>
    decide(
      state,
      system,
      { type: 'set_evaluation_rule', evaluator: 'tone@tuned-1', targets: ['message'], ...changes },
      promotionContext,
    );

  it('sets a rule on it for the kinds it judges, as on a version declared in code', () => {
    expect(rule({ mode: 'shadow' })).toMatchObject({
      type: 'recorded',
      events: [{ type: 'evaluation_rule_set', evaluator: 'tone@tuned-1', mode: 'shadow' }],
    });
  });

  it('refuses kinds it does not judge, and a version the workspace never recorded', () => {
    expect(rule({ targets: ['thread'] })).toMatchObject({
      type: 'validation_failed',
      message: 'tone@tuned-1 judges turn, message, not thread',
    });
    expect(rule({}, emptyState())).toMatchObject({ type: 'not_found', id: 'tone@tuned-1' });
  });

  it('promotes it over its base, of the same feedback type', () => {
    expect(
      decide(
        recordedState(),
        system,
        { ...promotion, evaluator: 'tone@tuned-1', replacing: 'tone@1' },
        promotionContext,
      ),
    ).toMatchObject({
      type: 'recorded',
      events: [{ type: 'evaluator_promoted', evaluator: 'tone@tuned-1', replacing: 'tone@1' }],
    });
  });
});
