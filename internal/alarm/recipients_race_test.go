package alarm

import (
	"context"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store/storetest"
)

// A change reported while the recipients are being read leaves what that read found
// stale: the next pass reads them again (else a user added or granted stations just then
// was not told of alarms until the kept list aged out).
func TestRecipientsChangedDuringTheirReadAreReadAgain(t *testing.T) {
	db := storetest.SQLite(t)
	e := NewEngine(db, Options{})
	reads, changeOnce := 0, true
	recipientsRead = func(got *Engine) {
		if got != e {
			return // another test's engine still at work
		}
		reads++
		if changeOnce {
			changeOnce = false
			got.Changed(1)
		}
	}
	defer func() { recipientsRead = nil }()
	ctx, now := context.Background(), time.Now()
	for i, want := range []int{1, 2, 2} {
		if _, err := e.recipientsOf(ctx, 1, nil, now); err != nil {
			t.Fatal(err)
		}
		if reads != want {
			t.Fatalf("pass %d: the recipients were read %d times, want %d", i+1, reads, want)
		}
	}
}
