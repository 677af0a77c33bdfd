import { describe, expect, it } from 'vitest';
import { fileProblem, MAX_FILE_BYTES } from './order-extras';
import { localToRfc3339 } from './work-order-form';

describe('attachments', () => {
  it('takes photos and PDFs up to 5 MB only', () => {
    expect(fileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(fileProblem({ type: 'application/pdf', size: MAX_FILE_BYTES })).toBeNull();
    expect(fileProblem({ type: 'application/pdf', size: MAX_FILE_BYTES + 1 })).toBe('ops.wo.file.tooLarge');
    expect(fileProblem({ type: 'text/html', size: 10 })).toBe('ops.wo.file.type');
  });
});

describe('planned time', () => {
  it('reads the picker value in the browser zone', () => {
    expect(localToRfc3339('2026-03-01 08:30')).toBe(new Date(2026, 2, 1, 8, 30).toISOString());
  });
});
