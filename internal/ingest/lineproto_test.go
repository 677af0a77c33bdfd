package ingest

import (
	"errors"
	"reflect"
	"testing"
)

// InfluxDB's own line-protocol cases (its reference's examples of escaping, types,
// timestamps and errors): what a collector may send and what must be refused.
func TestParseLineProtocol(t *testing.T) {
	f := func(k string, v float64) LineField { return LineField{Key: k, Kind: FieldFloat, Num: v} }
	cases := []struct {
		name, in string
		want     []Point
		err      string // the reason of a refused body
		errLine  int
	}{
		{name: "all parts", in: "weather,location=us-midwest temperature=82 1465839830100400200",
			want: []Point{{Measurement: "weather", Tags: []LineTag{{"location", "us-midwest"}}, Fields: []LineField{f("temperature", 82)}, Time: 1465839830100400200, HasTime: true}}},
		{name: "no timestamp", in: "weather temperature=82",
			want: []Point{{Measurement: "weather", Fields: []LineField{f("temperature", 82)}}}},
		{name: "types", in: `m i=-82i,u=82u,s="hot",b=t,B=FALSE,x=1.5e3,y=-.5 1`,
			want: []Point{{Measurement: "m", Fields: []LineField{{Key: "i", Kind: FieldInt, Num: -82}, {Key: "u", Kind: FieldUint, Num: 82},
				{Key: "s", Kind: FieldString, Str: "hot"}, {Key: "b", Kind: FieldBool, Num: 1}, {Key: "B", Kind: FieldBool, Num: 0},
				f("x", 1500), f("y", -0.5)}, Time: 1, HasTime: true}}},
		{name: "every boolean spelling", in: "m a=t,b=T,c=true,d=True,e=TRUE,f=f,g=F,h=false,i=False,j=FALSE",
			want: []Point{{Measurement: "m", Fields: []LineField{{"a", FieldBool, 1, ""}, {"b", FieldBool, 1, ""}, {"c", FieldBool, 1, ""},
				{"d", FieldBool, 1, ""}, {"e", FieldBool, 1, ""}, {"f", FieldBool, 0, ""}, {"g", FieldBool, 0, ""}, {"h", FieldBool, 0, ""},
				{"i", FieldBool, 0, ""}, {"j", FieldBool, 0, ""}}}}},
		{name: "escaped measurement, tags and field key", in: `wea\,ther\ now,loc\ ation=us\,mid\=west temp\=rature=82`,
			want: []Point{{Measurement: "wea,ther now", Tags: []LineTag{{"loc ation", "us,mid=west"}}, Fields: []LineField{f("temp=rature", 82)}}}},
		{name: "string with quotes, backslashes, commas and spaces", in: `m s="too \"hot\", c:\\dir x=1",n=2`,
			want: []Point{{Measurement: "m", Fields: []LineField{{Key: "s", Kind: FieldString, Str: `too "hot", c:\dir x=1`}, f("n", 2)}}}},
		{name: "comments, blank lines, CRLF", in: "# a comment\n\nm a=1 10\r\n  # indented comment\nm a=2 20\n",
			want: []Point{{Measurement: "m", Fields: []LineField{f("a", 1)}, Time: 10, HasTime: true},
				{Measurement: "m", Fields: []LineField{f("a", 2)}, Time: 20, HasTime: true}}},
		{name: "a repeated field: the last wins", in: "m a=1,a=2",
			want: []Point{{Measurement: "m", Fields: []LineField{f("a", 2)}}}},
		{name: "negative timestamp", in: "m a=1 -3600",
			want: []Point{{Measurement: "m", Fields: []LineField{f("a", 1)}, Time: -3600, HasTime: true}}},
		{name: "emoji and UTF-8", in: "电站,逆变器=一号 功率=5",
			want: []Point{{Measurement: "电站", Tags: []LineTag{{"逆变器", "一号"}}, Fields: []LineField{f("功率", 5)}}}},

		{name: "no fields", in: "weather", err: "missing fields", errLine: 1},
		{name: "no fields after tags", in: "weather,a=b", err: "missing fields", errLine: 1},
		{name: "tag without value", in: "m a=1\nweather,location temperature=82", err: "missing tag value", errLine: 2},
		{name: "empty tag value", in: "weather,location= temperature=82", err: "missing tag value", errLine: 1},
		{name: "field without value", in: "weather temperature=", err: "missing field value", errLine: 1},
		{name: "field without equals", in: "weather temperature", err: "missing field value", errLine: 1},
		{name: "trailing comma", in: "weather a=1,", err: "missing field key", errLine: 1},
		{name: "bad integer", in: "weather a=82.5i", err: "invalid integer", errLine: 1},
		{name: "negative unsigned", in: "weather a=-1u", err: "invalid unsigned integer", errLine: 1},
		{name: "unquoted string", in: "weather a=hot", err: "invalid number", errLine: 1},
		{name: "NaN is not a number", in: "weather a=NaN", err: "invalid number", errLine: 1},
		{name: "unbalanced quotes", in: `weather a="hot`, err: "unbalanced quotes", errLine: 1},
		{name: "bad timestamp", in: "weather a=1 12:00", err: "bad timestamp", errLine: 1},
		{name: "missing measurement", in: ",a=b c=1", err: "missing measurement", errLine: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Point
			err := ParseLines([]byte(c.in), func(p *Point) string {
				cp := *p
				cp.Tags = append([]LineTag(nil), p.Tags...)
				cp.Fields = append([]LineField(nil), p.Fields...)
				if len(cp.Tags) == 0 {
					cp.Tags = nil
				}
				got = append(got, cp)
				return ""
			})
			if c.err != "" {
				var le *LineError
				if !errors.As(err, &le) || le.Reason != c.err || le.Line != c.errLine {
					t.Fatalf("error %v, want %q on line %d", err, c.err, c.errLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// A refusal by the caller names its line the same way.
func TestParseLinesCallerRefusal(t *testing.T) {
	err := ParseLines([]byte("m a=1\nm a=2 99"), func(p *Point) string {
		if p.HasTime {
			return "timestamp out of range"
		}
		return ""
	})
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || le.Reason != "timestamp out of range" || le.Text != "m a=2 99" {
		t.Fatalf("got %v", err)
	}
}
