// The bench's one table: a row per figure, with its goal and whether it met it.

export interface Figure {
  scenario: string;
  name: string;
  value: number | string;
  goal: string;
  ok: boolean;
}

export function printTable(figures: Figure[], title: string): void {
  const header = ['scenario', 'figure', 'value', 'goal', 'met'];
  const rows = figures.map((f) => [
    f.scenario,
    f.name,
    String(f.value),
    f.goal,
    f.ok ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(title);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
}
