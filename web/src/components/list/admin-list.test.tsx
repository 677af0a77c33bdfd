import type { UseQueryResult } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { fieldErrorsShown } from '@/lib/form-errors';
import { renderWithProviders } from '@/testing/test-utils';
import { AdminList } from './admin-list';

interface Row {
  id: number;
  name: string;
}

function result(data: Row[] | undefined, pending = false): UseQueryResult<Row[]> {
  return { data, isPending: pending, isError: false, refetch: async () => ({}) } as unknown as UseQueryResult<Row[]>;
}

function draw(query: UseQueryResult<Row[]>, onAdd = () => {}) {
  return renderWithProviders(
    <AdminList<Row>
      title="Hooks"
      intro="Where events go"
      addLabel="Add one"
      onAdd={onAdd}
      query={query}
      columns={[{ title: 'Name', dataIndex: 'name' }]}
      emptyText="None yet"
    />,
  );
}

describe('AdminList', () => {
  it('shows the rows under the intro, and adds on the button', () => {
    const onAdd = vi.fn();
    draw(result([{ id: 1, name: 'Control room' }]), onAdd);
    expect(screen.getByText('Where events go')).toBeInTheDocument();
    expect(screen.getByText('Control room')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Add one/ }));
    expect(onAdd).toHaveBeenCalledOnce();
  });

  it('says when there is nothing yet', () => {
    draw(result([]));
    expect(screen.getByText('None yet')).toBeInTheDocument();
  });
});

describe('fieldErrorsShown', () => {
  it('puts the server’s field errors on the form, renamed, and says whether there were any', () => {
    const form = { setFields: vi.fn() };
    const err = new ApiError(400, 'Some fields are invalid', { 'credentials.appKey': 'Required' });
    expect(fieldErrorsShown(form as never, err, (f) => f.replace('credentials.', 'cred.'))).toBe(true);
    expect(form.setFields).toHaveBeenCalledWith({ 'cred.appKey': { error: { message: 'Required' } } });
    expect(fieldErrorsShown(form as never, new Error('boom'))).toBe(false);
    expect(fieldErrorsShown(form as never, new ApiError(409, 'Conflict', {}))).toBe(false);
  });
});
