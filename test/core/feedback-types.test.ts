import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  InvalidFeedbackTypeError,
} from '../../src/core/index.js';

const schema = z.object({ rating: z.int().min(1).max(5) });

describe('defineFeedbackType', () => {
  it('keeps the name, sorts the targets and makes the schema refuse unknown keys', () => {
    const type = defineFeedbackType({
      name: 'quality',
      targets: ['turn', 'message', 'turn'],
      schema,
    });
    expect(type.name).toBe('quality');
    expect(type.targets).toEqual(['message', 'turn']);
    expect(type.source).toBeNull();
    expect(type.configName).toBeNull();
    expect(type.schema.safeParse({ rating: 3 }).success).toBe(true);
    expect(type.schema.safeParse({ rating: 3, extra: true }).success).toBe(false);
  });

  it('refuses empty targets and unknown target kinds at definition', () => {
    expect(() => defineFeedbackType({ name: 'quality', targets: [], schema })).toThrow(
      "quality must declare targets from [artifact, message, thread, turn], such as targets: ['turn']",
    );
    expect(() =>
      defineFeedbackType({ name: 'quality', targets: ['span' as 'turn'], schema }),
    ).toThrow(InvalidFeedbackTypeError);
    // One unknown kind among known ones is refused too.
    expect(() =>
      defineFeedbackType({ name: 'quality', targets: ['turn', 'span' as 'turn'], schema }),
    ).toThrow('quality must declare targets from [artifact, message, thread, turn]');
  });

  it('refuses a name the id rule refuses, since commands name the type by it', () => {
    expect(() => defineFeedbackType({ name: 'q'.repeat(129), targets: ['turn'], schema })).toThrow(
      new InvalidFeedbackTypeError(
        `feedback type name ${'q'.repeat(129)}: an id is at most 128 UTF-16 units long, not 129`,
      ),
    );
    expect(() => defineFeedbackType({ name: 'q\u0000', targets: ['turn'], schema })).toThrow(
      InvalidFeedbackTypeError,
    );
  });

  it('refuses an empty name, and a name that is not a string, with its own error', () => {
    expect(() => defineFeedbackType({ name: ' ', targets: ['turn'], schema })).toThrow(
      'a feedback type needs a non-empty name',
    );
    // A config file in plain JavaScript can pass anything.
    expect(() =>
      defineFeedbackType({ name: 42 as unknown as string, targets: ['turn'], schema }),
    ).toThrow(new InvalidFeedbackTypeError('a feedback type needs a non-empty name'));
  });

  it('refuses a source that is not a score source', () => {
    expect(() =>
      defineFeedbackType({ name: 'quality', targets: ['turn'], schema, source: 'AGENT' as 'USER' }),
    ).toThrow(new InvalidFeedbackTypeError('quality declares an unknown source AGENT'));
  });

  it("requires a reviewers' type to name its score config", () => {
    expect(() =>
      defineFeedbackType({ name: 'review', targets: ['turn'], schema, source: 'HUMAN' }),
    ).toThrow('review is for reviewers and must name its score config (configName)');
    const review = defineFeedbackType({
      name: 'review',
      targets: ['turn'],
      schema,
      source: 'HUMAN',
      configName: 'review',
    });
    expect(review).toMatchObject({ source: 'HUMAN', configName: 'review' });
  });
});

describe('the feedback type registry', () => {
  it('finds types by name and lists them', () => {
    const a = defineFeedbackType({ name: 'a', targets: ['turn'], schema });
    const b = defineFeedbackType({ name: 'b', targets: ['thread'], schema });
    const registry = createFeedbackTypeRegistry([a, b]);
    expect(registry.get('a')).toBe(a);
    expect(registry.get('c')).toBeUndefined();
    expect(registry.list().map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('starts empty when given no types', () => {
    const registry = createFeedbackTypeRegistry();
    expect(registry.list()).toEqual([]);
    const a = defineFeedbackType({ name: 'a', targets: ['turn'], schema });
    registry.register(a);
    expect(registry.list()).toEqual([a]);
  });

  it('refuses a name taken by another type, and allows registering the same type again', () => {
    const first = defineFeedbackType({ name: 'quality', targets: ['turn'], schema });
    const registry = createFeedbackTypeRegistry([first]);
    expect(registry.register(first)).toBe(first);
    const other = defineFeedbackType({ name: 'quality', targets: ['thread'], schema });
    expect(() => registry.register(other)).toThrow(
      "feedback type name 'quality' is already registered by another type; choose another name",
    );
  });
});
