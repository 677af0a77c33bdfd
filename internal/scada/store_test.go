package scada_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

// The map and link SQL on SQLite and PostgreSQL: versions, names per organisation, links
// with and without a map, the poll targets and a map in use.
func TestStoreOnEachDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		acc, _, err := demo.SeedAccounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if err := demo.SeedFleet(ctx, db, acc, demo.Fleet()); err != nil {
			t.Fatal(err)
		}
		var dev int64
		if err := db.QueryRow(ctx, "SELECT MIN(id) FROM devices WHERE org_id = ?", acc.OrgID).Scan(&dev); err != nil {
			t.Fatal(err)
		}
		in := &scada.MapInput{Name: "M", Model: "X", Registers: []scada.Register{{Name: "p", Address: 1, Function: "holding", DataType: "int16", Target: "power"}}}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		id, v, err := scada.SaveMap(ctx, db, acc.OrgID, acc.AdminID, in)
		if err != nil || v != 1 {
			t.Fatalf("save: %d %d %v", id, v, err)
		}
		in.Registers[0].Scale = 2
		if _, v, err = scada.SaveMap(ctx, db, acc.OrgID, acc.AdminID, in); err != nil || v != 2 {
			t.Fatalf("second version: %d %v", v, err)
		}
		if _, v, err = scada.SaveMap(ctx, db, acc.OtherOrgID, 0, in); err != nil || v != 1 {
			t.Fatalf("same name in another organisation: %d %v", v, err)
		}
		old, err := scada.GetMap(ctx, db, acc.OrgID, id, 1)
		if err != nil || old.List[0].Scale != 1 || len(old.Versions) != 2 || old.Version != 2 {
			t.Fatalf("version 1: %+v %v", old, err)
		}
		if _, err := scada.GetMap(ctx, db, acc.OtherOrgID, id, 0); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another organisation's map: %v", err)
		}
		list, total, err := scada.ListMaps(ctx, db, acc.OrgID, "m", 1, 10)
		if err != nil || total != 1 || list[0].Version != 2 {
			t.Fatalf("list: %+v %d %v", list, total, err)
		}
		if err := scada.SaveLink(ctx, db, acc.OrgID, &scada.Link{DeviceID: dev, Host: "10.0.0.5", Port: 502, UnitID: 3, IntervalS: 60, TimeoutMs: 2000, MapID: id}); err != nil {
			t.Fatal(err)
		}
		ts, err := scada.Targets(ctx, db)
		if err != nil || len(ts) != 1 || ts[0].Addr != "10.0.0.5:502" || ts[0].Unit != 3 || ts[0].Interval != time.Minute ||
			ts[0].MapVersion != 2 || ts[0].Registers[0].Scale != 2 {
			t.Fatalf("targets: %+v %v", ts, err)
		}
		if err := scada.DeleteMap(ctx, db, acc.OrgID, id); err == nil {
			t.Fatal("a map in use was deleted")
		}
		if ok, err := scada.DeleteLink(ctx, db, dev); !ok || err != nil {
			t.Fatalf("unlink: %v %v", ok, err)
		}
		if err := scada.DeleteMap(ctx, db, acc.OrgID, id); err != nil {
			t.Fatal(err)
		}
	})
}
