import { tagNameProblem } from './station-tags-page';

describe('station tag names', () => {
  it('must be given and at most 30 characters', () => {
    expect(tagNameProblem('  ')).toBe('tags.name.required');
    expect(tagNameProblem('utility')).toBeNull();
    expect(tagNameProblem('光伏'.repeat(15))).toBeNull();
    expect(tagNameProblem('x'.repeat(31))).toBe('tags.name.tooLong');
  });
});
