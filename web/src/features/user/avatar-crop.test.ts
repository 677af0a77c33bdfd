import { describe, expect, it } from 'vitest';
import { avatarProblem, cropSquare, MAX_AVATAR_BYTES } from './avatar-crop';

describe('avatar', () => {
  it('takes PNG up to 2 MB only', () => {
    expect(avatarProblem({ type: 'image/png', size: 1000, name: 'a.png' })).toBeNull();
    expect(avatarProblem({ type: 'image/jpeg', size: 1000, name: 'a.jpg' })).toBe('type');
    expect(avatarProblem({ type: 'image/png', size: MAX_AVATAR_BYTES + 1, name: 'a.png' })).toBe('size');
  });

  it('selects a square inside the image', () => {
    expect(cropSquare(600, 400, { zoom: 1, x: 0.5, y: 0.5 })).toEqual({ sx: 100, sy: 0, side: 400 });
    expect(cropSquare(600, 400, { zoom: 2, x: 0, y: 1 })).toEqual({ sx: 0, sy: 200, side: 200 });
    expect(cropSquare(600, 400, { zoom: 100, x: 2, y: -1 }).side).toBe(50);
  });
});
