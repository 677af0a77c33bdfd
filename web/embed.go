//go:build embedui

package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built console (web/dist), embedded by `make build` (build tag embedui).
func Dist() (fs.FS, bool) {
	sub, err := fs.Sub(dist, "dist")
	return sub, err == nil
}
