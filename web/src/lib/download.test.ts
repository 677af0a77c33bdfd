import { fileNameFrom } from './download';

describe('downloads', () => {
  it('names the file as the server\'s Content-Disposition does', () => {
    expect(fileNameFrom('attachment; filename="stations-20261121-230051.csv"', 'stations.csv')).toBe('stations-20261121-230051.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''%E7%94%B5%E7%AB%99.xlsx", 'stations.xlsx')).toBe('电站.xlsx');
    expect(fileNameFrom(null, 'devices.csv')).toBe('devices.csv');
  });
});
