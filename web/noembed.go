//go:build !embedui

// Package web embeds the built console. Without the embedui build tag (as in `go test`)
// the binary carries no console and serves a page saying how to build one.
package web

import "io/fs"

// Dist reports that this binary was built without the console.
func Dist() (fs.FS, bool) { return nil, false }
