import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Actor,
  admit,
  COMMAND_ID_MAX_LENGTH,
  ID_MAX_LENGTH,
  idProblem,
  isId,
  Target,
  Text,
} from '../../src/core/index.js';

const system = { kind: 'system' };

describe('the id rule', () => {
  it('takes 1 to 128 UTF-16 units of well-formed Unicode, separators and emoji included', () => {
    for (const id of ['t', 'a/b@c:d%', 'fil é', '😀', 'x'.repeat(ID_MAX_LENGTH)]) {
      expect(idProblem(id), id).toBeNull();
    }
    // A surrogate pair is one character but two units.
    expect(isId('😀'.repeat(ID_MAX_LENGTH / 2))).toBe(true);
    expect(idProblem(`${'😀'.repeat(ID_MAX_LENGTH / 2)}x`)).toBe(
      'an id is at most 128 UTF-16 units long, not 129',
    );
  });

  it('refuses an empty id, one unit too many, a lone surrogate and each control character', () => {
    expect(idProblem('')).toBe('an id cannot be empty');
    expect(idProblem('x'.repeat(ID_MAX_LENGTH + 1))).toBe(
      'an id is at most 128 UTF-16 units long, not 129',
    );
    for (const lone of ['\ud800', 'a\udfffb', '\udc00\ud800', '😀'.slice(0, 1)]) {
      expect(idProblem(lone)).toBe('an id must be well-formed Unicode (it holds a lone surrogate)');
    }
    const controls = [
      ...Array.from({ length: 0x20 }, (_, c) => c),
      ...Array.from({ length: 0x21 }, (_, c) => 0x7f + c),
    ];
    for (const code of controls) {
      expect(idProblem(`a${String.fromCharCode(code)}b`), `U+${code.toString(16)}`).toBe(
        'an id cannot hold a control character (U+0000–U+001F, U+007F–U+009F)',
      );
    }
    expect(isId('a\u00a0b')).toBe(true);
    expect(idProblem(7)).toBe('an id is a string, not a number');
    expect(idProblem(null)).toBe('an id is a string, not null');
    expect(idProblem(undefined)).toBe('an id is a string, not undefined');
    expect(idProblem(['a'])).toBe('an id is a string, not an array');
    expect(idProblem({ id: 'a' })).toBe('an id is a string, not an object');
  });

  it('gives command ids room for the ids the engine derives', () => {
    expect(idProblem('c'.repeat(COMMAND_ID_MAX_LENGTH), COMMAND_ID_MAX_LENGTH)).toBeNull();
    expect(idProblem('c'.repeat(COMMAND_ID_MAX_LENGTH + 1), COMMAND_ID_MAX_LENGTH)).toBe(
      'an id is at most 512 UTF-16 units long, not 513',
    );
  });

  it('is what every id of every command, actor and target is held to', () => {
    const badIds = fc.oneof(
      fc.constant(''),
      fc.constant('x'.repeat(ID_MAX_LENGTH + 1)),
      fc.constantFrom('\ud800', 'a\udc00', 'nul\u0000', 'tab\t', 'c1\u0085'),
    );
    const placements = [
      (id: string) => ({ type: 'create_thread', thread_id: id }),
      (id: string) => ({ type: 'start_run', run_id: id, thread_id: 't' }),
      (id: string) => ({ type: 'start_run', run_id: 'r', thread_id: 't', trace_id: id }),
      (id: string) => ({
        type: 'post_message',
        thread_id: 't',
        message_id: id,
        role: 'user',
        content: '',
      }),
      (id: string) => ({
        type: 'post_message',
        thread_id: 't',
        role: 'user',
        content: '',
        run_id: id,
      }),
      (id: string) => ({ type: 'put_artifact', artifact_id: id, kind: 'k' }),
      (id: string) => ({ type: 'put_artifact', artifact_id: 'a', kind: id }),
      (id: string) => ({ type: 'archive_artifact', artifact_id: id }),
      (id: string) => ({ type: 'end_run', run_id: id, status: 'completed' }),
      (id: string) => ({ type: 'pause_run', run_id: id }),
      (id: string) => ({
        type: 'give_feedback',
        feedback_type: id,
        target: { kind: 'turn', run_id: 'r' },
      }),
      (id: string) => ({
        type: 'give_feedback',
        feedback_type: 'f',
        target: { kind: 'thread', thread_id: id },
      }),
      (id: string) => ({
        type: 'withdraw_feedback',
        feedback_type: 'f',
        target: { kind: 'artifact', artifact_id: id, version: 1 },
      }),
      (id: string) => ({
        type: 'rate_message',
        thread_id: 't',
        message_id: id,
        feedback_type: 'f',
      }),
      (id: string) => ({
        type: 'delete_rating',
        thread_id: 't',
        message_id: 'm',
        feedback_type: id,
      }),
    ];
    fc.assert(
      fc.property(badIds, fc.constantFrom(...placements), (id, place) => {
        const admitted = admit(system, place(id));
        expect(admitted.ok).toBe(false);
        if (!admitted.ok) expect(admitted.rejection.type).toBe('validation_failed');
      }),
    );
    for (const commandId of ['', '\ud800', 'c\u0000', 'c'.repeat(COMMAND_ID_MAX_LENGTH + 1)]) {
      expect(
        admit(system, { type: 'create_thread', thread_id: 't', command_id: commandId }).ok,
      ).toBe(false);
    }
    for (const actor of [
      { kind: 'user', id: '\ud800' },
      { kind: 'user', id: 'u', name: 'a\u0000' },
      { kind: 'agent', thread_id: 'x'.repeat(ID_MAX_LENGTH + 1) },
      { kind: 'system', name: '' },
      { kind: 'reviewer', id: '' },
      { kind: 'evaluator', name: 'tone', version: 'v\u0000' },
      { kind: 'evaluator', name: 'a@b', version: '1' },
    ]) {
      expect(Actor.safeParse(actor).success, JSON.stringify(actor)).toBe(false);
    }
    expect(
      Target.safeParse({ kind: 'message', message_id: 'm', thread_id: '\udbff' }).success,
    ).toBe(false);
  });

  it('names the field and the problem in the rejection', () => {
    const admitted = admit(system, { type: 'create_thread', thread_id: 'a\ud800' });
    expect(admitted).toEqual({
      ok: false,
      rejection: {
        type: 'validation_failed',
        message:
          'invalid command: thread_id: an id must be well-formed Unicode (it holds a lone surrogate)',
        errors: [
          {
            code: 'custom',
            path: ['thread_id'],
            message: 'an id must be well-formed Unicode (it holds a lone surrogate)',
          },
        ],
      },
    });
  });
});

describe('free text', () => {
  it('holds any well-formed character, control characters included, and no lone surrogate', () => {
    expect(Text.safeParse('line one\nline two\t\u0000 😀').success).toBe(true);
    expect(Text.safeParse('half \ud83d').success).toBe(false);
    const admitted = admit(system, { type: 'create_thread', thread_id: 't', title: '\udc00' });
    expect(admitted.ok ? null : admitted.rejection.message).toBe(
      'invalid command: title: text must be well-formed Unicode (it holds a lone surrogate)',
    );
  });
});
