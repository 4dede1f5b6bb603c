import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../../src/core/index.js';
import { ConformanceCase, runCaseOnCore } from '../../src/testing/index.js';

// A user's rating is one per feedback type (docs/specification.md#message-ratings): rating or
// deleting one type leaves the same user's rating of another type on that message alone. The
// conformance types have one type users rate messages with, so these cases run on the core with
// a second one.
const feedbackTypes = createFeedbackTypeRegistry([
  defineFeedbackType({
    name: 'helpfulness',
    targets: ['message'],
    schema: z.object({ rating: z.int().min(1).max(5) }),
  }),
  defineFeedbackType({
    name: 'clarity',
    targets: ['message'],
    schema: z.object({ clear: z.boolean() }),
  }),
]);

const given = {
  runs: [{ id: 'r1', thread_id: 't1', status: 'completed' }],
  messages: [{ id: 'm1', thread_id: 't1', run_id: 'r1', role: 'assistant' }],
  ratings: [
    {
      rater: 'u1',
      thread_id: 't1',
      message_id: 'm1',
      feedback_type: 'helpfulness',
      value: { rating: 4 },
    },
  ],
};
const user = { kind: 'user', id: 'u1' };
const on = { thread_id: 't1', message_id: 'm1' };

function mismatches(testCase: unknown): string[] {
  return runCaseOnCore(ConformanceCase.parse(testCase), feedbackTypes);
}

describe('ratings of two types on one message', () => {
  it("rating a second type adds to the user's first, replacing nothing", () => {
    expect(
      mismatches({
        name: 'a second type is a rating of its own',
        actor: user,
        given,
        command: { type: 'rate_message', ...on, feedback_type: 'clarity', value: { clear: true } },
        expect: {
          outcome: {
            type: 'recorded',
            is_update: false,
            rated_message: {
              feedback: [
                { rater: 'user:u1', feedback_type: 'helpfulness', value: { rating: 4 } },
                { rater: 'user:u1', feedback_type: 'clarity', value: { clear: true } },
              ],
            },
          },
          events: [{ type: 'feedback_given', feedback_type: 'clarity', replaces: null }],
        },
      }),
    ).toEqual([]);
  });

  it('deleting one type removes that rating only', () => {
    expect(
      mismatches({
        name: 'deleting a type the user never rated removes nothing',
        actor: user,
        given,
        command: { type: 'delete_rating', ...on, feedback_type: 'clarity' },
        expect: {
          outcome: {
            type: 'recorded',
            removed: false,
            rated_message: {
              feedback: [{ rater: 'user:u1', feedback_type: 'helpfulness', value: { rating: 4 } }],
            },
          },
          events: [],
        },
      }),
    ).toEqual([]);
    expect(
      mismatches({
        name: 'deleting the rated type removes it',
        actor: user,
        given: {
          ...given,
          ratings: [
            ...given.ratings,
            { rater: 'u1', ...on, feedback_type: 'clarity', value: { clear: false } },
          ],
        },
        command: { type: 'delete_rating', ...on, feedback_type: 'clarity' },
        expect: {
          outcome: {
            type: 'recorded',
            removed: true,
            rated_message: {
              feedback: [{ rater: 'user:u1', feedback_type: 'helpfulness', value: { rating: 4 } }],
            },
          },
          events: [{ type: 'rating_deleted', feedback_type: 'clarity' }],
        },
      }),
    ).toEqual([]);
  });
});
