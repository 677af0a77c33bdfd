import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n, loadScreenTexts } from '@/lib/i18n';
import { stubPhone } from '@/testing/phone';
import { FilterBar } from './filter-bar';

describe('FilterBar', () => {
  beforeAll(async () => {
    await loadScreenTexts();
    await i18n.changeLanguage('en-US');
  });
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows its fields on a wide screen', () => {
    render(
      <FilterBar label="Alarm filters" onReset={() => undefined}>
        <input aria-label="Station" />
      </FilterBar>,
    );
    expect(screen.getByRole('search', { name: 'Alarm filters' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Station' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Filters' })).toBeNull();
  });

  it('folds its fields behind a Filters button on a phone', async () => {
    stubPhone();
    const user = userEvent.setup();
    render(
      <FilterBar label="Alarm filters" onReset={() => undefined}>
        <input aria-label="Station" />
      </FilterBar>,
    );
    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: 'Station' })).toBeNull();
    // not drawn at all until first unfolded (nor its code loaded: a range picker's is lazy)
    expect(document.querySelector('input[aria-label="Station"]')).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('textbox', { name: 'Station' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reset filters' })).toBeVisible();
    // folded again, what was typed stays
    await user.type(screen.getByRole('textbox', { name: 'Station' }), 'Golmud');
    await user.click(toggle);
    expect(screen.queryByRole('textbox', { name: 'Station' })).toBeNull();
    await user.click(toggle);
    expect(screen.getByRole('textbox', { name: 'Station' })).toHaveValue('Golmud');
  });
});
