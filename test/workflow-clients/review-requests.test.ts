import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveLimits, type Target } from '../../src/core/index.js';
import { InvalidRequestError } from '../../src/workflow-clients/index.js';
import { checkReview, type ReviewBody } from '../../src/workflow-clients/review-requests.js';

const turn: Target = { kind: 'turn', run_id: 'r1' };
const body: ReviewBody = { feedback_type: 'review_quality', value: { score: 4 } };
const check = (overrides: {
  workspaceId?: unknown;
  target?: unknown;
  caller?: unknown;
  body?: unknown;
  kind?: 'submit' | 'revise' | 'withdraw';
  limits?: typeof DEFAULT_LIMITS;
}) =>
  checkReview(
    overrides.kind ?? 'submit',
    'workspaceId' in overrides ? overrides.workspaceId : 'ws',
    'target' in overrides ? overrides.target : turn,
    ('caller' in overrides ? overrides.caller : { id: 'rv1' }) as { id: string },
    ('body' in overrides ? overrides.body : body) as ReviewBody,
    overrides.limits ?? DEFAULT_LIMITS,
  );

describe('a review action', () => {
  it('is checked whole and passed on with the target as the core reads it', () => {
    expect(
      check({
        target: { kind: 'message', message_id: 'm1', thread_id: 't1' },
        caller: { id: 'rv1', name: 'Ann' },
      }),
    ).toEqual({
      target: { kind: 'message', message_id: 'm1', thread_id: 't1', run_id: null },
      request: {
        reviewer: { id: 'rv1', name: 'Ann' },
        feedback_type: 'review_quality',
        value: { score: 4 },
      },
      requestId: undefined,
    });
    // A withdrawal carries no value, whatever the body holds.
    expect(
      check({ kind: 'withdraw', body: { feedback_type: 'review_quality', request_id: 'q1' } }),
    ).toEqual({
      target: turn,
      request: { reviewer: { id: 'rv1' }, feedback_type: 'review_quality' },
      requestId: 'q1',
    });
  });

  it('is refused with an InvalidRequestError saying what is wrong, before anything is sent', () => {
    const refusals: [Parameters<typeof check>[0], string][] = [
      [
        { target: { kind: 'span', span_id: 's' } },
        "a review's target is invalid: kind: Invalid discriminator value. Expected 'artifact' | 'thread' | 'turn' | 'message'",
      ],
      [
        { target: { kind: 'turn' } },
        "a review's target is invalid: run_id: Invalid input: expected string, received undefined",
      ],
      [
        { target: { kind: 'turn', run_id: 'r\u0000' } },
        "a review's target is invalid: run_id: an id cannot hold a control character (U+0000–U+001F, U+007F–U+009F)",
      ],
      [
        { target: null },
        "a review's target is invalid: Invalid input: expected object, received null",
      ],
      [
        { caller: { id: '' } },
        "a review's verified reviewer is invalid: id: an id cannot be empty",
      ],
      [
        { caller: null },
        "a review's verified reviewer is invalid: id: Invalid input: expected string, received undefined",
      ],
      [
        { caller: { id: 'rv\ud800' } },
        "a review's verified reviewer is invalid: id: an id must be well-formed Unicode (it holds a lone surrogate)",
      ],
      [{ workspaceId: '' }, "a review's workspace id is invalid: an id cannot be empty"],
      [{ body: null }, 'a review body is an object: { feedback_type, value?, request_id? }'],
      [
        { body: { ...body, reviewer: { id: 'someone-else' } } },
        'a review body does not name its reviewer: the verified caller is the reviewer',
      ],
      [
        { body: { value: { score: 4 } } },
        "a review's feedback_type is invalid: an id is a string, not undefined",
      ],
      [
        { body: { ...body, feedback_type: 'x'.repeat(129) } },
        "a review's feedback_type is invalid: an id is at most 128 UTF-16 units long, not 129",
      ],
      [
        { body: { ...body, request_id: '' } },
        "a review's request_id is invalid: an id cannot be empty",
      ],
      [{ body: { feedback_type: 'review_quality' } }, 'a submit carries a value object'],
      [
        { kind: 'revise', body: { feedback_type: 'review_quality', value: [1] } },
        'a revise carries a value object',
      ],
      [
        { body: { ...body, value: { score: 10n } } },
        "a review's value is not JSON: $.score: a bigint is not a JSON value",
      ],
      [
        { body: { ...body, value: { note: 'half \ud83d' } } },
        "a review's value is not JSON: $.note: a string that is not well-formed Unicode",
      ],
    ];
    for (const [overrides, message] of refusals) {
      expect(() => check(overrides), message).toThrow(new InvalidRequestError(message));
      expect(() => check(overrides)).toThrow(InvalidRequestError);
    }
  });

  it('holds its value to the feedback value limit: at the limit it passes, one byte over it is refused', () => {
    const limits = resolveLimits({ feedbackValueBytes: 30 });
    const note = (bytes: number) => ({
      note: 'é'.repeat(Math.floor(bytes / 2)) + 'a'.repeat(bytes % 2),
    });
    // {"note":""} is 11 bytes.
    expect(check({ body: { ...body, value: note(19) }, limits }).request.value).toEqual(note(19));
    expect(() => check({ body: { ...body, value: note(20) }, limits })).toThrow(
      new InvalidRequestError(
        "a review's value is 31 bytes of UTF-8, over the limit of 30 (feedbackValueBytes)",
      ),
    );
    const note3MB = { note: 'n'.repeat(3 * 1024 * 1024) };
    expect(() => check({ body: { ...body, value: note3MB } })).toThrow(
      "a review's value is 3145739 bytes of UTF-8, over the limit of 65536 (feedbackValueBytes)",
    );
  });
});
