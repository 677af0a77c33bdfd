package importer

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// Limits of the uploaded files.
const (
	// MaxImportBytes is what an organisation's import files may hold together (1 GiB): an
	// import of several files stays under it.
	MaxImportBytes = 1 << 30
	// partSize is the largest piece of a file kept in one row (and in memory at once).
	partSize = 4 << 20
)

// File is an uploaded export.
type File struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Kind      string    `json:"kind" doc:"csv or xlsx"`
	Size      int64     `json:"size"`
	SHA256    string    `json:"sha256"`
	CreatedAt time.Time `json:"createdAt"`
}

// Upload errors.
var (
	ErrQuota    = errors.New("importer: the organisation's import files would exceed 1 GiB")
	ErrEmpty    = errors.New("importer: the file is empty")
	ErrNotFound = errors.New("importer: not found")
)

// SaveFile streams body into the database in parts, never holding more than one part. On
// any failure (a cut connection, the quota) nothing of the file is kept.
func SaveFile(ctx context.Context, db *store.DB, orgID, userID int64, name string, body io.Reader) (File, error) {
	var used int64
	if err := db.QueryRow(ctx, "SELECT COALESCE(SUM(size), 0) FROM import_files WHERE org_id = ?", orgID).Scan(&used); err != nil {
		return File{}, err
	}
	br := bufio.NewReaderSize(body, 64<<10)
	head, _ := br.Peek(4)
	if len(head) == 0 {
		return File{}, ErrEmpty
	}
	kind := "csv"
	if bytes.Equal(head, []byte("PK\x03\x04")) {
		kind = "xlsx"
	}
	now := time.Now()
	id, err := db.Insert(ctx, `INSERT INTO import_files (org_id, name, kind, size, sha256, created_by, created_at)
		VALUES (?, ?, ?, 0, '', ?, ?)`, orgID, name, kind, userID, now.UnixMilli())
	if err != nil {
		return File{}, err
	}
	fail := func(err error) (File, error) {
		_, _ = db.Exec(context.WithoutCancel(ctx), "DELETE FROM import_files WHERE id = ?", id)
		return File{}, err
	}
	h := sha256.New()
	buf := make([]byte, partSize)
	var size int64
	for seq := 0; ; seq++ {
		n, rerr := io.ReadFull(br, buf)
		if n > 0 {
			size += int64(n)
			if used+size > MaxImportBytes {
				return fail(ErrQuota)
			}
			h.Write(buf[:n])
			if _, err := db.Exec(ctx, "INSERT INTO import_file_parts (file_id, seq, data) VALUES (?, ?, ?)", id, seq, buf[:n]); err != nil {
				return fail(err)
			}
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
			break
		}
		if rerr != nil {
			return fail(rerr)
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if _, err := db.Exec(ctx, "UPDATE import_files SET size = ?, sha256 = ? WHERE id = ?", size, sum, id); err != nil {
		return fail(err)
	}
	return File{ID: id, Name: name, Kind: kind, Size: size, SHA256: sum, CreatedAt: now.UTC().Truncate(time.Millisecond)}, nil
}

// GetFile answers the organisation's complete file (ErrNotFound for another's).
func GetFile(ctx context.Context, db *store.DB, orgID, id int64) (File, error) {
	var f File
	var at int64
	err := db.QueryRow(ctx, "SELECT id, name, kind, size, sha256, created_at FROM import_files WHERE id = ? AND org_id = ? AND sha256 <> ''",
		id, orgID).Scan(&f.ID, &f.Name, &f.Kind, &f.Size, &f.SHA256, &at)
	if noRows(err) {
		return File{}, ErrNotFound
	}
	f.CreatedAt = time.UnixMilli(at).UTC()
	return f, err
}

// ListFiles answers the organisation's complete files, newest first.
func ListFiles(ctx context.Context, db *store.DB, orgID int64) ([]File, error) {
	rows, err := db.Query(ctx, "SELECT id, name, kind, size, sha256, created_at FROM import_files WHERE org_id = ? AND sha256 <> '' ORDER BY id DESC", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []File{}
	for rows.Next() {
		var f File
		var at int64
		if err := rows.Scan(&f.ID, &f.Name, &f.Kind, &f.Size, &f.SHA256, &at); err != nil {
			return nil, err
		}
		f.CreatedAt = time.UnixMilli(at).UTC()
		out = append(out, f)
	}
	return out, rows.Err()
}

// ErrInUse is a file a job that has not ended still reads.
var ErrInUse = errors.New("importer: a job not ended reads this file")

// DeleteFile removes the organisation's file and its parts, unless a job that has not
// ended (queued, running, paused) reads it.
func DeleteFile(ctx context.Context, db *store.DB, orgID, id int64) error {
	jobs, err := queryJobs(ctx, db, "WHERE org_id = ? AND state IN (?, ?, ?)", orgID, StateQueued, StateRunning, StatePaused)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		for _, f := range j.Files {
			if f.ID == id {
				return ErrInUse
			}
		}
	}
	return db.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.Exec(ctx, "DELETE FROM import_files WHERE id = ? AND org_id = ?", id, orgID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		_, err = tx.Exec(ctx, "DELETE FROM import_file_parts WHERE file_id = ?", id)
		return err
	})
}

// partsReader reads a stored file part by part.
type partsReader struct {
	ctx  context.Context
	db   *store.DB
	id   int64
	size int64 // what the parts must add up to
	read int64
	seq  int
	cur  []byte
	done bool
}

func (p *partsReader) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.done {
			return 0, io.EOF
		}
		var data []byte
		err := p.db.QueryRow(p.ctx, "SELECT data FROM import_file_parts WHERE file_id = ? AND seq = ?", p.id, p.seq).Scan(&data)
		if err != nil {
			if noRows(err) {
				if p.read != p.size {
					// parts gone (the file deleted meanwhile): never a silently short import
					return 0, fmt.Errorf("importer: file %d: %d of %d bytes stored", p.id, p.read, p.size)
				}
				p.done = true
				continue
			}
			return 0, err
		}
		p.seq++
		p.read += int64(len(data))
		p.cur = data
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// OpenFile opens a stored file's rows: a CSV streamed from its parts, an XLSX copied to a
// temporary file first (the zip needs random access), removed on Close.
func OpenFile(ctx context.Context, db *store.DB, f File) (RowReader, error) {
	src := &partsReader{ctx: ctx, db: db, id: f.ID, size: f.Size}
	if f.Kind != "xlsx" {
		return NewCSV(src)
	}
	tmp, err := os.CreateTemp("", "helio-import-*.xlsx")
	if err != nil {
		return nil, err
	}
	path := tmp.Name()
	_, err = io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	rr, err := NewXLSX(path)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return &removeOnClose{RowReader: rr, path: path}, nil
}

type removeOnClose struct {
	RowReader
	path string
}

func (r *removeOnClose) Close() error {
	err := r.RowReader.Close()
	os.Remove(r.path)
	return err
}

// DBOpener opens a plan's files from the database (checking they are the organisation's).
func DBOpener(db *store.DB, orgID int64) Opener {
	return func(ctx context.Context, ref FileRef) (RowReader, int64, error) {
		f, err := GetFile(ctx, db, orgID, ref.ID)
		if err != nil {
			return nil, 0, fmt.Errorf("file %d: %w", ref.ID, err)
		}
		rr, err := OpenFile(ctx, db, f)
		return rr, f.Size, err
	}
}

func noRows(err error) bool {
	return errors.Is(err, sql.ErrNoRows) || errors.Is(err, store.ErrNotFound)
}
