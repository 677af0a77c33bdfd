// Package importer reads operators' history exports (CSV or XLSX from vendor portals),
// detects their layout, maps their columns to devices and sample fields, checks every row
// and loads them through the telemetry write path's back-fill.
package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// RowReader yields a file's rows one at a time. The slice returned is reused by the next
// call: a caller that keeps a row copies it.
type RowReader interface {
	Next() ([]string, error) // io.EOF after the last row
	Close() error
}

// maxField bounds one field and one line, so that a file without line breaks (or a
// quote never closed) cannot make the reader buffer it whole.
const maxLine = 1 << 20

// csvRows reads delimited text: the delimiter is detected from the first lines (comma,
// semicolon or tab), a UTF-8 byte-order mark and an Excel "sep=;" line are skipped, and
// quoted fields may hold delimiters and line breaks.
type csvRows struct {
	r     *csv.Reader
	n     *counting
	br    *bufio.Reader
	Comma rune
}

// counting counts the bytes read through it (the progress of a file).
type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Offset is about how far into its file a reader is (bytes; 0 when unknown).
func Offset(rr RowReader) int64 {
	if c, ok := rr.(*csvRows); ok {
		return c.n.n - int64(c.br.Buffered()) // within the csv reader's own 4 KiB
	}
	if r, ok := rr.(*removeOnClose); ok {
		return Offset(r.RowReader)
	}
	if s, ok := rr.(*sunnyRows); ok {
		return Offset(s.src)
	}
	return 0
}

// ErrLineTooLong is returned for a line beyond maxLine bytes.
var ErrLineTooLong = errors.New("importer: a line is longer than 1 MiB")

// limitedLines fails a read once a line grows past maxLine without a line break.
type limitedLines struct {
	r   *bufio.Reader
	run int
}

func (l *limitedLines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	b := p[:n]
	if n > maxLine {
		// a line may lie whole inside this read: look at each
		for _, c := range b {
			if c == '\n' {
				l.run = 0
			} else if l.run++; l.run > maxLine {
				return 0, ErrLineTooLong
			}
		}
		return n, err
	}
	// lines between two breaks of this read are shorter than it: only the one it
	// continues and the one it starts can be too long
	first := bytes.IndexByte(b, '\n')
	if first < 0 {
		l.run += n
	} else {
		if l.run+first > maxLine {
			return 0, ErrLineTooLong
		}
		l.run = n - 1 - bytes.LastIndexByte(b, '\n')
	}
	if l.run > maxLine {
		return 0, ErrLineTooLong
	}
	return n, err
}

// NewCSV starts reading delimited text from r.
func NewCSV(r io.Reader) (RowReader, error) {
	cnt := &counting{r: r}
	br := bufio.NewReaderSize(cnt, 256<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = br.Discard(3)
	} else if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		// UTF-16 with its byte-order mark (Sunny Explorer writes it): read as UTF-8
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		br = bufio.NewReaderSize(transform.NewReader(br, dec), 256<<10)
	}
	head, _ := br.Peek(64 << 10)
	comma := rune(0)
	// Excel writes "sep=;" as the first line of files meant for it
	if first, _, ok := strings.Cut(string(head), "\n"); ok || len(head) > 0 {
		f := strings.TrimSpace(first)
		if len(f) == 5 && strings.EqualFold(f[:4], "sep=") {
			comma = rune(f[4])
			_, _ = br.Discard(len(first) + 1)
			head = head[min(len(head), len(first)+1):]
		}
	}
	if comma == 0 {
		comma = detectComma(head)
	}
	cr := csv.NewReader(&limitedLines{r: br})
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = true
	rows := &csvRows{r: cr, n: cnt, br: br, Comma: comma}
	if bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\""), []byte(SunnyExplorerSignature)) {
		return newSunnyRows(rows)
	}
	return rows, nil
}

func (c *csvRows) Next() ([]string, error) {
	rec, err := c.r.Read()
	if err != nil && !errors.Is(err, io.EOF) {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("importer: line %d: %w", pe.Line, pe.Err)
		}
	}
	return rec, err
}

func (c *csvRows) Close() error { return nil }

// detectComma picks the delimiter that splits the first lines into the same number of
// fields (more than one) most consistently, counting only outside quotes.
func detectComma(head []byte) rune {
	lines := strings.Split(string(head), "\n")
	if len(lines) > 20 {
		lines = lines[:20]
	}
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last may be cut by the peek
	}
	best, bestScore := ',', -1
	for _, c := range []rune{',', ';', '\t'} {
		counts := map[int]int{}
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			counts[countOutsideQuotes(l, c)]++
		}
		score := 0
		for n, k := range counts {
			if n > 0 && k*n > score {
				score = k * n
			}
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

func countOutsideQuotes(l string, c rune) int {
	n, quoted := 0, false
	for _, r := range l {
		switch {
		case r == '"':
			quoted = !quoted
		case r == c && !quoted:
			n++
		}
	}
	return n
}

// xlsxRows streams the rows of a workbook's first sheet (excelize's row iterator reads the
// sheet's XML as it goes and spills large sheets to a temporary file).
type xlsxRows struct {
	f    *excelize.File
	rows *excelize.Rows
}

// NewXLSX opens the workbook at path (a file on disk: the zip needs random access).
func NewXLSX(path string) (RowReader, error) {
	f, err := excelize.OpenFile(path, excelize.Options{UnzipXMLSizeLimit: 16 << 20})
	if err != nil {
		return nil, fmt.Errorf("importer: not a readable XLSX file: %w", err)
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, errors.New("importer: the workbook has no sheet")
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("importer: unable to read the sheet: %w", err)
	}
	return &xlsxRows{f: f, rows: rows}, nil
}

func (x *xlsxRows) Next() ([]string, error) {
	if !x.rows.Next() {
		if err := x.rows.Error(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	return x.rows.Columns(excelize.Options{RawCellValue: false})
}

func (x *xlsxRows) Close() error {
	x.rows.Close()
	return x.f.Close()
}
