package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func delivery(t *testing.T, event string, data any) Delivery {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return Delivery{ID: 9, Event: event, Payload: string(b), CreatedAt: time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC).UnixMilli()}
}

// TestTeamsShape: a Teams message carries one Adaptive Card (Workflows' incoming webhook):
// the title, the facts with the time in the station's zone, and a link.
func TestTeamsShape(t *testing.T) {
	body, err := Render(delivery(t, AlarmRaised, trip), FormatTeams, "en-US", "https://helio.example")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Type        string
		Attachments []struct {
			ContentType string
			Content     struct {
				Type, Version string
				Body          []struct {
					Type, Text string
					Facts      []struct{ Title, Value string }
				}
				Actions []struct{ Type, URL string }
			}
		}
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || len(m.Attachments) != 1 || m.Attachments[0].ContentType != "application/vnd.microsoft.card.adaptive" {
		t.Fatalf("message %s", body)
	}
	c := m.Attachments[0].Content
	if c.Type != "AdaptiveCard" || len(c.Body) != 2 || !strings.HasPrefix(c.Body[0].Text, "Alarm raised: ") ||
		len(c.Actions) != 1 || c.Actions[0].URL != "https://helio.example/#/alarm?detail=41" {
		t.Fatalf("card %s", body)
	}
	facts := map[string]string{}
	for _, f := range c.Body[1].Facts {
		facts[f.Title] = f.Value
	}
	if facts["Started"] != "2026-11-29 13:55:00 (Asia/Shanghai)" || facts["Station"] != "Golmud Plant" || facts["Device"] != "Inverter 7" {
		t.Fatalf("facts %v", facts)
	}
}

// TestSlackShape: a Slack message has a text (what notifications show) and mrkdwn blocks,
// with Slack's three reserved characters escaped.
func TestSlackShape(t *testing.T) {
	wo := WorkOrder{ID: 5, Number: "WO-20261129-000005", Title: "Replace fuse <F3> & check", Status: 3, Action: "start",
		StationName: "Golmud Plant", TimeZone: "Asia/Shanghai", By: "Ada", At: trip.StartAt}
	body, err := Render(delivery(t, WorkOrderTransitioned, wo), FormatSlack, "ja-JP", "")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Text   string
		Blocks []struct {
			Type string
			Text struct{ Type, Text string }
		}
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.Text, "作業指示 WO-20261129-000005 更新") || len(m.Blocks) != 2 || m.Blocks[1].Text.Type != "mrkdwn" ||
		!strings.Contains(m.Blocks[0].Text.Text, "&lt;F3&gt; &amp; check") || !strings.Contains(m.Blocks[1].Text.Text, "実行中") ||
		strings.Contains(m.Text, "<http") {
		t.Fatalf("message %s", body)
	}
}

// TestEveryEventPutIntoWords: each event a webhook may choose renders in each language and
// format, with a title that is not a bare message key.
func TestEveryEventPutIntoWords(t *testing.T) {
	data := map[string]any{AlarmRaised: trip, AlarmRecovered: trip, AlarmDealt: trip,
		WorkOrderCreated: WorkOrder{ID: 1, Number: "WO-1", Title: "x", Status: 1}, WorkOrderTransitioned: WorkOrder{ID: 1, Number: "WO-1", Status: 4},
		ReportReady: Report{ID: 3, Name: "November", Format: "pdf"}, Test: map[string]any{}}
	for _, ev := range append(Events, Test) {
		for _, lang := range []string{"en-US", "zh-CN", "zh-TW", "ko-KR", "ja-JP"} {
			m, err := describe(delivery(t, ev, data[ev]), lang, "")
			if err != nil || m.title == "" || strings.HasPrefix(m.title, "webhook_") {
				t.Fatalf("%s in %s: %q, %v", ev, lang, m.title, err)
			}
			for _, f := range Formats {
				if _, err := Render(delivery(t, ev, data[ev]), f, lang, "https://h.example"); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
