// Counted nouns, written as English counts them: `1 report`, `2 reports`, `0 reports`. Imports
// nothing, so the reviewers' page takes it as it is.

/**
 * `count` and its noun, singular for exactly one: `counted(1, 'report')` is `1 report`. A noun
 * whose plural is not its singular with an `s` gives it: `counted(2, 'category', 'categories')`.
 */
export const counted = (count: number, singular: string, plural = `${singular}s`): string =>
  `${count} ${count === 1 ? singular : plural}`;
