package telemetry

import (
	"bytes"
	"compress/flate"
	"database/sql"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"sync"
	"time"
)

// Sealed blocks: the raw rows of one device and one UTC day, stored as one compressed
// value of telemetry_sample_blocks once the day is older than SealAge (seal.go). The
// encoding is columnar, then deflated:
//
//	version byte (blockVersion), then deflate of:
//	  uvarint n
//	  timestamps: zigzag varint of the first, then zigzag varints of delta-of-delta
//	  blockFloats float columns: each value XOR the column's previous one (the first
//	    XOR 0), written byte-plane by byte-plane (every value's top byte, then every
//	    value's next byte, …), so that the mostly-zero high bytes of slowly changing
//	    series sit together for deflate
//	  2 integer columns (status, strings_active): zigzag varints of the delta
//	  cstate: per sample a uvarint, 0 for NULL, else length+1; then the texts
//
// Every float round-trips bit-exactly (NaN payloads, ±Inf and -0 included).

const (
	blockVersion = 1
	blockFloats  = 10
)

var errBlock = errors.New("telemetry: damaged sample block")

// blockRow is one sample of a block: the stored row without its device.
type blockRow struct {
	T          int64
	F          [blockFloats]float64
	Status     int
	Strings    int
	CState     string
	CStateNull bool
}

// rawRow turns a block row back into a stored row of device id (counter state decoded).
func (b *blockRow) rawRow(id int64) (*rawRow, error) {
	r := &rawRow{idx: -1}
	r.DeviceID, r.T = id, b.T
	r.PowerKW, r.EnergyKWh, r.Energy2KWh, r.DCVoltageV, r.DCCurrentA = b.F[0], b.F[1], b.F[2], b.F[3], b.F[4]
	r.ACVoltageV, r.FrequencyHz, r.TempC, r.SOC, r.IrradianceWm2 = b.F[5], b.F[6], b.F[7], b.F[8], b.F[9]
	r.Status, r.StringsActive = b.Status, b.Strings
	r.Time = time.UnixMilli(b.T).UTC()
	var cs sql.NullString
	if !b.CStateNull {
		cs = sql.NullString{String: b.CState, Valid: true}
	}
	return r, r.setState(cs)
}

// blockColumn maps a column of telemetry_samples to its place in blockRow.F (-1: status,
// -2: strings_active, -3: unknown).
func blockColumn(col string) int {
	switch col {
	case "status":
		return -1
	case "strings_active":
		return -2
	}
	for i, c := range [blockFloats]string{"power_kw", "energy_kwh", "energy2_kwh", "dc_voltage_v", "dc_current_a",
		"ac_voltage_v", "frequency_hz", "temp_c", "soc", "irradiance_wm2"} {
		if c == col {
			return i
		}
	}
	return -3
}

func (b *blockRow) value(col int) float64 {
	switch col {
	case -1:
		return float64(b.Status)
	case -2:
		return float64(b.Strings)
	}
	return b.F[col]
}

var flaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression)
	return w
}}

