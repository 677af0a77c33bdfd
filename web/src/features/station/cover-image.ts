/** Station cover rules (SPEC.md sections 5 and 9): 4:3, at most 10 MB. */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const COVER_RATIO = 4 / 3;
export const COVER_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** Covers are shown small; larger pictures are scaled down to this before upload. */
export const COVER_MAX_WIDTH = 1600;

export type CoverProblem = 'type' | 'size' | 'decode';

export class CoverError extends Error {
  readonly problem: CoverProblem;
  constructor(problem: CoverProblem) {
    super(problem);
    this.problem = problem;
  }
}

/** Why a chosen file cannot be a cover, or null when it can. */
export function checkCoverFile(file: Pick<File, 'type' | 'size'>): CoverProblem | null {
  if (!COVER_TYPES.includes(file.type)) {
    return 'type';
  }
  if (file.size > COVER_MAX_BYTES) {
    return 'size';
  }
  return null;
}

/** The largest centred 4:3 rectangle of a width × height picture. */
export function cropRect(width: number, height: number): { x: number; y: number; width: number; height: number } {
  if (width / height > COVER_RATIO) {
    const cropWidth = Math.round(height * COVER_RATIO);
    return { x: Math.round((width - cropWidth) / 2), y: 0, width: cropWidth, height };
  }
  const cropHeight = Math.round(width / COVER_RATIO);
  return { x: 0, y: Math.round((height - cropHeight) / 2), width, height: cropHeight };
}

function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new CoverError('decode'));
    };
    image.src = url;
  });
}

/**
 * Checks a chosen picture, crops its centre to 4:3 on a canvas, scales it down to at most
 * COVER_MAX_WIDTH wide and returns it as a JPEG data: URL, ready for POST /v2/site/upload/thumbnail.
 */
export async function prepareCover(file: File): Promise<string> {
  const problem = checkCoverFile(file);
  if (problem) {
    throw new CoverError(problem);
  }
  const image = await loadImage(file);
  const crop = cropRect(image.naturalWidth, image.naturalHeight);
  const scale = Math.min(1, COVER_MAX_WIDTH / crop.width);
  const width = Math.max(4, Math.round(crop.width * scale));
  const height = Math.max(3, Math.round(width / COVER_RATIO));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) {
    throw new CoverError('decode');
  }
  context.drawImage(image, crop.x, crop.y, crop.width, crop.height, 0, 0, width, height);
  const dataUrl = canvas.toDataURL('image/jpeg', 0.88);
  // A decoded cover over the limit (a huge, noisy picture) is refused like the original would be.
  if ((dataUrl.length - dataUrl.indexOf(',') - 1) * 0.75 > COVER_MAX_BYTES) {
    throw new CoverError('size');
  }
  return dataUrl;
}
