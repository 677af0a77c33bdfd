package assistant

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// Index is the full-text index of every organisation's passages, ranked with BM25. Each
// passage is indexed twice: with English stemming (so "faults" finds "fault") and with CJK
// bigrams (so Chinese, Japanese and Korean text is searchable without a dictionary).
type Index struct {
	idx bleve.Index
}

// indexDoc is what bleve stores for a passage.
type indexDoc struct {
	Org     string `json:"org"`
	Heading string `json:"heading"`
	HeadCJK string `json:"heading_cjk"`
	Body    string `json:"body"`
	BodyCJK string `json:"body_cjk"`
}

func newMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.ScoringModel = index.BM25Scoring
	doc := bleve.NewDocumentStaticMapping()
	kw := bleve.NewTextFieldMapping()
	kw.Analyzer = keyword.Name
	kw.Store = false
	doc.AddFieldMappingsAt("org", kw)
	for field, analyzer := range map[string]string{"heading": en.AnalyzerName, "body": en.AnalyzerName,
		"heading_cjk": cjk.AnalyzerName, "body_cjk": cjk.AnalyzerName} {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeInAll = false
		doc.AddFieldMappingsAt(field, f)
	}
	m.DefaultMapping = doc
	return m
}

// OpenIndex opens the index in dir, creating it when missing ("" keeps it in memory).
func OpenIndex(dir string) (*Index, error) {
	if dir == "" {
		idx, err := bleve.NewMemOnly(newMapping())
		if err != nil {
			return nil, err
		}
		return &Index{idx: idx}, nil
	}
	p := filepath.Join(dir, "documents.bleve")
	idx, err := bleve.Open(p)
	if err != nil {
		_ = os.RemoveAll(p)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		idx, err = bleve.New(p, newMapping())
		if err != nil {
			return nil, fmt.Errorf("assistant: create index: %w", err)
		}
	}
	return &Index{idx: idx}, nil
}

// Close closes the index.
func (x *Index) Close() error { return x.idx.Close() }

func passageID(docID int64, seq int) string {
	return strconv.FormatInt(docID, 10) + "/" + strconv.Itoa(seq)
}

func parsePassageID(id string) (docID int64, seq int, ok bool) {
	a, b, found := strings.Cut(id, "/")
	d, err1 := strconv.ParseInt(a, 10, 64)
	s, err2 := strconv.Atoi(b)
	return d, s, found && err1 == nil && err2 == nil
}

// Add indexes a document's passages in one batch.
func (x *Index) Add(orgID, docID int64, passages []Passage) error {
	b := x.idx.NewBatch()
	org := strconv.FormatInt(orgID, 10)
	for i, p := range passages {
		if err := b.Index(passageID(docID, i), indexDoc{Org: org, Heading: p.Heading, HeadCJK: p.Heading,
			Body: p.Body, BodyCJK: p.Body}); err != nil {
			return err
		}
	}
	return x.idx.Batch(b)
}

// Remove drops a document's passages.
func (x *Index) Remove(docID int64, n int) error {
	b := x.idx.NewBatch()
	for i := 0; i < n; i++ {
		b.Delete(passageID(docID, i))
	}
	return x.idx.Batch(b)
}

// Count is the number of passages indexed.
func (x *Index) Count() (uint64, error) { return x.idx.DocCount() }

// minRelativeScore drops passages scoring under this share of the best one's BM25 score.
const minRelativeScore = 0.35

// Hit is a passage found for a query, best first.
type Hit struct {
	DocID int64
	Seq   int
	Score float64
}

// Search returns up to k passages of the organisation that best match q (BM25).
func (x *Index) Search(ctx context.Context, orgID int64, q string, k int) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	org := bleve.NewTermQuery(strconv.FormatInt(orgID, 10))
	org.SetField("org")
	var text []query.Query
	for field, boost := range map[string]float64{"body": 1, "heading": 1.5, "body_cjk": 1, "heading_cjk": 1.5} {
		m := bleve.NewMatchQuery(q)
		m.SetField(field)
		m.SetBoost(boost)
		text = append(text, m)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(org, bleve.NewDisjunctionQuery(text...)), k, 0, false)
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		// a passage that matches far less than the best one shares a common word, not the subject
		if h.Score < minRelativeScore*res.MaxScore {
			break
		}
		if d, s, ok := parsePassageID(h.ID); ok {
			hits = append(hits, Hit{DocID: d, Seq: s, Score: h.Score})
		}
	}
	return hits, nil
}

// Size is the bytes the index takes on disk (0 in memory).
func (x *Index) Size() int64 {
	st, ok := x.idx.StatsMap()["CurOnDiskBytes"]
	if !ok {
		if idx, ok := x.idx.StatsMap()["index"].(map[string]interface{}); ok {
			st = idx["CurOnDiskBytes"]
		}
	}
	if n, ok := st.(uint64); ok {
		return int64(n)
	}
	return 0
}
