/**
 * The one password rule, the same as the server's (internal/auth PasswordProblem): longer than
 * 6 characters, digits plus upper- and lower-case letters, no spaces; other characters allowed.
 */
export function passwordProblem(password: string): 'required' | 'rule' | null {
  if (password === '') {
    return 'required';
  }
  if ([...password].length <= 6 || /\s/u.test(password)) {
    return 'rule';
  }
  if (!/\p{Nd}/u.test(password) || !/\p{Lu}/u.test(password) || !/\p{Ll}/u.test(password)) {
    return 'rule';
  }
  return null;
}
