import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admit,
  type Command,
  DEFAULT_LIMITS,
  InvalidLimitsError,
  jsonBytes,
  type Limits,
  limitViolation,
  resolveLimits,
  utf8Bytes,
} from '../../src/core/index.js';

/** A string of exactly `bytes` bytes of UTF-8, mostly two-byte characters (so units ≠ bytes). */
const textOf = (bytes: number) => 'é'.repeat(Math.floor(bytes / 2)) + 'a'.repeat(bytes % 2);
/** `{"s":"…"}` of exactly `bytes` bytes serialized. */
const jsonOf = (bytes: number) => ({ s: textOf(bytes - '{"s":""}'.length) });

const parsed = (command: Record<string, unknown>): Command => {
  const admitted = admit({ kind: 'system' }, command);
  if (!admitted.ok) throw new Error(admitted.rejection.message);
  return admitted.command;
};

const directScore = {
  type: 'record_score',
  trace_id: '0123456789abcdef0123456789abcdef',
  name: 'steps',
  value: 3,
  source: 'HARNESS',
};

const fields: {
  field: string;
  limit: keyof Limits;
  command: (bytes: number) => Record<string, unknown>;
}[] = [
  {
    field: 'title',
    limit: 'titleBytes',
    command: (n) => ({ type: 'create_thread', thread_id: 't', title: textOf(n) }),
  },
  {
    field: 'reason',
    limit: 'pauseReasonBytes',
    command: (n) => ({ type: 'pause_run', run_id: 'r', reason: textOf(n) }),
  },
  {
    field: 'content',
    limit: 'messageContentBytes',
    command: (n) => ({ type: 'post_message', thread_id: 't', role: 'user', content: textOf(n) }),
  },
  {
    field: 'feedback',
    limit: 'feedbackValueBytes',
    command: (n) => ({
      type: 'post_message',
      thread_id: 't',
      role: 'user',
      content: '',
      feedback: jsonOf(n),
    }),
  },
  {
    field: 'data',
    limit: 'artifactDataBytes',
    command: (n) => ({ type: 'put_artifact', artifact_id: 'a', kind: 'k', data: jsonOf(n) }),
  },
  {
    field: 'value',
    limit: 'feedbackValueBytes',
    command: (n) => ({
      type: 'give_feedback',
      feedback_type: 'f',
      target: { kind: 'turn', run_id: 'r' },
      value: jsonOf(n),
    }),
  },
  {
    field: 'source_label',
    limit: 'sourceLabelBytes',
    command: (n) => ({
      type: 'give_feedback',
      feedback_type: 'f',
      target: { kind: 'turn', run_id: 'r' },
      source_label: textOf(n),
    }),
  },
  {
    field: 'value',
    limit: 'feedbackValueBytes',
    command: (n) => ({
      type: 'rate_message',
      thread_id: 't',
      message_id: 'm',
      feedback_type: 'f',
      value: jsonOf(n),
    }),
  },
  {
    field: 'source_label',
    limit: 'sourceLabelBytes',
    command: (n) => ({ ...directScore, source_label: textOf(n) }),
  },
  {
    // A score's comment is read by people as a feedback value is, so it shares that limit.
    field: 'comment',
    limit: 'feedbackValueBytes',
    command: (n) => ({ ...directScore, source_label: 'ci', comment: textOf(n) }),
  },
  {
    // A queue's instructions are read as a message is, so they share its limit.
    field: 'instructions',
    limit: 'messageContentBytes',
    command: (n) => ({
      type: 'set_review_queue',
      queue_id: 'q',
      feedback_type: 'f',
      target_kinds: ['turn'],
      instructions: textOf(n),
    }),
  },
];

