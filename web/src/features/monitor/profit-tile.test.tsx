import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import type { FleetSummary } from './api/summary';
import { ProfitTile } from './profit-tile';

const period = { value: 0, previous: 0, change: 0 };
const summary = (over: Partial<FleetSummary>): FleetSummary => ({
  profitBase: null,
  stations: 3,
  capacityKwp: 100,
  devices: 10,
  devicesOnline: 10,
  devicesFault: 0,
  onlineRatio: 100,
  faultRatio: 0,
  currentPowerKw: 1,
  powerNormalization: 1,
  energyKwh: { day: period, month: period, year: period, total: period },
  co2ReductionKg: { day: period, month: period, year: period, total: period },
  profit: [
    { currency: 'CNY', day: 100, month: 1000, year: 5000, total: 9000 },
    { currency: 'USD', day: 10, month: 100, year: 500, total: 900 },
    { currency: 'ZAR', day: 40, month: 400, year: 2000, total: 4000 },
  ],
  emissionFactorKgPerKwh: 0.5,
  ...over,
});

describe('the profit tile', () => {
  it('shows one total in the base currency, each currency and its rate on hover, and names what it leaves out', async () => {
    renderWithProviders(
      <ProfitTile
        period="year"
        summary={summary({
          profitBase: {
            currency: 'CNY',
            day: 171,
            month: 1710,
            year: 8555,
            total: 15390,
            rates: [{ currency: 'USD', month: '2026-11', rate: 7.05 }],
            unconverted: ['ZAR'],
          },
        })}
      />,
    );
    const total = await screen.findByText(/8,555/);
    expect(total.getAttribute('title')).toMatch(/USD/);
    expect(total.getAttribute('title')).toMatch(/7\.05/);
    expect(total.getAttribute('title')).not.toMatch(/ZAR/);
    expect(screen.getByText(/ZAR/).textContent).toMatch(/2,000/);
  });

  it('lists the currencies side by side when the server gives no base total', async () => {
    renderWithProviders(<ProfitTile period="day" summary={summary({})} />);
    expect((await screen.findAllByRole('listitem')).map((item) => item.textContent)).toHaveLength(3);
  });
});
