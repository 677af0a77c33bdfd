package cloud

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// ErrNoSecretKey is returned when credentials are to be stored but the server has no
// secret key (--secret-key, HELIO_SECRET_KEY): they are refused rather than kept in clear.
var ErrNoSecretKey = errors.New("cloud: no secret key configured (--secret-key or HELIO_SECRET_KEY); credentials cannot be stored")

// Sealer encrypts credentials with AES-256-GCM. The key is the SHA-256 of the configured
// secret, so any long random string serves; every replica must be given the same one.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer returns a sealer for the configured secret, or nil when it is empty (then
// Seal and Open answer ErrNoSecretKey).
func NewSealer(secret string) *Sealer {
	if secret == "" {
		return nil
	}
	k := sha256.Sum256([]byte(secret))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		panic(err) // a 32-byte key is always accepted
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &Sealer{aead: aead}
}

// Seal encrypts plain; bound names what it belongs to (the organisation), so a sealed
// value copied to another organisation's row does not open.
func (s *Sealer) Seal(plain, bound string) (string, error) {
	if s == nil {
		return "", ErrNoSecretKey
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("cloud: unable to draw a nonce: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, []byte(plain), []byte(bound))
	return base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts what Seal returned for the same bound.
func (s *Sealer) Open(sealed, bound string) (string, error) {
	if s == nil {
		return "", ErrNoSecretKey
	}
	b, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errors.New("cloud: sealed credentials are damaged")
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, b[:n], b[n:], []byte(bound))
	if err != nil {
		return "", errors.New("cloud: credentials do not open with this secret key (was it changed?)")
	}
	return string(plain), nil
}
