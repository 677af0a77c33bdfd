package emission

import (
	"strings"
	"testing"
)

func TestFactor(t *testing.T) {
	const fallback = 0.475
	for _, tc := range []struct {
		country string
		want    float64
	}{
		{"DE", 0.38}, {"de", 0.38}, {" CN ", 0.57}, {"JP", 0.45}, {"KR", 0.44}, {"TW", 0.49}, {"US", 0.37},
		{"ES", 0.15}, {"AU", 0.66}, {"ZA", 0.93},
		{"", fallback},    // a station without a country
		{"XX", fallback},  // a country the table lacks
		{"DEU", fallback}, // not an alpha-2 code
	} {
		if got := Factor(tc.country, fallback); got != tc.want {
			t.Errorf("Factor(%q) = %v, want %v", tc.country, got, tc.want)
		}
	}
}

func TestCountries(t *testing.T) {
	list := Countries()
	if len(list) != len(table) {
		t.Fatalf("%d countries listed, the table has %d", len(list), len(table))
	}
	for i, c := range list {
		if i > 0 && list[i-1].Country >= c.Country {
			t.Fatalf("not sorted at %s", c.Country)
		}
		if len(c.Country) != 2 || strings.ToUpper(c.Country) != c.Country {
			t.Fatalf("%q is not an upper-case alpha-2 code", c.Country)
		}
		if c.KgPerKWh <= 0 || c.KgPerKWh > 1.2 || c.Year < 2015 || c.Year > 2030 {
			t.Fatalf("%s: implausible %v kg/kWh of %d", c.Country, c.KgPerKWh, c.Year)
		}
		if Factor(c.Country, -1) != c.KgPerKWh {
			t.Fatalf("%s: Factor answers %v, the list %v", c.Country, Factor(c.Country, -1), c.KgPerKWh)
		}
	}
}
