package workorder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/store"
)

// On site: an order's checklist (a copy of a template, answered item by item; its required
// items must be done before the order is finished) and the crew's check-ins and check-outs,
// with the phone's position when they allowed it and its distance from the station.

// Checklist is an order's checklist with its answers.
type Checklist struct {
	TemplateID int64            `json:"templateId"`
	Name       string           `json:"name"`
	Items      []ChecklistEntry `json:"items"`
	// Missing counts the required items not done yet: 0 lets the order be finished.
	Missing int `json:"missing"`
}

// ChecklistEntry is an item with its answer.
type ChecklistEntry struct {
	ChecklistItem
	Done         bool     `json:"done"`
	Value        *float64 `json:"value" doc:"a reading's value"`
	Note         string   `json:"note"`
	AttachmentID int64    `json:"attachmentId" doc:"a photo item's attachment of the order"`
	AnsweredBy   string   `json:"answeredBy"`
	AnsweredAt   int64    `json:"answeredAt" doc:"unix ms; 0 not answered"`
}

// CheckIn is a check-in or check-out on an order.
type CheckIn struct {
	ID        int64    `json:"id"`
	UserName  string   `json:"userName"`
	Kind      string   `json:"kind" doc:"in or out"`
	At        int64    `json:"at" doc:"unix ms"`
	Lat       *float64 `json:"lat"`
	Lng       *float64 `json:"lng"`
	AccuracyM *float64 `json:"accuracyM" doc:"the position's accuracy, m"`
	DistanceM *float64 `json:"distanceM" doc:"from the station, m (when both positions are known)"`
}

// ChecklistAttachInput attaches a template's checklist to an order.
type ChecklistAttachInput struct {
	TemplateID int64 `json:"templateId" validate:"required"`
}

// ChecklistAnswerInput answers one item.
type ChecklistAnswerInput struct {
	Key          string   `json:"key" validate:"required"`
	Done         bool     `json:"done"`
	Value        *float64 `json:"value" doc:"a reading's value (required to mark a reading done)"`
	Note         string   `json:"note" doc:"at most 500 characters"`
	AttachmentID int64    `json:"attachmentId" doc:"a photo item's attachment of the order (required to mark a photo done)"`
}

// CheckInInput checks in or out; the position is optional (the user may refuse it).
type CheckInInput struct {
	Kind      string   `json:"kind" validate:"required" doc:"in or out"`
	Lat       *float64 `json:"lat" doc:"-90 to 90"`
	Lng       *float64 `json:"lng" doc:"-180 to 180"`
	AccuracyM *float64 `json:"accuracyM" doc:"0 to 100000 m"`
}

// errChecklist: a required item is not done (finish refused).
var errChecklist = errors.New("workorder: the checklist is not complete")

// siteRoutes registers the calls on site (add: the work-order routes' registration, with
// idempotency keys).
func (s *Service) siteRoutes(add func(httpapi.Route)) {
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/checklist/{uid}", Summary: "Give an open order a template's checklist (replaces one not started)",
		Body: ChecklistAttachInput{}, Resp: Detail{}, Handle: s.attachChecklist})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/checklist/answer/{uid}", Summary: "Answer one checklist item (the processor, while the order is accepted or executing)",
		Body: ChecklistAnswerInput{}, Resp: Detail{}, Handle: s.answerItem})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/checkin/{uid}", Summary: "Check in or out on site, with the phone's position when allowed",
		Body: CheckInInput{}, Resp: Detail{}, Handle: s.checkIn})
}

