package fusionsolar_test

import (
	"testing"

	"github.com/helio-energy/helio/internal/cloud/cloudtest"
	"github.com/helio-energy/helio/internal/store"
)

// Two replicas on one PostgreSQL database: the one holding the lock syncs, the other
// waits, and takes over when the first stops.
func TestTwoReplicasOneSyncs(t *testing.T) {
	var r *rig
	cloudtest.TwoReplicasOneSyncs(t, func(db *store.DB) *cloudtest.Rig { r = newRig(t, db, 3, 300); return r.Rig },
		func(id int64) int64 { n, _ := r.stored(id); return n },
		func() {
			if n, _ := r.stored(r.Devices()[0]); n != r.want() {
				t.Fatalf("%d readings, want %d", n, r.want())
			}
		})
}
