import type { ComponentChildren } from 'preact';

// A table's head: a row of column headers, each scoped to its column for screen readers. A
// table's columns are fixed, so each header's place is its key.

export function ColumnHeads({ names }: { names: readonly ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {names.map((name, i) => (
          <th key={i} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
