import type { UseQueryResult } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n, loadLocale, loadScreenTexts } from '@/lib/i18n';
import { stubPhone } from '@/testing/phone';
import { renderWithProviders } from '@/testing/test-utils';
import type { FitColumn } from './fit-columns';
import { cardColumns } from './list-cards';
import { ListTable, type Page } from './list-table';

interface Row {
  id: number;
  time: string;
  level: string;
  station: string;
  device: string;
}

const rows: Row[] = [
  { id: 1, time: '08:00', level: 'Fault', station: 'Golmud', device: 'INV-01' },
  { id: 2, time: '09:00', level: 'Alarm', station: 'Perth', device: 'INV-02' },
];

const columns: FitColumn<Row>[] = [
  { title: 'Time', dataIndex: 'time' },
  { title: 'Level', dataIndex: 'level' },
  { title: 'Station', dataIndex: 'station' },
  { title: 'Device', dataIndex: 'device', optional: 1 },
  { title: 'More', dataIndex: 'id', render: (id: number) => `#${id}` },
  {
    title: 'Actions',
    dataIndex: 'id',
    key: 'actions',
    fixed: 'right',
    render: (id: number) => <button type="button">{`Deal ${id}`}</button>,
  },
];

function result(list: Row[]): UseQueryResult<Page<Row>> {
  return {
    data: { list, total: list.length, page: 1, pageSize: 20 },
    isPending: false,
    isError: false,
    refetch: async () => ({}),
  } as unknown as UseQueryResult<Page<Row>>;
}

function draw(list = rows, cols = columns) {
  return renderWithProviders(
    <ListTable<Row> label="Alarms" query={result(list)} columns={cols} page={1} pageSize={20} onPage={() => {}} emptyText="None" />,
  );
}

describe('cardColumns', () => {
  it('puts the first three columns that never step aside on the card, a right-fixed column at its foot', () => {
    const parts = cardColumns(columns);
    expect(parts.primary.map((column) => column.title)).toEqual(['Time', 'Level', 'Station']);
    expect(parts.secondary.map((column) => column.title)).toEqual(['Device', 'More']);
    expect(parts.actions.map((column) => column.title)).toEqual(['Actions']);
  });

  it('follows the columns that say where they go', () => {
    const marked: FitColumn<Row>[] = columns.map((column) =>
      column.title === 'Device' || column.title === 'Level' ? { ...column, phone: 'primary' } : column,
    );
    const parts = cardColumns(marked);
    expect(parts.primary.map((column) => column.title)).toEqual(['Level', 'Device']);
    expect(parts.secondary.map((column) => column.title)).toEqual(['Time', 'Station', 'More']);
  });
});

describe('ListTable on a phone', () => {
  beforeAll(async () => {
    await loadScreenTexts();
    await loadLocale('en-US');
    await i18n.changeLanguage('en-US');
  });
  beforeEach(() => stubPhone());
  afterEach(() => vi.unstubAllGlobals());

  it('draws each row as a card with its first columns and actions, no table', () => {
    draw();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Alarms' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByText('Golmud')).toBeInTheDocument();
    expect(first.getByText('Fault')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Deal 1' })).toBeInTheDocument();
    expect(first.queryByText('INV-01')).not.toBeInTheDocument();
  });

  it('shows the other columns of one card on a tap, and hides them on another', async () => {
    draw();
    const [first, second] = within(screen.getByRole('list', { name: 'Alarms' })).getAllByRole('listitem');
    const toggle = within(first!).getByRole('button', { name: 'Show details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(within(first!).getByText('INV-01')).toBeInTheDocument();
    expect(within(first!).getByText('#1')).toBeInTheDocument();
    expect(within(second!).queryByText('INV-02')).not.toBeInTheDocument();
    const hide = within(first!).getByRole('button', { name: 'Hide details' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveAttribute('aria-controls');
    await userEvent.click(hide);
    expect(within(first!).queryByText('INV-01')).not.toBeInTheDocument();
  });

  it('offers the sortable columns in a select, as there are no headers to click', async () => {
    const onSort = vi.fn();
    const sorted: FitColumn<Row>[] = columns.map((column) =>
      column.title === 'Level' ? { ...column, key: 'level', sorter: true, sortOrder: 'descend' } : column,
    );
    renderWithProviders(
      <ListTable<Row> label="Alarms" query={result(rows)} columns={sorted} page={1} pageSize={20} onPage={() => {}} onSort={onSort} emptyText="None" />,
    );
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const select = screen.getByRole('combobox', { name: 'Sort by' });
    expect(select).toHaveTextContent('Level, descending');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Level, ascending' }));
    expect(onSort).toHaveBeenCalledWith({ field: 'level', direction: 'ascend' });
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Usual order' }));
    expect(onSort).toHaveBeenLastCalledWith({ field: '', direction: undefined });
  });

  it('has no details toggle when every column is on the card', () => {
    draw(rows, columns.slice(0, 3));
    expect(screen.queryByRole('button', { name: 'Show details' })).not.toBeInTheDocument();
  });
});

describe('ListTable on a wide window', () => {
  it('keeps the table', () => {
    draw();
    expect(screen.getByRole('table', { name: 'Alarms' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Alarms' })).not.toBeInTheDocument();
  });
});
