import { screen } from '@testing-library/react';
import { userQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { renderWithProviders } from '@/testing/test-utils';
import { Permission } from './permission';

function signInAs(role: 'admin' | 'user') {
  setToken('t');
  queryClient.setQueryData(userQuery.queryKey, { role } as never);
}

describe('Permission', () => {
  afterEach(() => queryClient.clear());

  it('shows its children when the role is listed and hides them otherwise', () => {
    signInAs('user');
    renderWithProviders(
      <>
        <Permission roles={['admin']}>
          <p>admin only</p>
        </Permission>
        <Permission roles={['admin', 'user']}>
          <p>everyone listed</p>
        </Permission>
      </>,
    );
    expect(screen.queryByText('admin only')).toBeNull();
    expect(screen.getByText('everyone listed')).toBeInTheDocument();
  });

  it('shows its children to everyone for an empty list', () => {
    signInAs('user');
    renderWithProviders(
      <Permission roles={[]}>
        <p>open to all</p>
      </Permission>,
    );
    expect(screen.getByText('open to all')).toBeInTheDocument();
  });

  it('throws when the roles list is missing', () => {
    signInAs('admin');
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const swallow = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', swallow);
    const MissingRoles = Permission as unknown as (props: { children: string }) => JSX.Element;
    try {
      expect(() => renderWithProviders(<MissingRoles>secret</MissingRoles>)).toThrow(
        /Permission needs a roles list/,
      );
    } finally {
      window.removeEventListener('error', swallow);
      quiet.mockRestore();
    }
  });
});
