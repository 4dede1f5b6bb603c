// Ranks with ties averaged (scipy's `rankdata(method='average')`, the ranks Spearman's ρ uses).
// The values are ordered by a radix sort of their bits: each double becomes a 64-bit key that
// orders as the numbers do, sorted 16 bits at a time, least significant first, four stable
// passes over typed arrays (no comparator, no object per value). Runs of equal values in that
// order share the mean of the ranks they span.

const DIGITS = 1 << 16;

/** Indices of `values` in ascending order of value (stable), for finite values. */
export function ascendingOrder(values: Float64Array): Uint32Array {
  const n = values.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  const high = new Uint32Array(n);
  const low = new Uint32Array(n);
  // Little-endian doubles: word 2i is the low half, 2i+1 the high half with the sign. A negative
  // number has all its bits flipped, a positive one its sign bit set, so keys order as numbers.
  for (let i = 0; i < n; i += 1) {
    const h = words[2 * i + 1] as number;
    const l = words[2 * i] as number;
    const negative = h >>> 31 === 1;
    high[i] = negative ? ~h >>> 0 : (h | 0x80000000) >>> 0;
    low[i] = negative ? ~l >>> 0 : l;
  }
  let order = new Uint32Array(n);
  let next = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  const counts = new Uint32Array(DIGITS);
  for (let pass = 0; pass < 4; pass += 1) {
    const key = pass < 2 ? low : high;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i += 1) {
      const digit = ((key[i] as number) >>> shift) & 0xffff;
      counts[digit] = (counts[digit] as number) + 1;
    }
    let start = 0;
    for (let d = 0; d < DIGITS; d += 1) {
      const count = counts[d] as number;
      counts[d] = start;
      start += count;
    }
    for (let i = 0; i < n; i += 1) {
      const index = order[i] as number;
      const digit = ((key[index] as number) >>> shift) & 0xffff;
      const at = counts[digit] as number;
      next[at] = index;
      counts[digit] = at + 1;
    }
    [order, next] = [next, order];
  }
  return order;
}

/** The 1-based ranks of finite values, ties given the mean of the ranks they span. */
export function averageRanks(values: Float64Array): Float64Array {
  const order = ascendingOrder(values);
  const ranks = new Float64Array(values.length);
  let start = 0;
  while (start < order.length) {
    const value = values[order[start] as number];
    let end = start + 1;
    // -0 and 0 are adjacent in the order and equal here: one tie, as in scipy.
    while (end < order.length && values[order[end] as number] === value) end += 1;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k += 1) ranks[order[k] as number] = rank;
    start = end;
  }
  return ranks;
}
