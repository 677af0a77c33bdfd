package workorder

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/message"
)

// recipients are the users told about an action on an order: the processor (or the
// assigned department's members) of a new or reassigned order, otherwise the submitter,
// the processor and the users it is copied to; never the one who acted.
func (s *Service) recipients(r *http.Request, o *Order, action string, cc []int64) []int64 {
	actor := httpapi.Caller(r).UserID
	seen := map[int64]bool{actor: true, 0: true}
	var out []int64
	add := func(id int64) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	if o.AssigneeUserID != 0 {
		add(o.AssigneeUserID)
	} else if o.AssigneeDeptID != 0 {
		rows, err := s.DB.Query(r.Context(), "SELECT id FROM users WHERE dept_id = ? AND org_id = ? AND status = 1 LIMIT 200",
			o.AssigneeDeptID, httpapi.Caller(r).OrgID)
		if err == nil {
			for rows.Next() {
				var id int64
				if rows.Scan(&id) == nil {
					add(id)
				}
			}
			rows.Close()
		}
	}
	if action != "assign" {
		add(o.SubmitterID)
		for _, id := range cc {
			add(id)
		}
	}
	return out
}

// announce sends the message of an action to whom it concerns (message kind work order;
// the push channel carries it live and the unread counts follow).
func (s *Service) announce(r *http.Request, id int64, action string) {
	if s.Messages == nil {
		return
	}
	ctx := r.Context()
	o, err := Get(ctx, s.DB, httpapi.Caller(r), id, s.now())
	if err != nil {
		slog.Warn("work order message not sent", "order", id, "err", err)
		return
	}
	cc, _ := ccUsers(ctx, s.DB, id)
	typ := message.TypeMessage
	if action == "create" || action == "assign" {
		typ = message.TypeTodo
	}
	var news []message.New
	for _, u := range s.recipients(r, &o, action, cc) {
		news = append(news, message.New{UserID: u, OrgID: httpapi.Caller(r).OrgID, Kind: message.KindWorkOrder, Type: typ,
			Title:    message.Text{Key: "wo_msg_" + action, Args: []any{o.Number}},
			SubTitle: message.Plain(o.StationName),
			Content:  o.TitleText(),
			Priority: o.Priority, ProcessStatus: o.ProcessStatus, TimeoutStatus: o.Timeout, RefID: o.ID})
	}
	if len(news) == 0 {
		return
	}
	if _, err := s.Messages.Create(ctx, news...); err != nil {
		slog.Warn("work order message not sent", "order", id, "err", err)
	}
}

// AlarmsRecovered tells the processor and the submitter of each open order opened from
// one of these alarms that its alarm recovered (the order offers to close).
func (s *Service) AlarmsRecovered(ctx context.Context, alarmIDs []int64) {
	if s.Messages == nil || len(alarmIDs) == 0 {
		return
	}
	var w listing.Where
	w.In("o.open_alarm_id", alarmIDs)
	where, args := w.SQL()
	rows, err := s.DB.Query(ctx, `SELECT o.id, o.org_id, o.number, o.title, o.title_key, o.title_args, s.name, o.priority, o.status,
		COALESCE(o.submitter_id, 0), COALESCE(o.assignee_user_id, 0) FROM work_orders o JOIN stations s ON s.id = o.station_id WHERE `+where, args...)
	if err != nil {
		slog.Warn("work order recovery messages not sent", "err", err)
		return
	}
	var news []message.New
	for rows.Next() {
		var id, orgID, submitter, assignee int64
		var o Order
		var stationName string
		var priority, status int
		if err := rows.Scan(&id, &orgID, &o.Number, &o.Title, &o.titleKey, &o.titleArgs, &stationName, &priority, &status, &submitter, &assignee); err != nil {
			break
		}
		number := o.Number
		users := []int64{assignee}
		if submitter != assignee {
			users = append(users, submitter)
		}
		for _, u := range users {
			if u == 0 {
				continue
			}
			news = append(news, message.New{UserID: u, OrgID: orgID, Kind: message.KindWorkOrder, Type: message.TypeNotice,
				Title: message.Text{Key: "wo_msg_recovered", Args: []any{number}}, SubTitle: message.Plain(stationName),
				Content: o.TitleText(), Priority: priority, ProcessStatus: ProcessStatus(status), RefID: id})
		}
	}
	rows.Close()
	if len(news) > 0 {
		if _, err := s.Messages.Create(ctx, news...); err != nil {
			slog.Warn("work order recovery messages not sent", "err", err)
		}
	}
}

// changed tells the organisation's open consoles that its work orders changed: the alarm
// drawer shows its orders' status live, the order lists read again.
func (s *Service) changed(r *http.Request) {
	if s.Messages == nil || s.Messages.Pub == nil {
		return
	}
	if err := s.Messages.Pub.Publish(r.Context(), message.Event{Orders: []int64{httpapi.Caller(r).OrgID}}); err != nil {
		slog.Warn("work order change not pushed", "err", err)
	}
}
