import type { Command } from './commands.js';
import { InvalidLimitsError } from './errors.js';
import { type Rejection, validationFailed } from './rejections.js';

// Size limits (docs/limits.md), in bytes of UTF-8: of the text for strings, of the serialized
// JSON for JSON values. They are checked before anything is stored or sent to Temporal, so one
// oversized input can neither bloat the log nor stick a workflow on Temporal's payload limit.

export interface Limits {
  /** A thread's title. */
  titleBytes: number;
  /** A message's content. */
  messageContentBytes: number;
  /** An artifact version's data, serialized. */
  artifactDataBytes: number;
  /** A feedback value (a rating, a verdict, a review with its note), serialized. */
  feedbackValueBytes: number;
  /** The reason a run was paused. */
  pauseReasonBytes: number;
  /** A feedback's source label. */
  sourceLabelBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  titleBytes: 1024,
  messageContentBytes: 1024 * 1024,
  artifactDataBytes: 1024 * 1024,
  feedbackValueBytes: 64 * 1024,
  pauseReasonBytes: 1024,
  sourceLabelBytes: 256,
});

const limitNames = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/**
 * The defaults with the given limits in their place.
 *
 * @throws InvalidLimitsError for an unknown limit or one that is not a whole number from 1.
 */
export function resolveLimits(given: Partial<Limits> = {}): Readonly<Limits> {
  for (const [name, value] of Object.entries(given)) {
    if (!(limitNames as string[]).includes(name)) {
      throw new InvalidLimitsError(
        `unknown limit ${name}; the limits are ${limitNames.join(', ')}`,
      );
    }
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      throw new InvalidLimitsError(`limit ${name} is a whole number of bytes from 1, not ${value}`);
    }
  }
  const defined = Object.entries(given).filter(([, value]) => value !== undefined);
  return Object.freeze({ ...DEFAULT_LIMITS, ...Object.fromEntries(defined) });
}

/** A string's length in bytes of UTF-8, counted without encoding it (a lone surrogate as 3). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** A JSON value's size as stored: its serialization's bytes of UTF-8. */
export const jsonBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value) ?? 'null');

/** A measured field over its limit, as a rejection naming the field, its size and the limit. */
export function overLimit(
  field: string,
  bytes: number,
  limit: keyof Limits,
  limits: Readonly<Limits>,
): Rejection | null {
  const max = limits[limit];
  if (bytes <= max) return null;
  return validationFailed(
    `${field} is ${bytes} bytes of UTF-8, over the limit of ${max} (${limit})`,
    [{ path: field.split('.'), size: bytes, limit: max, name: limit }],
  );
}

/** How a capped field is measured: as text (null and absent pass) or as serialized JSON. */
type Measure = 'text' | 'json';
type CappedField = readonly [field: string, measure: Measure, limit: keyof Limits];

// The capped fields of each command, checked in order: the first over its limit is the rejection.
const CAPPED: Partial<Record<Command['type'], readonly CappedField[]>> = {
  create_thread: [['title', 'text', 'titleBytes']],
  pause_run: [['reason', 'text', 'pauseReasonBytes']],
  post_message: [
    ['content', 'text', 'messageContentBytes'],
    ['feedback', 'json', 'feedbackValueBytes'],
  ],
  put_artifact: [['data', 'json', 'artifactDataBytes']],
  give_feedback: [
    ['value', 'json', 'feedbackValueBytes'],
    ['source_label', 'text', 'sourceLabelBytes'],
  ],
  rate_message: [['value', 'json', 'feedbackValueBytes']],
  // A score's comment is feedback people read, as a value's note is.
  record_score: [
    ['source_label', 'text', 'sourceLabelBytes'],
    ['comment', 'text', 'feedbackValueBytes'],
  ],
  // A queue's instructions are text reviewers read, as a message is.
  set_review_queue: [['instructions', 'text', 'messageContentBytes']],
};

/** The first field of an admitted command over its limit, as a rejection; null when none is. */
export function limitViolation(command: Command, limits: Readonly<Limits>): Rejection | null {
  const fields = command as unknown as Readonly<Record<string, unknown>>;
  for (const [field, measure, limit] of CAPPED[command.type] ?? []) {
    const value = fields[field];
    if (value == null && measure === 'text') continue;
    if (value === undefined) continue;
    const bytes = measure === 'text' ? utf8Bytes(value as string) : jsonBytes(value);
    const rejection = overLimit(field, bytes, limit, limits);
    if (rejection !== null) return rejection;
  }
  return null;
}
