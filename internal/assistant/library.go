package assistant

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/store"
)

// Library indexes documents in the background and finds passages for a question. The
// passages and their embeddings live in the database; each replica keeps its full-text
// index and vectors in memory, built from them at start and brought up to date by a sync
// after every local change and every SyncEvery, so documents indexed on one replica are
// found on all.
type Library struct {
	DB     *store.DB
	Blobs  blob.Store
	Embed  *Endpoint // nil: BM25 only
	Index  *Index
	Logger *slog.Logger
	// SyncEvery is how often the replica looks for documents indexed or deleted elsewhere.
	SyncEvery time.Duration

	mu     sync.RWMutex
	loaded map[int64]loadedDoc // what the in-memory index holds, by document
	wake   chan struct{}
	once   sync.Once
}

type loadedDoc struct {
	org    int64
	chunks int
	vecs   [][]float32
}

func (l *Library) init() {
	l.once.Do(func() {
		l.loaded = map[int64]loadedDoc{}
		l.wake = make(chan struct{}, 1)
		if l.Logger == nil {
			l.Logger = slog.Default()
		}
		if l.SyncEvery == 0 {
			l.SyncEvery = 10 * time.Second
		}
	})
}

// Searchable is how many documents the in-memory index holds: a document is marked ready
// in the database first and found by a search once the sync that follows has loaded it.
func (l *Library) Searchable() int {
	l.init()
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.loaded)
}

// Wake asks the worker to look for queued documents now.
func (l *Library) Wake() {
	l.init()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run indexes queued documents until ctx ends. Documents left "indexing" by a replica that
// stopped are queued again, so an upload is never stuck.
func (l *Library) Run(ctx context.Context) {
	l.init()
	if _, err := l.DB.Exec(ctx, "UPDATE documents SET status = 'queued', progress = 0 WHERE status = 'indexing'"); err != nil && ctx.Err() == nil {
		l.Logger.Error("assistant: requeue", "err", err)
	}
	if err := l.Sync(ctx); err != nil && ctx.Err() == nil {
		l.Logger.Error("assistant: index sync", "err", err)
	}
	tick := time.NewTicker(l.SyncEvery)
	defer tick.Stop()
	for {
		for {
			did, err := l.indexNext(ctx)
			if err != nil && ctx.Err() == nil {
				l.Logger.Error("assistant: indexing", "err", err)
			}
			if !did || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		case <-tick.C:
			if err := l.Sync(ctx); err != nil && ctx.Err() == nil {
				l.Logger.Error("assistant: index sync", "err", err)
			}
		}
	}
}

// indexNext claims the oldest queued document (a conditional update, so two replicas never
// index the same one) and indexes it.
func (l *Library) indexNext(ctx context.Context) (bool, error) {
	var id, org int64
	var blobID, ctype string
	err := l.DB.QueryRow(ctx, "SELECT id, org_id, blob_id, content_type FROM documents WHERE status = 'queued' ORDER BY id LIMIT 1").
		Scan(&id, &org, &blobID, &ctype)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return false, err
	}
	res, err := l.DB.Exec(ctx, "UPDATE documents SET status = 'indexing', progress = 0 WHERE id = ? AND status = 'queued'", id)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return true, nil // another replica took it
	}
	if err := l.indexDoc(ctx, id, org, blobID, ctype); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		msg := err.Error()
		if errors.Is(err, errUnreadable) {
			msg = "unreadable"
		}
		_, _ = l.DB.Exec(context.WithoutCancel(ctx), "UPDATE documents SET status = 'failed', error = ?, progress = 0 WHERE id = ?", msg, id)
		l.Logger.Warn("assistant: document not indexed", "id", id, "err", err)
	}
	return true, nil
}

func (l *Library) progress(ctx context.Context, id int64, p float64) {
	_, _ = l.DB.Exec(ctx, "UPDATE documents SET progress = ? WHERE id = ?", math.Round(p*100)/100, id)
}

