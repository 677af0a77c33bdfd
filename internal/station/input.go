package station

import (
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Input is the body of POST /v2/site/add and /v2/site/edit/{uid}: every editable field.
type Input struct {
	ParentID       int64   `json:"parentId" doc:"add only: the parent station for a sub-station"`
	Name           string  `json:"name" validate:"required"`
	CoverImage     string  `json:"coverImage"`
	Location       string  `json:"location" validate:"required"`
	Country        string  `json:"country"`
	Region         string  `json:"region" validate:"required"`
	Address        string  `json:"address" validate:"required"`
	Lat            float64 `json:"lat"`
	Lng            float64 `json:"lng"`
	Timezone       string  `json:"timezone" validate:"required"`
	StationType    string  `json:"stationType" validate:"required"`
	SystemType     string  `json:"systemType" validate:"required"`
	CapacityKWp    float64 `json:"capacityKwp" validate:"required"`
	Azimuth        float64 `json:"azimuth"`
	Inclination    float64 `json:"inclination"`
	Line           string  `json:"line"`
	BuildDate      string  `json:"buildDate"`
	CombineStatus  int     `json:"combineStatus"`
	CombineDate    string  `json:"combineDate"`
	GridStatus     int     `json:"gridStatus"`
	GridDate       string  `json:"gridDate"`
	Currency       string  `json:"currency"`
	PricePerKWh    float64 `json:"pricePerKwh"`
	SubsidyPerKWh  float64 `json:"subsidyPerKwh"`
	TotalCost      float64 `json:"totalCost"`
	DailyRepayment float64 `json:"dailyRepayment"`
	OwnerName      string  `json:"ownerName"`
	OwnerPhone     string  `json:"ownerPhone"`
	OwnerCompany   string  `json:"ownerCompany"`
	ManagerName    string  `json:"managerName"`
	ManagerPhone   string  `json:"managerPhone"`
	TagIDs         []int64 `json:"tagIds"`
}

var (
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	countryRe  = regexp.MustCompile(`^[A-Z]{2}$`)
	phoneRe    = regexp.MustCompile(`^[+0-9 ()\-]{0,32}$`)
	coverRe    = regexp.MustCompile(`^(/v2/site/cover/[0-9a-f]{32}\.(jpg|png|webp))?$`)
)

// Validate checks every rule of SPEC.md section 5 for stations, plus the ranges a
// real plant can have. It trims strings in place.
func (in *Input) Validate() error {
	var v httpapi.Validator
	for _, f := range []*string{&in.Name, &in.Location, &in.Country, &in.Region, &in.Address, &in.Timezone,
		&in.StationType, &in.SystemType, &in.Line, &in.BuildDate, &in.CombineDate, &in.GridDate, &in.Currency,
		&in.OwnerName, &in.OwnerPhone, &in.OwnerCompany, &in.ManagerName, &in.ManagerPhone, &in.CoverImage} {
		*f = strings.TrimSpace(*f)
	}
	in.Country = strings.ToUpper(in.Country)
	in.Currency = strings.ToUpper(in.Currency)
	v.Required("name", in.Name)
	v.MaxLen("name", in.Name, 100)
	v.Required("location", in.Location)
	v.MaxLen("location", in.Location, 200)
	v.Required("region", in.Region)
	v.MaxLen("region", in.Region, 100)
	v.Required("address", in.Address)
	v.MaxLen("address", in.Address, 200)
	if v.Required("timezone", in.Timezone) {
		if _, err := time.LoadLocation(in.Timezone); err != nil || strings.Contains(in.Timezone, "..") || in.Timezone == "Local" {
			v.Add("timezone", "invalid_format")
		}
	}
	if v.Required("stationType", in.StationType) {
		v.OneOf("stationType", in.StationType, StationTypes...)
	}
	if v.Required("systemType", in.SystemType) {
		v.OneOf("systemType", in.SystemType, SystemTypes...)
	}
	if in.CapacityKWp == 0 {
		v.Add("capacityKwp", "required")
	} else {
		v.Range("capacityKwp", in.CapacityKWp, 0.1, 5_000_000)
	}
	v.Range("lat", in.Lat, -90, 90)
	v.Range("lng", in.Lng, -180, 180)
	v.Range("azimuth", in.Azimuth, 0, 360)
	v.Range("inclination", in.Inclination, 0, 90)
	v.Range("pricePerKwh", in.PricePerKWh, 0, 100)
	v.Range("subsidyPerKwh", in.SubsidyPerKWh, 0, 100)
	v.Range("totalCost", in.TotalCost, 0, 1e12)
	v.Range("dailyRepayment", in.DailyRepayment, 0, 1e9)
	if in.Country != "" && !countryRe.MatchString(in.Country) {
		v.Add("country", "invalid_format")
	}
	if in.Currency == "" {
		in.Currency = "CNY"
	} else if !currencyRe.MatchString(in.Currency) {
		v.Add("currency", "invalid_format")
	}
	for name, d := range map[string]string{"buildDate": in.BuildDate, "combineDate": in.CombineDate, "gridDate": in.GridDate} {
		if d != "" {
			if _, err := time.Parse("2006-01-02", d); err != nil {
				v.Add(name, "invalid_format")
			}
		}
	}
	if in.CombineStatus != 0 && in.CombineStatus != 1 {
		v.Add("combineStatus", "one_of", "0, 1")
	}
	if in.GridStatus != 0 && in.GridStatus != 1 {
		v.Add("gridStatus", "one_of", "0, 1")
	}
	for name, s := range map[string]string{"line": in.Line, "ownerName": in.OwnerName, "ownerCompany": in.OwnerCompany, "managerName": in.ManagerName} {
		v.MaxLen(name, s, 100)
	}
	for name, s := range map[string]string{"ownerPhone": in.OwnerPhone, "managerPhone": in.ManagerPhone} {
		if !phoneRe.MatchString(s) {
			v.Add(name, "invalid_format")
		}
	}
	if !coverRe.MatchString(in.CoverImage) {
		v.Add("coverImage", "invalid_format")
	}
	if len(in.TagIDs) > 50 {
		v.Add("tagIds", "out_of_range", 0, 50)
	}
	return v.Err()
}

// apply copies the input onto a station.
func (in *Input) apply(st *Station) {
	st.Name, st.CoverImage, st.Location, st.Country = in.Name, in.CoverImage, in.Location, in.Country
	st.Region, st.Address, st.Lat, st.Lng, st.Timezone = in.Region, in.Address, in.Lat, in.Lng, in.Timezone
	st.StationType, st.SystemType, st.CapacityKWp = in.StationType, in.SystemType, round(in.CapacityKWp, 3)
	st.Azimuth, st.Inclination, st.Line, st.BuildDate = in.Azimuth, in.Inclination, in.Line, in.BuildDate
	st.CombineStatus, st.CombineDate, st.GridStatus, st.GridDate = in.CombineStatus, in.CombineDate, in.GridStatus, in.GridDate
	st.Currency, st.PricePerKWh, st.SubsidyPerKWh = in.Currency, in.PricePerKWh, in.SubsidyPerKWh
	st.TotalCost, st.DailyRepayment = in.TotalCost, in.DailyRepayment
	st.OwnerName, st.OwnerPhone, st.OwnerCompany = in.OwnerName, in.OwnerPhone, in.OwnerCompany
	st.ManagerName, st.ManagerPhone = in.ManagerName, in.ManagerPhone
}

func round(f float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}
