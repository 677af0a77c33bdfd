package sim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The console shows a weather code by its name, "weather.<key>" in its screens' texts: every
// code of the table must have one in each of the five languages, its own in each, and
// translated from the English.
func TestWeatherCodesNamedInEveryLocale(t *testing.T) {
	names := map[string]map[string]string{}
	for _, locale := range []string{"en-US", "zh-CN", "zh-TW", "ja-JP", "ko-KR"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "web", "src", "locales", "screens", locale+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var texts map[string]string
		if err := json.Unmarshal(raw, &texts); err != nil {
			t.Fatalf("%s: %v", locale, err)
		}
		names[locale] = texts
	}
	for locale, texts := range names {
		seen := map[string]string{}
		for _, w := range WeatherCodes() {
			name := texts["weather."+w.Key]
			switch {
			case name == "":
				t.Errorf("%s: code %s (%s) has no name", locale, w.ID(), w.Key)
			case seen[name] != "":
				t.Errorf("%s: codes %s and %s are both named %q", locale, seen[name], w.ID(), name)
			case locale != "en-US" && name == names["en-US"]["weather."+w.Key]:
				t.Errorf("%s: code %s is named in English (%q)", locale, w.ID(), name)
			}
			seen[name] = w.ID()
		}
	}
}
