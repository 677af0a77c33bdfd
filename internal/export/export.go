// Package export writes tables as CSV or XLSX downloads.
package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Formats are the formats Write knows (a query declares them: enum:"csv,xlsx").
var Formats = []string{"csv", "xlsx"}

// MaxRows caps an export.
const MaxRows = 100_000

// Write sends headers and rows as a file named base-YYYYMMDD-HHMMSS.(csv|xlsx). Cells
// are strings, numbers or nil. CSV cells that a spreadsheet would run as a formula are
// prefixed with a quote.
func Write(w http.ResponseWriter, r *http.Request, format, base string, headers []string, rows [][]any) {
	if len(rows) > MaxRows {
		rows = rows[:MaxRows]
	}
	name := fmt.Sprintf("%s-%s.%s", base, time.Now().UTC().Format("20060102-150405"), format)
	var body bytes.Buffer
	var ctype string
	switch format {
	case "xlsx":
		ctype = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		if err := writeXLSX(&body, headers, rows); err != nil {
			httpapi.Fail(w, r, httpapi.Internal(err))
			return
		}
	default:
		ctype = "text/csv; charset=utf-8"
		body.WriteString("\ufeff") // lets spreadsheet programs read UTF-8
		cw := csv.NewWriter(&body)
		_ = cw.Write(headers)
		for _, row := range rows {
			rec := make([]string, len(row))
			for i, c := range row {
				rec[i] = csvCell(c)
			}
			_ = cw.Write(rec)
		}
		cw.Flush()
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(body.Bytes())
}

func csvCell(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case string:
		if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
			return "'" + v
		}
		return v
	case float64:
		// plain decimals, never exponent form: spreadsheets and people read 8100000, not 8.1e+06
		return strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	default:
		return fmt.Sprint(v)
	}
}

func writeXLSX(buf *bytes.Buffer, headers []string, rows [][]any) error {
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	head := make([]any, len(headers))
	for i, h := range headers {
		head[i] = h
	}
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	_, err = f.WriteTo(buf)
	return err
}

// Column is one exported column: a message key for its header and its cell.
type Column[T any] struct {
	Key  string
	Cell func(item *T, locale string) any
}

// Table writes items as the given columns, headers in the caller's language.
func Table[T any](w http.ResponseWriter, r *http.Request, format, base string, cols []Column[T], items []T) {
	loc := httpapi.Locale(r)
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = httpapi.T(loc, c.Key)
	}
	rows := make([][]any, len(items))
	for i := range items {
		row := make([]any, len(cols))
		for j, c := range cols {
			row[j] = c.Cell(&items[i], loc)
		}
		rows[i] = row
	}
	Write(w, r, format, base, headers, rows)
}
