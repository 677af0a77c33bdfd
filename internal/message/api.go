package message

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves the /v2/message calls.
type Service struct {
	Store *Store
}

// ListQuery documents the list filters.
type ListQuery struct {
	MessageType string `query:"messageType" enum:"alarm,workorder,system" doc:"alarm, workorder or system; absent for every kind"`
	Status      int    `query:"status" enum:"-1,0,1" default:"-1" doc:"-1 or absent both, 0 unread, 1 read"`
	httpapi.Paging
}

// ReadInput names the messages to mark read.
type ReadInput struct {
	IDs []int64 `json:"ids" doc:"the caller's message ids (at most 500); or set all"`
	All bool    `json:"all" doc:"mark every unread message since the session began"`
}

// ReadResult says how many messages changed and gives the new counters.
type ReadResult struct {
	Changed int64  `json:"changed"`
	Counts  Counts `json:"counts"`
}

// Routes registers the /v2/message calls.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/message/list", Tag: "message",
		Summary: "The caller's messages since their session began, newest first",
		Access:  httpapi.Signed, Query: ListQuery{}, Resp: httpapi.Page[Message]{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/message/counts", Tag: "message",
		Summary: "Unread messages and unprocessed alarm messages since the session began",
		Access:  httpapi.Signed, Resp: Counts{}, Handle: s.counts})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/message/read", Tag: "message",
		Summary: "Mark the caller's messages read (status 0 → 1)",
		Access:  httpapi.Signed, Body: ReadInput{}, Resp: ReadResult{}, Handle: s.read})
}

// since is the start of the caller's session: the message centre shows only messages
// received since sign-in.
func (s *Service) since(r *http.Request) (time.Time, error) {
	t, err := s.Store.SessionStart(r.Context(), httpapi.Caller(r).TokenHash)
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, httpapi.Unauthorized()
	}
	if err != nil {
		return time.Time{}, httpapi.Internal(err)
	}
	return t, nil
}

func (s *Service) list(r *http.Request) (any, error) {
	q := httpapi.Query[ListQuery](r)
	page, size := q.Page, q.PageSize
	f := Filter{UserID: httpapi.Caller(r).UserID, Kind: q.MessageType, Status: q.Status, Page: page, Size: size}
	var err error
	if f.Since, err = s.since(r); err != nil {
		return nil, err
	}
	recs, total, err := s.Store.List(r.Context(), f)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	loc := httpapi.Locale(r)
	out := make([]Message, len(recs))
	for i := range recs {
		out[i] = recs[i].Render(loc)
	}
	return httpapi.Page[Message]{List: out, Total: total, Page: page, PageSize: size}, nil
}

func (s *Service) counts(r *http.Request) (any, error) {
	since, err := s.since(r)
	if err != nil {
		return nil, err
	}
	c, err := s.Store.Counts(r.Context(), httpapi.Caller(r).UserID, since)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return c, nil
}

// MaxReadIDs is how many ids one read call may name.
const MaxReadIDs = 500

func (s *Service) read(r *http.Request) (any, error) {
	var in ReadInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	switch {
	case in.All && len(in.IDs) > 0:
		v.Add("ids", "ids_or_all")
	case !in.All && len(in.IDs) == 0:
		v.Add("ids", "required")
	case len(in.IDs) > MaxReadIDs:
		v.Add("ids", "too_many", MaxReadIDs)
	}
	for _, id := range in.IDs {
		if id <= 0 {
			v.Add("ids", "unknown_ids", strconv.FormatInt(id, 10))
			break
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	since, err := s.since(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	var changed int64
	if in.All {
		changed, err = s.Store.MarkAllRead(r.Context(), p.UserID, since)
	} else {
		var unknown []int64
		changed, unknown, err = s.Store.MarkRead(r.Context(), p.UserID, dedupe(in.IDs))
		if err == nil && len(unknown) > 0 {
			return nil, httpapi.InvalidField("ids", "unknown_ids", joinIDs(unknown))
		}
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	c, err := s.Store.Counts(r.Context(), p.UserID, since)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return ReadResult{Changed: changed, Counts: c}, nil
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func joinIDs(ids []int64) string {
	parts := make([]string, 0, min(len(ids), 10))
	for i, id := range ids {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("… (%d)", len(ids)))
			break
		}
		parts = append(parts, strconv.FormatInt(id, 10))
	}
	return strings.Join(parts, ", ")
}