var (
	inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
	rawBufs   = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// encodeBlock encodes rows (sorted by T, distinct instants).
func encodeBlock(rows []blockRow) []byte {
	n := len(rows)
	raw := make([]byte, 0, 16+n*(8*blockFloats+8))
	raw = binary.AppendUvarint(raw, uint64(n))
	var prevT, prevD int64
	for i := range rows {
		t := rows[i].T
		switch i {
		case 0:
			raw = binary.AppendVarint(raw, t)
		default:
			d := t - prevT
			raw = binary.AppendVarint(raw, d-prevD)
			prevD = d
		}
		prevT = t
	}
	plane := make([]uint64, n)
	for c := 0; c < blockFloats; c++ {
		var prev uint64
		for i := range rows {
			v := math.Float64bits(rows[i].F[c])
			plane[i], prev = v^prev, v
		}
		for shift := 56; shift >= 0; shift -= 8 {
			for _, v := range plane {
				raw = append(raw, byte(v>>shift))
			}
		}
	}
	for _, get := range []func(*blockRow) int{func(b *blockRow) int { return b.Status }, func(b *blockRow) int { return b.Strings }} {
		prev := 0
		for i := range rows {
			v := get(&rows[i])
			raw = binary.AppendVarint(raw, int64(v-prev))
			prev = v
		}
	}
	for i := range rows {
		if rows[i].CStateNull {
			raw = append(raw, 0)
		} else {
			raw = binary.AppendUvarint(raw, uint64(len(rows[i].CState))+1)
		}
	}
	for i := range rows {
		raw = append(raw, rows[i].CState...)
	}
	var out bytes.Buffer
	out.WriteByte(blockVersion)
	fw := flaters.Get().(*flate.Writer)
	fw.Reset(&out)
	fw.Write(raw)
	fw.Close()
	flaters.Put(fw)
	return out.Bytes()
}

// decodeBlock decodes what encodeBlock wrote.
func decodeBlock(b []byte) ([]blockRow, error) { return appendBlock(nil, b) }

// appendBlock decodes what encodeBlock wrote onto the end of dst.
func appendBlock(dst []blockRow, b []byte) ([]blockRow, error) {
	if len(b) < 1 || b[0] != blockVersion {
		return nil, errBlock
	}
	// readers and buffers are reused: a fresh inflater costs more than a day's block
	fr := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(fr)
	if err := fr.(flate.Resetter).Reset(bytes.NewReader(b[1:]), nil); err != nil {
		return nil, errBlock
	}
	buf := rawBufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 4<<20 { // a rare huge day is not kept for every later read
			rawBufs.Put(buf)
		}
	}()
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(fr, 64<<20))
	fr.Close()
	if err != nil {
		return nil, errBlock
	}
	raw := buf.Bytes() // not kept: strings are copied out
	d := blockDecoder{b: raw}
	n := d.uvarint()
	// every sample takes at least its floats and three one-byte varints
	if d.err != nil || n > uint64(len(raw))/(8*blockFloats+3) {
		return nil, errBlock
	}
	at := len(dst)
	dst = slices.Grow(dst, int(n))[:at+int(n)]
	rows := dst[at:]
	clear(rows)
	var prevT, prevD int64
	for i := range rows {
		v := d.varint()
		if i == 0 {
			prevT = v
		} else {
			prevD += v
			prevT += prevD
		}
		rows[i].T = prevT
	}
	for c := 0; c < blockFloats; c++ {
		if d.err != nil || len(d.b) < 8*len(rows) {
			return nil, errBlock
		}
		var prev uint64
		for i := range rows {
			var v uint64
			for k := 0; k < 8; k++ {
				v = v<<8 | uint64(d.b[k*len(rows)+i])
			}
			prev ^= v
			rows[i].F[c] = math.Float64frombits(prev)
		}
		d.b = d.b[8*len(rows):]
	}
	for _, set := range []func(*blockRow, int){func(b *blockRow, v int) { b.Status = v }, func(b *blockRow, v int) { b.Strings = v }} {
		prev := int64(0)
		for i := range rows {
			prev += d.varint()
			set(&rows[i], int(prev))
		}
	}
	lens := make([]uint64, len(rows))
	for i := range rows {
		lens[i] = d.uvarint()
	}
	if d.err != nil {
		return nil, errBlock
	}
	for i := range rows {
		if lens[i] == 0 {
			rows[i].CStateNull = true
			continue
		}
		l := lens[i] - 1
		if l > uint64(len(d.b)) {
			return nil, errBlock
		}
		rows[i].CState, d.b = string(d.b[:l]), d.b[l:]
	}
	if len(d.b) != 0 {
		return nil, errBlock
	}
	return dst, nil
}

type blockDecoder struct {
	b   []byte
	err error
}

func (d *blockDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.err = errBlock
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *blockDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.err = errBlock
		return 0
	}
	d.b = d.b[k:]
	return v
}
