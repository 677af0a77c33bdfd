package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Mapping is what the MQTT consumer and the API calls share about mapped topics: the
// organisations' rules (read from the database, cached) and what arrived.
type Mapping struct {
	db      *store.DB
	Arrived *Arrived

	mu       sync.Mutex
	byOrg    map[int64][]*compiledRule
	loadedAt time.Time
}

// NewMapping reads rules from db.
func NewMapping(db *store.DB) *Mapping {
	return &Mapping{db: db, Arrived: NewArrived(arrivedOrgs, arrivedTopics)}
}

// rulesFresh is how long the cache of rules is used before it is read again: an edit on
// this replica clears it at once, one on another replica is seen within this.
const rulesFresh = 2 * time.Second

// Rules returns an organisation's rules (in id order: the first that matches wins).
func (m *Mapping) Rules(ctx context.Context, orgID int64) ([]*compiledRule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byOrg == nil || time.Since(m.loadedAt) > rulesFresh {
		all, err := loadAllRules(ctx, m.db)
		if err != nil {
			return nil, err
		}
		m.byOrg, m.loadedAt = all, time.Now()
	}
	return m.byOrg[orgID], nil
}

// Invalidate makes the next Rules read the database.
func (m *Mapping) Invalidate() {
	m.mu.Lock()
	m.byOrg = nil
	m.mu.Unlock()
}

func loadAllRules(ctx context.Context, db *store.DB) (map[int64][]*compiledRule, error) {
	rows, err := db.Query(ctx, "SELECT id, org_id, name, topic, device, fields FROM mqtt_rules ORDER BY org_id, id")
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to read MQTT rules: %w", err)
	}
	defer rows.Close()
	out := map[int64][]*compiledRule{}
	for rows.Next() {
		var org int64
		r, err := scanRule(rows, &org)
		if err != nil {
			return nil, err
		}
		var v httpapi.Validator
		c := compileRule(r, &v)
		if v.Err() != nil {
			continue // stored rules were checked; one that no longer compiles matches nothing
		}
		out[org] = append(out[org], c)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(...any) error }

func scanRule(s scanner, org *int64) (MapRule, error) {
	var r MapRule
	var fields string
	if err := s.Scan(&r.ID, org, &r.Name, &r.Topic, &r.Device, &fields); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(fields), &r.Fields); err != nil {
		return r, fmt.Errorf("ingest: MQTT rule %d: %w", r.ID, err)
	}
	return r, nil
}

// ListRules lists an organisation's rules in id order.
func ListRules(ctx context.Context, db *store.DB, orgID int64) ([]MapRule, error) {
	rows, err := db.Query(ctx, "SELECT id, org_id, name, topic, device, fields FROM mqtt_rules WHERE org_id = ? ORDER BY id", orgID)
	if err != nil {
		return nil, fmt.Errorf("ingest: unable to list MQTT rules: %w", err)
	}
	defer rows.Close()
	out := []MapRule{}
	for rows.Next() {
		var org int64
		r, err := scanRule(rows, &org)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ErrRuleTopicTaken: the organisation has a rule for this topic filter already.
var ErrRuleTopicTaken = errors.New("ingest: a rule for this topic exists")

// ErrRuleLimit: the organisation has maxRulesPerOrg rules.
var ErrRuleLimit = errors.New("ingest: too many MQTT rules")

// AddRules stores checked rules of an organisation in one transaction; with skipTaken a
// rule whose topic has a rule already is left out (not an error). It returns the rules
// stored, with their ids.
func AddRules(ctx context.Context, db *store.DB, orgID int64, rules []MapRule, skipTaken bool) ([]MapRule, error) {
	out := []MapRule{}
	err := db.InTx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM mqtt_rules WHERE org_id = ?", orgID).Scan(&n); err != nil {
			return err
		}
		now := time.Now().UnixMilli()
		for _, r := range rules {
			var taken int
			if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM mqtt_rules WHERE org_id = ? AND topic = ?", orgID, r.Topic).Scan(&taken); err != nil {
				return err
			}
			if taken > 0 {
				if skipTaken {
					continue
				}
				return ErrRuleTopicTaken
			}
			if n >= maxRulesPerOrg {
				return ErrRuleLimit
			}
			fields, _ := json.Marshal(r.Fields)
			id, err := tx.Insert(ctx, `INSERT INTO mqtt_rules (org_id, name, topic, device, fields, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, orgID, r.Name, r.Topic, r.Device, string(fields), now, now)
			if err != nil {
				return err
			}
			r.ID = id
			n++
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// EditRule replaces a rule of the organisation (store.ErrNotFound for another's).
func EditRule(ctx context.Context, db *store.DB, orgID int64, r MapRule) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		var taken int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM mqtt_rules WHERE org_id = ? AND topic = ? AND id <> ?", orgID, r.Topic, r.ID).Scan(&taken); err != nil {
			return err
		}
		var exists int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM mqtt_rules WHERE org_id = ? AND id = ?", orgID, r.ID).Scan(&exists); err != nil {
			return err
		}
		if exists == 0 {
			return store.ErrNotFound
		}
		if taken > 0 {
			return ErrRuleTopicTaken
		}
		fields, _ := json.Marshal(r.Fields)
		_, err := tx.Exec(ctx, "UPDATE mqtt_rules SET name = ?, topic = ?, device = ?, fields = ?, updated_at = ? WHERE org_id = ? AND id = ?",
			r.Name, r.Topic, r.Device, string(fields), time.Now().UnixMilli(), orgID, r.ID)
		return err
	})
}

// DeleteRule removes a rule of the organisation (store.ErrNotFound for another's).
func DeleteRule(ctx context.Context, db *store.DB, orgID, id int64) error {
	res, err := db.Exec(ctx, "DELETE FROM mqtt_rules WHERE org_id = ? AND id = ?", orgID, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// isUniqueViolation tells a unique-index conflict (two edits racing for one topic).
func isUniqueViolation(err error) bool {
	s := strings.ToLower(fmt.Sprint(err))
	return strings.Contains(s, "unique") || strings.Contains(s, "duplicate key")
}
