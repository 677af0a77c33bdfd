package auth

import (
	"testing"
)

func TestPasswordHashing(t *testing.T) {
	h, err := HashPassword("Secret123")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := CheckPassword(h, "Secret123"); !ok || err != nil {
		t.Fatalf("right password rejected: %v", err)
	}
	if ok, _ := CheckPassword(h, "secret123"); ok {
		t.Fatal("wrong password accepted")
	}
	h2, _ := HashPassword("Secret123")
	if h == h2 {
		t.Fatal("two hashes of one password must differ (salt)")
	}
	if _, err := CheckPassword("$2a$10$abc", "x"); err == nil {
		t.Fatal("unknown format must be an error")
	}
}

func TestPasswordRule(t *testing.T) {
	cases := map[string]bool{
		"Secret123": true, "aB3defg": true,
		"Sp3cial!#$": true, "中文Ab12345": true, "Tab\tAb123": false, "Ab1\u00a0xyzw": false,
		"aB3def": false, "secret123": false, "SECRET123": false, "SecretABC": false, "Secret 123": false, "": false,
	}
	for pw, ok := range cases {
		if got := PasswordProblem(pw) == ""; got != ok {
			t.Errorf("%q: accepted=%v, want %v", pw, got, ok)
		}
	}
	for i := 0; i < 20; i++ {
		if p := RandomPassword(); PasswordProblem(p) != "" {
			t.Fatalf("random password %q breaks the rule", p)
		}
	}
}