describe('size limits', () => {
  it('count bytes of UTF-8, as Node encodes them', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
    expect(utf8Bytes('a é € 😀 \ud800')).toBe(1 + 1 + 2 + 1 + 3 + 1 + 4 + 1 + 3);
    // At each edge of each width, and a low half after characters that are no high half.
    const edges: [string, number][] = [
      ['\u007f', 1],
      ['\u0080', 2],
      ['\u07ff', 2],
      ['\u0800', 3],
      ['\u0800\udc00', 6],
      ['\ud7ff\udc00', 6],
      ['\ud800\udc00', 4],
      ['\udbff\udfff', 4],
      ['\udc00\udc00', 6],
      // A high half pairs only with a low one, U+DC00 to U+DFFF.
      ['\ud800\udbff', 6],
      ['\ud800\ue000', 6],
    ];
    for (const [text, bytes] of edges) {
      expect(utf8Bytes(text), JSON.stringify(text)).toBe(bytes);
      expect(Buffer.byteLength(text, 'utf8')).toBe(bytes);
    }
  });

  it('measure a JSON value by its serialization, and a value with none as null', () => {
    expect(jsonBytes({ s: 'é' })).toBe('{"s":""}'.length + 2);
    // What JSON.stringify gives nothing for is stored as null.
    expect(jsonBytes(undefined)).toBe('null'.length);
  });

  it('have documented defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      titleBytes: 1024,
      messageContentBytes: 1_048_576,
      artifactDataBytes: 1_048_576,
      feedbackValueBytes: 65_536,
      pauseReasonBytes: 1024,
      sourceLabelBytes: 256,
    });
  });

  for (const { field, limit, command } of fields) {
    const type = String(command(64).type);
    it(`take a ${type}'s ${field} of exactly ${limit} and refuse one byte more, naming it`, () => {
      const max = DEFAULT_LIMITS[limit];
      expect(limitViolation(parsed(command(max)), DEFAULT_LIMITS)).toBeNull();
      expect(limitViolation(parsed(command(max + 1)), DEFAULT_LIMITS)).toEqual({
        type: 'validation_failed',
        message: `${field} is ${max + 1} bytes of UTF-8, over the limit of ${max} (${limit})`,
        errors: [{ path: [field], size: max + 1, limit: max, name: limit }],
      });
    });
  }

  it('take configured limits in place of the defaults, one by one', () => {
    const limits = resolveLimits({ titleBytes: 10 });
    expect(limits).toEqual({ ...DEFAULT_LIMITS, titleBytes: 10 });
    const title = (n: number) =>
      parsed({ type: 'create_thread', thread_id: 't', title: textOf(n) });
    expect(limitViolation(title(10), limits)).toBeNull();
    expect(limitViolation(title(11), limits)?.message).toBe(
      'title is 11 bytes of UTF-8, over the limit of 10 (titleBytes)',
    );
    expect(resolveLimits({ titleBytes: undefined })).toEqual(DEFAULT_LIMITS);
  });

  it('measure only the fields a command has, however small the limits', () => {
    // Absent, an optional value is not measured as the 4 bytes of null.
    const tiny = resolveLimits({ feedbackValueBytes: 3, messageContentBytes: 3 });
    const message = parsed({ type: 'post_message', thread_id: 't', role: 'user', content: 'ok' });
    expect(limitViolation(message, tiny)).toBeNull();
    const withFeedback = parsed({
      type: 'post_message',
      thread_id: 't',
      role: 'user',
      content: 'ok',
      feedback: 1234,
    });
    expect(limitViolation(withFeedback, tiny)?.message).toBe(
      'feedback is 4 bytes of UTF-8, over the limit of 3 (feedbackValueBytes)',
    );
  });

  it('refuse a limit that is unknown or not a whole number from 1, when configured', () => {
    expect(() => resolveLimits({ titleBytes: 0 })).toThrow(
      new InvalidLimitsError('limit titleBytes is a whole number of bytes from 1, not 0'),
    );
    expect(() => resolveLimits({ feedbackValueBytes: 1.5 })).toThrow(InvalidLimitsError);
    // 1 is the smallest limit there is.
    expect(resolveLimits({ titleBytes: 1 }).titleBytes).toBe(1);
    expect(() => resolveLimits({ noteBytes: 10 } as Partial<Limits>)).toThrow(
      'unknown limit noteBytes; the limits are titleBytes, messageContentBytes, artifactDataBytes, feedbackValueBytes, pauseReasonBytes, sourceLabelBytes',
    );
  });
});
