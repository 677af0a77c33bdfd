package standin

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/cloud/isolarcloud"
	"github.com/helio-energy/helio/internal/cloud/madeup"
)

// The stand-in's data: plants, their inverters and their minute readings.

func (s *Server) stations(w http.ResponseWriter, req request) {
	from, to, ok := page(req, len(s.Plants))
	if !ok {
		s.answer(w, isolarcloud.CodeParameter, isolarcloud.MsgParameter, nil)
		return
	}
	a := isolarcloud.StationListAnswer{RowCount: len(s.Plants), PageList: []isolarcloud.Station{}}
	for i := from; i < to; i++ {
		p := &s.Plants[i]
		peak := 0.0
		for _, inv := range p.Inverters {
			peak += inv.PeakW
		}
		capacity := isolarcloud.Measure{Unit: "kWp", Value: strconv.FormatFloat(peak/1000, 'f', 3, 64)}
		if peak >= 1e6 {
			capacity = isolarcloud.Measure{Unit: "MWp", Value: strconv.FormatFloat(peak/1e6, 'f', 3, 64)}
		}
		a.PageList = append(a.PageList, isolarcloud.Station{PsID: p.ID, PsName: p.Name, PsLocation: "Jinqiao Road 1",
			PsType: 4, PsStatus: 1, InstallDate: p.Start + " 10:20:30", TimeZone: fmt.Sprintf("GMT%+d", p.Offset), TotalCapacity: capacity})
	}
	s.answer(w, isolarcloud.CodeSuccess, "success", a)
}

func (s *Server) plant(id string) *Plant {
	for i := range s.Plants {
		if strconv.FormatInt(s.Plants[i].ID, 10) == id {
			return &s.Plants[i]
		}
	}
	return nil
}

func (s *Server) devices(w http.ResponseWriter, req request) {
	p := s.plant(string(req.PsID))
	if p == nil {
		s.answer(w, isolarcloud.CodeParameter, isolarcloud.MsgParameter, nil)
		return
	}
	var all []isolarcloud.Device
	if p.Meter {
		all = append(all, isolarcloud.Device{PsID: p.ID, PsKey: fmt.Sprintf("%d_7_1_1", p.ID), DeviceSN: fmt.Sprintf("M%d", p.ID),
			DeviceName: "Meter", DeviceType: 7, TypeName: "Meter", DeviceModelCode: "DTSU666", DevStatus: "1"})
	}
	for i := range p.Inverters {
		inv := &p.Inverters[i]
		all = append(all, isolarcloud.Device{UUID: p.ID*100 + int64(inv.Channel), PsID: p.ID, PsKey: p.PsKey(inv), DeviceSN: inv.Serial,
			DeviceName: inv.Name, DeviceType: 1, TypeName: "Inverter", DeviceModelCode: inv.Model, ChannelID: inv.Channel,
			DevStatus: "1", DevFaultStatus: 4, GridConnectionDate: p.Start + " 10:20:30"})
	}
	from, to, ok := page(req, len(all))
	if !ok {
		s.answer(w, isolarcloud.CodeParameter, isolarcloud.MsgParameter, nil)
		return
	}
	s.answer(w, isolarcloud.CodeSuccess, "success", isolarcloud.DeviceListAnswer{RowCount: len(all), PageList: append([]isolarcloud.Device{}, all[from:to]...)})
}

func (s *Server) minuteData(w http.ResponseWriter, req request) {
	bad := func() { s.answer(w, isolarcloud.CodeParameter, isolarcloud.MsgParameter, nil) }
	if len(req.PsKeyList) == 0 || req.Points == "" || req.Interval != isolarcloud.Interval {
		bad()
		return
	}
	a := isolarcloud.MinuteDataAnswer{}
	for _, key := range req.PsKeyList {
		p := s.plant(strings.SplitN(key, "_", 2)[0])
		var inv *Inverter
		for i := 0; p != nil && i < len(p.Inverters); i++ {
			if p.PsKey(&p.Inverters[i]) == key {
				inv = &p.Inverters[i]
			}
		}
		if inv == nil {
			bad()
			return
		}
		loc := p.loc()
		from, err1 := time.ParseInLocation(isolarcloud.TimeLayout, req.Start, loc)
		to, err2 := time.ParseInLocation(isolarcloud.TimeLayout, req.End, loc)
		if err1 != nil || err2 != nil || to.Before(from) || to.Sub(from) > isolarcloud.MinuteSpan {
			bad()
			return
		}
		points := strings.Split(req.Points, ",")
		rows := []map[string]any{}
		s.readings(p, inv, from, to, func(at time.Time, pw, wh float64) {
			row := map[string]any{"time_stamp": at.In(loc).Format(isolarcloud.TimeLayout)}
			for _, pt := range points {
				row[pt] = value(pt, pw, wh)
			}
			rows = append(rows, row)
		})
		a[key] = rows
	}
	s.answer(w, isolarcloud.CodeSuccess, "success", a)
}

// value is a point's answer: a string, or null for what a sleeping inverter does not
// report (its DC voltage).
func value(point string, pw, wh float64) any {
	f := func(v float64) any { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch point {
	case isolarcloud.PointPower:
		return f(pw)
	case isolarcloud.PointTotal:
		return f(wh)
	case isolarcloud.PointTemp:
		return f(25 + pw/1000)
	case isolarcloud.PointDCVoltage:
		if pw == 0 {
			return nil
		}
		return f(380 + pw/100)
	case isolarcloud.PointACVoltage:
		return f(230)
	case isolarcloud.PointFrequency:
		return f(50)
	}
	return nil
}

// readings calls fn for each five-minute reading of inv in [from, to], not after now.
func (s *Server) readings(p *Plant, inv *Inverter, from, to time.Time, fn func(at time.Time, w, wh float64)) {
	loc := p.loc()
	first, err := time.ParseInLocation("2006-01-02", p.Start, loc)
	if err != nil {
		return
	}
	if now := s.Now(); to.After(now) {
		to = now
	}
	if from.Before(first) {
		from = first
	}
	// the counter: whole local days since the first one, then the readings of this day
	t := from.Truncate(Step)
	if t.Before(from) {
		t = t.Add(Step)
	}
	for ; !t.After(to); t = t.Add(Step) {
		lt := t.In(loc)
		minute := lt.Hour()*60 + lt.Minute()
		wh := madeup.CounterWh(inv.PeakW, first, lt)
		fn(t, inv.power(minute), math.Round(wh))
	}
}

// power is the output in W at a minute of the local day.
func (inv *Inverter) power(minute int) float64 {
	return madeup.PowerW(inv.PeakW, minute)
}
