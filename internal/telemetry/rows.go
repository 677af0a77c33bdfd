package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// rawRow is a sample as stored: its instant in unix ms and the counter logic's state
// after it.
type rawRow struct {
	Sample
	T      int64
	C1, C2 CounterState
	// First marks a device's first reading: no segment ends at it.
	First bool
	// idx is the sample's index in the caller's batch (-1 for stored rows).
	idx int
}

func newRawRow(s Sample, idx int) *rawRow {
	r := new(rawRow)
	r.setSample(s, idx)
	return r
}

// setSample makes r the new row of sample s, the idx-th of its batch.
func (r *rawRow) setSample(s Sample, idx int) {
	t := s.Time.UnixMilli()
	s.Time = time.UnixMilli(t).UTC()
	*r = rawRow{Sample: s, T: t, idx: idx}
}

// sameValues reports whether two samples carry identical readings.
func sameValues(a, b *Sample) bool {
	return a.PowerKW == b.PowerKW && a.EnergyKWh == b.EnergyKWh && a.Energy2KWh == b.Energy2KWh &&
		a.DCVoltageV == b.DCVoltageV && a.DCCurrentA == b.DCCurrentA && a.ACVoltageV == b.ACVoltageV &&
		a.FrequencyHz == b.FrequencyHz && a.TempC == b.TempC && a.SOC == b.SOC &&
		a.IrradianceWm2 == b.IrradianceWm2 && a.Status == b.Status && a.StringsActive == b.StringsActive
}

const sampleCols = "ts, power_kw, energy_kwh, energy2_kwh, dc_voltage_v, dc_current_a, ac_voltage_v, frequency_hz, temp_c, soc, irradiance_wm2, status, strings_active, cstate"

func (r *rawRow) scanDest(cs *sql.NullString) []any {
	return []any{&r.T, &r.PowerKW, &r.EnergyKWh, &r.Energy2KWh, &r.DCVoltageV, &r.DCCurrentA, &r.ACVoltageV,
		&r.FrequencyHz, &r.TempC, &r.SOC, &r.IrradianceWm2, &r.Status, &r.StringsActive, cs}
}

func (r *rawRow) values() []any {
	return []any{r.DeviceID, r.T, r.PowerKW, r.EnergyKWh, r.Energy2KWh, r.DCVoltageV, r.DCCurrentA, r.ACVoltageV,
		r.FrequencyHz, r.TempC, r.SOC, r.IrradianceWm2, r.Status, r.StringsActive, r.cstate()}
}

type rowScanner interface{ Scan(dest ...any) error }

func scanRawRow(sc rowScanner, deviceID int64, extra ...any) (*rawRow, error) {
	r := &rawRow{idx: -1}
	r.DeviceID = deviceID
	var cs sql.NullString
	if err := sc.Scan(append(r.scanDest(&cs), extra...)...); err != nil {
		return nil, err
	}
	r.Time = time.UnixMilli(r.T).UTC()
	return r, r.setState(cs)
}

// querier is a *store.DB or a *store.Tx.
type querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// loadLatest reads the latest rows of the given devices.
func loadLatest(ctx context.Context, tx querier, ids []int64) (map[int64]*rawRow, error) {
	out := make(map[int64]*rawRow, len(ids))
	for _, chunk := range chunks(ids, 500) {
		rows, err := queryList(ctx, tx, "SELECT device_id, "+sampleCols+" FROM telemetry_latest WHERE device_id IN (%s)", chunk)
		if err != nil {
			return nil, fmt.Errorf("telemetry: unable to read latest samples: %w", err)
		}
		for rows.Next() {
			var id int64
			r := &rawRow{idx: -1}
			var cs sql.NullString
			if err := rows.Scan(append([]any{&id}, r.scanDest(&cs)...)...); err != nil {
				rows.Close()
				return nil, fmt.Errorf("telemetry: unable to read latest samples: %w", err)
			}
			r.DeviceID = id
			r.Time = time.UnixMilli(r.T).UTC()
			if err := r.setState(cs); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("telemetry: unable to read latest samples: %w", err)
		}
	}
	return out, nil
}

// loadRowBefore reads a device's last raw row before t (nil when there is none).
func loadRowBefore(ctx context.Context, tx *store.Tx, deviceID, t int64) (*rawRow, error) {
	row := tx.QueryRow(ctx, "SELECT "+sampleCols+" FROM telemetry_samples WHERE device_id = ? AND ts < ? ORDER BY ts DESC LIMIT 1", deviceID, t)
	r, err := scanRawRow(row, deviceID)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: unable to read samples: %w", err)
	}
	return r, nil
}

