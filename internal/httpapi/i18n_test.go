package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEveryMessageInEveryLocale(t *testing.T) {
	for key, m := range messages {
		for _, l := range Locales {
			if strings.TrimSpace(m[l]) == "" {
				t.Errorf("message %q has no %s text", key, l)
			}
		}
	}
	for name, m := range typeNames {
		for _, l := range Locales {
			if m[l] == "" {
				t.Errorf("type name %q has no %s text", name, l)
			}
		}
	}
}

func TestLocaleNegotiation(t *testing.T) {
	cases := map[string]string{
		"":                    "en-US",
		"zh-CN":               "zh-CN",
		"zh":                  "zh-CN",
		"zh-Hant-TW,zh;q=0.8": "zh-TW",
		"ja,en;q=0.5":         "ja-JP",
		"ko-KR":               "ko-KR",
		"fr-FR,de;q=0.9":      "en-US",
		"fr-FR, zh-TW;q=0.3":  "zh-TW",
		"EN-gb":               "en-US",
	}
	for header, want := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Language", header)
		if got := Locale(r); got != want {
			t.Errorf("%q → %s, want %s", header, got, want)
		}
	}
}

func TestTranslateWithArguments(t *testing.T) {
	if got := T("ja-JP", "too_long", 20); got != "20 文字以内で入力してください" {
		t.Fatalf("got %q", got)
	}
	args := []any{"a string"}
	if got := T("zh-CN", "wrong_type", args...); got != "必须是字符串" {
		t.Fatalf("got %q", got)
	}
	if args[0] != "a string" {
		t.Fatal("T must not change its arguments")
	}
	if T("en-US", "no_such_key") != "no_such_key" {
		t.Fatal("unknown keys are returned as is")
	}
}
