import { describe, expect, it } from 'vitest';
import {
  type Actor,
  Command,
  type CommandInput,
  messageKey,
  needsOf,
} from '../../src/core/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { promotion } from './promotion-fixtures.js';

// What a store loads before deciding: exactly the entities each command reads, by key, and
// nothing else. pure-decide.test.ts proves these are enough; here each list is pinned whole, so
// a store is never asked for a row no rule reads (or for a null id).

const none = {
  threads: [],
  runs: [],
  artifacts: [],
  messages: [],
  ratingsOn: [],
  ownFeedback: [],
  scoreConfigs: [],
  judgeVersions: [],
};
const system: Actor = { kind: 'system', name: 'system' };
const reviewer: Actor = { kind: 'reviewer', id: 'rv1' };
const feedbackTypes = conformanceFeedbackTypes();
const needs = (command: CommandInput, actor: Actor = system) =>
  needsOf(actor, Command.parse(command), feedbackTypes);
const message = { kind: 'message', message_id: 'm1', thread_id: 't1' } as const;

describe('needsOf', () => {
  it('names the thread a thread is created in', () => {
    expect(needs({ type: 'create_thread', thread_id: 't1' })).toEqual({ ...none, threads: ['t1'] });
  });

  it('names the thread and run of a run started, and the run alone when it pauses or ends', () => {
    expect(needs({ type: 'start_run', run_id: 'r1', thread_id: 't1' })).toEqual({
      ...none,
      threads: ['t1'],
      runs: ['r1'],
    });
    expect(needs({ type: 'pause_run', run_id: 'r1' })).toEqual({ ...none, runs: ['r1'] });
    expect(needs({ type: 'end_run', run_id: 'r1', status: 'failed' })).toEqual({
      ...none,
      runs: ['r1'],
    });
  });

  it("names a message's thread, and its run and own key only when given", () => {
    const post = { type: 'post_message', thread_id: 't1', role: 'user', content: '' } as const;
    expect(needs(post)).toEqual({ ...none, threads: ['t1'] });
    expect(needs({ ...post, message_id: 'm1', run_id: 'r1' })).toEqual({
      ...none,
      threads: ['t1'],
      runs: ['r1'],
      messages: [messageKey('t1', 'm1')],
    });
  });

  it('names an artifact, and the run of its version only when given', () => {
    const put = { type: 'put_artifact', artifact_id: 'a1', kind: 'report' } as const;
    expect(needs(put)).toEqual({ ...none, artifacts: ['a1'] });
    expect(needs({ ...put, run_id: 'r1' })).toEqual({ ...none, artifacts: ['a1'], runs: ['r1'] });
    expect(needs({ type: 'archive_artifact', artifact_id: 'a1' })).toEqual({
      ...none,
      artifacts: ['a1'],
    });
  });

  it('names the entity each kind of target is, and nothing of the others', () => {
    const give = (target: Extract<CommandInput, { type: 'give_feedback' }>['target']) =>
      needs({ type: 'give_feedback', feedback_type: 'helpfulness', target });
    expect(give({ kind: 'artifact', artifact_id: 'a1', version: 1 })).toEqual({
      ...none,
      artifacts: ['a1'],
    });
    expect(give({ kind: 'thread', thread_id: 't1' })).toEqual({ ...none, threads: ['t1'] });
    expect(give({ kind: 'turn', run_id: 'r1' })).toEqual({ ...none, runs: ['r1'] });
    expect(give(message)).toEqual({ ...none, threads: ['t1'] });
    expect(give({ ...message, run_id: 'r1' })).toEqual({ ...none, threads: ['t1'], runs: ['r1'] });
  });

  it("names a reviewer's own feedback on the target, and the config only when giving", () => {
    const target = { kind: 'turn', run_id: 'r1' } as const;
    const own = [{ participant: 'reviewer:rv1', feedback_type: 'review', target }];
    expect(needs({ type: 'give_feedback', feedback_type: 'review', target }, reviewer)).toEqual({
      ...none,
      runs: ['r1'],
      ownFeedback: own,
      scoreConfigs: ['review'],
    });
    expect(needs({ type: 'withdraw_feedback', feedback_type: 'review', target }, reviewer)).toEqual(
      { ...none, runs: ['r1'], ownFeedback: own },
    );
    expect(
      needs({ type: 'give_feedback', feedback_type: 'unknown', target }, reviewer).scoreConfigs,
    ).toEqual([]);
  });

  it('names the message and its current ratings for a rating, given or deleted', () => {
    const rated = {
      ...none,
      threads: ['t1'],
      messages: [messageKey('t1', 'm1')],
      ratingsOn: [{ thread_id: 't1', message_id: 'm1' }],
    };
    const on = { thread_id: 't1', message_id: 'm1', feedback_type: 'helpfulness' };
    expect(needs({ type: 'rate_message', ...on, value: { rating: 3 } })).toEqual(rated);
    expect(needs({ type: 'delete_rating', ...on })).toEqual(rated);
  });

  it('names only the version a rule names, which may be recorded: a rule replaces the one before it whole', () => {
    expect(needs({ type: 'set_evaluation_rule', evaluator: 'tone@1', targets: ['turn'] })).toEqual({
      ...none,
      judgeVersions: ['tone@1'],
    });
  });

  it('names both versions of a promotion, and the promoted one alone when it replaces none', () => {
    expect(needs(promotion as CommandInput)).toEqual({
      ...none,
      judgeVersions: ['tone@2', 'tone@1'],
    });
    expect(needs({ ...promotion, replacing: null, replaced_rule: null } as CommandInput)).toEqual({
      ...none,
      judgeVersions: ['tone@2'],
    });
  });

  it('names the judge version recorded and its base, which decide reads', () => {
    const judge_version = {
      judge: 'tone',
      version: 'tuned-1',
      rubric: 'Is it warm?',
      model: 'm',
      feedbackType: 'tone',
      examples: [],
      tunedFrom: '1',
      heldOut: [],
    };
    expect(needs({ type: 'record_judge_version', judge_version })).toEqual({
      ...none,
      judgeVersions: ['tone@tuned-1', 'tone@1'],
    });
  });
});
