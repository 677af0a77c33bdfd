// Package dash lists the dashboard calls the benchmarks load: the monitor, station and
// device calls the console makes, with rotating station, device and date parameters.
package dash

import (
	"fmt"
	"net/url"
	"time"
)

// Call is one dashboard call: a name and the path of client c's i-th request.
type Call struct {
	Name string
	Path func(c, i int) string
}

// The device list's calls: the sorted one is judged against the unsorted one.
const (
	UnsortedList = "GET /v2/dev/listbytype"
	SortedList   = "GET /v2/dev/listbytype (sorted)"
)

// Calls returns the calls over the given stations and devices, with dates before to
// (the end of the history).
func Calls(stations, devices []int64, to time.Time) []Call {
	st := func(c, i int) int64 { return stations[(c*7+i)%len(stations)] }
	dev := func(c, i int) int64 { return devices[(c*13+i)%len(devices)] }
	day := func(i int) string { return to.AddDate(0, 0, -1-i%7).UTC().Format(time.DateOnly) }
	month := func(i int) string { return to.AddDate(0, -(i % 2), 0).UTC().Format("2006-01") }
	return []Call{
		{"GET /v2/summary/all", func(int, int) string { return "/v2/summary/all" }},
		{"GET /v2/summary/powerdata/day", func(int, int) string { return "/v2/summary/powerdata/day?tz=Asia/Shanghai" }},
		{"GET /v2/summary/powerdata/month", func(int, int) string { return "/v2/summary/powerdata/month?tz=Asia/Shanghai" }},
		{"GET /v2/summary/powerdata/year", func(int, int) string { return "/v2/summary/powerdata/year?tz=Asia/Shanghai" }},
		{"GET /v2/summary/topdevices", func(int, int) string { return "/v2/summary/topdevices?limit=10" }},
		{"GET /v2/summary/projectranking", func(int, int) string { return "/v2/summary/projectranking?limit=10" }},
		{"GET /v2/site/summary", func(int, int) string { return "/v2/site/summary" }},
		{"GET /v2/site/list", func(c, i int) string {
			return fmt.Sprintf("/v2/site/list?page=%d&pageSize=10", 1+(c+i)%max(1, len(stations)/10))
		}},
		{"GET /v2/site/detail/{id}", func(c, i int) string { return fmt.Sprintf("/v2/site/detail/%d", st(c, i)) }},
		{"GET /v2/site/powertrendbydate/{id}", func(c, i int) string {
			return fmt.Sprintf("/v2/site/powertrendbydate/%d?date=%s", st(c, i), day(i))
		}},
		{"GET /v2/site/powerdatabymonth/{id}", func(c, i int) string {
			return fmt.Sprintf("/v2/site/powerdatabymonth/%d?date=%s", st(c, i), month(i))
		}},
		{"GET /v2/dev/summary", func(int, int) string { return "/v2/dev/summary" }},
		{"GET /v2/dev/list/{id}", func(c, i int) string { return fmt.Sprintf("/v2/dev/list/%d", st(c, i)) }},
		{UnsortedList, func(c, i int) string {
			// the sorted list's floor: the same pages in the list's usual order (paged in SQL)
			return fmt.Sprintf("/v2/dev/listbytype?page=%d&pageSize=20", 1+(c*3+i)%5)
		}},
		{SortedList, func(c, i int) string {
			// the whole fleet ranked by one of the list's columns, a page of 20 among the first
			sorts := []string{"todayKwh", "specificYield", "currentPowerKw", "totalKwh"}
			return fmt.Sprintf("/v2/dev/listbytype?sort=%s&order=%s&page=%d&pageSize=20", sorts[(c+i)%len(sorts)],
				[]string{"desc", "asc"}[i%2], 1+(c*3+i)%5)
		}},
		{"GET /v2/dev/detail/{id}", func(c, i int) string { return fmt.Sprintf("/v2/dev/detail/%d", dev(c, i)) }},
		{"GET /v2/dev/history/{id} (a day of power)", func(c, i int) string {
			from := to.AddDate(0, 0, -1-i%7).Truncate(time.Hour)
			return fmt.Sprintf("/v2/dev/history/%d?metric=power&from=%s&to=%s", dev(c, i),
				url.QueryEscape(from.UTC().Format(time.RFC3339)), url.QueryEscape(from.Add(24*time.Hour).UTC().Format(time.RFC3339)))
		}},
	}
}
