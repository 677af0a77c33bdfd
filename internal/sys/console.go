package sys

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

type asset struct {
	body, gz    []byte
	contentType string
	etag        string
	immutable   bool
	// csp, when set, replaces the API's policy: a page's own inline scripts allowed by hash
	csp string
}

// inlineScript matches a <script> element without a src attribute, its body in group 1.
var inlineScript = regexp.MustCompile(`(?s)<script(?:\s[^>]*)?>(.*?)</script>`)

// pagePolicy is the Content-Security-Policy of an HTML page of the console: the API's, with the
// page's inline scripts (the build's shell preload, web/build/chunks.ts) allowed by their
// SHA-256 (CSP hash sources), so no other inline script runs. "" when the page has none.
func pagePolicy(html []byte) string {
	var hashes []string
	for _, m := range inlineScript.FindAllSubmatchIndex(html, -1) {
		if bytes.Contains(html[m[0]:m[2]], []byte(" src=")) {
			continue
		}
		sum := sha256.Sum256(html[m[2]:m[3]])
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	if len(hashes) == 0 {
		return ""
	}
	return strings.Replace(httpapi.ContentSecurityPolicy, "script-src 'self'", "script-src 'self' "+strings.Join(hashes, " "), 1)
}

// fixedTypes are the types of the console's files that must not depend on the host's
// mime.types (Go's own table has no .webmanifest).
var fixedTypes = map[string]string{
	".webmanifest": "application/manifest+json",
}

// Console serves the built web app from fsys, gzip-compressed where the browser
// accepts it. Hashed assets under assets/ are cached for a year; everything else
// (index.html, the service worker sw.js, the manifest) is revalidated on every use,
// so a new version is seen at once.
func Console(fsys fs.FS) (http.Handler, error) {
	files := map[string]*asset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		// weak: the gzip and plain bodies are the same file
		etag := `W/"` + hex.EncodeToString(sum[:8]) + `"`
		a := &asset{body: b, contentType: fixedTypes[path.Ext(p)], etag: etag, immutable: strings.HasPrefix(p, "assets/")}
		if a.contentType == "" {
			a.contentType = mime.TypeByExtension(path.Ext(p))
		}
		if a.contentType == "" {
			a.contentType = http.DetectContentType(b)
		}
		if path.Ext(p) == ".html" {
			a.csp = pagePolicy(b)
		}
		switch path.Ext(p) {
		case ".js", ".css", ".html", ".svg", ".json", ".txt", ".map", ".webmanifest":
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			_, _ = zw.Write(b)
			_ = zw.Close()
			if buf.Len() < len(b) {
				a.gz = buf.Bytes()
			}
		}
		files["/"+p] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := r.URL.Path
		if p == "/" {
			p = "/index.html"
		}
		a, ok := files[p]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Vary", "Accept-Encoding")
		h.Set("ETag", a.etag) // a revalidation (index.html, sw.js) is answered 304 when nothing changed
		if a.csp != "" {
			h.Set("Content-Security-Policy", a.csp)
		}
		if a.immutable {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		body := a.body
		if a.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			body = a.gz
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}), nil
}

// NoConsole explains that this binary was built without the web app.
func NoConsole() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><meta charset="utf-8"><title>Helio</title>` +
			`<p>This Helio binary was built without the console. Build it with <code>make build</code>; the API is served under <code>/v2</code>.</p>`))
	})
}
