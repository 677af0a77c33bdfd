package ingest

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// The fast reader's property: whatever it accepts, encoding/json (decodePayload for an
// MQTT payload, httpapi.DecodeBytes for an HTTP body) accepts too, with the same
// samples. Declining is always allowed, except for the plain payloads devices send.

// sampleDiff tells how two samples differ: times as instants and zones (a time.Time
// holds a location pointer), floats bit for bit (so that -0 is not 0), "" if they agree.
func sampleDiff(a, z WireSample) string {
	ta, tz := time.Time(a.Time), time.Time(z.Time)
	an, ao := ta.Zone()
	zn, zo := tz.Zone()
	if !ta.Equal(tz) || an != zn || ao != zo || ta.Location().String() != tz.Location().String() {
		return fmt.Sprintf("time %v, want %v", ta, tz)
	}
	for f := fPowerKW; f <= fIrradianceWm2; f++ {
		if x, y := *a.float(f), *z.float(f); math.Float64bits(x) != math.Float64bits(y) {
			return fmt.Sprintf("field %d: %v, want %v", f, x, y)
		}
	}
	a.Time, z.Time = WireTime{}, WireTime{}
	if a != z {
		return fmt.Sprintf("%+v, want %+v", a, z)
	}
	return ""
}

func samplesDiff(got, want []WireSample) string {
	if (got == nil) != (want == nil) || len(got) != len(want) {
		return fmt.Sprintf("%d samples (nil %t), want %d (nil %t)", len(got), got == nil, len(want), want == nil)
	}
	for i := range got {
		if d := sampleDiff(got[i], want[i]); d != "" {
			return fmt.Sprintf("sample %d: %s", i, d)
		}
	}
	return ""
}

// checkPayload checks the property for an MQTT payload and tells whether the fast
// reader accepted it.
func checkPayload(t testing.TB, b []byte) bool {
	t.Helper()
	got, ok := fastSamples(b)
	if !ok {
		return false
	}
	want, err := decodePayload(b)
	if err != nil {
		t.Fatalf("%q: fast reader accepts %d samples, encoding/json refuses: %v", b, len(got), err)
	}
	if d := samplesDiff(got, want); d != "" {
		t.Fatalf("%q: %s", b, d)
	}
	return true
}

// checkRequest is checkPayload for an HTTP body.
func checkRequest(t testing.TB, b []byte) bool {
	t.Helper()
	got, ok := fastRequest(b)
	if !ok {
		return false
	}
	var want IngestRequest
	if err := httpapi.DecodeBytes(b, &want, httpapi.MaxBodyBytes); err != nil {
		t.Fatalf("%q: fast reader accepts %d samples, encoding/json refuses: %v", b, len(got.Samples), err)
	}
	if d := samplesDiff(got.Samples, want.Samples); d != "" {
		t.Fatalf("%q: %s", b, d)
	}
	return true
}

// asBody wraps a payload as an HTTP body.
func asBody(b []byte) []byte {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return fmt.Appendf(nil, `{"samples":%s}`, b)
	}
	return fmt.Appendf(nil, `{"samples":[%s]}`, b)
}

func TestFastReaderSeeds(t *testing.T) {
	for _, s := range acceptedSeeds {
		if !checkPayload(t, []byte(s)) {
			t.Errorf("%q: declined, a plain payload", s)
		}
		if !checkRequest(t, asBody([]byte(s))) {
			t.Errorf("%q: declined in an HTTP body", s)
		}
	}
	for _, s := range declinedSeeds {
		checkPayload(t, []byte(s))
		checkRequest(t, []byte(s))
		checkRequest(t, asBody([]byte(s)))
	}
	for _, s := range []string{`{}`, `{"samples":null}`, `{"samples":[],"samples":[]}`, `{"samples":[],"x":1}`, `{"Samples":[]}`,
		`{"samples":{}}`, `{"samples":[]}x`, `{"samples":[[]]}`, `[]`} {
		if checkRequest(t, []byte(s)) {
			t.Errorf("%q: accepted", s)
		}
	}
}

// The fuzz corpora of ParsePayload and of the HTTP call hold many strange inputs.
func TestFastReaderCorpus(t *testing.T) {
	for _, dir := range []string{"FuzzParsePayload", "FuzzHTTPIngest", "FuzzFastReader"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", dir, "*"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			arg, ok := strings.CutPrefix(lines[1], "[]byte(")
			if !ok {
				continue
			}
			b, err := strconv.Unquote(strings.TrimSuffix(arg, ")"))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			in := withNow([]byte(b))
			checkPayload(t, in)
			checkRequest(t, in)
			checkRequest(t, asBody(in))
		}
	}
}

