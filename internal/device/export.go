package device

import (
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
)

func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	q := httpapi.Query[ListQuery](r)
	format := q.Format
	f, err := s.listFilter(r, q)
	if err != nil {
		httpapi.Fail(w, r, err)
		return
	}
	items, _, err := s.filtered(r.Context(), httpapi.Caller(r), f, q.State, q.sort, 1, 0)
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	loc := httpapi.Locale(r)
	t := func(k string) string { return httpapi.T(loc, k) }
	headers := []string{t("col.name"), t("col.sn"), t("col.deviceType"), t("col.model"), t("col.station"), t("col.state"),
		t("col.powerKw"), t("col.todayKwh"), t("col.specificYield"), t("col.totalKwh"), t("col.ratedKw"), t("col.capacityKwh"), t("col.collector"), t("col.lastSeen")}
	rows := make([][]any, 0, len(items))
	for _, it := range items {
		var seen any
		if it.LastSeen != nil {
			seen = it.LastSeen.UTC().Format(time.DateTime)
		}
		var yield any
		if it.SpecificYield != nil {
			yield = *it.SpecificYield
		}
		rows = append(rows, []any{it.Name, it.SN, t("deviceType." + it.Type), it.Model, it.StationName, t("state." + it.State),
			it.CurrentPowerKW, it.TodayKWh, yield, it.TotalKWh, it.RatedPowerKW, it.CapacityKWh, it.CollectorSN, seen})
	}
	export.Write(w, r, format, "devices", headers, rows)
}
