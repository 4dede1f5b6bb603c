import { z } from 'zod';

// The id rule (docs/limits.md): every id, and every other string the store keys on, is 1 to
// ID_MAX_LENGTH UTF-16 units of well-formed Unicode with no control character. A lone surrogate
// does not survive a trip through SQLite's UTF-8 (it reads back as U+FFFD, so two ids collapse
// into one), Postgres refuses NUL in text, and several ids form one index key, which Postgres
// caps at about 2.7 KB: 128 units are at most 384 bytes of UTF-8, escaped or not.

/** The longest id, in UTF-16 units (what `String.prototype.length` counts). */
export const ID_MAX_LENGTH = 128;

/**
 * The longest command id. Longer than an id because the engine derives its own from several
 * ids (a workflow id, a participant, a target); still short enough for the commands table's key.
 */
export const COMMAND_ID_MAX_LENGTH = 512;

// In a `u` regex a surrogate pair is one code point, so \p{Cs} matches only a lone surrogate.
const LONE_SURROGATE = /\p{Cs}/u;
// Unicode's control characters (category Cc): U+0000–U+001F and U+007F–U+009F.
const CONTROL = /\p{Cc}/u;

export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/** What is wrong with a would-be id, or null when it follows the rule. */
export function idProblem(value: unknown, maxLength = ID_MAX_LENGTH): string | null {
  if (typeof value !== 'string') return `an id is a string, not ${kindOf(value)}`;
  if (value.length === 0) return 'an id cannot be empty';
  if (value.length > maxLength) {
    return `an id is at most ${maxLength} UTF-16 units long, not ${value.length}`;
  }
  if (!isWellFormed(value)) return 'an id must be well-formed Unicode (it holds a lone surrogate)';
  if (CONTROL.test(value)) {
    return 'an id cannot hold a control character (U+0000–U+001F, U+007F–U+009F)';
  }
  return null;
}

export const isId = (value: unknown): value is string => idProblem(value) === null;

const ruled = (maxLength: number) =>
  z.string().check((ctx) => {
    const problem = idProblem(ctx.value, maxLength);
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });

/** An id: 1 to 128 UTF-16 units of well-formed Unicode, no control characters. */
export const Id = ruled(ID_MAX_LENGTH);

/** A command id: the id rule with room for the engine's derived ids (512 units). */
export const CommandId = ruled(COMMAND_ID_MAX_LENGTH);

/** Free text (titles, contents, reasons, labels): any characters, but well-formed Unicode. */
export const Text = z.string().refine(isWellFormed, {
  message: 'text must be well-formed Unicode (it holds a lone surrogate)',
});

export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return withArticle(typeof value);
}

/** `an agent`, `a user`: a word with its indefinite article, as messages name kinds. */
export const withArticle = (word: string): string =>
  /^(?:[aeio]|u(?!s|ni))/i.test(word) ? `an ${word}` : `a ${word}`;
