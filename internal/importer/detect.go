package importer

import (
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Detection is what a file's first rows tell about its layout.
type Detection struct {
	HeaderRow  int              `json:"headerRow"`
	Header     []string         `json:"header"`
	Columns    []DetectedColumn `json:"columns"`
	TimeFormat string           `json:"timeFormat" doc:"a Go layout or unix, unix_ms, excel_serial; empty when no column reads as time"`
	// TimeAmbiguous is true when day/month order could not be told from the values.
	TimeAmbiguous bool `json:"timeAmbiguous"`
	// TimeHasOffset is true when the values carry their zone (which then wins over Zone).
	TimeHasOffset bool       `json:"timeHasOffset"`
	Rows          [][]string `json:"rows" doc:"the first data rows as read"`
	Mapping       Mapping    `json:"mapping" doc:"the suggested mapping"`
}

// DetectedColumn is one column and what it seems to hold.
type DetectedColumn struct {
	Name   string `json:"name"`
	Role   string `json:"role" doc:"time, device, a sample field, or empty when unknown"`
	Unit   string `json:"unit"`
	Energy string `json:"energy" doc:"energy columns: counter or interval"`
}

// previewRows is how many data rows detection looks at.
const previewRows = 2000

// Detect reads the first rows of a file and guesses its layout.
func Detect(rr RowReader) (Detection, error) {
	var rows [][]string
	for len(rows) < previewRows+30 {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Detection{}, err
		}
		rows = append(rows, append([]string(nil), r...))
	}
	var d Detection
	if len(rows) == 0 {
		return d, errors.New("importer: the file is empty")
	}
	d.HeaderRow = findHeader(rows)
	d.Header = rows[d.HeaderRow]
	data := rows[d.HeaderRow+1:]
	if len(data) > previewRows {
		data = data[:previewRows]
	}
	col := func(i int) []string {
		out := make([]string, 0, len(data))
		for _, r := range data {
			if i < len(r) {
				out = append(out, r[i])
			}
		}
		return out
	}
	d.Mapping = Mapping{HeaderRow: d.HeaderRow, Match: MatchSerial, Columns: []Column{}}
	timeCol := -1
	for i, h := range d.Header {
		if timeCol < 0 && (roleOf(h) == "time" || i == 0) {
			if f, amb := detectTime(col(i)); f != "" {
				timeCol = i
				d.TimeFormat, d.TimeAmbiguous, d.TimeHasOffset = f, amb, hasOffset(f)
			}
		}
	}
	devCol := -1
	for i, h := range d.Header {
		dc := DetectedColumn{Name: strings.TrimSpace(h)}
		switch role := roleOf(h); {
		case i == timeCol:
			dc.Role = "time"
		case role == "device" || role == "name":
			dc.Role = "device"
			if devCol < 0 {
				devCol = i
				d.Mapping.DeviceColumn = dc.Name
				if role == "name" {
					d.Mapping.Match = MatchName
				}
			}
		case role != "" && role != "time":
			dc.Role = role
			dc.Unit = unitOf(h, role)
			if role == FieldEnergy || role == FieldEnergy2 {
				dc.Energy = energyKind(h, col(i), deviceKeys(data, devCol))
			}
			d.Mapping.Columns = append(d.Mapping.Columns, Column{Name: dc.Name, Field: role, Unit: dc.Unit, Energy: dc.Energy})
		}
		d.Columns = append(d.Columns, dc)
	}
	if timeCol >= 0 {
		d.Mapping.TimeColumn = strings.TrimSpace(d.Header[timeCol])
		d.Mapping.TimeFormat = d.TimeFormat
	}
	d.Rows = data[:min(len(data), 20)]
	return d, nil
}

// findHeader is the first of the top rows followed by a row whose first cells read as a
// time, or row 0.
func findHeader(rows [][]string) int {
	for i := 0; i+1 < len(rows) && i < 30; i++ {
		if len(rows[i]) < 2 || numericRow(rows[i]) {
			continue
		}
		next := rows[i+1]
		for c := 0; c < len(next) && c < 3; c++ {
			if f, _ := detectTime([]string{next[c]}); f != "" {
				return i
			}
		}
	}
	return 0
}

