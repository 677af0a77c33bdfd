import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { StationForm } from './station-form';

const user = userEvent.setup({ pointerEventsCheck: 0 });

const REQUIRED = [
  'Station name',
  'Location',
  'Administrative region',
  'Address',
  'Time zone',
  'Station type',
  'System type',
  'Installed capacity',
];

function renderForm(onSubmit = vi.fn().mockResolvedValue(undefined), initialValues = {}) {
  renderWithProviders(
    <StationForm initialValues={initialValues} parentId={0} tags={[]} onSubmit={onSubmit} onCancel={() => {}} />,
  );
  return onSubmit;
}

const VALID = {
  name: 'Test plant',
  location: 'Golmud',
  region: 'Qinghai',
  address: 'Dongchuan Industrial Park',
  timezone: 'Asia/Shanghai',
  stationType: 'ground',
  systemType: 'pv',
  capacityKwp: 1200,
  currency: 'cny',
  combineStatus: true,
  gridStatus: false,
};

describe('station form', () => {
  beforeEach(() => act(() => void i18n.changeLanguage('en-US')));
  afterEach(() => act(() => void i18n.changeLanguage('zh-CN')));

  it('requires name, location, region, address, time zone, types and capacity before calling the server', async () => {
    const onSubmit = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    for (const field of REQUIRED) {
      expect(await screen.findByText(`${field} is required`)).toBeInTheDocument();
    }
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks ranges and formats', async () => {
    const onSubmit = renderForm(undefined, { ...VALID, lat: 95, capacityKwp: 0.01, ownerPhone: 'call me', country: 'CHN' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a number from -90 to 90')).toBeInTheDocument();
    expect(screen.getByText('Enter a number from 0.1 to 5000000')).toBeInTheDocument();
    expect(screen.getAllByText(/Invalid format/)).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the input with statuses as 0/1 and codes in capitals', async () => {
    const onSubmit = renderForm(undefined, VALID);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      name: 'Test plant',
      capacityKwp: 1200,
      currency: 'CNY',
      combineStatus: 1,
      gridStatus: 0,
      parentId: 0,
      tagIds: [],
    });
  });

  it('shows the server\'s per-field messages of a 400 on their fields', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      new ApiError(400, 'Invalid input', { timezone: 'Unknown time zone', name: 'Already taken somewhere' }),
    );
    renderForm(onSubmit, VALID);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Unknown time zone')).toBeInTheDocument();
    expect(screen.getByText('Already taken somewhere')).toBeInTheDocument();
  });

  it('labels its controls so they can be found by role and name', () => {
    renderForm();
    expect(screen.getByRole('textbox', { name: 'Station name' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Station type' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose a cover image' })).toBeInTheDocument();
  });
});
