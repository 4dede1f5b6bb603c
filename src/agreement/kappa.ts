// Cohen's κ from a confusion matrix of counts (rows side A, columns side B, `size` labels), in
// integers as far as it goes: κ = 1 - n·(n - agreed) / (n² - Σ rowᵢ·columnᵢ), one division at
// the end. This is scikit-learn's `1 - Σ w·confusion / Σ w·expected` with the unweighted w, both
// sides multiplied by n. NaN when the expected disagreement is 0 (one label only on both sides).

/** κ of the cells, or NaN when chance agreement is 1. `rows` and `columns` are scratch space. */
export function kappaOfCells(
  cells: Float64Array,
  size: number,
  rows: Float64Array,
  columns: Float64Array,
): number {
  rows.fill(0);
  columns.fill(0);
  let agreed = 0;
  let n = 0;
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j < size; j += 1) {
      const count = cells[i * size + j] as number;
      rows[i] = (rows[i] as number) + count;
      columns[j] = (columns[j] as number) + count;
      n += count;
    }
    agreed += cells[i * size + i] as number;
  }
  let chance = 0;
  for (let i = 0; i < size; i += 1) chance += (rows[i] as number) * (columns[i] as number);
  const expectedDisagreement = n * n - chance;
  if (expectedDisagreement === 0) return Number.NaN;
  return 1 - (n * (n - agreed)) / expectedDisagreement;
}
