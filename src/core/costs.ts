import { z } from 'zod';
import { nanosOf } from './money.js';

// What judging costs: the usage an evaluator reports and the price table that turns tokens into
// money (counted and written as money.ts does).

/** What one call of an evaluator's model used, as the evaluator reports it. */
export const UsageReport = z.strictObject({
  /** The model as the price table names it. */
  model: z.string().min(1).max(200),
  inputTokens: z.int().min(0),
  outputTokens: z.int().min(0),
  /** What the call cost, when the provider says; otherwise the price table decides. */
  costUsd: z.number().min(0).finite().optional(),
});
export type UsageReport = z.infer<typeof UsageReport>;

/** A model's price, in USD per million tokens. */
export const ModelPrice = z.strictObject({
  inputPerMillionUsd: z.number().min(0).finite(),
  outputPerMillionUsd: z.number().min(0).finite(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Prices by model name. */
export const Pricing = z.record(z.string().min(1), ModelPrice);
export type Pricing = z.infer<typeof Pricing>;

/**
 * A report's cost in nano-dollars: the evaluator's own figure, else its tokens at the model's
 * price, else null: unknown, never a made-up figure.
 */
export function costNanos(report: UsageReport, pricing: Pricing): number | null {
  if (report.costUsd !== undefined) return nanosOf(report.costUsd);
  const price = pricing[report.model];
  if (price === undefined) return null;
  // USD per million tokens = 1,000 nano-dollars per token.
  return Math.round(
    report.inputTokens * price.inputPerMillionUsd * 1000 +
      report.outputTokens * price.outputPerMillionUsd * 1000,
  );
}
