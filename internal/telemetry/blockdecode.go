package telemetry

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"slices"

	kflate "github.com/klauspost/compress/flate"
)

// Reading sealed blocks (block.go has the encoding). A damaged block is an error, never
// a panic, and never inflates past a bound.

// inflateTo appends the inflated stream to buf (a damaged stream, or one that inflates
// past the bound, is an error).
func inflateTo(buf *bytes.Buffer, stream []byte) error {
	// readers are reused: a fresh inflater costs more than a day's block
	fr := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(fr)
	if err := fr.(kflate.Resetter).Reset(bytes.NewReader(stream), nil); err != nil {
		return errBlock
	}
	_, err := buf.ReadFrom(io.LimitReader(fr, 64<<20))
	fr.Close()
	if err != nil || buf.Len() >= 64<<20 {
		return errBlock
	}
	return nil
}

// blockStreams splits an encoded block into its deflate streams: one for versions 1 and
// 4, the head and the tail for version 2.
func blockStreams(b []byte) (head, tail []byte, err error) {
	if len(b) < 1 {
		return nil, nil, errBlock
	}
	switch b[0] {
	case blockVersion1, blockVersion:
		return b[1:], nil, nil
	case blockVersion2:
		l, k := binary.Uvarint(b[1:])
		if k <= 0 || l > uint64(len(b)-1-k) {
			return nil, nil, errBlock
		}
		return b[1+k : 1+k+int(l)], b[1+k+int(l):], nil
	}
	return nil, nil, errBlock
}

// withPlain calls f with the inflated plain form of a block: whole, or only the head
// (n, timestamps, power) when headOnly and the version keeps it apart; the bytes are
// not kept after f returns.
func withPlain(b []byte, headOnly bool, f func(raw []byte) error) error {
	if len(b) > 0 && b[0] == chunkVersion {
		return f(b[1:]) // a chunk: the plain form as it is
	}
	head, tail, err := blockStreams(b)
	if err != nil {
		return err
	}
	buf := rawBufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 4<<20 { // a rare huge day is not kept for every later read
			rawBufs.Put(buf)
		}
	}()
	buf.Reset()
	if err := inflateTo(buf, head); err != nil {
		return err
	}
	if tail != nil && !headOnly {
		if err := inflateTo(buf, tail); err != nil {
			return err
		}
	}
	return f(buf.Bytes())
}

// decodeBlock decodes what encodeBlock wrote, or a chunk: power is the day's power row,
// which a block of version 4 needs (it holds no power) and the others ignore.
func decodeBlock(b, power []byte) ([]blockRow, error) { return appendBlock(nil, b, power) }

// appendBlock is decodeBlock onto the end of dst.
func appendBlock(dst []blockRow, b, power []byte) ([]blockRow, error) {
	if len(b) > 0 && b[0] == blockVersion && power == nil {
		return dst, errBlock
	}
	return appendBlockCols(dst, b, power)
}

// appendBlockCols decodes a block or a chunk onto the end of dst, with the power of a
// block of version 4 from power, or 0 when power is nil (for a read of other columns).
func appendBlockCols(dst []blockRow, b, power []byte) ([]blockRow, error) {
	at := len(dst)
	err := withPlain(b, false, func(raw []byte) error {
		var err error
		dst, err = appendPlain(dst, raw, b[0] != blockVersion)
		return err
	})
	if err == nil && b[0] == blockVersion && power != nil {
		err = setPower(dst[at:], power)
	}
	if err != nil {
		return dst[:at], err
	}
	return dst, nil
}

// appendPlain decodes a plain form, with or without its power column, onto the end of dst.
func appendPlain(dst []blockRow, raw []byte, withPower bool) ([]blockRow, error) {
	first := 1
	if withPower {
		first = 0
	}
	d := blockDecoder{b: raw}
	n := d.uvarint()
	// every sample takes at least its floats and three one-byte varints
	if d.err != nil || n > uint64(len(raw))/uint64(8*(blockFloats-first)+3) {
		return nil, errBlock
	}
	at := len(dst)
	dst = slices.Grow(dst, int(n))[:at+int(n)]
	rows := dst[at:]
	clear(rows)
	d.times(len(rows), func(i int, t int64) { rows[i].T = t })
	for c := first; c < blockFloats; c++ {
		if !d.floats(len(rows), func(i int, v float64) { rows[i].F[c] = v }) {
			return nil, errBlock
		}
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

// appendBlockPoints appends the (time, value) points of one column (blockColumn's index)
// of an encoded block, chunk or power row in [from, to) to dst. Power is read from a power
// row, or from a chunk or a block of version 1 or 2 (which inflates only the head of
// version 2); a block of version 4 has none.
func appendBlockPoints(dst [][2]float64, b []byte, col int, from, to int64) ([][2]float64, error) {
	if len(b) > 0 && b[0] == powerVersion {
		if col != 0 {
			return dst, errBlock
		}
		return appendPowerPoints(dst, b, from, to)
	}
	if col != 0 {
		rows, err := appendBlockCols(nil, b, nil)
		if err != nil {
			return dst, err
		}
		for i := range rows {
			if rows[i].T >= from && rows[i].T < to {
				dst = append(dst, [2]float64{float64(rows[i].T), rows[i].value(col)})
			}
		}
		return dst, nil
	}
	if len(b) > 0 && b[0] == blockVersion {
		return dst, errBlock
	}
	err := withPlain(b, true, func(raw []byte) error {
		d := blockDecoder{b: raw}
		n := d.uvarint()
		// every sample takes at least its power and a one-byte varint
		if d.err != nil || n > uint64(len(raw))/9 {
			return errBlock
		}
		// every sample's point, then those outside the range dropped
		at := len(dst)
		dst = slices.Grow(dst, int(n))[:at+int(n)]
		pts := dst[at:]
		d.times(int(n), func(i int, t int64) { pts[i][0] = pointTime(t, from, to) })
		if !d.floats(int(n), func(i int, v float64) { pts[i][1] = v }) {
			dst = dst[:at]
			return errBlock
		}
		dst = dst[:at+len(keptPoints(pts))]
		return nil
	})
	return dst, err
}

// times decodes n timestamps (delta-of-delta varints), handing each to put.
func (d *blockDecoder) times(n int, put func(i int, t int64)) {
	var prevT, prevD int64
	for i := 0; i < n; i++ {
		v := d.varint()
		if i == 0 {
			prevT = v
		} else {
			prevD += v
			prevT += prevD
		}
		put(i, prevT)
	}
}

// floats decodes a float column of n values (XOR of the previous, in byte planes),
// handing each to put; false when the bytes are too few or an earlier read failed.
func (d *blockDecoder) floats(n int, put func(i int, v float64)) bool {
	if d.err != nil || len(d.b) < 8*n {
		return false
	}
	var prev uint64
	for i := 0; i < n; i++ {
		var v uint64
		for k := 0; k < 8; k++ {
			v = v<<8 | uint64(d.b[k*n+i])
		}
		prev ^= v
		put(i, math.Float64frombits(prev))
	}
	d.b = d.b[8*n:]
	return true
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