func (l *Library) indexDoc(ctx context.Context, id, org int64, blobID, ctype string) error {
	_, data, err := l.Blobs.Get(ctx, org, blobID)
	if err != nil {
		return err
	}
	text, err := extract(ctype, data)
	if err != nil {
		return err
	}
	l.progress(ctx, id, 0.2)
	passages := chunk(text)
	if len(passages) == 0 {
		return errUnreadable
	}
	var vecs [][]float32
	if l.Embed != nil {
		const batch = 32
		for i := 0; i < len(passages); i += batch {
			end := min(i+batch, len(passages))
			texts := make([]string, 0, end-i)
			for _, p := range passages[i:end] {
				texts = append(texts, p.Heading+"\n"+p.Body)
			}
			v, err := l.Embed.Embed(ctx, texts)
			if err != nil {
				return fmt.Errorf("embeddings: %w", err)
			}
			vecs = append(vecs, v...)
			l.progress(ctx, id, 0.2+0.6*float64(end)/float64(len(passages)))
		}
	}
	chars := int64(len([]rune(text)))
	err = l.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM document_chunks WHERE doc_id = ?", id); err != nil {
			return err
		}
		for i, p := range passages {
			var emb []byte
			if vecs != nil {
				emb = packVec(vecs[i])
			}
			if _, err := tx.Exec(ctx, "INSERT INTO document_chunks (doc_id, seq, org_id, heading, body, embedding) VALUES (?, ?, ?, ?, ?, ?)",
				id, i, org, p.Heading, p.Body, emb); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, "UPDATE documents SET status = 'ready', progress = 1, chunks = ?, chars = ?, error = '', indexed_at = ? WHERE id = ?",
			len(passages), chars, time.Now().UnixMilli(), id)
		return err
	})
	if err != nil {
		return err
	}
	return l.Sync(ctx)
}

// Sync brings the in-memory index in line with the ready documents in the database.
func (l *Library) Sync(ctx context.Context) error {
	l.init()
	rows, err := l.DB.Query(ctx, "SELECT id, org_id, chunks FROM documents WHERE status = 'ready'")
	if err != nil {
		return err
	}
	want := map[int64]loadedDoc{}
	for rows.Next() {
		var id int64
		var d loadedDoc
		if err := rows.Scan(&id, &d.org, &d.chunks); err != nil {
			rows.Close()
			return err
		}
		want[id] = d
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, d := range l.loaded {
		if w, ok := want[id]; !ok || w.chunks != d.chunks {
			if err := l.Index.Remove(id, d.chunks); err != nil {
				return err
			}
			delete(l.loaded, id)
		}
	}
	ids := make([]int64, 0, len(want))
	for id := range want {
		if _, ok := l.loaded[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		d := want[id]
		passages, vecs, err := l.passages(ctx, id)
		if err != nil {
			return err
		}
		if err := l.Index.Add(d.org, id, passages); err != nil {
			return err
		}
		d.chunks, d.vecs = len(passages), vecs
		l.loaded[id] = d
	}
	return nil
}

func (l *Library) passages(ctx context.Context, docID int64) ([]Passage, [][]float32, error) {
	rows, err := l.DB.Query(ctx, "SELECT heading, body, embedding FROM document_chunks WHERE doc_id = ? ORDER BY seq", docID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []Passage
	var vecs [][]float32
	for rows.Next() {
		var p Passage
		var emb []byte
		if err := rows.Scan(&p.Heading, &p.Body, &emb); err != nil {
			return nil, nil, err
		}
		out = append(out, p)
		if len(emb) > 0 {
			vecs = append(vecs, unpackVec(emb))
		}
	}
	if len(vecs) != len(out) {
		vecs = nil
	}
	return out, vecs, rows.Err()
}

// forget drops a deleted document from the in-memory index at once.
func (l *Library) forget(id int64) {
	l.init()
	l.mu.Lock()
	defer l.mu.Unlock()
	if d, ok := l.loaded[id]; ok {
		_ = l.Index.Remove(id, d.chunks)
		delete(l.loaded, id)
	}
}

func packVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func unpackVec(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
