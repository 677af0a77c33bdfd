package ingest

import "testing"

const fullSample = `{"sn":"INV-1","time":1767323045000,"powerKw":1.5,"energyKwh":2e3,"energy2Kwh":-0,"dcVoltageV":600,` +
	`"dcCurrentA":10.25,"acVoltageV":400,"frequencyHz":50.01,"tempC":-4,"soc":55.5,"irradianceWm2":800,"status":1,"stringsActive":-4}`

// acceptedSeeds are the plain forms, which the fast reader must take.
var acceptedSeeds = []string{
	fullSample, "[" + fullSample + "," + fullSample + "]",
	`{"time":"2026-01-02T03:04:05Z","powerKw":12.5,"energyKwh":1000}`,
	`{"time":"2026-01-02T03:04:05.123456789+08:00"}`, `{"time":"1970-01-01T00:00:00Z"}`, `{"time":"9999-12-31T23:59:59.999999999Z"}`,
	`{"time":"2026-01-02T03:04:05-00:30"}`, `{"time":0}`, `{"time":-0}`, `{"time":253402300799999}`,
	" \t\r\n[ {\"time\" : 1767323045000 } , {\"sn\":\"\",\"time\":1}\n]\n ", `[]`, ` [ ] `, `{}`, `[{}]`,
	`{"time":1,"powerKw":1E+2,"tempC":1e-2,"soc":0.000e0,"acVoltageV":-0.0,"dcVoltageV":1e-400}`,
	`{"time":1,"powerKw":179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000}`,
	`{"time":1,"powerKw":4.9406564584124654e-324,"energyKwh":2.2250738585072011e-308,"tempC":0.1000000000000000055511151231257827}`,
	`{"time":1,"status":9223372036854775807,"stringsActive":-9223372036854775808}`, `{"time":1,"status":-0,"stringsActive":0}`,
	`{"sn":"a b~!#$%&'()*+,-./:;<=>?@[]^_{|}` + "\x7f" + `","time":1}`,
}

// declinedSeeds are near misses: invalid, or valid in a way the fast reader leaves to
// encoding/json. The property is checked on them too; most must be declined.
var declinedSeeds = []string{
	``, ` `, `null`, `[null]`, `{"time":null}`, `{"powerKw":null,"time":1}`, `"x"`, `1`, `true`, `[1]`, `[[]]`,
	`{"Time":1}`, `{"TIME":1}`, `{"SN":"a","time":1}`, `{"powerkw":1,"time":1}`, `{"Sn":"a","time":1}`, `{"ſn":"a","time":1}`,
	`{"bogus":1,"time":1}`, `{"":1}`, `{"time":1,"time":2}`, `{"time":1,"time":"x"}`, `{"sn":"a","sn":"b","time":1}`,
	`{"time":1,"powerKw":1,"powerKw":2}`, `{"\u0074ime":1}`, `{"sn":"\u0041","time":1}`, `{"sn":"a\"b","time":1}`,
	`{"sn":"a\\b","time":1}`, "{\"sn\":\"a\tb\",\"time\":1}", "{\"sn\":\"\xc3\xa9\",\"time\":1}", "{\"sn\":\"\xff\",\"time\":1}",
	`{"time":01}`, `{"time":1,"powerKw":01}`, `{"time":1,"powerKw":+1}`, `{"time":1,"powerKw":1.}`, `{"time":1,"powerKw":.5}`,
	`{"time":1,"powerKw":1e}`, `{"time":1,"powerKw":1e+}`, `{"time":1,"powerKw":-}`, `{"time":1,"powerKw":NaN}`,
	`{"time":1,"powerKw":Infinity}`, `{"time":1,"powerKw":-Infinity}`, `{"time":1,"powerKw":1e400}`, `{"time":1,"powerKw":-1e400}`,
	`{"time":1,"powerKw":0x10}`, `{"time":1,"powerKw":1_000}`, `{"time":1,"powerKw":"1"}`, `{"time":1,"powerKw":true}`,
	`{"time":1,"status":1.0}`, `{"time":1,"status":1e2}`, `{"time":1,"status":9223372036854775808}`, `{"time":1,"status":"1"}`,
	`{"time":1e3}`, `{"time":1.0}`, `{"time":-1}`, `{"time":253402300800000}`, `{"time":9223372036854775808}`, `{"time":true}`,
	`{"time":"1969-12-31T23:59:59Z"}`, `{"time":"10000-01-01T00:00:00Z"}`, `{"time":"yesterday"}`, `{"time":"2026-13-01T00:00:00Z"}`,
	`{"time":"2026-01-02 03:04:05Z"}`, `{"time":"2026-01-02T03:04:05"}`, `{"time":"\u0032026-01-02T03:04:05Z"}`, `{"time":""}`,
	`{"time":{}}`, `{"time":[]}`, `{"time":1,"sn":1}`, `{"time":1,"sn":{"a":1}}`, `{"time":1,"powerKw":[1]}`,
	`{"time":1} {}`, `{"time":1}x`, `[{"time":1}]]`, `[{"time":1}`, `[{"time":1},]`, `[,{"time":1}]`, `{"time":1,}`, `{,"time":1}`,
	`{"time":1 "powerKw":1}`, `{"time"1}`, `{"time"::1}`, `{"time":1}}`, "\xef\xbb\xbf{\"time\":1}", "\v{\"time\":1}\v",
	"\u00a0{\"time\":1}", `{"time":1,"powerKw":1.5.5}`, `{"time":1,"powerKw":1-2}`, `{"time":1,"powerKw":--1}`, `{"time":1}` + "\x00",
	`{"samples":[]}`, `{'time':1}`, `{time:1}`, `{"time":1,"powerKw":1e07}`,
}

// FuzzFastReader checks the fast reader's property (see wire_test.go) on fuzzed MQTT
// payloads, on the same bytes as an HTTP body, and wrapped into one.
func FuzzFastReader(f *testing.F) {
	for _, s := range append(append([]string{}, acceptedSeeds...), declinedSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPayload(t, b)
		checkRequest(t, b)
		checkRequest(t, asBody(b))
	})
}
