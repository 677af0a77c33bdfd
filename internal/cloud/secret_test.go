package cloud

import (
	"errors"
	"strings"
	"testing"
)

func TestSealOpensOnlyWithItsKeyAndOwner(t *testing.T) {
	s := NewSealer("a long random secret")
	sealed, err := s.Seal("API-KEY-123", "org:1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "API-KEY-123") {
		t.Fatal("sealed value holds the key in clear")
	}
	if got, err := s.Open(sealed, "org:1"); err != nil || got != "API-KEY-123" {
		t.Fatalf("open = %q, %v", got, err)
	}
	if _, err := s.Open(sealed, "org:2"); err == nil {
		t.Fatal("opened under another organisation")
	}
	if _, err := NewSealer("another secret").Open(sealed, "org:1"); err == nil {
		t.Fatal("opened with another key")
	}
	var none *Sealer = NewSealer("")
	if _, err := none.Seal("x", "org:1"); !errors.Is(err, ErrNoSecretKey) {
		t.Fatalf("no key: err = %v", err)
	}
}
