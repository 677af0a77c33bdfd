// Package report makes report files (XLSX, CSV, PDF) from the analysis figures: report
// templates and records, rendering in the background as jobs kept in the database (they
// survive a restart and run once across replicas), and schedules that deliver to the
// message centre with an expiring download link.
package report

import (
	"regexp"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/httpapi"
)

// Choices of the report form (GET /v2/report/template/parameter/list lists them).
var (
	SelectionModes = []string{"all", "stations", "tag"}
	Layouts        = []string{"summary", "detail"}
	Languages      = []string{"zh-CN", "en-US", "zh-TW", "ko-KR", "ja-JP"}
	Formats        = []string{"xlsx", "csv", "pdf"}
	Frequencies    = []string{"none", "daily", "weekly", "monthly"}
)

// Params are the fields of a report (SPEC.md section 3): station selection mode,
// template, period, export language, file name, station / subsystem / device info and
// data selection.
type Params struct {
	SelectionMode string   `json:"selectionMode" doc:"all (every station the owner may see), stations or tag"`
	StationIDs    []int64  `json:"stationIds" doc:"selectionMode stations: 1 to 200 stations"`
	TagID         int64    `json:"tagId" doc:"selectionMode tag: the stations carrying the tag"`
	Template      string   `json:"template" doc:"summary (one row per station) or detail (also every hour, day or month)"`
	Period        string   `json:"period" doc:"day, month, year or custom (a schedule takes the previous day, week or month)"`
	Date          string   `json:"date" doc:"yyyy-MM-dd, yyyy-MM or yyyy"`
	From          string   `json:"from" doc:"custom: first date yyyy-MM-dd"`
	To            string   `json:"to" doc:"custom: last date yyyy-MM-dd"`
	Language      string   `json:"language" doc:"zh-CN, en-US, zh-TW, ko-KR or ja-JP"`
	Format        string   `json:"format" doc:"xlsx, csv or pdf"`
	FileName      string   `json:"fileName" doc:"without extension, at most 80 characters"`
	StationInfo   bool     `json:"stationInfo" doc:"include the stations' details"`
	SubsystemInfo bool     `json:"subsystemInfo" doc:"include the sub-stations"`
	DeviceInfo    bool     `json:"deviceInfo" doc:"include the devices"`
	Metrics       []string `json:"metrics" doc:"data selection: the KPIs to include (see the parameter list)"`
}

// Schedule makes a template run by itself.
type Schedule struct {
	Frequency string `json:"frequency" doc:"none, daily, weekly or monthly"`
	Hour      int    `json:"hour" doc:"local hour of the run, 0 to 23"`
	Weekday   int    `json:"weekday" doc:"weekly: 1 Monday to 7 Sunday"`
	MonthDay  int    `json:"monthDay" doc:"monthly: 1 to 28"`
	Timezone  string `json:"timezone" doc:"IANA zone the schedule keeps; empty: the organisation's"`
}

// TemplateConfig is what a report template keeps.
type TemplateConfig struct {
	Params   Params   `json:"params"`
	Schedule Schedule `json:"schedule"`
}

// MaxStations bounds a chosen station list.
const MaxStations = 200

var fileNameRe = regexp.MustCompile(`^[\p{L}\p{N} ._\-()]+$`)

// validate checks p (period included unless scheduled, where the schedule sets it).
func (p *Params) validate(v *httpapi.Validator, scheduled bool) {
	v.OneOf("selectionMode", p.SelectionMode, SelectionModes...)
	switch p.SelectionMode {
	case "stations":
		if n := len(p.StationIDs); n < 1 || n > MaxStations {
			v.Add("stationIds", "out_of_range", 1, MaxStations)
		}
	case "tag":
		if p.TagID <= 0 {
			v.Add("tagId", "required")
		}
	}
	v.OneOf("template", p.Template, Layouts...)
	v.OneOf("language", p.Language, Languages...)
	v.OneOf("format", p.Format, Formats...)
	p.FileName = strings.TrimSpace(p.FileName)
	if p.FileName != "" {
		v.MaxLen("fileName", p.FileName, 80)
		if !fileNameRe.MatchString(p.FileName) || strings.HasPrefix(p.FileName, ".") {
			v.Add("fileName", "invalid_format")
		}
	}
	if len(p.Metrics) == 0 {
		v.Add("metrics", "at_least_one")
	}
	for _, m := range p.Metrics {
		found := false
		for _, k := range analysis.MetricKeys() {
			found = found || k == m
		}
		if !found {
			v.Add("metrics", "one_of", strings.Join(analysis.MetricKeys(), ", "))
			break
		}
	}
	if scheduled {
		return
	}
	if err := v.Err(); err != nil {
		return
	}
	if _, err := analysis.ParsePeriod(p.Period, p.Date, p.From, p.To); err != nil {
		if he, ok := err.(*httpapi.Error); ok {
			for f, m := range he.Fields {
				v.Add(f, m.Key, m.Args...)
			}
		}
	}
}

// validate checks a schedule.
func (s *Schedule) validate(v *httpapi.Validator) {
	if s.Frequency == "" {
		s.Frequency = "none"
	}
	v.OneOf("schedule.frequency", s.Frequency, Frequencies...)
	if s.Frequency == "none" {
		return
	}
	if s.Hour < 0 || s.Hour > 23 {
		v.Add("schedule.hour", "out_of_range", 0, 23)
	}
	if s.Frequency == "weekly" && (s.Weekday < 1 || s.Weekday > 7) {
		v.Add("schedule.weekday", "out_of_range", 1, 7)
	}
	if s.Frequency == "monthly" && (s.MonthDay < 1 || s.MonthDay > 28) {
		v.Add("schedule.monthDay", "out_of_range", 1, 28)
	}
	if _, err := time.LoadLocation(s.Timezone); err != nil || s.Timezone == "" || strings.ContainsAny(s.Timezone, " .\\") {
		v.Add("schedule.timezone", "invalid_format")
	}
}
