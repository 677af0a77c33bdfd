import { render, screen } from '@testing-library/react';
import { zonedTime } from '@/lib/format';
import { ZonedTime } from './zoned-time';

describe('zoned time', () => {
  it('names the station zone and keeps the reader zone for hover', () => {
    const at = '2026-11-27T17:35:00Z';
    const got = zonedTime(at, 'America/Los_Angeles');
    expect(got.text).toBe('2026-11-27 09:35:00 PST');
    // the same instant in the browser's zone (the test runs in UTC or names its own)
    expect(got.viewer).toMatch(/^2026-11-2\d \d\d:35:00 \S+/);
    expect(zonedTime(at, 'Asia/Shanghai').text).toBe('2026-11-28 01:35:00 GMT+8');
  });

  it('falls back to the reader zone for an unknown or missing zone', () => {
    const at = Date.UTC(2026, 10, 27, 17, 35);
    expect(zonedTime(at, 'Mars/Olympus').text).toBe(zonedTime(at, undefined).text);
    expect(zonedTime(null, 'UTC').text).toBe('');
  });

  it('renders a time element with the viewer time as its title', () => {
    render(<ZonedTime value="2026-11-27T17:35:00Z" timeZone="Europe/Berlin" />);
    const el = screen.getByText('2026-11-27 18:35:00 GMT+1');
    expect(el.tagName).toBe('TIME');
    expect(el.getAttribute('title')).toMatch(/:35:00/);
  });
});
