import type { SortDirection } from '../lib/domain';

/** A column header that sorts the list; screen readers hear the current order through aria-sort. */
export function SortableHeader<K extends string>({ column, label, sort, dir, onSort, sortLabel }: {
  column: K;
  label: string;
  sort: K;
  dir: SortDirection;
  onSort: (column: K) => void;
  sortLabel: string;
}) {
  const active = sort === column;
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="link-button" onClick={() => onSort(column)} aria-label={sortLabel}>
        {label}
        <span aria-hidden="true">{active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}
