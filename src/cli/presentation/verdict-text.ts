// A verdict's value on one table cell: its JSON, cut where it would take the line over. The
// `--json` forms print it whole.

const MOST = 120;

/** `{"verdict":"pass","note":""}`; a longer value ends in `…`. */
export function valueText(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.length <= MOST ? json : `${json.slice(0, MOST - 1)}…`;
}