// DecodeFast answers as DecodeLimit does, also for bodies it cannot read whole: too
// large (with the length declared or not) or cut by a failed read.
func TestDecodeFastAnswers(t *testing.T) {
	const limit = 64
	pad := strings.Repeat(" ", limit)
	bodies := []string{`{"samples":[{"sn":"A","time":1}]}`, `{"samples":[{"sn":"A","time":1}]}` + pad, `{"samples":[{"sn":"A"}]} x`,
		`{"samples":[{"bogus":1}]}` + pad, `{"samples":[{"sn":1}]}` + pad + "x", "x" + pad, `{"samples":[{"sn":"` + pad + `"}]}`,
		``, pad, `{"samples":[{"sn":"A","time":1e3}]}`, `{"samples":[{"SN":"A","time":1}]}`, `{"samples":[`}
	for _, body := range bodies {
		for _, mode := range []string{"declared", "unknown", "cut", "text"} {
			answer := func(fast bool) (IngestRequest, error) {
				r := httptest.NewRequest("POST", "/v2/ingest/samples", strings.NewReader(body))
				r.Header.Set("Content-Type", map[bool]string{true: "text/plain", false: "application/json"}[mode == "text"])
				switch mode {
				case "unknown":
					r.ContentLength = -1
				case "cut":
					r.Body = io.NopCloser(io.MultiReader(strings.NewReader(body[:len(body)/2]), iotest.ErrReader(io.ErrClosedPipe)))
				}
				var req IngestRequest
				if !fast {
					return req, httpapi.DecodeLimit(r, &req, limit)
				}
				return req, httpapi.DecodeFast(r, &req, limit, func(b []byte) bool {
					f, ok := fastRequest(b)
					if ok {
						req = f
					}
					return ok
				})
			}
			got, gerr := answer(true)
			want, werr := answer(false)
			if !reflect.DeepEqual(gerr, werr) || (gerr == nil && samplesDiff(got.Samples, want.Samples) != "") {
				t.Errorf("%q (%s): %v %+v, want %v %+v", body, mode, gerr, got, werr, want)
			}
		}
	}
}

// genSample writes a sample with random fields, values and spacing, in forms the fast
// reader must take.
func genSample(r *rand.Rand, b *bytes.Buffer) {
	ws := func() {
		for r.IntN(4) == 0 {
			b.WriteByte(" \t\r\n"[r.IntN(4)])
		}
	}
	keys := []string{"sn", "time", "powerKw", "energyKwh", "energy2Kwh", "dcVoltageV", "dcCurrentA", "acVoltageV",
		"frequencyHz", "tempC", "soc", "irradianceWm2", "status", "stringsActive"}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	keys = keys[:r.IntN(len(keys)+1)]
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		ws()
		fmt.Fprintf(b, "%q", k)
		ws()
		b.WriteByte(':')
		ws()
		switch k {
		case "sn":
			sn := make([]byte, r.IntN(12))
			for i := range sn {
				sn[i] = byte(' ' + r.IntN(95))
				if sn[i] == '"' || sn[i] == '\\' {
					sn[i] = '-'
				}
			}
			fmt.Fprintf(b, `"%s"`, sn)
		case "time":
			genTime(r, b)
		case "status", "stringsActive":
			n := []int64{0, -0, 1, 7, math.MaxInt64, math.MinInt64, r.Int64(), -r.Int64N(1000)}[r.IntN(8)]
			b.WriteString(strconv.FormatInt(n, 10))
		default:
			b.WriteString(genFloat(r))
		}
		ws()
	}
	b.WriteByte('}')
}