// checklistOf reads an order's checklist (nil: none).
func checklistOf(ctx context.Context, db *store.DB, orderID int64) (*Checklist, error) {
	var c Checklist
	var items string
	err := db.QueryRow(ctx, "SELECT template_id, name, items FROM work_order_checklists WHERE order_id = ?", orderID).Scan(&c.TemplateID, &c.Name, &items)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read the checklist: %w", err)
	}
	var list []ChecklistItem
	if err := json.Unmarshal([]byte(items), &list); err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, `SELECT a.item_key, a.done, a.value, a.note, a.attachment_id, `+userName+`, a.answered_at
		FROM work_order_checklist_answers a LEFT JOIN users u ON u.id = a.user_id WHERE a.order_id = ?`, orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read the checklist's answers: %w", err)
	}
	defer rows.Close()
	answers := map[string]ChecklistEntry{}
	for rows.Next() {
		var e ChecklistEntry
		var key string
		var done int
		var v sql.NullFloat64
		if err := rows.Scan(&key, &done, &v, &e.Note, &e.AttachmentID, &e.AnsweredBy, &e.AnsweredAt); err != nil {
			return nil, err
		}
		e.Done = done == 1
		if v.Valid {
			e.Value = &v.Float64
		}
		answers[key] = e
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	c.Items = make([]ChecklistEntry, len(list))
	for i, it := range list {
		e := answers[it.Key]
		e.ChecklistItem = it
		c.Items[i] = e
		if it.Required && !e.Done {
			c.Missing++
		}
	}
	return &c, nil
}

// checklistMissing counts, in tx, the required items of an order's checklist not done.
func checklistMissing(ctx context.Context, tx *store.Tx, orderID int64) (int, error) {
	var items string
	err := tx.QueryRow(ctx, "SELECT items FROM work_order_checklists WHERE order_id = ?", orderID).Scan(&items)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var list []ChecklistItem
	if err := json.Unmarshal([]byte(items), &list); err != nil {
		return 0, err
	}
	done := map[string]bool{}
	rows, err := tx.Query(ctx, "SELECT item_key FROM work_order_checklist_answers WHERE order_id = ? AND done = 1", orderID)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return 0, err
		}
		done[k] = true
	}
	rows.Close()
	missing := 0
	for _, it := range list {
		if it.Required && !done[it.Key] {
			missing++
		}
	}
	return missing, rows.Err()
}

