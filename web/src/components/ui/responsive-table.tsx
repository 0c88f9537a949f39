import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useMediaQuery } from '@/lib/use-media-query';
import { Card } from './card';

/** Tailwind's `md`: from here on a list is a table; below it, each row is a card. */
export const TABLE_MEDIA_QUERY = '(min-width: 768px)';

export interface ResponsiveColumn<Row> {
  /** The column's heading; on a card, the label of the field. */
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * Where the column goes on a card: `title` heads it, `actions` ends it (both
   * without a label); any other column is a labelled field between them.
   */
  place?: 'title' | 'actions';
  /**
   * The column holds text people typed (a name, an address), which may be one
   * long word: in the table it breaks anywhere, so that it gives way rather
   * than its neighbours, whose words stay whole.
   */
  userText?: boolean;
  /** Classes of the cell's content (the table cell, or the card's field value). */
  className?: string;
}

export interface ResponsiveTableProps<Row> {
  /** What the rows are: the table's caption, the list's name on a phone. */
  caption: string;
  columns: ResponsiveColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Names each card for screen readers (the row's title, e.g. a person's name). */
  rowLabel: (row: Row) => string;
}

/**
 * A list of records: a table on wide screens; on a phone, where a table would
 * scroll sideways, one card per row with every field labelled and every action
 * at hand.
 */
export function ResponsiveTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  rowLabel,
}: ResponsiveTableProps<Row>) {
  const wide = useMediaQuery(TABLE_MEDIA_QUERY);
  if (wide) {
    return (
      <Card className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-white/10 text-zinc-400">
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className="px-4 py-3 font-medium whitespace-nowrap">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)} className="border-b border-white/5 last:border-0">
                {columns.map((column) => (
                  <td
                    key={column.header}
                    className={cn(
                      'px-4 py-3',
                      column.userText ? 'wrap-anywhere' : 'wrap-break-word',
                      column.className,
                    )}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    );
  }
  const title = columns.filter((column) => column.place === 'title');
  const fields = columns.filter((column) => column.place === undefined);
  const actions = columns.filter((column) => column.place === 'actions');
  return (
    <ul aria-label={caption} className="grid grid-cols-1 gap-4">
      {rows.map((row) => (
        <li key={rowKey(row)}>
          <Card className="p-5">
            <article aria-label={rowLabel(row)} className="grid gap-4 text-sm">
              {title.map((column) => (
                <div key={column.header} className={column.className}>
                  {column.cell(row)}
                </div>
              ))}
              <dl className="grid gap-3">
                {fields.map((column) => (
                  <div
                    key={column.header}
                    className="grid grid-cols-[minmax(0,7.5rem)_minmax(0,1fr)] items-center gap-3"
                  >
                    <dt className="text-zinc-400">{column.header}</dt>
                    <dd className={column.className}>{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
              {actions.map((column) => (
                <div key={column.header} className="border-t border-white/10 pt-3">
                  {column.cell(row)}
                </div>
              ))}
            </article>
          </Card>
        </li>
      ))}
    </ul>
  );
}
