// Package sunspec reads SunSpec devices: it finds the "SunS" marker, walks the model
// chain and maps the models Helio knows onto its telemetry sample, with the product's own
// tables of the points it reads (checked by tests against the Alliance's JSON definitions).
package sunspec

// Point is one SunSpec point the product reads. Offsets count registers from the model's
// ID register (ID is 0, L is 1), as the Alliance's definitions lay them out.
type Point struct {
	Name   string
	Offset int
	Type   string // int16, uint16, acc32, uint32, uint64, float32, enum16, sunssf, count, string
	Size   int    // registers
	SF     string // the scale-factor point of the same model ("" when none)
}

// Repeat is a model's repeating group (MPPT modules, DC ports).
type Repeat struct {
	Name   string
	Start  int    // offset of the first group
	Size   int    // registers per group
	Count  string // the point holding the number of groups ("": as many as the model length holds)
	Points []Point
}

// Model is the part of a SunSpec model the product reads.
type Model struct {
	ID     int
	Name   string
	Kind   string // common, inverter, mppt, meter, storage, der
	Fixed  int    // registers of the fixed block, ID and L included
	Points []Point
	Repeat *Repeat
}

// Point returns the named point of the fixed block.
func (m *Model) Point(name string) (Point, bool) {
	for _, p := range m.Points {
		if p.Name == name {
			return p, true
		}
	}
	return Point{}, false
}

func p(name string, off int, typ string, size int, sf string) Point {
	return Point{Name: name, Offset: off, Type: typ, Size: size, SF: sf}
}

var common = []Point{p("Mn", 2, "string", 16, ""), p("Md", 18, "string", 16, ""), p("Vr", 42, "string", 8, ""), p("SN", 50, "string", 16, "")}

// inverters with integers and scale factors (101 single, 102 split, 103 three phase)
var inverterInt = []Point{
	p("PhVphA", 10, "uint16", 1, "V_SF"), p("V_SF", 13, "sunssf", 1, ""),
	p("W", 14, "int16", 1, "W_SF"), p("W_SF", 15, "sunssf", 1, ""),
	p("Hz", 16, "uint16", 1, "Hz_SF"), p("Hz_SF", 17, "sunssf", 1, ""),
	p("WH", 24, "acc32", 2, "WH_SF"), p("WH_SF", 26, "sunssf", 1, ""),
	p("DCA", 27, "uint16", 1, "DCA_SF"), p("DCA_SF", 28, "sunssf", 1, ""),
	p("DCV", 29, "uint16", 1, "DCV_SF"), p("DCV_SF", 30, "sunssf", 1, ""),
	p("TmpCab", 33, "int16", 1, "Tmp_SF"), p("Tmp_SF", 37, "sunssf", 1, ""),
	p("St", 38, "enum16", 1, ""),
}

// inverters in float32 (111, 112, 113)
var inverterFloat = []Point{
	p("PhVphA", 16, "float32", 2, ""), p("W", 22, "float32", 2, ""), p("Hz", 24, "float32", 2, ""),
	p("WH", 32, "float32", 2, ""), p("DCA", 34, "float32", 2, ""), p("DCV", 36, "float32", 2, ""),
	p("TmpCab", 40, "float32", 2, ""), p("St", 48, "enum16", 1, ""),
}

// meters with integers and scale factors (201 single, 202 split, 203 wye, 204 delta)
var meterInt = []Point{
	p("PhV", 7, "int16", 1, "V_SF"), p("PhVphA", 8, "int16", 1, "V_SF"), p("V_SF", 15, "sunssf", 1, ""),
	p("Hz", 16, "int16", 1, "Hz_SF"), p("Hz_SF", 17, "sunssf", 1, ""),
	p("W", 18, "int16", 1, "W_SF"), p("W_SF", 22, "sunssf", 1, ""),
	p("TotWhExp", 38, "acc32", 2, "TotWh_SF"), p("TotWhImp", 46, "acc32", 2, "TotWh_SF"), p("TotWh_SF", 54, "sunssf", 1, ""),
}

// meters in float32 (211 to 214)
var meterFloat = []Point{
	p("PhV", 10, "float32", 2, ""), p("PhVphA", 12, "float32", 2, ""), p("Hz", 26, "float32", 2, ""),
	p("W", 28, "float32", 2, ""), p("TotWhExp", 60, "float32", 2, ""), p("TotWhImp", 68, "float32", 2, ""),
}

