package assistant

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunkKeepsHeadingsAndBounds(t *testing.T) {
	long := strings.Repeat("The inverter measures insulation resistance every morning. ", 60)
	text := "# Fault codes\n\nF01 Grid over-voltage.\n\nF02 Grid under-voltage.\n\n## Clearing\n\n" + long + "\n\nLast line."
	ps := chunk(text)
	if len(ps) < 3 {
		t.Fatalf("want the long paragraph cut into several passages, got %d", len(ps))
	}
	if ps[0].Heading != "Fault codes" || !strings.Contains(ps[0].Body, "F01") || !strings.Contains(ps[0].Body, "F02") {
		t.Fatalf("first passage = %+v", ps[0])
	}
	for _, p := range ps[1:] {
		if p.Heading != "Clearing" {
			t.Fatalf("passage under the second heading has heading %q", p.Heading)
		}
		if n := utf8.RuneCountInString(p.Body); n > chunkMax {
			t.Fatalf("passage of %d characters, max %d", n, chunkMax)
		}
	}
	if !strings.Contains(ps[len(ps)-1].Body, "Last line.") {
		t.Fatal("text lost at the end")
	}
	var all strings.Builder
	for _, p := range ps {
		all.WriteString(p.Body)
	}
	if got, want := strings.Count(all.String(), "insulation"), 60; got != want {
		t.Fatalf("the long paragraph's sentences: %d of %d kept", got, want)
	}
}

func TestChunkCJK(t *testing.T) {
	text := "# 逆变器过温\n\n" + strings.Repeat("当逆变器散热器温度超过七十五度时会降额运行。", 100)
	ps := chunk(text)
	if len(ps) < 2 {
		t.Fatalf("CJK text without spaces must still be cut, got %d passages", len(ps))
	}
	for _, p := range ps {
		if !utf8.ValidString(p.Body) || utf8.RuneCountInString(p.Body) > chunkMax {
			t.Fatalf("bad passage %q", p.Body)
		}
	}
}

func TestExtractHTML(t *testing.T) {
	html := `<html><head><style>p{color:red}</style><script>alert("x")</script></head><body>
		<h1>Battery restart</h1><p>Switch the breaker off,</p><p>wait 30 seconds.</p></body></html>`
	text, err := extract("text/html", []byte(html))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "alert") || strings.Contains(text, "color") {
		t.Fatalf("script or style kept: %q", text)
	}
	ps := chunk(text)
	if len(ps) != 1 || ps[0].Heading != "Battery restart" || !strings.Contains(ps[0].Body, "wait 30 seconds.") {
		t.Fatalf("passages = %+v", ps)
	}
}

// minimalPDF writes a one-page PDF whose page shows the given lines in Helvetica.
func minimalPDF(lines ...string) []byte {
	var content strings.Builder
	content.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", l)
	}
	content.WriteString("ET")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func TestExtractPDF(t *testing.T) {
	pdf := minimalPDF("Isolation fault F10", "Measure each string against earth")
	if !sniffOK("application/pdf", pdf) {
		t.Fatal("a PDF must pass the content check")
	}
	text, err := extract("application/pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	squashed := strings.ReplaceAll(text, " ", "")
	if !strings.Contains(squashed, "IsolationfaultF10") || !strings.Contains(squashed, "Measureeachstring") {
		t.Fatalf("text = %q", text)
	}
	if _, err := extract("application/pdf", []byte("%PDF-1.4 garbage that is no PDF")); !errors.Is(err, errUnreadable) {
		t.Fatalf("a damaged PDF must fail as unreadable, got %v", err)
	}
	if sniffOK("application/pdf", []byte("MZ not a pdf")) || sniffOK("text/plain", []byte("a\x00b")) || sniffOK("text/markdown", []byte{0xff, 0xfe}) {
		t.Fatal("content that does not match its kind must be refused")
	}
}

func TestStreamParsesServerSentEvents(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "wrong call", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": keep-alive\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Hello\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\" world\"}}]}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	ep := &Endpoint{URL: srv.URL + "/v1", Model: "m", Key: "k"}
	var got strings.Builder
	if err := ep.Stream(context.Background(), []ChatMessage{{Role: "user", Content: "hi"}}, func(s string) error {
		got.WriteString(s)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got.String() != "Hello world" {
		t.Fatalf("got %q", got.String())
	}
	ep.Key = "wrong"
	err := ep.Stream(context.Background(), nil, func(string) error { return nil })
	var ue *UpstreamError
	if !errors.As(err, &ue) || ue.Status != http.StatusBadRequest {
		t.Fatalf("a non-OK answer must carry its status, got %v", err)
	}
}

func TestRankFusionAndCosine(t *testing.T) {
	if c := cosine([]float32{1, 0}, []float32{1, 0}); c < 0.999 {
		t.Fatalf("cosine of equal vectors = %v", c)
	}
	if c := cosine([]float32{1, 0}, []float32{0, 1}); c != 0 {
		t.Fatalf("cosine of orthogonal vectors = %v", c)
	}
	v := []float32{0.25, -1.5, 3}
	if got := unpackVec(packVec(v)); len(got) != 3 || got[1] != -1.5 {
		t.Fatalf("pack/unpack = %v", got)
	}
}
