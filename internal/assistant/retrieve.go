package assistant

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"
)

// Source is what an answer rests on: a passage of a document, or a station, alarm or device
// of the fleet. The console opens it from the answer.
type Source struct {
	Kind    string  `json:"kind" doc:"document, station, alarm or device"`
	ID      int64   `json:"id" doc:"the document, station, alarm or device id"`
	Seq     int     `json:"seq,omitempty" doc:"passage number within a document"`
	Title   string  `json:"title"`
	Heading string  `json:"heading,omitempty"`
	Excerpt string  `json:"excerpt"`
	Score   float64 `json:"score"`
}

// rrfK is the constant of reciprocal rank fusion: a passage's score is the sum over the
// rankings (BM25, embeddings) of 1 / (rrfK + rank).
const rrfK = 60

// Search returns the k passages of the organisation that best answer q: BM25 alone, or
// BM25 and embedding similarity fused by rank when an embeddings endpoint is configured.
func (l *Library) Search(ctx context.Context, orgID int64, q string, k int) ([]Source, error) {
	l.init()
	depth := max(4*k, 20)
	hits, err := l.Index.Search(ctx, orgID, q, depth)
	if err != nil {
		return nil, err
	}
	type key struct {
		doc int64
		seq int
	}
	score := map[key]float64{}
	for i, h := range hits {
		score[key{h.DocID, h.Seq}] += 1.0 / float64(rrfK+i+1)
	}
	if l.Embed != nil {
		vecs, err := l.Embed.Embed(ctx, []string{q})
		if err != nil {
			l.Logger.Warn("assistant: question not embedded; BM25 only", "err", err)
		} else {
			type sim struct {
				k key
				s float64
			}
			var sims []sim
			l.mu.RLock()
			for id, d := range l.loaded {
				if d.org != orgID {
					continue
				}
				for seq, v := range d.vecs {
					sims = append(sims, sim{key{id, seq}, cosine(vecs[0], v)})
				}
			}
			l.mu.RUnlock()
			sort.Slice(sims, func(i, j int) bool { return sims[i].s > sims[j].s })
			for i := 0; i < len(sims) && i < depth; i++ {
				score[sims[i].k] += 1.0 / float64(rrfK+i+1)
			}
		}
	}
	keys := make([]key, 0, len(score))
	for k := range score {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if score[keys[i]] != score[keys[j]] {
			return score[keys[i]] > score[keys[j]]
		}
		if keys[i].doc != keys[j].doc {
			return keys[i].doc < keys[j].doc
		}
		return keys[i].seq < keys[j].seq
	})
	if len(keys) > k {
		keys = keys[:k]
	}
	out := make([]Source, 0, len(keys))
	for _, kk := range keys {
		var title, heading, body string
		err := l.DB.QueryRow(ctx, `SELECT d.name, c.heading, c.body FROM document_chunks c JOIN documents d ON d.id = c.doc_id
			WHERE c.doc_id = ? AND c.seq = ? AND c.org_id = ? AND d.org_id = ?`, kk.doc, kk.seq, orgID, orgID).Scan(&title, &heading, &body)
		if err != nil {
			continue // deleted since the index was searched
		}
		out = append(out, Source{Kind: "document", ID: kk.doc, Seq: kk.seq, Title: title, Heading: heading,
			Excerpt: body, Score: score[kk]})
	}
	return out, nil
}

// excerpt shortens text to about n characters at a word boundary.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > n/2 {
		return string(r)[:i] + " …"
	}
	return string(r) + "…"
}