var models = map[int]*Model{
	1:   {ID: 1, Name: "common", Kind: "common", Fixed: 68, Points: common},
	101: {ID: 101, Name: "inverter_single_phase", Kind: "inverter", Fixed: 52, Points: inverterInt},
	102: {ID: 102, Name: "inverter_split_phase", Kind: "inverter", Fixed: 52, Points: inverterInt},
	103: {ID: 103, Name: "inverter_three_phase", Kind: "inverter", Fixed: 52, Points: inverterInt},
	111: {ID: 111, Name: "inverter_single_phase_float", Kind: "inverter", Fixed: 62, Points: inverterFloat},
	112: {ID: 112, Name: "inverter_split_phase_float", Kind: "inverter", Fixed: 62, Points: inverterFloat},
	113: {ID: 113, Name: "inverter_three_phase_float", Kind: "inverter", Fixed: 62, Points: inverterFloat},
	160: {ID: 160, Name: "mppt", Kind: "mppt", Fixed: 10,
		Points: []Point{p("DCA_SF", 2, "sunssf", 1, ""), p("DCV_SF", 3, "sunssf", 1, ""), p("DCW_SF", 4, "sunssf", 1, ""), p("N", 8, "count", 1, "")},
		Repeat: &Repeat{Name: "module", Start: 10, Size: 20,
			Points: []Point{p("DCA", 9, "uint16", 1, "DCA_SF"), p("DCV", 10, "uint16", 1, "DCV_SF"), p("DCW", 11, "uint16", 1, "DCW_SF")}}},
	201: {ID: 201, Name: "ac_meter_an_or_ab", Kind: "meter", Fixed: 107, Points: meterInt},
	202: {ID: 202, Name: "ac_meter_abn", Kind: "meter", Fixed: 107, Points: meterInt},
	203: {ID: 203, Name: "ac_meter_abcn", Kind: "meter", Fixed: 107, Points: meterInt},
	204: {ID: 204, Name: "ac_meter_abc", Kind: "meter", Fixed: 107, Points: meterInt},
	211: {ID: 211, Name: "ac_meter_an_or_ab_float", Kind: "meter", Fixed: 126, Points: meterFloat},
	212: {ID: 212, Name: "ac_meter_abn_float", Kind: "meter", Fixed: 126, Points: meterFloat},
	213: {ID: 213, Name: "ac_meter_abcn_float", Kind: "meter", Fixed: 126, Points: meterFloat},
	214: {ID: 214, Name: "ac_meter_abc_float", Kind: "meter", Fixed: 126, Points: meterFloat},
	124: {ID: 124, Name: "storage_basic", Kind: "storage", Fixed: 26, Points: []Point{
		p("ChaState", 8, "uint16", 1, "ChaState_SF"), p("InBatV", 10, "uint16", 1, "InBatV_SF"), p("ChaSt", 11, "enum16", 1, ""),
		p("ChaState_SF", 22, "sunssf", 1, ""), p("InBatV_SF", 24, "sunssf", 1, "")}},
	713: {ID: 713, Name: "DERStorageCapacity", Kind: "storage", Fixed: 9, Points: []Point{
		p("SoC", 4, "uint16", 1, "Pct_SF"), p("Sta", 6, "enum16", 1, ""), p("Pct_SF", 8, "sunssf", 1, "")}},
	802: {ID: 802, Name: "battery", Kind: "storage", Fixed: 64, Points: []Point{
		p("SoC", 11, "uint16", 1, "SoC_SF"), p("State", 22, "enum16", 1, ""), p("V", 34, "uint16", 1, "V_SF"),
		p("A", 44, "int16", 1, "A_SF"), p("W", 47, "int16", 1, "W_SF"),
		p("SoC_SF", 56, "sunssf", 1, ""), p("V_SF", 59, "sunssf", 1, ""), p("A_SF", 61, "sunssf", 1, ""), p("W_SF", 63, "sunssf", 1, "")}},
	701: {ID: 701, Name: "DERMeasureAC", Kind: "der", Fixed: 155, Points: []Point{
		p("St", 3, "enum16", 1, ""), p("W", 10, "int16", 1, "W_SF"), p("LNV", 16, "uint16", 1, "V_SF"), p("Hz", 17, "uint32", 2, "Hz_SF"),
		p("TotWhInj", 19, "uint64", 4, "TotWh_SF"), p("TotWhAbs", 23, "uint64", 4, "TotWh_SF"), p("TmpCab", 36, "int16", 1, "Tmp_SF"),
		p("V_SF", 114, "sunssf", 1, ""), p("Hz_SF", 115, "sunssf", 1, ""), p("W_SF", 116, "sunssf", 1, ""),
		p("TotWh_SF", 120, "sunssf", 1, ""), p("Tmp_SF", 122, "sunssf", 1, "")}},
	714: {ID: 714, Name: "DERMeasureDC", Kind: "der", Fixed: 20, Points: []Point{
		p("NPrt", 4, "uint16", 1, ""), p("DCA", 5, "int16", 1, "DCA_SF"), p("DCW", 6, "int16", 1, "DCW_SF"),
		p("DCWhInj", 7, "uint64", 4, "DCWH_SF"), p("DCWhAbs", 11, "uint64", 4, "DCWH_SF"),
		p("DCA_SF", 15, "sunssf", 1, ""), p("DCV_SF", 16, "sunssf", 1, ""), p("DCW_SF", 17, "sunssf", 1, ""), p("DCWH_SF", 18, "sunssf", 1, "")},
		Repeat: &Repeat{Name: "Prt", Start: 20, Size: 25, Count: "NPrt",
			Points: []Point{p("DCA", 10, "int16", 1, "DCA_SF"), p("DCV", 11, "uint16", 1, "DCV_SF")}}},
}

// Lookup returns the product's table of a model (ok false for a model it does not read).
func Lookup(id int) (*Model, bool) {
	m, ok := models[id]
	return m, ok
}

// Supported lists the model ids the product reads, ascending.
func Supported() []int {
	return []int{1, 101, 102, 103, 111, 112, 113, 124, 160, 201, 202, 203, 204, 211, 212, 213, 214, 701, 713, 714, 802}
}
