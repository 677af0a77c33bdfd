package main

import (
	"testing"
	"time"

	"github.com/helio-energy/helio/bench/internal/load"
)

// Each replica's requests per second add up its calls, whatever they are.
func TestPerReplicaRPS(t *testing.T) {
	r := load.Result{Elapsed: 2 * time.Second, ByKey: map[string]*load.KeyStat{
		"replica 1\tGET /v2/summary/all": {Requests: 10},
		"replica 1\tGET /v2/site/list":   {Requests: 30},
		"replica 2\tGET /v2/summary/all": {Requests: 6},
		"replica 3\tGET /v2/summary/all": {Requests: 99}, // not one of the two
	}}
	got := perReplicaRPS(r, 2)
	if len(got) != 2 || got[0] != 20 || got[1] != 3 {
		t.Fatalf("per replica %v, want [20 3]", got)
	}
	if s := perReplica(r, 2); s != "replica 1 20 req/s, replica 2 3 req/s" {
		t.Fatalf("log %q", s)
	}
}
