import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../src/client/errors.js';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../../src/client/retry.js';
import { SseParser } from '../../src/client/sse.js';

// The HTTP client's pure parts: its delays, its reading of Retry-After, event-stream framing and
// answers that are not rejections. The client against the real API is in the temporal tests.

describe('the retry delay', () => {
  it('doubles from the initial delay, jittered between half and all of it, and stops at the cap', () => {
    const policy = { ...DEFAULT_RETRY, initialDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(policy, retry, () => 1))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(policy, retry, () => 0))).toEqual([
      50, 100, 200, 400, 500,
    ]);
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 31 Dec 2029 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('-1', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('event-stream framing', () => {
  it('frames events across any chunk boundary, CRLF split included', () => {
    const text =
      ': hello\r\n\r\nid: 1\r\nevent: thread_created\r\ndata: {"seq":1}\r\n\r\nid: 2\ndata: a\ndata: b\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual([
        { id: '1', event: 'thread_created', data: '{"seq":1}' },
        { id: '2', event: 'message', data: 'a\nb' },
      ]);
    }
  });

  it('holds an event back until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\ndata: x\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '7', event: 'message', data: 'x' }]);
  });
});

describe('an answer that is not a rejection', () => {
  it('keeps a rejection body as it is', () => {
    expect(rejectionOf(404, '{"type":"not_found","message":"run r does not exist"}')).toEqual({
      type: 'not_found',
      message: 'run r does not exist',
    });
  });

  it("becomes the refusal its status stands for, with the text's start as its message", () => {
    expect(rejectionOf(502, '<html>Bad Gateway</html>')).toEqual({
      type: 'internal',
      message: 'HTTP 502: <html>Bad Gateway</html>',
    });
    expect(rejectionOf(503, '')).toEqual({ type: 'unavailable', message: 'HTTP 503' });
    expect(rejectionOf(409, '{"oops":1}')).toMatchObject({ type: 'conflict' });
  });
});
