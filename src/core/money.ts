// Money as evalflow counts and writes it: whole nano-dollars (1e-9 USD), so sums over any number
// of evaluations are exact integers, printed at the precision that shows what was spent. Imports
// nothing, so the reviewers' page takes it as it is.

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

/** USD to the last nano-dollar it holds, at least as `usdText` writes it: `$0.0018`, `$0.000012`. */
export const usdExactText = (usd: number): string => usdText(usd, usdPlaces(usd));

/**
 * A spend and the limit (a budget) it is measured against, as printed side by side: the limit as
 * it was set (`0.001` is `$0.0010`, `0.00125` `$0.00125`, never `$0.00`), the spend at least as
 * finely (`['$0.0011', '$0.0010']`).
 */
export function spendAndLimitText(spentUsd: number, limitUsd: number): [string, string] {
  const places = usdPlaces(limitUsd);
  return [usdText(spentUsd, places), usdText(limitUsd, places)];
}
