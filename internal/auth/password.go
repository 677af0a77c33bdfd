// Package auth signs users in and out: password hashing, opaque session tokens kept
// only as hashes, the sign-in rate limit and the calls behind them.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters (OWASP's second recommended set: 19 MiB, 2 passes).
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

// HashPassword returns an encoded argon2id hash with a random salt.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches an encoded hash.
func CheckPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("auth: unknown password hash format")
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, fmt.Errorf("auth: bad hash parameters: %w", err)
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, err
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when the username is unknown, so that a wrong name
// takes as long as a wrong password.
var dummyHash, _ = HashPassword("helio-dummy-password")

// PasswordProblem returns the message key of the password rule a new password breaks
// (longer than 6 characters, digits plus upper- and lower-case letters, no spaces), or "".
func PasswordProblem(pw string) string {
	if len([]rune(pw)) <= 6 {
		return "password_rule"
	}
	var digit, upper, lower bool
	for _, r := range pw {
		switch {
		case unicode.IsSpace(r):
			return "password_rule"
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		}
	}
	if !digit || !upper || !lower {
		return "password_rule"
	}
	return ""
}

// RandomPassword returns a password that satisfies PasswordProblem.
func RandomPassword() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "He1" + base64.RawURLEncoding.EncodeToString(b)
}
