package telemetry

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Power rows (telemetry_sample_power, migration 0190): the power column of a sealed day,
// apart from the day's block and in a form read without inflating. A chart of power over
// sealed days, the read the dashboard makes most, reads one small row a day (within a page
// of the table, where a block spills onto overflow pages) and decodes it in a few
// microseconds. A block sealed since (version 4, block.go) holds every column but power;
// its day's power row holds the instants and the power. The form:
//
//	version byte 5 (the bytes 1 to 4 start blocks and chunks)
//	uvarint n, then (n > 0) the zigzag varint of the first instant
//	a bit stream, most significant bit first, zero-padded to a byte:
//	  the n − 1 delta-of-deltas of the instants, each: 0 → '0'; zigzag below 2^16 →
//	    '10' and 16 bits; below 2^32 → '110' and 32 bits; else '111' and 64 bits
//	  the n values, each XOR the one before (the first XOR 0), as Chimp writes them
//	  (Liakos et al., VLDB 2022), with its leading zeros rounded down to one of
//	  leadSteps: 0 → '00'; more than 6 trailing zeros → '01', 3 bits naming the leading
//	    zeros, 6 bits of the count of bits between them and the trailing zeros, and those
//	    bits; the leading zeros of the value before, if that one was written '10' or
//	    '11' → '10' and the bits after them; else '11', 3 bits naming the leading zeros and
//	    the bits after them
//
// Every value round-trips bit-exactly. On the year bench's fleet (its simulator's power
// has every bit of a float's precision) a day of 5-minute samples takes 3.73 bytes a
// sample, its instants included, where its instants and power took 3.85 deflated in the
// head of a block of version 2 (with Gorilla's encoding of the values, 4.06).

const powerVersion = 5

// encodePower writes the power row of a day's rows (sorted by T, distinct instants).
func encodePower(rows []blockRow) []byte {
	out := make([]byte, 1, 16+len(rows)*4)
	out[0] = powerVersion
	out = binary.AppendUvarint(out, uint64(len(rows)))
	if len(rows) == 0 {
		return out
	}
	out = binary.AppendVarint(out, rows[0].T)
	w := bitWriter{b: out}
	var prevD int64
	for i := 1; i < len(rows); i++ {
		d := rows[i].T - rows[i-1].T
		dd := d - prevD
		prevD = d
		switch z := uint64(dd<<1 ^ dd>>63); {
		case z == 0:
			w.write(0, 1)
		case z < 1<<16:
			w.write(0b10, 2)
			w.write(z, 16)
		case z < 1<<32:
			w.write(0b110, 3)
			w.write(z, 32)
		default:
			w.write(0b111, 3)
			w.write(z, 64)
		}
	}
	var prev uint64
	lead := -1 // the leading zeros of the value before, when written '10' or '11'
	for i := range rows {
		v := math.Float64bits(rows[i].F[0])
		x := v ^ prev
		prev = v
		if x == 0 {
			w.write(0b00, 2)
			continue
		}
		code := leadCode[bits.LeadingZeros64(x)]
		l, t := int(leadSteps[code]), bits.TrailingZeros64(x)
		switch {
		case t > 6:
			w.write(0b01, 2)
			w.write(uint64(code), 3)
			w.write(uint64(64-l-t), 6)
			w.write(x>>t, uint(64-l-t))
			lead = -1
		case l == lead:
			w.write(0b10, 2)
			w.write(x, uint(64-l))
		default:
			w.write(0b11, 2)
			w.write(uint64(code), 3)
			w.write(x, uint(64-l))
			lead = l
		}
	}
	return w.done()
}

// powerRow reads a power row: nextTime n times, then nextValue n times, then end.
type powerRow struct {
	n    int
	bits bitReader
	// the reading's state: the last instant and delta; the last value and its leading
	// zeros when written '10' or '11' (-1: none)
	t, d    int64
	v       uint64
	lead    int
	pending bool // the first instant, read with the header, not yet handed out
	bad     bool // a value's bits name no value
}

func openPowerRow(b []byte) (powerRow, error) {
	if len(b) < 1 || b[0] != powerVersion {
		return powerRow{}, errBlock
	}
	d := blockDecoder{b: b[1:]}
	n := d.uvarint()
	var first int64
	if n > 0 {
		first = d.varint()
	}
	// every sample takes two bits of its value and, but the first, a bit of its instant
	if d.err != nil || n > uint64(len(d.b))*8/3+1 {
		return powerRow{}, errBlock
	}
	return powerRow{n: int(n), bits: bitReader{b: d.b}, t: first, lead: -1, pending: n > 0}, nil
}

// nextTime decodes the row's next instant.
func (p *powerRow) nextTime() int64 {
	if p.pending {
		p.pending = false
		return p.t
	}
	r := &p.bits
	r.need(3)
	var z uint64
	switch {
	case r.take(1) == 0:
	case r.take(1) == 0:
		r.need(16)
		z = r.take(16)
	case r.take(1) == 0:
		z = r.read(32)
	default:
		z = r.readUpTo64(64)
	}
	p.d += int64(z>>1) ^ -int64(z&1)
	p.t += p.d
	return p.t
}

