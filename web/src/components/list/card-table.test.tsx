import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlainTable } from '@/components/plain-table';
import { i18n } from '@/lib/i18n';
import { stubPhone } from '@/testing/phone';
import { CardTable } from './card-table';
import type { FitColumn } from './fit-columns';

interface Row {
  topic: string;
  unit: string;
  count: number;
}

const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({ topic: `site/${i + 1}/power`, unit: 'kW', count: i }));
const columns: FitColumn<Row>[] = [
  { title: 'Topic', dataIndex: 'topic', phone: 'primary' },
  { title: 'Unit', dataIndex: 'unit' },
  { title: 'Count', dataIndex: 'count', phone: 'primary' },
  { title: 'Actions', dataIndex: 'topic', phone: 'actions', render: (topic: string) => <button type="button">{`Map ${topic}`}</button> },
];

describe('CardTable', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  afterEach(() => vi.unstubAllGlobals());

  it('is a table, named, on a wide screen', () => {
    render(<CardTable label="Arrived topics" rowKey="topic" columns={columns} data={rows.slice(0, 3)} pagination={false} />);
    const table = screen.getByRole('table', { name: 'Arrived topics' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('is cards on a phone, paged as the table was, each row’s action at its foot', async () => {
    stubPhone();
    const user = userEvent.setup();
    render(<CardTable label="Arrived topics" rowKey={(r) => r.topic} columns={columns} data={rows} pagination={{ pageSize: 10 }} />);
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Arrived topics' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(10);
    expect(within(cards[0]!).getByText('site/1/power')).toBeInTheDocument();
    expect(within(cards[0]!).queryByText('kW')).toBeNull(); // behind the details toggle
    expect(within(cards[0]!).getByRole('button', { name: 'Map site/1/power' })).toBeInTheDocument();
    await user.click(document.querySelector('.arco-pagination-item-next')!);
    expect(within(screen.getByRole('list', { name: 'Arrived topics' })).getAllByRole('listitem')[0]).toHaveTextContent('site/11/power');
  });

  it('shows the empty element on a phone when there are no rows', () => {
    stubPhone();
    render(<CardTable label="Keys" rowKey="topic" columns={columns} data={[]} noDataElement={<p>No keys</p>} />);
    expect(screen.getByText('No keys')).toBeInTheDocument();
  });
});

describe('PlainTable', () => {
  it('gives each body cell its column’s heading, for the stacked rows of a phone', () => {
    render(
      <PlainTable aria-label="Latest alarms">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Level</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>08:00</td>
            <td>Fault</td>
          </tr>
          <tr>
            <td colSpan={2}>No more</td>
          </tr>
        </tbody>
      </PlainTable>,
    );
    const table = screen.getByRole('table', { name: 'Latest alarms' });
    expect(within(table).getByText('08:00')).toHaveAttribute('data-label', 'Time');
    expect(within(table).getByText('Fault')).toHaveAttribute('data-label', 'Level');
    expect(within(table).getByText('No more')).not.toHaveAttribute('data-label');
  });
});
