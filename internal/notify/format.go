package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
)

// The shapes a webhook's body may take.
const (
	FormatHelio = "helio" // Helio's JSON (below), signed
	FormatTeams = "teams" // a Microsoft Teams message with an Adaptive Card (Workflows' incoming webhook)
	FormatSlack = "slack" // a Slack incoming-webhook message (text and blocks)
)

// Formats are the shapes a webhook may choose.
var Formats = []string{FormatHelio, FormatTeams, FormatSlack}

// Delivery is one outbox row as the sender needs it.
type Delivery struct {
	ID        int64
	OrgID     int64
	Event     string
	SubjectID int64
	Payload   string
	CreatedAt int64
	Attempts  int
}

// DeliveryID is the delivery's idempotency key: the same on every attempt.
func DeliveryID(id int64) string { return "hd_" + strconv.FormatInt(id, 10) }

// Headers of a delivery.
const (
	HeaderSignature = "X-Helio-Signature" // t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
	HeaderEvent     = "X-Helio-Event"
	HeaderDelivery  = "X-Helio-Delivery"
)

// Sign is the signature header's value for body sent at t with secret.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte("."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a signature header against body and secret, and that it was made within
// window of now (a replayed delivery older than that is refused). Receivers do the same.
func Verify(secret, header string, body []byte, now time.Time, window time.Duration) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return fmt.Errorf("notify: malformed signature %q", header)
	}
	at := time.Unix(sec, 0)
	if d := now.Sub(at); d > window || d < -window {
		return fmt.Errorf("notify: signature made at %s, outside the replay window", at.UTC().Format(time.RFC3339))
	}
	want := Sign(secret, at, body)
	if !hmac.Equal([]byte(want), []byte("t="+ts+",v1="+sig)) {
		return fmt.Errorf("notify: signature does not match")
	}
	return nil
}

// message is a delivery put into words in one language: a title and facts, and the
// structured part of Helio's JSON.
type message struct {
	title string
	facts [][2]string
	link  string
	body  map[string]any // Helio's JSON: the event's object
}

// zoneTime writes ms in the zone named tz (UTC when unknown), with the zone's name.
func zoneTime(ms int64, tz string) string {
	if ms == 0 {
		return ""
	}
	loc, err := time.LoadLocation(tz)
	if err != nil || tz == "" {
		loc, tz = time.UTC, "UTC"
	}
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04:05") + " (" + tz + ")"
}

