import { checkCoverFile, COVER_MAX_BYTES, cropRect } from './cover-image';

describe('station cover (4:3, at most 10 MB)', () => {
  it('refuses pictures of other types and files over 10 MB', () => {
    expect(checkCoverFile({ type: 'image/png', size: 1000 })).toBeNull();
    expect(checkCoverFile({ type: 'image/jpeg', size: COVER_MAX_BYTES })).toBeNull();
    expect(checkCoverFile({ type: 'image/webp', size: COVER_MAX_BYTES + 1 })).toBe('size');
    expect(checkCoverFile({ type: 'application/pdf', size: 10 })).toBe('type');
    expect(checkCoverFile({ type: 'image/gif', size: 10 })).toBe('type');
  });

  it('crops the centre to 4:3', () => {
    expect(cropRect(1600, 900)).toEqual({ x: 200, y: 0, width: 1200, height: 900 });
    expect(cropRect(900, 1600)).toEqual({ x: 0, y: 463, width: 900, height: 675 });
    expect(cropRect(800, 600)).toEqual({ x: 0, y: 0, width: 800, height: 600 });
  });
});
