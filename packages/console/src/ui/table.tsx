/** The console's tables and cards: one markup for every listing, so they read and style alike. */
import type { ReactNode } from 'react';

export interface Column<R> {
  /** The header cell's content. */
  head: ReactNode;
  cell(row: R): ReactNode;
  /** This column names the row (a row header, `<th scope="row">`). */
  rowHeader?: boolean;
  /** Attributes of the row's cell (a class, a title). */
  cellProps?(row: R): { className?: string | undefined; title?: string };
}

export interface DataTableProps<R> {
  columns: Column<R>[];
  rows: R[];
  rowKey(row: R): string | number;
  /** A caption for assistive technology (visually hidden). */
  caption?: string;
  /** In a horizontally scrolling box, for wide tables. */
  wrap?: boolean;
  /** Shown instead of the table when there are no rows; without it an empty table is shown. */
  empty?: string;
}

export const DataTable = <R,>({ columns, rows, rowKey, caption, wrap = false, empty }: DataTableProps<R>) => {
  if (empty !== undefined && rows.length === 0) return <p className="console-muted">{empty}</p>;
  /** On a phone the rows fold into blocks and each cell shows its column's name from here. */
  const labels = columns.map((column) => (typeof column.head === 'string' ? column.head : undefined));
  const table = (
    <table className="console-table">
      {caption ? <caption className="console-visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((column, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
            <th scope="col" key={i}>
              {column.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column, i) =>
              column.rowHeader ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
                <th scope="row" key={i} data-label={labels[i]} {...column.cellProps?.(row)}>
                  {column.cell(row)}
                </th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
                <td key={i} data-label={labels[i]} {...column.cellProps?.(row)}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return wrap ? <div className="console-table-wrap">{table}</div> : table;
};

/** A titled card; `id` names the heading the section is labelled by. */
export const Card = ({ id, title, children }: { id: string; title: string; children: ReactNode }) => (
  <section className="console-card" aria-labelledby={id}>
    <h2 id={id}>{title}</h2>
    {children}
  </section>
);
