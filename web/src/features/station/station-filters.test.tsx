import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { StationFilterBar } from './station-filters';
import { parseStationFilters } from './use-station-filters';

const TAGS = [
  { id: 1, name: 'utility', color: 'arcoblue' },
  { id: 2, name: 'desert', color: 'green' },
];

const user = userEvent.setup({ pointerEventsCheck: 0 });

describe('station list filters', () => {
  beforeEach(() => act(() => void i18n.changeLanguage('en-US')));
  afterEach(() => act(() => void i18n.changeLanguage('zh-CN')));

  it('offers search, communication, alarm, type and tag filters by role and name', () => {
    renderWithProviders(<StationFilterBar value={{}} tags={TAGS} onChange={() => {}} />);
    const search = screen.getByRole('search', { name: 'Station filters' });
    expect(within(search).getByRole('textbox', { name: 'Search stations by name' })).toBeInTheDocument();
    for (const name of ['Communication status', 'Alarm status', 'Station type', 'System type', 'Tags']) {
      expect(within(search).getByRole('combobox', { name })).toBeInTheDocument();
    }
  });

  it('searches by name on Enter', async () => {
    const onChange = vi.fn();
    renderWithProviders(<StationFilterBar value={{}} tags={TAGS} onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Search stations by name' });
    await user.type(box, '  Golmud ');
    // Arco reads keyCode, which user-event leaves at 0
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(onChange).toHaveBeenCalledWith({ name: 'Golmud' });
  });

  it('filters by communication status with the translated choices', async () => {
    const onChange = vi.fn();
    renderWithProviders(<StationFilterBar value={{}} tags={TAGS} onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Communication status' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Connecting',
      'Normal',
      'Some devices offline',
      'All devices offline',
    ]);
    await user.click(screen.getByRole('option', { name: 'All devices offline' }));
    expect(onChange).toHaveBeenCalledWith({ communicationStatus: 4 });
  });

  it('filters by alarm status', async () => {
    const onChange = vi.fn();
    renderWithProviders(<StationFilterBar value={{}} tags={TAGS} onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Alarm status' }));
    await user.click(await screen.findByRole('option', { name: 'Has alarms' }));
    expect(onChange).toHaveBeenCalledWith({ alarmStatus: 1 });
  });

  it('filters by tags', async () => {
    const onChange = vi.fn();
    renderWithProviders(<StationFilterBar value={{}} tags={TAGS} onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Tags' }));
    // In multiple mode the option's label, not the list item, takes the click
    await user.click(within(await screen.findByRole('option', { name: 'desert' })).getByText('desert'));
    expect(onChange).toHaveBeenCalledWith({ tagIds: [2] });
  });

  it('reads the filters, page and view from the address', () => {
    const filters = parseStationFilters(
      new URLSearchParams('name=kern&communicationStatus=3&alarmStatus=0&stationType=ground&tagIds=1,x,2&page=2&view=table'),
    );
    expect(filters).toEqual({
      name: 'kern',
      communicationStatus: 3,
      alarmStatus: 0,
      stationType: 'ground',
      systemType: undefined,
      tagIds: [1, 2],
      page: 2,
      pageSize: 10,
      view: 'table',
    });
    expect(parseStationFilters(new URLSearchParams('')).view).toBe('card');
  });
});
