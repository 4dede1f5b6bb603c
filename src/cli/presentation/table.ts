// Plain text tables for the terminal: a header, a rule, and left-aligned columns padded to fit.

export type Cell = string | number | boolean | null | undefined;

const text = (cell: Cell): string => (cell === null || cell === undefined ? '-' : String(cell));

/** The table's lines; an empty table is its header and rule alone. */
export function renderTable(
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): string[] {
  const cells = rows.map((row) => columns.map((_, i) => text(row[i])));
  const widths = columns.map((title, i) =>
    Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}
