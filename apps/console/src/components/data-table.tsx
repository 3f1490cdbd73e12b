import { ReactNode } from 'react';
import { Loading } from './error-message';

/** A column heading: its text, or its content with the class its cells share (and how the rows are sorted by it, if they are). */
export type Column = ReactNode | LabelledColumn;
interface LabelledColumn {
  label: ReactNode;
  className: string;
  sort?: 'ascending' | 'descending';
}

interface DataTableProps<Row> {
  /** The rows; undefined until they are loaded (or when they could not be). */
  rows: readonly Row[] | undefined;
  /** What is loading, while it is ("Loading {loading}…"). */
  loading?: string | false;
  /** Shown in place of the table when there are no rows; a sentence is shown as the list pages' empty state. */
  empty?: ReactNode;
  /** The headings; a `false` one (a column the caller may not use) is left out. */
  columns: ReadonlyArray<Column | false>;
  className?: string;
  /** In a box of its own that scrolls sideways on a narrow screen. */
  scroll?: boolean;
  /** One row's `<tr>`. */
  children(row: Row, index: number): ReactNode;
}

/** A list as a table, with the loading and the empty state every list page shows. */
export function DataTable<Row>({ rows, loading, empty, columns, className, scroll, children }: DataTableProps<Row>) {
  const table = rows && rows.length > 0 && (
    <table className={className ? `table ${className}` : 'table'}>
      <thead>
        <tr>
          {columns.map((column, index) =>
            column === false ? null : isLabelled(column) ? (
              <th key={index} scope="col" className={column.className} aria-sort={column.sort}>
                {column.label}
              </th>
            ) : (
              <th key={index} scope="col">
                {column}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{rows.map(children)}</tbody>
    </table>
  );
  return (
    <>
      {loading && <Loading what={loading} />}
      {rows &&
        rows.length === 0 &&
        (typeof empty === 'string' ? (
          <div className="empty">
            <p>{empty}</p>
          </div>
        ) : (
          empty
        ))}
      {table && scroll ? <div className="table-scroll">{table}</div> : table}
    </>
  );
}

function isLabelled(column: Column): column is LabelledColumn {
  return typeof column === 'object' && column !== null && 'label' in column;
}
