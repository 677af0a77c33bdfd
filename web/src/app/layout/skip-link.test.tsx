import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/testing/test-utils';
import { SkipLink } from './skip-link';

describe('SkipLink', () => {
  it('puts the focus just before itself when the shell appears with the focus nowhere', async () => {
    renderWithProviders(
      <>
        <SkipLink target="main" />
        <main id="main" tabIndex={-1} />
      </>,
    );
    expect(document.activeElement).toBe(screen.getByTestId('keyboard-start'));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('link'));
  });

  it('leaves the focus where it is when something has it', () => {
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    renderWithProviders(<SkipLink target="main" />);
    expect(document.activeElement).toBe(field);
    field.remove();
  });
});
