package metrics

import (
	"strings"
	"testing"
)

func TestTextFormat(t *testing.T) {
	r := New()
	c := r.NewCounter("helio_test_total", "Test counter.", "kind")
	c.Inc("a")
	c.Add(2.5, "a")
	c.Inc("b")
	h := r.NewHistogram("helio_test_seconds", "Test histogram.", []float64{0.1, 1}, "route")
	h.Observe(0.05, "x")
	h.Observe(0.5, "x")
	r.NewGaugeFunc("helio_test_gauge", "Test gauge.", func() float64 { return 7 })
	var b strings.Builder
	r.Write(&b)
	out := b.String()
	for _, want := range []string{
		`helio_test_total{kind="a"} 3.5`,
		`helio_test_total{kind="b"} 1`,
		`helio_test_seconds_bucket{route="x",le="0.1"} 1`,
		`helio_test_seconds_bucket{route="x",le="1"} 2`,
		`helio_test_seconds_bucket{route="x",le="+Inf"} 2`,
		`helio_test_seconds_count{route="x"} 2`,
		"helio_test_gauge 7",
		"# TYPE helio_test_total counter",
		"go_goroutines ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if c.Value("a") != 3.5 {
		t.Fatalf("Value = %v", c.Value("a"))
	}
}
