import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Actor,
  artifactVersionKey,
  messageKey,
  participantOf,
  Target,
  targetKey,
} from '../../src/core/index.js';

describe('actors', () => {
  it('are known by their participant ids', () => {
    const participants = [
      { kind: 'user', id: 'u1', name: 'Ann' },
      { kind: 'agent', thread_id: 't1' },
      { kind: 'system' },
      { kind: 'evaluator', name: 'tone', version: '2.1' },
      { kind: 'reviewer', id: 'rv1' },
    ].map((actor) => participantOf(Actor.parse(actor)));
    expect(participants).toEqual([
      'user:u1',
      'agent:t1',
      'system:system',
      'evaluator:tone@2.1',
      'reviewer:rv1',
    ]);
  });

  it('refuse unknown kinds and unknown keys', () => {
    expect(Actor.safeParse({ kind: 'robot', id: 'x' }).success).toBe(false);
    expect(Actor.safeParse({ kind: 'user', id: 'u1', admin: true }).success).toBe(false);
    expect(Actor.safeParse({ kind: 'evaluator', name: 'tone' }).success).toBe(false);
  });
});

describe('targets', () => {
  it('need an integer version of at least 1 and refuse unknown keys', () => {
    expect(Target.safeParse({ kind: 'artifact', artifact_id: 'a', version: 1 }).success).toBe(true);
    expect(Target.safeParse({ kind: 'artifact', artifact_id: 'a', version: 0 }).success).toBe(
      false,
    );
    expect(Target.safeParse({ kind: 'artifact', artifact_id: 'a', version: 1.5 }).success).toBe(
      false,
    );
    expect(Target.safeParse({ kind: 'turn', run_id: 'r', thread_id: 't' }).success).toBe(false);
  });

  it("default a message's run to null", () => {
    expect(Target.parse({ kind: 'message', message_id: 'm', thread_id: 't' })).toEqual({
      kind: 'message',
      message_id: 'm',
      thread_id: 't',
      run_id: null,
    });
  });

  it('make one key per message whether or not its run is named', () => {
    const withRun = Target.parse({ kind: 'message', message_id: 'm', thread_id: 't', run_id: 'r' });
    const without = Target.parse({ kind: 'message', message_id: 'm', thread_id: 't' });
    expect(targetKey(withRun)).toBe(targetKey(without));
  });

  it('never share a key between two different pairs of ids', () => {
    const id = fc.string({
      minLength: 1,
      maxLength: 6,
      unit: fc.constantFrom('a', '/', '@', ':', '%', '2', 'F'),
    });
    fc.assert(
      fc.property(id, id, id, id, (t1, m1, t2, m2) => {
        fc.pre(t1 !== t2 || m1 !== m2);
        const key = (thread_id: string, message_id: string) =>
          targetKey({ kind: 'message', thread_id, message_id, run_id: null });
        expect(key(t1, m1)).not.toBe(key(t2, m2));
        expect(messageKey(t1, m1)).not.toBe(messageKey(t2, m2));
      }),
    );
    expect(artifactVersionKey('a@1', 2)).not.toBe(artifactVersionKey('a', 12));
  });
});