// rawPager reads a device's stored samples from an instant on, a page of rows at a time
// merged with its sealed blocks (when blocks is set: the instant's day may be sealed).
type rawPager struct {
	ctx      context.Context
	tx       *store.Tx
	deviceID int64
	from     int64
	buf      []*rawRow
	done     bool
	err      error

	blocks  bool
	start   int64 // the first instant read
	blk     []*rawRow
	blkFrom int64 // the next block starts at or after this
	blkDone bool
}

const rawPage = 500

func newRawPager(ctx context.Context, tx *store.Tx, deviceID, from int64, blocks bool) *rawPager {
	return &rawPager{ctx: ctx, tx: tx, deviceID: deviceID, from: from, blocks: blocks, start: from, blkFrom: blockStart(from)}
}

func (p *rawPager) nextRows() {
	if len(p.buf) == 0 && !p.done && p.err == nil {
		rows, err := p.tx.Query(p.ctx, "SELECT "+sampleCols+" FROM telemetry_samples WHERE device_id = ? AND ts >= ? ORDER BY ts LIMIT ?",
			p.deviceID, p.from, rawPage)
		if err != nil {
			p.err = fmt.Errorf("telemetry: unable to read samples: %w", err)
			return
		}
		for rows.Next() {
			r, err := scanRawRow(rows, p.deviceID)
			if err != nil {
				p.err = err
				break
			}
			p.buf = append(p.buf, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil && p.err == nil {
			p.err = fmt.Errorf("telemetry: unable to read samples: %w", err)
		}
		if len(p.buf) < rawPage {
			p.done = true
		}
		if len(p.buf) > 0 {
			p.from = p.buf[len(p.buf)-1].T + 1
		}
	}
}

func (p *rawPager) next() *rawRow {
	p.nextRows()
	if p.blocks {
		p.nextBlock()
	}
	if p.err != nil {
		return nil
	}
	var r *rawRow
	switch {
	case len(p.buf) > 0 && (len(p.blk) == 0 || p.buf[0].T < p.blk[0].T):
		r, p.buf = p.buf[0], p.buf[1:]
	case len(p.blk) > 0:
		r, p.blk = p.blk[0], p.blk[1:]
	}
	return r
}

// bulk inserts rows with multi-row INSERT statements, reusing one prepared statement for
// full chunks.
type bulk struct {
	ctx  context.Context
	tx   *store.Tx
	head string // "INSERT INTO t (a, b) VALUES "
	tail string // e.g. an ON CONFLICT clause
	cols int
	per  int
	full *sql.Stmt
	args []any
	rows int
}

func newBulk(ctx context.Context, tx *store.Tx, head, tail string, cols, per int) *bulk {
	return &bulk{ctx: ctx, tx: tx, head: head, tail: tail, cols: cols, per: per, args: make([]any, 0, cols*per)}
}

func (b *bulk) stmtSQL(n int) string {
	one := "(" + placeholders(b.cols) + ")"
	var sb strings.Builder
	sb.Grow(len(b.head) + n*(len(one)+1) + len(b.tail))
	sb.WriteString(b.head)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(one)
	}
	sb.WriteString(b.tail)
	return sb.String()
}

func (b *bulk) add(vals ...any) error {
	b.args = append(b.args, vals...)
	b.rows++
	if b.rows < b.per {
		return nil
	}
	if b.full == nil {
		st, err := b.tx.Stmt(b.ctx, b.stmtSQL(b.per))
		if err != nil {
			return err
		}
		b.full = st
	}
	_, err := b.full.ExecContext(b.ctx, b.args...)
	b.args, b.rows = b.args[:0], 0
	return err
}

// flush writes the rows left, in statements of power-of-two sizes: their few texts are
// prepared once (Tx.Stmt), where one statement of any size would be prepared every time.
func (b *bulk) flush() error {
	defer func() { b.full = nil }()
	args := b.args
	for n := b.rows; n > 0; {
		k := 1
		for k*2 <= n {
			k *= 2
		}
		st, err := b.tx.Stmt(b.ctx, b.stmtSQL(k))
		if err != nil {
			return err
		}
		if _, err := st.ExecContext(b.ctx, args[:k*b.cols]...); err != nil {
			return err
		}
		args, n = args[k*b.cols:], n-k
	}
	b.args, b.rows = b.args[:0], 0
	return nil
}

func insertRaw(ctx context.Context, tx *store.Tx, rows []*rawRow) error {
	if len(rows) == 0 {
		return nil
	}
	b := newBulk(ctx, tx, "INSERT INTO telemetry_samples (device_id, "+sampleCols+") VALUES ", "", 15, 64)
	for _, r := range rows {
		if err := b.add(r.values()...); err != nil {
			b.flush()
			return fmt.Errorf("telemetry: unable to store samples: %w", err)
		}
	}
	if err := b.flush(); err != nil {
		return fmt.Errorf("telemetry: unable to store samples: %w", err)
	}
	return nil
}

func updateRawStates(ctx context.Context, tx *store.Tx, rows []*rawRow) error {
	if len(rows) == 0 {
		return nil
	}
	st, err := tx.Stmt(ctx, "UPDATE telemetry_samples SET cstate = ? WHERE device_id = ? AND ts = ?")
	if err != nil {
		return fmt.Errorf("telemetry: unable to update samples: %w", err)
	}
	for _, r := range rows {
		if _, err := st.ExecContext(ctx, r.cstate(), r.DeviceID, r.T); err != nil {
			return fmt.Errorf("telemetry: unable to update samples: %w", err)
		}
	}
	return nil
}

// upsertLatest writes the devices' new latest rows. rolled says whether this write's roll-up
// changes are written in the same transaction: then every sample of these devices is in
// their roll-ups (rolled_ts NULL); else their samples up to the previous latest one are, as
// far as they were before (deferred.go).
func upsertLatest(ctx context.Context, tx *store.Tx, rows []*rawRow, now int64, rolled bool) error {
	if len(rows) == 0 {
		return nil
	}
	set := []string{}
	for _, c := range strings.Split(sampleCols, ", ") {
		set = append(set, c+" = excluded."+c)
	}
	set = append(set, "received_at = excluded.received_at")
	var first any // a new device's rolled_ts
	if rolled {
		set = append(set, "rolled_ts = NULL")
	} else {
		set = append(set, "rolled_ts = COALESCE(telemetry_latest.rolled_ts, telemetry_latest.ts)")
		first = rolledNone
	}
	b := newBulk(ctx, tx, "INSERT INTO telemetry_latest (device_id, "+sampleCols+", received_at, rolled_ts) VALUES ",
		" ON CONFLICT (device_id) DO UPDATE SET "+strings.Join(set, ", "), 17, 32)
	for _, r := range rows {
		if err := b.add(append(r.values(), now, first)...); err != nil {
			b.flush()
			return fmt.Errorf("telemetry: unable to store latest samples: %w", err)
		}
	}
	if err := b.flush(); err != nil {
		return fmt.Errorf("telemetry: unable to store latest samples: %w", err)
	}
	return nil
}

func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// queryList runs format, whose one IN list of ids is written "IN (%s)", followed by args.
// The list is padded (paddedList), so that a query has a few texts, not one per length;
// in a transaction its statement is kept prepared (the write path runs it in every batch).
func queryList(ctx context.Context, q querier, format string, ids []int64, args ...any) (*sql.Rows, error) {
	list, all := paddedList(ids)
	all = append(all, args...)
	text := fmt.Sprintf(format, list)
	if tx, ok := q.(*store.Tx); ok {
		st, err := tx.Stmt(ctx, text)
		if err != nil {
			return nil, err
		}
		return st.QueryContext(ctx, all...)
	}
	return q.Query(ctx, text, all...)
}

// paddedList is the placeholders of an IN list of ids and their arguments, padded to a
// power of two with the last id repeated (IN reads each row once).
func paddedList(ids []int64) (list string, args []any) {
	n := 1
	for n < len(ids) {
		n *= 2
	}
	args = make([]any, 0, n)
	for _, id := range ids {
		args = append(args, id)
	}
	for len(args) < n {
		args = append(args, ids[len(ids)-1])
	}
	return placeholders(n), args
}

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func chunks[T any](xs []T, n int) [][]T {
	var out [][]T
	for len(xs) > n {
		out = append(out, xs[:n])
		xs = xs[n:]
	}
	if len(xs) > 0 {
		out = append(out, xs)
	}
	return out
}