func rfc3339(ms int64, tz string) string {
	if ms == 0 {
		return ""
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	return time.UnixMilli(ms).In(loc).Format(time.RFC3339)
}

// describe puts a delivery into words in lang; base is the console's address for links
// ("" leaves them out).
func describe(d Delivery, lang, base string) (message, error) {
	t := func(key string, args ...any) string { return httpapi.T(lang, key, args...) }
	link := func(route string) string {
		if base == "" {
			return ""
		}
		return strings.TrimSuffix(base, "/") + "/#" + route
	}
	switch {
	case strings.HasPrefix(d.Event, "alarm."):
		var a Alarm
		if err := json.Unmarshal([]byte(d.Payload), &a); err != nil {
			return message{}, err
		}
		rule, level := t("alarm_rule_"+a.Rule), t("alarm_level_"+strconv.Itoa(a.Level))
		desc := t(a.MsgKey, a.Args...)
		device := a.DeviceName
		if device == "" {
			device = a.DeviceSN
		}
		m := message{title: t("webhook_"+strings.ReplaceAll(d.Event, ".", "_"), rule, a.StationName), link: link("/alarm?detail=" + strconv.FormatInt(a.ID, 10))}
		m.facts = [][2]string{{t("webhook_fact_level"), level}, {t("webhook_fact_station"), a.StationName}}
		if device != "" {
			m.facts = append(m.facts, [2]string{t("webhook_fact_device"), device})
		}
		m.facts = append(m.facts, [2]string{t("webhook_fact_started"), zoneTime(a.StartAt, a.TimeZone)})
		if a.RecoveredAt != 0 {
			m.facts = append(m.facts, [2]string{t("webhook_fact_recovered"), zoneTime(a.RecoveredAt, a.TimeZone)})
		}
		m.facts = append(m.facts, [2]string{t("webhook_fact_description"), desc})
		if d.Event == AlarmDealt {
			m.facts = append(m.facts, [2]string{t("webhook_fact_dealt_by"), a.DealtBy}, [2]string{t("webhook_fact_reason"), a.DealReason})
		}
		var esc any
		if e := a.Escalation; e != nil {
			m.facts = append(m.facts, [2]string{t("webhook_fact_escalation"), t("webhook_escalation_step", e.Rule, e.Step, e.AfterMinutes)},
				[2]string{t("webhook_fact_notified"), strings.Join(e.Notified, ", ")})
			esc = map[string]any{"rule": e.Rule, "step": e.Step, "afterMinutes": e.AfterMinutes, "notified": e.Notified}
		}
		m.body = map[string]any{"alarm": map[string]any{
			"id": a.ID, "level": a.Level, "levelName": level, "rule": a.Rule, "ruleName": rule, "description": desc,
			"station": map[string]any{"id": a.StationID, "name": a.StationName, "timeZone": a.TimeZone},
			"device":  map[string]any{"sn": a.DeviceSN, "name": a.DeviceName},
			"startAt": rfc3339(a.StartAt, a.TimeZone), "recoveredAt": rfc3339(a.RecoveredAt, a.TimeZone),
			"dealtBy": a.DealtBy, "dealReason": a.DealReason, "url": m.link,
		}}
		if esc != nil {
			m.body["escalation"] = esc
		}
		return m, nil
	case strings.HasPrefix(d.Event, "workorder."):
		var w WorkOrder
		if err := json.Unmarshal([]byte(d.Payload), &w); err != nil {
			return message{}, err
		}
		status := t("wo_status_" + strconv.Itoa(w.Status))
		m := message{title: t("webhook_"+strings.ReplaceAll(d.Event, ".", "_"), w.Number, w.Title), link: link("/operations/workorder?detail=" + strconv.FormatInt(w.ID, 10))}
		m.facts = [][2]string{{t("webhook_fact_station"), w.StationName}, {t("webhook_fact_status"), status},
			{t("webhook_fact_by"), w.By}, {t("webhook_fact_at"), zoneTime(w.At, w.TimeZone)}}
		m.body = map[string]any{"workOrder": map[string]any{
			"id": w.ID, "number": w.Number, "title": w.Title, "status": w.Status, "statusName": status, "action": w.Action,
			"station": map[string]any{"id": w.StationID, "name": w.StationName, "timeZone": w.TimeZone},
			"by":      w.By, "at": rfc3339(w.At, w.TimeZone), "url": m.link,
		}}
		return m, nil
	case d.Event == ReportReady:
		var r Report
		if err := json.Unmarshal([]byte(d.Payload), &r); err != nil {
			return message{}, err
		}
		m := message{title: t("webhook_report_ready", r.Name), link: link("/analysis")}
		m.facts = [][2]string{{t("webhook_fact_format"), strings.ToUpper(r.Format)}, {t("webhook_fact_at"), zoneTime(r.At, "UTC")}}
		m.body = map[string]any{"report": map[string]any{"id": r.ID, "name": r.Name, "format": r.Format, "at": rfc3339(r.At, "UTC"), "url": m.link}}
		return m, nil
	case d.Event == Test:
		m := message{title: t("webhook_test_title"), facts: [][2]string{{t("webhook_fact_at"), zoneTime(d.CreatedAt, "UTC")}}}
		m.body = map[string]any{"test": map[string]any{"message": t("webhook_test_title")}}
		return m, nil
	}
	return message{}, fmt.Errorf("notify: unknown event %q", d.Event)
}

// Render is the body of d for a webhook of format and lang.
func Render(d Delivery, format, lang, base string) ([]byte, error) {
	m, err := describe(d, lang, base)
	if err != nil {
		return nil, err
	}
	switch format {
	case FormatTeams:
		facts := make([]map[string]string, 0, len(m.facts))
		for _, f := range m.facts {
			facts = append(facts, map[string]string{"title": f[0], "value": f[1]})
		}
		body := []any{
			map[string]any{"type": "TextBlock", "text": m.title, "weight": "Bolder", "size": "Medium", "wrap": true},
			map[string]any{"type": "FactSet", "facts": facts},
		}
		card := map[string]any{"$schema": "http://adaptivecards.io/schemas/adaptive-card.json", "type": "AdaptiveCard", "version": "1.4", "body": body}
		if m.link != "" {
			card["actions"] = []any{map[string]any{"type": "Action.OpenUrl", "title": httpapi.T(lang, "webhook_open"), "url": m.link}}
		}
		return json.Marshal(map[string]any{"type": "message", "attachments": []any{
			map[string]any{"contentType": "application/vnd.microsoft.card.adaptive", "content": card}}})
	case FormatSlack:
		var lines []string
		for _, f := range m.facts {
			lines = append(lines, "*"+slackEscape(f[0])+":* "+slackEscape(f[1]))
		}
		text := m.title
		if m.link != "" {
			text += " <" + m.link + "|" + slackEscape(httpapi.T(lang, "webhook_open")) + ">"
		}
		return json.Marshal(map[string]any{"text": text, "blocks": []any{
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "*" + slackEscape(m.title) + "*"}},
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": strings.Join(lines, "\n")}},
		}})
	}
	out := map[string]any{"id": DeliveryID(d.ID), "event": d.Event, "createdAt": time.UnixMilli(d.CreatedAt).UTC().Format(time.RFC3339Nano),
		"language": lang, "title": m.title}
	for k, v := range m.body {
		out[k] = v
	}
	return json.Marshal(out)
}

// slackEscape escapes the three characters Slack's mrkdwn reserves.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
