import { describe, expect, it } from 'vitest';
import {
  artifactVersionKey,
  messageKey,
  targetKey,
  threadGeneration,
  threadGenerationSeq,
} from '../../src/core/index.js';

// Keys are stored (the views' primary keys, feedback's target keys), so their spelling is a
// format: changing it would orphan every row written before.
describe('keys', () => {
  it('spell each kind of target its own way', () => {
    expect(targetKey({ kind: 'artifact', artifact_id: 'a1', version: 2 })).toBe('artifact:a1@2');
    expect(targetKey({ kind: 'thread', thread_id: 't1' })).toBe('thread:t1');
    expect(targetKey({ kind: 'turn', run_id: 'r1' })).toBe('turn:r1');
    expect(targetKey({ kind: 'message', message_id: 'm1', thread_id: 't1', run_id: 'r1' })).toBe(
      'message:t1/m1',
    );
  });

  it('tell versions of one artifact apart', () => {
    const v1 = targetKey({ kind: 'artifact', artifact_id: 'a1', version: 1 });
    expect(v1).not.toBe(targetKey({ kind: 'artifact', artifact_id: 'a1', version: 2 }));
    expect(v1).not.toBe(targetKey({ kind: 'artifact', artifact_id: 'a2', version: 1 }));
  });

  it('escape the separators and % as % and two upper-case hex digits', () => {
    expect(messageKey('a:b/c', '50%@x')).toBe('a%3Ab%2Fc/50%25%40x');
    expect(artifactVersionKey('a@b', 3)).toBe('a%40b@3');
    expect(targetKey({ kind: 'thread', thread_id: 'x:y' })).toBe('thread:x%3Ay');
  });
});

describe('thread generations', () => {
  it('are named by the last seq they cover, and read back to it', () => {
    expect(threadGeneration(7)).toBe('thread:7');
    expect(threadGenerationSeq('thread:7')).toBe(7);
    expect(threadGenerationSeq(threadGeneration(1234567))).toBe(1234567);
    expect(threadGenerationSeq('thread:0')).toBe(0);
  });

  it('read no seq from any other generation', () => {
    for (const other of [
      'thread:',
      'thread:x',
      'thread:12x',
      'xthread:12',
      'run:12',
      'thread:-1',
    ]) {
      expect(threadGenerationSeq(other), other).toBeNull();
    }
  });
});
