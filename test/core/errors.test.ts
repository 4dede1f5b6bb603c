import { describe, expect, it } from 'vitest';
import {
  InvalidDurationError,
  InvalidFeedbackTypeError,
  InvalidLimitsError,
} from '../../src/core/index.js';

// Each error says what it is by name too, for logs and callers that only see `error.name`.
describe('the errors of the core', () => {
  it.each([
    ['InvalidFeedbackTypeError', new InvalidFeedbackTypeError('m')],
    ['InvalidLimitsError', new InvalidLimitsError('m')],
    ['InvalidDurationError', new InvalidDurationError('m')],
  ])('are named %s', (name, error) => {
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
  });
});
