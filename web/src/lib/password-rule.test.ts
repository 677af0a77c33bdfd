import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-rule';

describe('passwordProblem', () => {
  it.each([
    ['Secret123', null],
    ['aB3defg', null],
    ['Sp3cial!#$', null],
    ['中文Ab12345', null],
    ['', 'required'],
    ['aB3def', 'rule'],
    ['secret123', 'rule'],
    ['SECRET123', 'rule'],
    ['SecretABC', 'rule'],
    ['Secret 123', 'rule'],
    ['Tab\tAb123', 'rule'],
    ['Ab1\u00a0xyzw', 'rule'],
  ])('%j → %s', (password, want) => {
    expect(passwordProblem(password)).toBe(want);
  });
});
