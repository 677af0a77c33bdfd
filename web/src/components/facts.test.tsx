import { render, screen } from '@testing-library/react';
import { Facts } from './facts';

describe('Facts', () => {
  it('shows each label with its value, and "-" for an empty one', () => {
    render(<Facts items={[['Station', 'Golmud'], ['Processor', ''], ['Hours', 0]]} />);
    const terms = screen.getAllByRole('term').map((el) => el.textContent);
    const values = screen.getAllByRole('definition').map((el) => el.textContent);
    expect(terms).toEqual(['Station', 'Processor', 'Hours']);
    expect(values).toEqual(['Golmud', '-', '0']);
  });
});