func numericRow(r []string) bool {
	for _, v := range r {
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil && strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func deviceKeys(data [][]string, devCol int) []string {
	out := make([]string, len(data))
	if devCol < 0 {
		return out
	}
	for i, r := range data {
		if devCol < len(r) {
			out[i] = r[devCol]
		}
	}
	return out
}

// roleKeywords map header words to roles, checked in order (the first match wins), in the
// languages vendor portals export in.
var roleKeywords = []struct {
	role  string
	words []string
}{
	{"time", []string{"timestamp", "date", "time", "zeit", "datum", "时间", "日期", "時間"}},
	{"device", []string{"serial", "sn", "esn", "device id", "inverter sn", "seriennummer", "序列号", "设备sn"}},
	{"name", []string{"device name", "inverter name", "device", "inverter", "设备名称", "设备"}},
	{FieldEnergy2, []string{"charged", "charge energy", "export", "feed-in", "feed in", "einspeisung", "充电量", "上网电量"}},
	{FieldEnergy, []string{"energy", "yield", "production", "produced", "discharged", "import", "kwh", "mwh", "wh", "ertrag", "发电量", "电量", "放电量"}},
	{FieldIrradiance, []string{"irradiance", "irradiation", "w/m", "einstrahlung", "辐照"}},
	{FieldDCVoltage, []string{"dc voltage", "pv voltage", "udc", "直流电压"}},
	{FieldDCCurrent, []string{"dc current", "pv current", "idc", "直流电流"}},
	{FieldACVoltage, []string{"ac voltage", "grid voltage", "voltage", "uac", "电压"}},
	{FieldFrequency, []string{"frequency", "hz", "frequenz", "频率"}},
	{FieldTemp, []string{"temperature", "temp", "温度"}},
	{FieldSOC, []string{"soc", "state of charge"}},
	{FieldStatus, []string{"status", "state", "状态"}},
	{FieldPower, []string{"power", "leistung", "kw", "mw", "(w)", "[w]", "功率"}},
}

var wordRe = regexp.MustCompile(`[a-z0-9]+`)

func roleOf(header string) string {
	h := strings.ToLower(strings.TrimSpace(header))
	if h == "" {
		return ""
	}
	words := " " + strings.Join(wordRe.FindAllString(h, -1), " ") + " "
	for _, rk := range roleKeywords {
		for _, w := range rk.words {
			// short ASCII words must stand alone ("sn" is not in "sunny")
			if isASCII(w) && len(w) <= 4 && !strings.ContainsAny(w, "()[]/") {
				if strings.Contains(words, " "+w+" ") {
					return rk.role
				}
				continue
			}
			if strings.Contains(h, w) {
				return rk.role
			}
		}
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var unitRe = regexp.MustCompile(`(?i)(?:^|[^a-z])(mwh|kwh|wh|mw|kw|w)(?:$|[^a-z/])`)

// unitOf reads the unit from a header ("Power (kW)", "Energy [Wh]", "PV yield kWh").
func unitOf(header, role string) string {
	m := unitRe.FindStringSubmatch(header)
	if m == nil {
		if role == FieldPower {
			return "kW"
		}
		if role == FieldEnergy || role == FieldEnergy2 {
			return "kWh"
		}
		return ""
	}
	u := map[string]string{"mwh": "MWh", "kwh": "kWh", "wh": "Wh", "mw": "MW", "kw": "kW", "w": "W"}[strings.ToLower(m[1])]
	isEnergy := strings.HasSuffix(u, "h")
	switch role {
	case FieldPower:
		if isEnergy {
			return "kW"
		}
	case FieldEnergy, FieldEnergy2:
		if !isEnergy {
			return "kWh"
		}
	default:
		return ""
	}
	return u
}

// energyKind tells a cumulative counter from per-interval energy: the header may say so
// ("total", "lifetime", "meter"); else a counter never falls within a device's rows while
// interval energy goes up and down (and back to zero at night).
func energyKind(header string, values, devices []string) string {
	h := strings.ToLower(header)
	for _, w := range []string{"total", "lifetime", "cumulative", "counter", "meter reading", "zählerstand", "累计", "总"} {
		if strings.Contains(h, w) {
			return EnergyCounter
		}
	}
	last := map[string]float64{}
	falls, steps := 0, 0
	for i, v := range values {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			continue
		}
		key := ""
		if i < len(devices) {
			key = devices[i]
		}
		if p, ok := last[key]; ok {
			steps++
			if x < p {
				falls++
			}
		}
		last[key] = x
	}
	// a counter falls only at a reset (a daily counter: once a day per device); interval
	// energy falls through every afternoon
	if steps > 0 && (falls*20 > steps || falls > 2*len(last)+2) {
		return EnergyInterval
	}
	return EnergyCounter
}
