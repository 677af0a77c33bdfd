package cloud

import (
	"errors"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
)

func TestCredentialFields(t *testing.T) {
	fields := []Field{{Key: "user"}, {Key: "code", Secret: true}, {Key: "region", Optional: true}}
	got, err := ParseFields(`{"user":"ops","code":"s3cret"}`, fields)
	if err != nil || got["user"] != "ops" || got["code"] != "s3cret" {
		t.Fatalf("ParseFields = %v, %v", got, err)
	}
	var missing *MissingFieldError
	if _, err := ParseFields(`{"user":"ops","code":"  "}`, fields); !errors.As(err, &missing) || missing.Key != "code" {
		t.Fatalf("a blank required field: %v", err)
	}
	if _, err := ParseFields(`ops:s3cret`, fields); err == nil || errors.As(err, &missing) {
		t.Fatalf("not JSON: %v", err)
	}

	cases := []struct {
		vendor      Vendor
		credentials string
		field       string // the field the error names; "" for none
	}{
		{Vendor{Fields: []Field{{Key: "apiKey"}}}, "K1", ""},
		{Vendor{Fields: []Field{{Key: "apiKey"}}}, "K 1", "credentials"},
		{Vendor{Fields: fields}, `{"user":"ops","code":"a b"}`, ""},
		{Vendor{Fields: fields}, `{"user":"ops"}`, "credentials.code"},
		{Vendor{Fields: fields}, `[1]`, "credentials"},
	}
	for _, c := range cases {
		var v httpapi.Validator
		checkCredentials(&v, c.vendor, c.credentials)
		err := v.Err()
		if (err == nil) != (c.field == "") {
			t.Errorf("%q: err = %v, want a complaint about %q", c.credentials, err, c.field)
			continue
		}
		var he *httpapi.Error
		if err != nil && (!errors.As(err, &he) || he.Fields[c.field].Key == "") {
			t.Errorf("%q: %v does not name %s", c.credentials, err, c.field)
		}
	}
}

func TestDataKeyIsTheVendorsHandleOrTheSerial(t *testing.T) {
	if k := (RemoteDevice{Serial: "A1", Key: "77_1_1_1"}).DataKey(); k != "77_1_1_1" {
		t.Fatalf("with a key: %q", k)
	}
	if k := (RemoteDevice{Serial: "A1"}).DataKey(); k != "A1" {
		t.Fatalf("without: %q", k)
	}
}
