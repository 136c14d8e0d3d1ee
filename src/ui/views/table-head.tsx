// A table's header row, the same in every view: each column's name, a numeric one right-aligned (`.num`).

/** A column: its name, or `{ numeric: name }` for one that holds numbers. */
export type Column = string | { numeric: string };

export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === "string" ? (
            <th scope="col">{column}</th>
          ) : (
            <th scope="col" class="num">
              {column.numeric}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
