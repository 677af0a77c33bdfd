import { afterLoginPath, loginPathFor } from './login-redirect';

describe('login redirect', () => {
  it('carries the route name and its query to the login page', () => {
    expect(loginPathFor('station', '?x=1&y=two')).toBe('/login?redirect=station&x=1&y=two');
    expect(loginPathFor('monitor', '')).toBe('/login?redirect=monitor');
  });

  it('returns to the target with its query after sign-in', () => {
    expect(afterLoginPath('?redirect=station&x=1')).toBe('/station?x=1');
    expect(afterLoginPath('?redirect=plan')).toBe('/operations/plan');
  });

  it('lands on the monitor without a known target', () => {
    expect(afterLoginPath('')).toBe('/monitor');
    expect(afterLoginPath('?redirect=nowhere&x=1')).toBe('/monitor');
  });
});
