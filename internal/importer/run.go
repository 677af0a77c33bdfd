package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/telemetry"
)

// FileRef is one file of an import.
type FileRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Device is the file's device (serial number or name, as the mapping matches) when the
	// mapping has no device column: one file per device.
	Device string `json:"device,omitempty"`
}

// Plan is an import: an organisation's files read with one mapping.
type Plan struct {
	OrgID   int64     `json:"orgId"`
	Files   []FileRef `json:"files"`
	Mapping Mapping   `json:"mapping"`
	Dry     bool      `json:"dry"`
}

// Checkpoint is how far an import got: every row before (File, Row) is committed, with
// the running counters at that point and the report so far.
type Checkpoint struct {
	File      int                  `json:"file"`
	Row       int64                `json:"row"` // rows of File already done (the header counted)
	Counters  map[int64][2]float64 `json:"counters,omitempty"`
	Report    Report               `json:"report"`
	Bytes     int64                `json:"bytes"`     // bytes of the files before File
	FileBytes int64                `json:"fileBytes"` // bytes of File read so far (about)
}

// Opener opens a file of the plan; size is its length in bytes.
type Opener func(ctx context.Context, f FileRef) (rr RowReader, size int64, err error)

// Importer runs plans against the write path.
type Importer struct {
	DB     *store.DB
	Writer *telemetry.Writer
	// SliceSize is how many samples go to one back-fill (default 50,000): the live writes
	// of this process wait for one slice at a time, and memory holds one slice.
	SliceSize int

	afterSlice func()

	mu        sync.Mutex
	announced time.Time
}

// row is a sample and the row it came from.
type pending struct {
	s     telemetry.Sample
	row   int64
	delta [2]float64 // per-interval energy the sample added to its device's counters
}

// Run reads the plan's files from cp on and stores their rows (dry: only counts what would
// happen). After each slice it calls save with the new checkpoint; an error from save (a
// lost lease, a pause) stops the run with that error after the slice is committed.
func (im *Importer) Run(ctx context.Context, p Plan, open Opener, cp Checkpoint, dry bool, save func(Checkpoint) error) (Checkpoint, error) {
	devs, err := loadDevices(ctx, im.DB, p.OrgID, p.Mapping.Match)
	if err != nil {
		return cp, err
	}
	size := im.SliceSize
	if size <= 0 {
		size = 50_000
	}
	counters := map[int64]*[2]float64{}
	for id, c := range cp.Counters {
		counters[id] = &[2]float64{c[0], c[1]}
	}
	tails := newTails(im.DB)
	raw := im.Writer.Options().RawRetention
	for ; cp.File < len(p.Files); cp.File, cp.Row = cp.File+1, 0 {
		f := p.Files[cp.File]
		rr, fsize, err := open(ctx, f)
		if err != nil {
			return cp, err
		}
		err = im.runFile(ctx, p, f, rr, devs, counters, tails, raw, size, &cp, dry, save)
		rr.Close()
		if err != nil {
			return cp, err
		}
		cp.Bytes += fsize
		cp.FileBytes = 0
	}
	cp.Counters = snapshot(counters)
	if !dry {
		im.announce(true)
	}
	return cp, nil
}

func snapshot(c map[int64]*[2]float64) map[int64][2]float64 {
	out := make(map[int64][2]float64, len(c))
	for id, v := range c {
		out[id] = *v
	}
	return out
}

func (im *Importer) runFile(ctx context.Context, p Plan, f FileRef, rr RowReader, devs *devices, counters map[int64]*[2]float64,
	tails *tailCache, raw time.Duration, size int, cp *Checkpoint, dry bool, save func(Checkpoint) error) error {
	var header []string
	var rowNo int64
	for rowNo <= int64(p.Mapping.HeaderRow) {
		r, err := rr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return &FieldError{"headerRow", "beyond_file"}
			}
			return err
		}
		rowNo++
		header = append(header[:0], r...)
	}
	fileDev := int64(0)
	if f.Device != "" {
		id, ok := devs.find(f.Device)
		if !ok {
			return &FieldError{"files.device", ReasonUnknownDevice}
		}
		fileDev = id
	}
	conv, err := NewConverter(p.Mapping, header, devs.zone(fileDev), fileDev, devs.find)
	if err != nil {
		return err
	}
	conv.State = counters
	// the reading side looks a device's stored counters up on its own (the storing side
	// keeps its own cache of the latest samples)
	bases := newTails(im.DB)
	conv.Base = func(dev int64, at time.Time) [2]float64 {
		return bases.countersBefore(ctx, dev, at)
	}

	// Reading, converting and checking the next slice runs beside the storing of the one
	// before (at most one waits between them): the back-fill's database work and the
	// parsing take a core each.
	type ready struct {
		keep      []telemetry.Sample
		part      Report // the slice's rows, rejects and samples
		row       int64
		fileBytes int64
		counters  map[int64][2]float64
	}
	resume := cp.Row // cp is the storing side's from here on
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	work := make(chan ready, 1)
	stored := make(chan error, 1)
	go func() {
		var err error
		for r := range work {
			if err != nil {
				continue // drain
			}
			if err = im.store(sctx, r.keep, tails, raw, &r.part, dry); err != nil {
				stop()
				continue
			}
			if im.afterSlice != nil {
				im.afterSlice() // tests: a pause or a crash between a slice and its checkpoint
			}
			cp.Report.merge(&r.part)
			cp.Row, cp.FileBytes, cp.Counters = r.row, r.fileBytes, r.counters
			if save != nil {
				if err = save(*cp); err != nil {
					stop()
				}
			}
		}
		stored <- err
	}()
	finish := func(err error) error {
		close(work)
		if serr := <-stored; serr != nil {
			return serr
		}
		return err
	}

	var part Report
	batch := make([]pending, 0, size)
	flush := func() error {
		keep, err := im.prepare(sctx, f.Name, batch, counters, &part)
		if err != nil {
			return err
		}
		r := ready{keep: keep, part: part, row: rowNo, fileBytes: Offset(rr), counters: snapshot(counters)}
		part = Report{}
		batch = batch[:0]
		select {
		case work <- r:
			return nil
		case <-sctx.Done():
			return sctx.Err()
		}
	}
	for {
		r, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return finish(fmt.Errorf("%s: row %d: %w", f.Name, rowNo+1, err))
		}
		rowNo++
		if rowNo <= resume || emptyRow(r) {
			continue // done before the checkpoint
		}
		part.Rows++
		samples, reason, col := conv.Convert(r)
		if reason != "" {
			if col != "" {
				if i, _ := strconv.Atoi(col); i < len(header) {
					col = header[i]
				}
			}
			part.reject(f.Name, rowNo, reason, col)
			continue
		}
		for i, s := range samples {
			batch = append(batch, pending{s: s, row: rowNo, delta: conv.Deltas[i]})
		}
		if len(batch) >= size {
			if err := flush(); err != nil {
				return finish(err)
			}
		}
	}
	return finish(flush())
}

func emptyRow(r []string) bool {
	for _, v := range r {
		if v != "" {
			return false
		}
	}
	return true
}
