// Package workplace keeps each user's workplace shortcuts ("my menu"): the console areas
// the user adds, removes and orders, stored on the server so they follow the user.
package workplace

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Targets are the console areas a shortcut may lead to (route names), in menu order;
// adminTargets only administrators may keep.
var (
	Targets      = []string{"monitor", "realtimeMonitor", "station", "stationTags", "device", "alarm", "analysis", "debug", "workOrder", "plan", "tools", "permission"}
	adminTargets = []string{"permission"}
)

// MaxShortcuts bounds a user's shortcuts.
const MaxShortcuts = 12

// Shortcuts is a user's list, in order.
type Shortcuts struct {
	Shortcuts []string `json:"shortcuts" doc:"route names, in the user's order (at most 12, each once)"`
	Available []string `json:"available,omitempty" doc:"every area the user may keep a shortcut to"`
}

// Service serves /v2/user/shortcuts.
type Service struct {
	DB *store.DB
}

// Routes registers the calls.
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/user/shortcuts", Tag: "user", Access: httpapi.Signed,
		Summary: "The caller's workplace shortcuts, and the areas a shortcut may lead to", Resp: Shortcuts{}, Handle: s.get})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/user/shortcuts", Tag: "user", Access: httpapi.Signed,
		Summary: "Replace the caller's workplace shortcuts (order kept)", Body: Shortcuts{}, Resp: Shortcuts{}, Handle: s.put})
}

func available(role string) []string {
	if role == "admin" {
		return Targets
	}
	out := make([]string, 0, len(Targets))
	for _, t := range Targets {
		if !slices.Contains(adminTargets, t) {
			out = append(out, t)
		}
	}
	return out
}

func (s *Service) get(r *http.Request) (any, error) {
	p := httpapi.Caller(r)
	list, err := s.load(r, p.UserID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	// an area the user lost the right to (a role change) is left out, not shown
	allowed := available(p.Role)
	kept := list[:0]
	for _, t := range list {
		if slices.Contains(allowed, t) {
			kept = append(kept, t)
		}
	}
	return Shortcuts{Shortcuts: kept, Available: allowed}, nil
}

func (s *Service) load(r *http.Request, userID int64) ([]string, error) {
	rows, err := s.DB.Query(r.Context(), "SELECT target FROM user_shortcuts WHERE user_id = ? ORDER BY position", userID)
	if err != nil {
		return nil, fmt.Errorf("workplace: unable to read shortcuts: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *Service) put(r *http.Request) (any, error) {
	var in Shortcuts
	if err := httpapi.DecodeLimit(r, &in, 4<<10); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	allowed := available(p.Role)
	var v httpapi.Validator
	if in.Available != nil {
		v.Add("available", "read_only")
	}
	if in.Shortcuts == nil {
		v.Add("shortcuts", "required")
	} else if len(in.Shortcuts) > MaxShortcuts {
		v.Add("shortcuts", "too_many", MaxShortcuts)
	}
	seen := map[string]bool{}
	for _, t := range in.Shortcuts {
		switch {
		case !slices.Contains(allowed, t):
			v.Add("shortcuts", "unknown_shortcut", t)
		case seen[t]:
			v.Add("shortcuts", "duplicate_shortcut", t)
		}
		seen[t] = true
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	err := s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		if _, err := tx.Exec(r.Context(), "DELETE FROM user_shortcuts WHERE user_id = ?", p.UserID); err != nil {
			return err
		}
		for i, t := range in.Shortcuts {
			if _, err := tx.Exec(r.Context(), "INSERT INTO user_shortcuts (user_id, position, target) VALUES (?, ?, ?)", p.UserID, i, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, httpapi.Internal(fmt.Errorf("workplace: unable to save shortcuts: %w", err))
	}
	return Shortcuts{Shortcuts: in.Shortcuts, Available: allowed}, nil
}