// genTime writes a time within the bounds, in either form.
func genTime(r *rand.Rand, b *bytes.Buffer) {
	ms := r.Int64N(253402300800000)
	if r.IntN(2) == 0 {
		b.WriteString(strconv.FormatInt(ms, 10))
		return
	}
	// an offset that keeps the wall clock within years 1970 to 9999 either way
	ms = max(86400000, min(ms, 253402300800000-86400000))
	at := time.UnixMilli(ms).Add(time.Duration(r.IntN(1000000)) * time.Nanosecond)
	if r.IntN(3) > 0 {
		at = at.In(time.FixedZone("", (r.IntN(48)-24)*1800))
	}
	b.WriteString(`"` + at.Format([]string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00"}[r.IntN(3)]) + `"`)
}

// genFloat gives a float literal: everyday values, extremes, long and exponent forms.
func genFloat(r *rand.Rand) string {
	switch r.IntN(10) {
	case 0:
		return []string{"0", "-0", "0.0", "-0.0", "1e308", "-1.7976931348623157e308", "5e-324", "1e-400", "2.2250738585072011e-308",
			"0.1", "1E+2", "1e-2", "123456789012345678901234567890", "0.000000000000000000000000000001234567890123456789",
			"9007199254740993", "1.00000000000000011102230246251565404236316680908203125", "100e-2"}[r.IntN(17)]
	case 1:
		return strconv.FormatFloat(math.Float64frombits(r.Uint64()&^(0x7ff<<52)|uint64(r.IntN(0x7ff))<<52), 'g', -1, 64)
	case 2:
		return strconv.FormatFloat(r.NormFloat64()*1e6, 'e', r.IntN(20), 64)
	case 3:
		return strconv.FormatFloat(r.NormFloat64(), 'f', r.IntN(30), 64)
	case 4:
		return fmt.Sprintf("%de%d", r.IntN(100)-50, r.IntN(600)-300)
	default:
		return fmt.Sprintf("%g", math.Round(r.Float64()*1e6)/1000)
	}
}

func genPayload(r *rand.Rand) []byte {
	var b bytes.Buffer
	b.WriteString(" \n"[:r.IntN(3)])
	if r.IntN(4) == 0 {
		genSample(r, &b)
	} else {
		b.WriteByte('[')
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			genSample(r, &b)
		}
		b.WriteByte(']')
	}
	b.WriteString(" \n"[:r.IntN(3)])
	return b.Bytes()
}

// mutate makes a near miss: a byte changed, dropped, doubled or inserted.
func mutate(r *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	for range 1 + r.IntN(3) {
		i := r.IntN(len(b) + 1)
		tokens := []string{`"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, `0`, `1`, `-`, `+`, `.`, `e`, ` `, `null`, `"x":1`, "\xc3\xa9", "\x00", `"time":1`}
		switch r.IntN(5) {
		case 0:
			if i < len(b) {
				b = append(b[:i], b[i+1:]...)
			}
		case 1:
			if i < len(b) {
				b[i] ^= 0x20 // often a case change
			}
		case 2:
			if i < len(b) {
				j := min(len(b), i+r.IntN(12))
				b = append(b[:j], append(bytes.Clone(b[i:j]), b[j:]...)...)
			}
		default:
			b = append(b[:i], append([]byte(tokens[r.IntN(len(tokens))]), b[i:]...)...)
		}
	}
	return b
}

func TestFastReaderRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(20260102, 1))
	accepted := 0
	for range 4000 {
		p := genPayload(r)
		if !checkPayload(t, p) {
			t.Fatalf("%q: declined, a plain payload", p)
		}
		if !checkRequest(t, asBody(p)) {
			t.Fatalf("%q: declined in an HTTP body", p)
		}
		for range 3 {
			m := mutate(r, p)
			if checkPayload(t, m) {
				accepted++
			}
			checkRequest(t, asBody(m))
		}
	}
	t.Logf("%d of 12000 near misses accepted (and agreed)", accepted)
}

// benchSamples is what a device of the ingest benchmark sends (bench/ingest): time in
// unix milliseconds, floats formatted by %g, with sn for HTTP bodies.
func benchSamples(n int, withSN bool) []byte {
	var b bytes.Buffer
	start := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for k := range n {
		at := start.Add(time.Duration(k) * 5 * time.Minute)
		h := float64(at.Hour()) + float64(at.Minute())/60
		p := math.Max(0, math.Sin((h-6)/12*math.Pi)) * 80
		e := math.Round((1000+float64(k)*0.05+p*float64(k%288)/1200)*1000) / 1000
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		if withSN {
			fmt.Fprintf(&b, `"sn":"SN%05d",`, k%40)
		}
		fmt.Fprintf(&b, `"time":%d,"powerKw":%g,"energyKwh":%g,"dcVoltageV":%g,"dcCurrentA":%g,"acVoltageV":%g,"frequencyHz":%g,"tempC":%g,"irradianceWm2":%g,"status":%d,"stringsActive":%d}`,
			at.UnixMilli(), p, e, 600+p, p/6, 400.0, 50.0, 25+p/10, p*12, 1, 8)
	}
	return b.Bytes()
}

func BenchmarkParsePayload(b *testing.B) {
	perSample := func(b *testing.B, n int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
	}
	mqtt := append(append([]byte{'['}, benchSamples(100, false)...), ']')
	for name, parse := range map[string]func([]byte) ([]WireSample, error){"mqtt100/fast": ParsePayload, "mqtt100/json": decodePayload} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if s, err := parse(mqtt); err != nil || len(s) != 100 {
					b.Fatal(len(s), err)
				}
			}
			perSample(b, 100)
		})
	}
	body := fmt.Appendf(nil, `{"samples":[%s]}`, benchSamples(1000, true))
	r := httptest.NewRequest("POST", "/v2/ingest/samples", nil)
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = int64(len(body))
	for name, decode := range map[string]func(*IngestRequest) error{
		"http1000/fast": func(req *IngestRequest) error {
			return httpapi.DecodeFast(r, req, httpapi.MaxBodyBytes, func(b []byte) bool {
				f, ok := fastRequest(b)
				if ok {
					*req = f
				}
				return ok
			})
		},
		"http1000/json": func(req *IngestRequest) error { return httpapi.Decode(r, req) },
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Body = io.NopCloser(bytes.NewReader(body))
				var req IngestRequest
				if err := decode(&req); err != nil || len(req.Samples) != 1000 {
					b.Fatal(len(req.Samples), err)
				}
			}
			perSample(b, 1000)
		})
	}
}