// nextValue decodes the row's next power value (once every instant is read).
func (p *powerRow) nextValue() float64 {
	r := &p.bits
	r.need(11)       // a value's control bits
	var k, shift int // the width of the value's bits and where they go
	switch r.take(2) {
	case 0b00:
		return math.Float64frombits(p.v)
	case 0b01:
		l, center := int(leadSteps[r.take(3)]), int(r.take(6))
		if center == 0 || l+center > 64 {
			p.bad = true
			return 0
		}
		k, shift, p.lead = center, 64-l-center, -1
	case 0b10:
		if p.lead < 0 {
			p.bad = true
			return 0
		}
		k = 64 - p.lead
	default:
		p.lead = int(leadSteps[r.take(3)])
		k = 64 - p.lead
	}
	if k <= 56 {
		r.need(k)
		p.v ^= r.take(k) << shift
	} else {
		p.v ^= r.readUpTo64(k) << shift
	}
	return math.Float64frombits(p.v)
}

// leadSteps are the counts of leading zeros a power row names (Chimp's); leadCode is the
// name of the largest step at or below each count.
var (
	leadSteps = [8]uint8{0, 8, 12, 16, 18, 20, 22, 24}
	leadCode  = func() (c [65]uint8) {
		for l := range c {
			for k, s := range leadSteps {
				if int(s) <= l {
					c[l] = uint8(k)
				}
			}
		}
		return c
	}()
)

// end reports whether the row was read whole and sound: no bits missing, none left but
// the zero padding.
func (p *powerRow) end() error {
	r := &p.bits
	if p.bad || r.n < 0 || len(r.b) > 0 || r.n >= 8 || r.acc != 0 {
		return errBlock
	}
	return nil
}

// appendPowerPoints appends the (time, power) points of a power row in [from, to) to dst.
func appendPowerPoints(dst [][2]float64, b []byte, from, to int64) ([][2]float64, error) {
	p, err := openPowerRow(b)
	if err != nil {
		return dst, err
	}
	at := len(dst)
	dst = slices.Grow(dst, p.n)[:at+p.n]
	pts := dst[at:]
	for i := range pts {
		pts[i][0] = pointTime(p.nextTime(), from, to)
	}
	for i := range pts {
		pts[i][1] = p.nextValue()
	}
	if err := p.end(); err != nil {
		return dst[:at], err
	}
	return dst[:at+len(keptPoints(pts))], nil
}

// setPower fills the power column of a day's rows from the day's power row, whose
// instants must be theirs.
func setPower(rows []blockRow, b []byte) error {
	p, err := openPowerRow(b)
	if err != nil || p.n != len(rows) {
		return errBlock
	}
	same := true
	for i := range rows {
		if p.nextTime() != rows[i].T {
			same = false
		}
	}
	for i := range rows {
		rows[i].F[0] = p.nextValue()
	}
	if err := p.end(); err != nil || !same {
		return errBlock
	}
	return nil
}

// pointTime is a point's time when t is in [from, to), else NaN (no instant is NaN):
// keptPoints drops those.
func pointTime(t, from, to int64) float64 {
	if t < from || t >= to {
		return math.NaN()
	}
	return float64(t)
}

// keptPoints moves the points whose time is not NaN to the front of pts and returns them.
func keptPoints(pts [][2]float64) [][2]float64 {
	kept := pts[:0]
	for _, p := range pts {
		if !math.IsNaN(p[0]) {
			kept = append(kept, p)
		}
	}
	return kept
}

// bitWriter appends bits to b, most significant first.
type bitWriter struct {
	b   []byte
	acc uint64 // bits not yet written to b, right-aligned
	n   uint   // how many (under 8 between writes)
}

// write appends the low k bits of v (k at most 64).
func (w *bitWriter) write(v uint64, k uint) {
	if k > 32 {
		w.write(v>>32, k-32)
		v, k = v&math.MaxUint32, 32
	}
	w.acc = w.acc<<k | v&(1<<k-1)
	w.n += k
	for w.n >= 8 {
		w.n -= 8
		w.b = append(w.b, byte(w.acc>>w.n))
	}
}

// done pads the last byte with zeros and returns the bytes.
func (w *bitWriter) done() []byte {
	if w.n > 0 {
		w.b = append(w.b, byte(w.acc<<(8-w.n)))
		w.acc, w.n = 0, 0
	}
	return w.b
}

// bitReader reads what bitWriter wrote; reading past the end reads zeros and leaves n
// below 0.
type bitReader struct {
	b   []byte
	acc uint64 // bits moved from b and not yet taken, left-aligned
	n   int    // how many
}

// need makes sure that k bits (at most 56) can be taken, if b holds them.
func (r *bitReader) need(k int) {
	if r.n < k {
		r.fill()
	}
}

// take takes k bits (1 to 56) that need made sure of.
func (r *bitReader) take(k int) uint64 {
	v := r.acc >> ((64 - k) & 63)
	r.acc <<= k & 63
	r.n -= k
	return v
}

// read takes k bits (1 to 56).
func (r *bitReader) read(k int) uint64 {
	r.need(k)
	return r.take(k)
}

// readUpTo64 takes k bits (1 to 64).
func (r *bitReader) readUpTo64(k int) uint64 {
	if k > 56 {
		hi := r.read(k - 32)
		return hi<<32 | r.read(32)
	}
	return r.read(k)
}

// fill moves whole bytes from b into acc while they fit: 56 bits or more are then ready
// unless b ran out.
func (r *bitReader) fill() {
	if r.n < 0 {
		return // read past the end
	}
	if len(r.b) >= 8 {
		m := (63 - r.n) / 8 // whole bytes that fit
		v := binary.BigEndian.Uint64(r.b) >> (64 - 8*m)
		r.acc |= v << (64 - r.n - 8*m)
		r.b = r.b[m:]
		r.n += 8 * m
		return
	}
	for r.n <= 56 && len(r.b) > 0 {
		r.acc |= uint64(r.b[0]) << (56 - r.n)
		r.b = r.b[1:]
		r.n += 8
	}
}
