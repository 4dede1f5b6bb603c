/** A small deterministic generator of numbers in [0, 1), so every run measures the same values. */
export function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
