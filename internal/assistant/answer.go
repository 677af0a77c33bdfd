package assistant

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Question patterns the built-in answerer recognises, in the console's five languages.
var (
	reLeast     = regexp.MustCompile(`(?i)\b(least|lowest|worst|smallest|minimum|fewest)\b|最少|最低|最小|最差|가장 적|最も少|一番少`)
	reMost      = regexp.MustCompile(`(?i)\b(most|highest|best|largest|maximum)\b|最多|最高|最大|最好|가장 많|最も多|一番多`)
	reEnergy    = regexp.MustCompile(`(?i)\b(made|make|produc\w*|generat\w*|yield\w*|energy|kwh|output)\b|发电|發電|电量|電量|발전|発電`)
	reYesterday = regexp.MustCompile(`(?i)\byesterday\b|昨天|昨日|어제`)
	reWhyLess   = regexp.MustCompile(`(?i)\b(why|less|lower|drop\w*|down|poor|low)\b|为什么|為什麼|为何|少|低|왜|なぜ|少な`)
	reAlarm     = regexp.MustCompile(`(?i)\b(alarms?|alerts?|faults?|warnings?)\b|告警|报警|警报|故障|경보|알람|アラーム|警報`)
	reStatus    = regexp.MustCompile(`(?i)\b(status|state|doing|running|online|offline)\b|状态|狀態|상태|状態`)
	reToken     = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}_\-./]*[\p{N}][\p{L}\p{N}_\-./]*`)
)

// Facts is what the fleet says about a question, with the sources it rests on.
type Facts struct {
	Text    string // the built-in answer (empty when the question is not about the fleet)
	Sources []Source
}

// fleetFacts recognises a fleet question and answers it from the data within the asker's
// authority. It returns empty Facts for a question it does not recognise.
func fleetFacts(ctx context.Context, fleet Fleet, p *httpapi.Principal, locale, q string) (Facts, error) {
	if fleet == nil {
		return Facts{}, nil
	}
	stations, err := fleet.Stations(ctx, p)
	if err != nil {
		return Facts{}, err
	}
	named := mentioned(stations, q)
	switch {
	case reAlarm.MatchString(q):
		return alarmFacts(ctx, fleet, p, locale, named)
	case named != nil && reYesterday.MatchString(q) && reWhyLess.MatchString(q):
		return whyFacts(locale, *named, stations), nil
	case (reLeast.MatchString(q) || reMost.MatchString(q)) && (reEnergy.MatchString(q) || strings.Contains(strings.ToLower(q), "station")):
		return rankFacts(locale, stations, reMost.MatchString(q) && !reLeast.MatchString(q), reYesterday.MatchString(q)), nil
	}
	if tokens := reToken.FindAllString(q, 4); len(tokens) > 0 || reStatus.MatchString(q) {
		for _, tok := range tokens {
			devs, err := fleet.Devices(ctx, p, tok, 3)
			if err != nil {
				return Facts{}, err
			}
			if len(devs) > 0 {
				return deviceFacts(locale, devs), nil
			}
		}
	}
	if named != nil {
		return whyFacts(locale, *named, stations), nil
	}
	return Facts{}, nil
}

// mentioned returns the visible station whose name the question contains (the longest name
// wins, so "Kern Valley East" beats "Kern Valley").
func mentioned(stations []StationFact, q string) *StationFact {
	lq := strings.ToLower(q)
	var best *StationFact
	for i := range stations {
		n := strings.ToLower(stations[i].Name)
		if n != "" && strings.Contains(lq, n) && (best == nil || len(n) > len(best.Name)) {
			best = &stations[i]
		}
	}
	return best
}

func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

func specific(kwh, kwp float64) float64 {
	if kwp <= 0 {
		return 0
	}
	return kwh / kwp
}

func stationSource(s StationFact) Source {
	return Source{Kind: "station", ID: s.ID, Title: s.Name}
}

func rankFacts(locale string, stations []StationFact, most, yesterday bool) Facts {
	if len(stations) == 0 {
		return Facts{Text: httpapi.T(locale, "ans.no_stations")}
	}
	energy := func(s StationFact) float64 {
		if yesterday {
			return s.YesterdayKWh
		}
		return s.TodayKWh
	}
	sorted := append([]StationFact(nil), stations...)
	// rank by specific yield, so a small plant is not "worst" for being small
	sort.SliceStable(sorted, func(i, j int) bool {
		return specific(energy(sorted[i]), sorted[i].CapacityKWp) < specific(energy(sorted[j]), sorted[j].CapacityKWp)
	})
	period := httpapi.T(locale, "ans.today")
	if yesterday {
		period = httpapi.T(locale, "ans.yesterday")
	}
	pick, key := sorted[0], "ans.least"
	if most {
		pick, key = sorted[len(sorted)-1], "ans.most"
	}
	var b strings.Builder
	b.WriteString(httpapi.T(locale, key, pick.Name, period, num(energy(pick)), num(specific(energy(pick), pick.CapacityKWp))))
	b.WriteString("\n\n" + httpapi.T(locale, "ans.ranking", period) + "\n")
	for _, s := range sorted {
		b.WriteString("- " + httpapi.T(locale, "ans.station_line", s.Name, num(energy(s)), num(specific(energy(s), s.CapacityKWp))) + "\n")
	}
	return Facts{Text: strings.TrimSpace(b.String()), Sources: []Source{stationSource(pick)}}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func whyFacts(locale string, st StationFact, all []StationFact) Facts {
	var yields []float64
	for _, s := range all {
		yields = append(yields, specific(s.YesterdayKWh, s.CapacityKWp))
	}
	pr := 0.0
	if st.YesterdayRefKWh > 0 {
		pr = 100 * st.YesterdayKWh / st.YesterdayRefKWh
	}
	text := httpapi.T(locale, "ans.why", st.Name, num(st.YesterdayKWh), num(specific(st.YesterdayKWh, st.CapacityKWp)),
		num(pr), num(median(yields)), num(st.YesterdayFault))
	return Facts{Text: text, Sources: []Source{stationSource(st)}}
}

func alarmFacts(ctx context.Context, fleet Fleet, p *httpapi.Principal, locale string, named *StationFact) (Facts, error) {
	var id int64
	if named != nil {
		id = named.ID
	}
	alarms, err := fleet.OpenAlarms(ctx, p, id, 10)
	if err != nil {
		return Facts{}, err
	}
	var b strings.Builder
	var sources []Source
	switch {
	case len(alarms) == 0 && named != nil:
		return Facts{Text: httpapi.T(locale, "ans.no_alarms", named.Name), Sources: []Source{stationSource(*named)}}, nil
	case len(alarms) == 0:
		return Facts{}, nil // nothing occurring: let the documents speak (a question about clearing a fault)
	case named != nil:
		b.WriteString(httpapi.T(locale, "ans.alarms", named.Name, len(alarms)))
		sources = append(sources, stationSource(*named))
	default:
		b.WriteString(httpapi.T(locale, "ans.alarms_fleet", len(alarms)))
	}
	for _, a := range alarms {
		dealt := httpapi.T(locale, "ans.undealt")
		if a.Dealt {
			dealt = httpapi.T(locale, "ans.dealt")
		}
		b.WriteString("\n- " + httpapi.T(locale, "ans.alarm_line", a.StationName+" · "+a.Device, a.Description,
			a.Start.Format("2006-01-02 15:04"), dealt))
		sources = append(sources, Source{Kind: "alarm", ID: a.ID, Title: a.StationName + " · " + a.Device, Excerpt: a.Description})
	}
	return Facts{Text: b.String(), Sources: sources}, nil
}

func deviceFacts(locale string, devs []DeviceFact) Facts {
	var b strings.Builder
	var sources []Source
	for _, d := range devs {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if d.LastSeen == nil {
			b.WriteString(httpapi.T(locale, "ans.device_never", d.Name, d.SN, d.Type, d.StationName))
		} else {
			b.WriteString(httpapi.T(locale, "ans.device", d.Name, d.SN, d.Type, d.StationName,
				httpapi.T(locale, "ans.state."+d.State), num(d.PowerKW), d.LastSeen.Format("2006-01-02 15:04")))
		}
		sources = append(sources, Source{Kind: "device", ID: d.ID, Title: d.Name + " (" + d.SN + ")"})
	}
	return Facts{Text: b.String(), Sources: sources}
}

// builtInAnswer is the answer without a language model: the fleet facts, then the best
// passages quoted with their document.
func builtInAnswer(locale string, facts Facts, passages []Source) string {
	var b strings.Builder
	if facts.Text != "" {
		b.WriteString(facts.Text)
	}
	if len(passages) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(httpapi.T(locale, "ans.passages"))
		for i, s := range passages {
			title := s.Title
			if s.Heading != "" {
				title += " — " + s.Heading
			}
			fmt.Fprintf(&b, "\n\n[%d] %s\n%s", i+1, title, excerpt(s.Excerpt, 600))
		}
	}
	if b.Len() == 0 {
		return httpapi.T(locale, "ans.nothing")
	}
	return b.String()
}

// prompt builds the chat messages for a language model: the rules, the numbered sources
// (fleet facts first, then passages) and the question.
func prompt(locale string, facts Facts, passages []Source, history []ChatMessage, q string) []ChatMessage {
	var ctxt strings.Builder
	n := 0
	if facts.Text != "" {
		n++
		fmt.Fprintf(&ctxt, "[%d] Fleet data (live, from the operator's own stations):\n%s\n\n", n, facts.Text)
	}
	for _, s := range passages {
		n++
		title := s.Title
		if s.Heading != "" {
			title += " — " + s.Heading
		}
		fmt.Fprintf(&ctxt, "[%d] %s:\n%s\n\n", n, title, s.Excerpt)
	}
	system := "You are the assistant of Helio, a monitoring console for solar power stations. Answer the operator's " +
		"question using only the numbered sources below; cite them as [n]. If the sources do not answer it, say so. " +
		"Answer in the language of this locale: " + locale + ".\n\nSources:\n" + ctxt.String()
	msgs := []ChatMessage{{Role: "system", Content: system}}
	msgs = append(msgs, history...)
	return append(msgs, ChatMessage{Role: "user", Content: q})
}
