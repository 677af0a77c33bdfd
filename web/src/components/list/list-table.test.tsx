import type { UseQueryResult } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { i18n, loadLocale, loadScreenTexts } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { ListTable, type Page } from './list-table';

interface Row {
  id: number;
  name: string;
}

function result(page: Page<Row>): UseQueryResult<Page<Row>> {
  return { data: page, isPending: false, isError: false, refetch: async () => ({}) } as unknown as UseQueryResult<Page<Row>>;
}

function draw(page: Page<Row>) {
  return renderWithProviders(
    <ListTable<Row>
      label="Orders"
      query={result(page)}
      columns={[{ title: 'Name', dataIndex: 'name' }]}
      page={1}
      pageSize={20}
      onPage={() => {}}
      emptyText="None"
    />,
  );
}

describe('ListTable', () => {
  beforeAll(async () => {
    await loadScreenTexts();
    await loadLocale('en-US');
    await i18n.changeLanguage('en-US');
  });
  const list = [{ id: 1, name: 'Replace a fuse' }];

  it('shows the exact total of a counted list', () => {
    draw({ list, total: 42, page: 1, pageSize: 20 });
    expect(screen.getByText('Replace a fuse')).toBeInTheDocument();
    expect(screen.queryByText(/More than/)).not.toBeInTheDocument();
  });

  it('says "more than" when the server stopped counting', () => {
    draw({ list, total: 1000, totalCapped: true, page: 1, pageSize: 20 });
    expect(screen.getByText('More than 1000 match: narrow the filters, or export them all')).toBeInTheDocument();
  });
});
