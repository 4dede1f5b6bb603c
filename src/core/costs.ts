import { z } from 'zod';

// What judging costs: the usage an evaluator reports, the price table that turns tokens into
// money, and money itself. Money is counted in whole nano-dollars (1e-9 USD), so sums over any
// number of evaluations are exact integers and round to the cent the same way everywhere.

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

const NANOS_PER_USD = 1e9;

export const nanosOf = (usd: number): number => Math.round(usd * NANOS_PER_USD);
export const usdOf = (nanos: number): number => nanos / NANOS_PER_USD;

/** The places after the point that show `usd` exactly, to the nano-dollar: 0 to 9. */
export function usdPlaces(usd: number): number {
  let nanos = Math.abs(nanosOf(usd));
  let places = 9;
  while (places > 0 && nanos % 10 === 0) {
    nanos /= 10;
    places -= 1;
  }
  return places;
}

/** The places `usdText(usd, places)` shows: cents, below a dollar hundredths of a cent, to nine. */
export const usdShownPlaces = (usd: number, places = 0): number =>
  Math.min(Math.max(places, Math.abs(usd) < 1 ? 4 : 2), 9);

/**
 * USD as evalflow prints it, everywhere: `$12.50`, `$0.0010`. Cents from a dollar, hundredths of
 * a cent below one (judging often costs less than a cent), and more places when `places` asks for
 * them, to nine (the nano-dollar).
 */
export function usdText(usd: number, places = 0): string {
  const text = Math.abs(usd).toFixed(usdShownPlaces(usd, places));
  return `${usd < 0 && Number(text) !== 0 ? '-' : ''}$${text}`;
}

/**
 * A spend and the limit (a budget) it is measured against, as printed side by side: the limit as
 * it was set (`0.001` is `$0.0010`, `0.00125` `$0.00125`, never `$0.00`), the spend at least as
 * finely (`['$0.0011', '$0.0010']`).
 */
export function spendAndLimitText(spentUsd: number, limitUsd: number): [string, string] {
  const places = usdPlaces(limitUsd);
  return [usdText(spentUsd, places), usdText(limitUsd, places)];
}

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
