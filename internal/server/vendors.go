package server

import (
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/cloud/enphase"
	"github.com/helio-energy/helio/internal/cloud/fusionsolar"
	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	"github.com/helio-energy/helio/internal/cloud/solaredge"
)

// cloudVendors are the vendor clouds a connection may name (docs/ingest.md, "Vendor clouds").
func cloudVendors() map[string]cloud.Vendor {
	out := map[string]cloud.Vendor{}
	for _, v := range []cloud.Vendor{solaredge.Vendor, fusionsolar.Vendor, isolarcloud.Vendor, enphase.Vendor} {
		out[v.Name] = v
	}
	return out
}
