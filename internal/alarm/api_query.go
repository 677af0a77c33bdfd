package alarm

import (
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
)

// Filters are the filters every alarm list and the export share.
type Filters struct {
	StationID   int64  `query:"stationId" validate:"id" doc:"a station (its sub-stations' alarms included); absent for every visible station"`
	DealStatus  int    `query:"dealStatus" enum:"-1,0,1" default:"-1" doc:"-1 or absent all, 0 unprocessed, 1 processed"`
	AlarmStatus int    `query:"alarmStatus" enum:"0,1,2" doc:"0 or absent all, 1 occurring, 2 recovered"`
	Level       int    `query:"level" enum:"-1,0,1,2" default:"-1" doc:"-1 or absent all, 0 signal change, 1 alarm, 2 fault"`
	Type        int    `query:"type" enum:"0,1,2" doc:"0 or absent all, 1 device alarm, 2 data alarm"`
	DeviceType  string `query:"deviceType" doc:"inverter (or 1), battery (2), storage (3), meter (4), collector (5)"`
	Rule        string `query:"rule" doc:"a rule key"`
	From        string `query:"from" doc:"start time from (RFC 3339, or yyyy-MM-dd for that UTC day)"`
	To          string `query:"to" doc:"start time before (RFC 3339, or yyyy-MM-dd: up to the end of that UTC day); at most 366 days after from"`
	Sort        string `query:"sort" enum:"time,level,duration" doc:"rank by time (occurTime), level or duration (recovery, or now while occurring, less the start time); ties by id; the export comes in the list's order"`
	Order       string `query:"order" enum:"asc,desc" doc:"asc or desc (default) with sort"`
	filter      Filter // what Check read
}

// ListQuery is the filters of listbysite.
type ListQuery struct {
	Filters
	httpapi.Paging
}

// DateListQuery is the filters plus the station-local date of listbydate.
type DateListQuery struct {
	Date string `query:"date" validate:"required" doc:"yyyy-MM-dd: alarms that started on this date in their station's time zone"`
	Filters
	httpapi.Paging
}

// Check reads the filters and the date.
func (q *DateListQuery) Check(v *httpapi.Validator) {
	q.Filters.Check(v)
	checkDate(v, q.Date)
}

// DevListQuery is the filters plus the device of listbydev.
type DevListQuery struct {
	DeviceID int64 `query:"deviceId" validate:"required,id" doc:"a visible device"`
	Filters
	httpapi.Paging
}

// ExportQuery is the filters plus the optional date and device.
type ExportQuery struct {
	Filters
	Date     string `query:"date" doc:"as listbydate"`
	DeviceID int64  `query:"deviceId" validate:"id" doc:"as listbydev"`
	Format   string `query:"format" enum:"csv,xlsx" default:"csv" doc:"csv (default) or xlsx"`
}

// Check reads the filters and the date.
func (q *ExportQuery) Check(v *httpapi.Validator) {
	q.Filters.Check(v)
	checkDate(v, q.Date)
}

func checkDate(v *httpapi.Validator, date string) {
	if date == "" {
		return
	}
	if _, err := time.Parse("2006-01-02", date); err != nil {
		v.Add("date", "invalid_format")
	}
}

// DeviceTypes are the device types an alarm can carry, numbered 1-5 for the filter.
var DeviceTypes = []string{"inverter", "battery", "storage", "meter", "collector"}

// maxListDays is the longest from-to range of a list, in days.
const maxListDays = 366

// Check reads what the tags cannot say: the device type (a name or its number), the rule
// (one of the rules' keys), the time range and the order.
func (q *Filters) Check(v *httpapi.Validator) {
	f := Filter{DealStatus: q.DealStatus, AlarmStatus: q.AlarmStatus, Level: q.Level, Type: q.Type, Rule: q.Rule}
	if dt := q.DeviceType; dt != "" {
		if n, err := strconv.Atoi(dt); err == nil && n >= 1 && n <= len(DeviceTypes) {
			f.DeviceType = DeviceTypes[n-1]
		} else {
			v.OneOf("deviceType", dt, DeviceTypes...)
			f.DeviceType = dt
		}
	}
	if q.Rule != "" && specByKey[q.Rule] == nil {
		keys := make([]string, len(Specs))
		for i, sp := range Specs {
			keys[i] = sp.Key
		}
		v.Add("rule", "one_of", strings.Join(keys, ", "))
	}
	f.From, f.To = listing.Span(v, "from", q.From, "to", q.To, maxListDays)
	f.Sort = listing.SortOf(v, q.Sort, q.Order)
	q.filter = f
}

// paged is the filter with a page of it.
func (q *Filters) paged(p httpapi.Paging) Filter {
	f := q.filter
	f.Page, f.Size = p.Page, p.PageSize
	return f
}
