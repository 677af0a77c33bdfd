package ingest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// Rules are stored per organisation on both databases: one per topic, at most
// maxRulesPerOrg, edited and deleted only by their organisation.
func TestMapRuleStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFleet(t, db, uniq("S"))
		rule := func(topic string) MapRule {
			return MapRule{Name: "r", Topic: topic, Device: "{serial}", Fields: []FieldMap{{Field: "powerKw", Scale: 0.001}}}
		}
		added, err := AddRules(ctx, db, f.org, []MapRule{rule("a/{serial}"), rule("b/{serial}")}, false)
		if err != nil || len(added) != 2 || added[0].ID == 0 {
			t.Fatalf("%+v %v", added, err)
		}
		if _, err := AddRules(ctx, db, f.org, []MapRule{rule("c/{serial}"), rule("a/{serial}")}, false); !errors.Is(err, ErrRuleTopicTaken) {
			t.Fatalf("same topic twice: %v", err)
		}
		if list, _ := ListRules(ctx, db, f.org); len(list) != 2 {
			t.Fatalf("a refused batch left %d rules, want 2", len(list))
		}
		if got, err := AddRules(ctx, db, f.org, []MapRule{rule("a/{serial}"), rule("c/{serial}")}, true); err != nil || len(got) != 1 {
			t.Fatalf("skipping taken topics: %+v %v", got, err)
		}
		// the other organisation may use the same topic: its own root
		if _, err := AddRules(ctx, db, f.otherOrg, []MapRule{rule("a/{serial}")}, false); err != nil {
			t.Fatal(err)
		}
		edited := rule("d/{serial}")
		edited.ID = added[0].ID
		if err := EditRule(ctx, db, f.otherOrg, edited); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("edited by another organisation: %v", err)
		}
		taken := rule("b/{serial}")
		taken.ID = added[0].ID
		if err := EditRule(ctx, db, f.org, taken); !errors.Is(err, ErrRuleTopicTaken) {
			t.Fatalf("edited onto a taken topic: %v", err)
		}
		if err := EditRule(ctx, db, f.org, edited); err != nil {
			t.Fatal(err)
		}
		if err := DeleteRule(ctx, db, f.otherOrg, added[1].ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleted by another organisation: %v", err)
		}
		if err := DeleteRule(ctx, db, f.org, added[1].ID); err != nil {
			t.Fatal(err)
		}
		list, _ := ListRules(ctx, db, f.org)
		if len(list) != 2 || list[0].Topic != "d/{serial}" || list[1].Topic != "c/{serial}" {
			t.Fatalf("%+v", list)
		}
		var many []MapRule
		for i := 0; i < maxRulesPerOrg; i++ {
			many = append(many, rule(fmt.Sprintf("m%d/{serial}", i)))
		}
		if _, err := AddRules(ctx, db, f.org, many, false); !errors.Is(err, ErrRuleLimit) {
			t.Fatalf("past the limit: %v", err)
		}
		// the cache reads every organisation's compiled rules
		mp := NewMapping(db)
		if rules, err := mp.Rules(ctx, f.org); err != nil || len(rules) != 2 {
			t.Fatalf("%d rules cached, %v", len(rules), err)
		}
	})
}
