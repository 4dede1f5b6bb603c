import { describe, expect, it } from 'vitest';
import { artifactVersionKey, messageKey, targetKey } from '../../src/core/index.js';

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