// checkInsOf reads an order's check-ins, oldest first.
func checkInsOf(ctx context.Context, db *store.DB, orderID int64) ([]CheckIn, error) {
	rows, err := db.Query(ctx, `SELECT c.id, `+userName+`, c.kind, c.at, c.lat, c.lng, c.accuracy_m, c.distance_m
		FROM work_order_checkins c LEFT JOIN users u ON u.id = c.user_id WHERE c.order_id = ? ORDER BY c.at, c.id`, orderID)
	if err != nil {
		return nil, fmt.Errorf("workorder: unable to read check-ins: %w", err)
	}
	defer rows.Close()
	out := []CheckIn{}
	for rows.Next() {
		var c CheckIn
		var lat, lng, acc, dist sql.NullFloat64
		if err := rows.Scan(&c.ID, &c.UserName, &c.Kind, &c.At, &lat, &lng, &acc, &dist); err != nil {
			return nil, err
		}
		for _, p := range []struct {
			v  sql.NullFloat64
			to **float64
		}{{lat, &c.Lat}, {lng, &c.Lng}, {acc, &c.AccuracyM}, {dist, &c.DistanceM}} {
			if p.v.Valid {
				v := p.v.Float64
				*p.to = &v
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// onSite says whether the caller may work on the order on site: its processor or an
// administrator, while the order is accepted or executing.
func onSite(p *httpapi.Principal, o *Order) error {
	if RolesOf(p, o)&(ByProcessor|ByAdmin) == 0 {
		return httpapi.Forbidden()
	}
	if o.Status != PendingProcess && o.Status != Executing {
		return httpapi.Conflict("wo_not_on_site")
	}
	return nil
}

func (s *Service) attachChecklist(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in ChecklistAttachInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if in.TemplateID <= 0 {
		return nil, httpapi.InvalidField("templateId", "required")
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	if RolesOf(p, &o) == 0 {
		return nil, httpapi.Forbidden()
	}
	if !Open(o.Status) {
		return nil, httpapi.Conflict("wo_not_on_site")
	}
	t, err := template(ctx, s.DB, p.OrgID, in.TemplateID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpapi.InvalidField("templateId", "not_found")
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	items, err := json.Marshal(t.Items)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	started := false
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM work_order_checklist_answers WHERE order_id = ?", o.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			started = true
			return nil
		}
		if _, err := tx.Exec(ctx, "DELETE FROM work_order_checklists WHERE order_id = ?", o.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO work_order_checklists (order_id, template_id, name, items, created_at) VALUES (?, ?, ?, ?, ?)",
			o.ID, t.ID, t.Name, string(items), s.now().UnixMilli()); err != nil {
			return err
		}
		return idempotent.Applied(ctx, tx, o.ID)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if started {
		return nil, httpapi.Conflict("wo_checklist_started")
	}
	return s.detailOf(r, o.ID)
}

func (s *Service) answerItem(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in ChecklistAnswerInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Key) == "" {
		return nil, httpapi.InvalidField("key", "required")
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	if err := onSite(p, &o); err != nil {
		return nil, err
	}
	c, err := checklistOf(ctx, s.DB, o.ID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	if c == nil {
		return nil, httpapi.Conflict("wo_no_checklist")
	}
	var item *ChecklistItem
	for i := range c.Items {
		if c.Items[i].Key == strings.TrimSpace(in.Key) {
			item = &c.Items[i].ChecklistItem
		}
	}
	var v httpapi.Validator
	if item == nil {
		v.Add("key", "not_found")
		return nil, v.Err()
	}
	in.Note = cleanText(&v, "note", in.Note, 500, false)
	if in.Value != nil && (math.IsNaN(*in.Value) || math.IsInf(*in.Value, 0) || math.Abs(*in.Value) > 1e12) {
		v.Add("value", "out_of_range", -1e12, 1e12)
	}
	if in.Done && item.Kind == ItemReading && in.Value == nil {
		v.Add("value", "required")
	}
	if in.Done && item.Kind == ItemPhoto && in.AttachmentID == 0 {
		v.Add("attachmentId", "required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if in.AttachmentID != 0 {
		var one int
		if err := s.DB.QueryRow(ctx, "SELECT 1 FROM work_order_attachments WHERE id = ? AND order_id = ?", in.AttachmentID, o.ID).Scan(&one); err != nil {
			return nil, httpapi.InvalidField("attachmentId", "not_found")
		}
	}
	var value any
	if in.Value != nil {
		value = *in.Value
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO work_order_checklist_answers (order_id, item_key, done, value, note, attachment_id, user_id, answered_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, item_key) DO UPDATE SET done = excluded.done, value = excluded.value,
			note = excluded.note, attachment_id = excluded.attachment_id, user_id = excluded.user_id, answered_at = excluded.answered_at`,
			o.ID, item.Key, boolInt(in.Done), value, in.Note, in.AttachmentID, p.UserID, s.now().UnixMilli()); err != nil {
			return err
		}
		return idempotent.Applied(ctx, tx, o.ID)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.detailOf(r, o.ID)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// distanceM is the great-circle distance between two points, in metres.
func distanceM(lat1, lng1, lat2, lng2 float64) float64 {
	const r = 6371000.0
	rad := math.Pi / 180
	dLat, dLng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

func (s *Service) checkIn(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in CheckInInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	var v httpapi.Validator
	v.OneOf("kind", in.Kind, "in", "out")
	if (in.Lat == nil) != (in.Lng == nil) {
		v.Add("lat", "wo_position_pair")
	}
	if in.Lat != nil {
		v.Range("lat", *in.Lat, -90, 90)
	}
	if in.Lng != nil {
		v.Range("lng", *in.Lng, -180, 180)
	}
	if in.AccuracyM != nil {
		v.Range("accuracyM", *in.AccuracyM, 0, 100000)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	ctx, p := r.Context(), httpapi.Caller(r)
	if err := onSite(p, &o); err != nil {
		return nil, err
	}
	var dist any
	if in.Lat != nil {
		var sLat, sLng float64
		if err := s.DB.QueryRow(ctx, "SELECT lat, lng FROM stations WHERE id = ?", o.StationID).Scan(&sLat, &sLng); err == nil && (sLat != 0 || sLng != 0) {
			dist = math.Round(distanceM(*in.Lat, *in.Lng, sLat, sLng))
		}
	}
	ptr := func(f *float64) any {
		if f == nil {
			return nil
		}
		return *f
	}
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO work_order_checkins (order_id, user_id, kind, at, lat, lng, accuracy_m, distance_m)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, o.ID, p.UserID, in.Kind, s.now().UnixMilli(), ptr(in.Lat), ptr(in.Lng), ptr(in.AccuracyM), dist); err != nil {
			return err
		}
		return idempotent.Applied(ctx, tx, o.ID)
	})
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return s.detailOf(r, o.ID)
}
