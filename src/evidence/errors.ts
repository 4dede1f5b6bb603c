import type { Rejection } from '../core/index.js';

/**
 * A comparison that cannot be made as asked: a side that does not parse, a field the type lacks,
 * an evaluator not deployed, two fields of different kinds. It carries the rejection the API
 * answers with (`not_found` for what does not exist, `validation_failed` for the rest), and
 * nothing was read or written.
 */
export class AgreementQueryError extends Error {
  override readonly name = 'AgreementQueryError';
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
  }
}

export const invalidQuery = (message: string): AgreementQueryError =>
  new AgreementQueryError({ type: 'validation_failed', message, errors: [] });

export const missing = (entity: string, id: string, message: string): AgreementQueryError =>
  new AgreementQueryError({ type: 'not_found', entity, id, message });
