// The WHERE clause of a filtered read, built a condition at a time: each condition is added with
// the values of its `?` placeholders, so the parameters stay in the clause's order.

/** A read's conditions, to be joined by AND, and their parameters in order. */
export class Conditions {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  /** Adds a condition and the values of its placeholders. */
  add(clause: string, ...values: unknown[]): this {
    this.where.push(clause);
    this.params.push(...values);
    return this;
  }

  /** `column = value`, when a value is given. */
  equal(column: string, value: unknown): this {
    return value === undefined ? this : this.add(`${column} = ?`, value);
  }

  /** `column = value` for each column named whose value `values` holds under its name. */
  equalEach<T>(values: T, columns: readonly (keyof T & string)[]): this {
    for (const column of columns) this.equal(column, values[column]);
    return this;
  }

  /**
   * `column` at or after `from` and before `to`, for each bound given. Stored times are
   * `toISOString()` strings, which order as the instants they name, so the bounds are written so.
   */
  between(column: string, from: string | undefined, to: string | undefined): this {
    if (from !== undefined) this.add(`${column} >= ?`, new Date(from).toISOString());
    if (to !== undefined) this.add(`${column} < ?`, new Date(to).toISOString());
    return this;
  }
}
