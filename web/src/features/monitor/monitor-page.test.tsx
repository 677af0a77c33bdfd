import { act, screen } from '@testing-library/react';
import { i18n } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { MonitorPage } from './monitor-page';

describe('monitor page', () => {
  afterEach(() => act(() => void i18n.changeLanguage('zh-CN')));

  it('shows the honest empty state in the current language, with no figures', () => {
    act(() => void i18n.changeLanguage('en-US'));
    const { container } = renderWithProviders(<MonitorPage />);
    expect(screen.getByRole('heading', { name: 'Monitoring centre' })).toBeInTheDocument();
    expect(screen.getByText('This area is not available yet')).toBeInTheDocument();
    expect(container.textContent).not.toMatch(/\d/);
  });

  it('is translated', () => {
    act(() => void i18n.changeLanguage('ja-JP'));
    renderWithProviders(<MonitorPage />);
    expect(screen.getByText('このエリアはまだ利用できません')).toBeInTheDocument();
  });
});
