package cli

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

const keyUsage = "usage: helio key list|issue|rotate|revoke [--org ID] [--device SN | --collector SN]"

// key manages ingest keys: list, issue (or rotate: the same, the old key stops at once)
// and revoke. A key is printed once, on its own line, for scripts.
func key(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(keyUsage)
	}
	sub := args[0]
	switch sub {
	case "list", "issue", "rotate", "revoke":
	default:
		return errors.New(keyUsage)
	}
	var orgID int64
	var deviceSN, collectorSN string
	db, _, err := openDB(args[1:], "key "+sub, stderr, func(fs *flag.FlagSet) {
		fs.Int64Var(&orgID, "org", 0, "organisation id (default: the first organisation)")
		fs.StringVar(&deviceSN, "device", "", "serial number of the device whose key to issue, rotate or revoke")
		fs.StringVar(&collectorSN, "collector", "", "serial number of the collector whose key to issue, rotate or revoke")
	})
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	if orgID == 0 {
		var first sql.NullInt64
		if err := db.QueryRow(ctx, "SELECT MIN(id) FROM organizations").Scan(&first); err != nil || !first.Valid {
			return errors.New("no organisation yet")
		}
		orgID = first.Int64
	}
	if sub == "list" {
		return listKeys(ctx, db, orgID, stdout)
	}
	if (deviceSN == "") == (collectorSN == "") {
		return fmt.Errorf("give either --device SN or --collector SN\n%s", keyUsage)
	}
	kind, target := "collector", collectorSN
	var deviceID int64
	if deviceSN != "" {
		kind, target = "device", deviceSN
		if err := db.QueryRow(ctx, "SELECT id FROM devices WHERE org_id = ? AND sn = ?", orgID, deviceSN).Scan(&deviceID); err != nil {
			return fmt.Errorf("no device %q in organisation %d", deviceSN, orgID)
		}
	}
	if sub == "revoke" {
		if deviceID != 0 {
			err = ingest.RevokeDeviceKey(ctx, db, orgID, deviceID)
		} else {
			err = ingest.RevokeCollectorKey(ctx, db, orgID, collectorSN)
		}
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("collector %q has no key", collectorSN)
		}
		if err != nil {
			return err
		}
		org.Audit(ctx, db, orgID, 0, "ingest.key.revoke", kind+":"+target, "", "cli")
		fmt.Fprintf(stderr, "%s key of %s revoked\n", kind, target)
		return nil
	}
	var k string
	if deviceID != 0 {
		k, err = ingest.SetDeviceKey(ctx, db, orgID, deviceID)
	} else {
		k, err = ingest.SetCollectorKey(ctx, db, orgID, collectorSN)
	}
	if err != nil {
		return err
	}
	org.Audit(ctx, db, orgID, 0, "ingest.key.issue", kind+":"+target, ingest.HashKey(k)[:8], "cli")
	fmt.Fprintf(stderr, "%s key of %s issued; it is shown only now (any earlier key of it has stopped working):\n", kind, target)
	fmt.Fprintln(stdout, k)
	return nil
}

func listKeys(ctx context.Context, db *store.DB, orgID int64, stdout io.Writer) error {
	keys, err := ingest.ListKeys(ctx, db, &httpapi.Principal{OrgID: orgID, Role: "admin", StationAuthority: org.AuthorityAll})
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "KIND\tTARGET\tSTATION\tFINGERPRINT\tISSUED")
	for _, k := range keys {
		issued := "-"
		if !k.IssuedAt.IsZero() && k.IssuedAt.Unix() > 0 {
			issued = k.IssuedAt.Format("2006-01-02 15:04 MST")
		}
		station := k.Station
		if station == "" {
			station = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", k.Kind, k.Target, station, k.Fingerprint, issued)
	}
	return w.Flush()
}
