import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { i18n } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { ForbiddenPage, NotFoundPage, ServerErrorPage } from './exception-page';

describe('exception pages', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));

  it('403 describes the denial and offers Back only', () => {
    renderWithProviders(<ForbiddenPage />);
    expect(screen.getByText('Access to this resource is denied.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('404 offers Retry and Back', () => {
    renderWithProviders(<NotFoundPage />);
    expect(screen.getByText('Sorry, this page is gone.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it('500 describes the server error', () => {
    renderWithProviders(<ServerErrorPage />);
    expect(screen.getByText('Internal server error.')).toBeInTheDocument();
  });

  it('Back goes home when the page was opened directly', () => {
    renderWithProviders(
      <Routes>
        <Route path="/" element={<p>home</p>} />
        <Route path="/exception/500" element={<ServerErrorPage />} />
      </Routes>,
      { route: '/exception/500' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('home')).toBeInTheDocument();
  });
});
