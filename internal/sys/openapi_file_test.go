package sys_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/helio-energy/helio/internal/apitest"
)

// apiFile is the OpenAPI document the console's TypeScript API types are generated from
// (web/src/api/schema.d.ts, by `npm run gen:api`).
var apiFile = filepath.Join("..", "..", "web", "src", "api", "openapi.json")

// The committed document equals the one the routes describe. After changing a route,
// run `make api` (HELIO_UPDATE_OPENAPI=1 go test ./internal/sys -run TestOpenAPIFile,
// then npm run gen:api in web).
func TestOpenAPIFileIsFresh(t *testing.T) {
	e := apitest.New(t)
	b, err := json.MarshalIndent(e.Server.API.OpenAPI("console"), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if os.Getenv("HELIO_UPDATE_OPENAPI") == "1" {
		if err := os.WriteFile(apiFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(apiFile)
	if err != nil {
		t.Fatalf("%v (run make api)", err)
	}
	if !bytes.Equal(old, b) {
		t.Fatalf("%s is stale: run make api and commit it with web/src/api/schema.d.ts", apiFile)
	}
}
