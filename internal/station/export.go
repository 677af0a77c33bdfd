package station

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/export"
	"github.com/helio-energy/helio/internal/httpapi"
)

func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	q := httpapi.Query[ListQuery](r)
	items, _, err := s.filtered(r.Context(), httpapi.Caller(r), q.filter(), int64(q.CommunicationStatus), int64(q.AlarmStatus), 1, 0)
	if err != nil {
		httpapi.Fail(w, r, httpapi.Internal(err))
		return
	}
	s.writeExport(w, r, q.Format, items)
}

func (s *Service) writeExport(w http.ResponseWriter, r *http.Request, format string, items []ListItem) {
	loc := httpapi.Locale(r)
	t := func(k string) string { return httpapi.T(loc, k) }
	headers := []string{t("col.name"), t("col.parent"), t("col.country"), t("col.region"), t("col.location"),
		t("col.stationType"), t("col.systemType"), t("col.capacity"), t("col.comm"), t("col.alarm"), t("col.powerKw"),
		t("col.todayKwh"), t("col.eqHours"), t("col.pr"), t("col.totalKwh"), t("col.buildDate"), t("col.gridDate"),
		t("col.currency"), t("col.owner"), t("col.tags")}
	names := map[int64]string{}
	for _, it := range items {
		names[it.ID] = it.Name
	}
	rows := make([][]any, 0, len(items))
	for _, it := range items {
		var tags []string
		for _, tg := range it.Tags {
			tags = append(tags, tg.Name)
		}
		parent := names[it.ParentID]
		rows = append(rows, []any{it.Name, parent, it.Country, it.Region, it.Location,
			t("stationType." + it.StationType), t("systemType." + it.SystemType), it.CapacityKWp,
			t("comm." + strconv.Itoa(it.CommunicationStatus)), t("alarm." + strconv.Itoa(it.AlarmExist)), it.CurrentPowerKW,
			it.DailyEnergyKWh, it.DailyEquivalentHours, it.PerformanceRatio, it.TotalEnergyKWh, it.BuildDate, it.GridDate, it.Currency,
			it.OwnerCompany, strings.Join(tags, ", ")})
	}
	export.Write(w, r, format, "stations", headers, rows)
}
