package auth

import (
	"testing"
	"time"
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

func TestLimiterWindow(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := NewLimiter()
	l.Now = func() time.Time { return now }
	for i := 0; i < 4; i++ {
		l.Fail("Admin", "1.2.3.4")
		now = now.Add(time.Minute)
	}
	if b, _ := l.Blocked("admin", "1.2.3.4"); b {
		t.Fatal("blocked after 4 failures")
	}
	l.Fail("admin", "1.2.3.4")
	b, wait := l.Blocked("ADMIN", "1.2.3.4")
	if !b || wait != 11*time.Minute {
		t.Fatalf("blocked=%v wait=%v, want true 11m (usernames are case-insensitive)", b, wait)
	}
	now = now.Add(11 * time.Minute)
	if b, _ := l.Blocked("admin", "1.2.3.4"); b {
		t.Fatal("still blocked after the first failure left the window")
	}
	l.Fail("admin", "1.2.3.4")
	l.Reset("admin", "1.2.3.4")
	if b, _ := l.Blocked("admin", "1.2.3.4"); b {
		t.Fatal("reset did not clear")
	}
}
