// What the contract suites record: verdicts of a small type that has every data type, and a
// person's feedback score on a session.
import { z } from 'zod';
import { scoreConfigs } from '../configs/schema-configs.js';
import { scoreId } from '../model/ids.js';
import type { Score } from '../model/score.js';
import { scores, type Verdict } from '../values/verdicts.js';

export const ContractVerdict = z.strictObject({
  rating: z.int().min(1).max(5).describe('How good the answer was'),
  resolved: z.boolean(),
  tone: z.enum(['warm', 'neutral', 'cold']),
  reason: z.string(),
});

export const CONTRACT_TYPE = 'evalflow_contract';

export function contractVerdict(i: number): Verdict<typeof ContractVerdict> {
  return {
    schema: ContractVerdict,
    typeName: CONTRACT_TYPE,
    value: { rating: 1 + (i % 5), resolved: i % 2 === 0, tone: 'warm', reason: `reason ${i}` },
    confidence: { rating: 0.75, resolved: 0.5 },
    evaluator: 'evalflow-contract',
    version: '1',
    traceId: (i + 1).toString(16).padStart(32, '0'),
  };
}

export function contractVerdictScores(i: number, subject?: string, spanId?: string): Score[] {
  return scores(contractVerdict(i), { subject, spanId });
}

/** A person's score on a session alone, with a time and a source, as feedback mirrors send. */
export function contractFeedbackScore(): Score {
  return {
    id: scoreId('evalflow-contract-envelope', `${CONTRACT_TYPE}.rating`),
    name: `${CONTRACT_TYPE}.rating`,
    value: 4,
    dataType: 'NUMERIC',
    sessionId: 'evalflow-contract-session',
    timestamp: '2026-09-29T12:30:00.000Z',
    source: { actor: 'user:evalflow-contract-person', feedback_type: CONTRACT_TYPE },
  };
}

export function contractConfigs() {
  return scoreConfigs(ContractVerdict, { typeName: CONTRACT_TYPE });
}
