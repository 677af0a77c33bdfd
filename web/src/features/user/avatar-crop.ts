/** Avatar limits, the same as the server's (SPEC.md section 5: PNG up to 2 MB). */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
export const AVATAR_SIDE = 256;

export type AvatarProblem = 'type' | 'size' | null;

/** Why a chosen file cannot be an avatar, before it is read. */
export function avatarProblem(file: { type: string; size: number; name: string }): AvatarProblem {
  if (file.type !== 'image/png' && !/\.png$/i.test(file.name)) {
    return 'type';
  }
  if (file.size > MAX_AVATAR_BYTES) {
    return 'size';
  }
  return null;
}

export interface Crop {
  /** 1 shows the whole shorter side; larger values zoom in. */
  zoom: number;
  /** Where the square sits, 0–1 of the room left on each axis (0.5 centred). */
  x: number;
  y: number;
}

/** The square of the source image (in its pixels) that a crop selects. */
export function cropSquare(width: number, height: number, crop: Crop) {
  const zoom = Math.min(Math.max(crop.zoom, 1), 8);
  const side = Math.min(width, height) / zoom;
  const clamp = (v: number) => Math.min(Math.max(v, 0), 1);
  return { sx: (width - side) * clamp(crop.x), sy: (height - side) * clamp(crop.y), side };
}
