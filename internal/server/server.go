// Package server wires the Helio features into one HTTP server and runs it.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/helio-energy/helio/internal/account"
	"github.com/helio-energy/helio/internal/alarm"
	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/assistant"
	"github.com/helio-energy/helio/internal/auth"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/cloud"
	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/demo"
	"github.com/helio-energy/helio/internal/device"
	"github.com/helio-energy/helio/internal/escalate"
	"github.com/helio-energy/helio/internal/fleet"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/importer"
	"github.com/helio-energy/helio/internal/ingest"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/monitor"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/plan"
	"github.com/helio-energy/helio/internal/push"
	"github.com/helio-energy/helio/internal/report"
	"github.com/helio-energy/helio/internal/scada"
	"github.com/helio-energy/helio/internal/sim"
	"github.com/helio-energy/helio/internal/station"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/sys"
	"github.com/helio-energy/helio/internal/syslog"
	"github.com/helio-energy/helio/internal/telemetry"
	"github.com/helio-energy/helio/internal/tools"
	"github.com/helio-energy/helio/internal/workorder"
	"github.com/helio-energy/helio/internal/workplace"
	"github.com/helio-energy/helio/web"
)

// Version is set at build time (-ldflags "-X …/server.Version=…").
var Version = "dev"

// Server is a configured Helio instance.
type Server struct {
	Cfg *config.Config
	DB  *store.DB
	API *httpapi.API
	// Answers keeps dashboard answers (--answer-cache); nil when off.
	Answers  *httpapi.AnswerCache
	Ready    *sys.Readiness
	Sessions *auth.Sessions
	Auth     *auth.Service
	Writer   *telemetry.Writer
	Reader   *telemetry.Reader
	Figures  *monitor.Figures
	// Fleet keeps the dashboards' live figures in memory (internal/fleet).
	Fleet    *fleet.State
	Analysis *analysis.Service
	Reports  *report.Service
	Ingest   *ingest.Service
	Line     *ingest.LineService
	Import   *importer.Runner // history import jobs (internal/importer)
	Messages *message.Store
	Alarms   *alarm.Engine
	Hub      *push.Hub
	// Library indexes the assistant's documents.
	Library *assistant.Library
	// Scada polls field devices over Modbus TCP and serves /v1/scada.
	Scada *scada.Service
	// Accounts serves the organisation and account calls; SysLog keeps every API write.
	Accounts *account.Service
	SysLog   *syslog.Log
	// Notify sends the webhooks' deliveries on one replica (Run).
	Notify *notify.Worker
	// Escalate takes the escalation steps that fell due, on one replica (Run).
	Escalate *escalate.Escalator
	// Cloud syncs vendor-cloud connections (SolarEdge) on one replica (Run).
	Cloud *cloud.Worker
	// Engine runs the demo simulator (nil without --demo).
	Engine  *demo.Engine
	engine  atomic.Pointer[demo.Engine] // Engine, once start-up has made it
	mqtt    atomic.Pointer[ingest.MQTT]
	handler http.Handler
}

// New opens and migrates the database and builds the router.
func New(ctx context.Context, cfg *config.Config) (*Server, error) {
	if cfg.Demo && cfg.SecretKey == "" {
		key, err := demoSecretKey(cfg.DataDir)
		if err != nil {
			return nil, err
		}
		cfg.SecretKey = key
	}
	db, err := store.Open(ctx, cfg.DataDir, cfg.DBURL)
	if err != nil {
		return nil, err
	}
	n, err := db.Migrate(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if n > 0 {
		slog.Info("database migrated", "dialect", db.Dialect.String(), "applied", n)
	}
	return NewWithDB(cfg, db), nil
}

// NewWithDB builds the server on an open, migrated database (tests use this).
func NewWithDB(cfg *config.Config, db *store.DB) *Server {
	s := &Server{Cfg: cfg, DB: db, Ready: sys.NewReadiness()}
	s.Sessions = &auth.Sessions{DB: db, TTL: cfg.SessionTTL}
	s.Auth = &auth.Service{DB: db, Sessions: s.Sessions, Limiter: auth.NewLimiter(db), Hashing: auth.NewHashGate(0, 0, 0)}
	s.API = httpapi.New(s.Sessions.Authenticate)
	if cfg.AnswerCache > 0 {
		s.Answers = httpapi.NewAnswerCache(cfg.AnswerCache, 0)
		s.API.UseAnswerCache(s.Answers)
	}
	s.Auth.Routes(s.API)
	s.SysLog = &syslog.Log{DB: db, Retention: cfg.SyslogRetention}
	s.API.UseWriteLog(s.SysLog.Record)
	s.SysLog.Routes(s.API)
	s.Accounts = &account.Service{DB: db, Auth: s.Auth, Blobs: blob.NewDB(db)}
	s.Accounts.Routes(s.API)
	topt := telemetry.Options{RawRetention: cfg.RawRetention}
	s.Writer = telemetry.NewWriter(db, topt)
	s.Reader = telemetry.NewReader(db, topt)
	s.Figures = &monitor.Figures{DB: db, Reader: s.Reader, EmissionFactor: cfg.EmissionFactor}
	s.Fleet = fleet.New(db, s.Writer, nil)
	s.Figures.Fleet = s.Fleet
	s.API.OnWrite(func(int64) { s.Fleet.Changed() }) // stations and devices are added, edited and moved through the API
	(&station.Service{DB: db, Telemetry: s.Figures, Blobs: blob.NewDB(db), UploadDir: filepath.Join(cfg.DataDir, "uploads")}).Routes(s.API)
	(&device.Service{DB: db, Telemetry: s.Figures}).Routes(s.API)
	(&monitor.Summary{Figures: s.Figures}).Routes(s.API)
	// analysis: data overview and comparisons (issue 16)
	s.Analysis = &analysis.Service{DB: db, EmissionFactor: cfg.EmissionFactor,
		Measure: &analysis.Measurer{Rollups: analysis.FleetRollups{Fleet: s.Fleet, Fallback: analysis.ReaderRollups{Reader: s.Reader}},
			EmissionFactor: cfg.EmissionFactor}}
	s.Analysis.Routes(s.API)
	s.Ingest = &ingest.Service{DB: db, Writer: s.Writer, Mapping: ingest.NewMapping(db)}
	s.Ingest.Routes(s.API)
	s.Ingest.KeyRoutes(s.API) // issuing, listing, rotating, revoking ingest keys
	s.Line = &ingest.LineService{DB: db, Writer: s.Writer}
	s.Line.LineRoutes(s.API) // InfluxDB line protocol: /write, /api/v2/write, /ping
	s.Line.RuleRoutes(s.API)
	s.Ingest.MapRoutes(s.API) // MQTT mapping rules, presets, what arrived
	s.Import = &importer.Runner{Importer: &importer.Importer{DB: db, Writer: s.Writer}}
	(&importer.Service{DB: db, Importer: s.Import.Importer}).Routes(s.API)
	s.Messages = &message.Store{DB: db, Pending: func(ctx context.Context, ids []int64) (map[int64]int, error) {
		return alarm.PendingByUser(ctx, db, ids)
	}}
	// webhooks: events written to the outbox with each change, sent by one worker per cluster
	relay := &notify.SMTP{Addr: cfg.SMTPAddr, Username: cfg.SMTPUsername, Password: cfg.SMTPPassword, From: cfg.SMTPFrom, Security: cfg.SMTPSecurity}
	pushKeys := &notify.PushKeys{DB: db}
	if cfg.SMTPFrom != "" {
		pushKeys.Subject = "mailto:" + cfg.SMTPFrom // the contact push services may write to
	}
	s.Notify = &notify.Worker{DB: db, Base: cfg.PublicURL, Mail: relay, Push: pushKeys}
	outbox := &notify.Outbox{Wake: s.Notify.Wake}
	(&notify.Service{Store: &notify.Store{DB: db}, Outbox: outbox, Worker: s.Notify}).Routes(s.API)
	(&notify.EmailService{DB: db, Mail: relay, Public: cfg.PublicURL}).Routes(s.API)
	(&notify.PushService{DB: db, Keys: pushKeys}).Routes(s.API)
	// escalation: alarms nobody deals with reach the on-call rota, a user or a department
	(&escalate.Service{Store: &escalate.Store{DB: db}}).Routes(s.API)
	s.Escalate = &escalate.Escalator{DB: db, Messages: s.Messages, Outbox: outbox}
	orders := &workorder.Service{DB: db, Blobs: blob.NewDB(db), Messages: s.Messages, Outbox: outbox, Keys: &idempotent.Keys{DB: db}}
	// notifications off the ingest path; open work orders hear of their alarm's recovery
	// the fleet state keeps the occurring alarms by the engine's committed changes
	s.Alarms = alarm.NewEngine(db, alarm.Options{Messages: s.Messages, AsyncNotify: true, OnRecovered: orders.AlarmsRecovered, Outbox: outbox,
		OnChange: func(c alarm.Change) { s.Fleet.ApplyAlarms([]fleet.AlarmChange{fleetAlarm(c)}) }})
	s.API.OnWrite(s.Alarms.Changed) // users, roles, grants and stations: the notification recipients kept in memory
	s.Writer.AfterCommit(func(ctx context.Context, accepted []telemetry.Sample) {
		if err := s.Alarms.Observe(ctx, accepted); err != nil && ctx.Err() == nil {
			slog.Error("alarm evaluation failed", "err", err)
		}
		if orgs, err := s.Writer.OrgsOf(ctx, accepted); err == nil && s.Hub != nil {
			s.Hub.StationsChanged(orgs) // the real-time wall reads its figures again
		}
	})
	s.Figures.Alarms = s.Alarms.ActiveByStation
	s.Figures.AlarmStats = monitor.SQLAlarmStats{DB: db}
	(&alarm.Service{Engine: s.Alarms}).Routes(s.API)
	(&message.Service{Store: s.Messages}).Routes(s.API)
	// reports: rendered in the background, files in the blob store (issue 16)
	records := &report.Records{DB: db, Outbox: outbox}
	s.Reports = &report.Service{DB: db, Records: records, Blobs: blob.NewDB(db), Worker: &report.Worker{Records: records,
		Builder: &report.Builder{DB: db, Measure: s.Analysis.Measure},
		Blobs:   blob.NewDB(db), Messages: s.Messages}}
	s.Reports.Routes(s.API)
	// Work orders and plans: attachments in the database blob store, events to the message centre.
	orders.Routes(s.API)
	(&plan.Service{DB: db, Reader: s.Reader, Messages: s.Messages, Weather: sim.YieldWeather}).Routes(s.API)
	(&demo.FaultService{DB: db, Engine: func() *demo.Engine { return s.engine.Load() }}).Routes(s.API)
	(&tools.Service{DB: db, EmissionFactor: s.Figures.EmissionFactor, Climate: demo.Climate, Weather: sim.YieldWeather}).Routes(s.API)
	(&workplace.Service{DB: db}).Routes(s.API)
	(&sys.Service{DB: db, Ready: s.Ready, LogoutURL: cfg.LogoutURL, MonitorURL: cfg.MonitorURL, Version: Version,
		MetricsToken: cfg.MetricsToken, MetricsElsewhere: cfg.MetricsAddr != ""}).Routes(s.API)
	s.assistantRoutes(cfg, db)
	// vendor clouds: credentials sealed under --secret-key; the worker runs on one replica
	s.Cloud = &cloud.Worker{Store: &cloud.Store{DB: db, Sealer: cloud.NewSealer(cfg.SecretKey)}, Writer: s.Writer,
		Vendors: cloudVendors(), RawRetention: cfg.RawRetention}
	(&cloud.Service{Worker: s.Cloud}).Routes(s.API)
	httpapi.TrustProxy(cfg.TrustProxy)
	// field polling runs on one replica (Run); every replica answers /v1/scada
	s.Scada = scada.NewService(db, scada.Options{Sink: s.writeField})
	s.Scada.Routes(s.API)
	s.Figures.Comms = func() fleet.Comms {
		m, gen := s.Scada.CommStates()
		return fleet.Comms{States: m, Gen: gen}
	}
	var bus push.Bus
	if cfg.NATSURL != "" {
		nb, err := push.DialNATS(cfg.NATSURL, "")
		if err != nil {
			slog.Error("NATS unreachable: live push stays within this replica", "err", err)
		} else {
			bus = nb
		}
	}
	if cfg.NATSURL != "" {
		// every replica's fleet figures take the others' committed changes (internal/fleet)
		if fb, err := push.DialNATS(cfg.NATSURL, "helio.fleet"); err != nil {
			slog.Error("NATS unreachable: fleet figures converge by rebuilds only", "err", err)
			_, _ = s.Fleet.Replicate(rebuildOnly{}, 10*time.Minute)
		} else if _, err := s.Fleet.Replicate(fb, 0); err != nil {
			slog.Error("fleet changes not shared between replicas", "err", err)
		}
	}
	if cfg.NATSURL != "" && s.Answers != nil {
		// a write on any replica drops its organisation's kept answers on every replica
		if ab, err := push.DialNATS(cfg.NATSURL, "helio.answers"); err != nil {
			slog.Error("NATS unreachable: other replicas' kept answers show a write within --answer-cache", "err", err)
		} else if _, err := s.Answers.ShareOver(ab); err != nil {
			slog.Error("kept answers not shared between replicas", "err", err)
		}
	}
	if cfg.NATSURL != "" {
		s.shareScada(cfg.NATSURL)
	}
	hub, err := push.NewHub(push.Options{Messages: s.Messages, Sessions: s.Sessions, Bus: bus})
	if err != nil {
		panic(err) // only for missing required options, which are set above
	}
	s.Hub = hub
	s.Auth.SessionsEnded = hub.EndSessions // logout, reset, disable close WebSockets on every replica
	s.Messages.Pub = hub
	hub.Routes(s.API)
	s.Accounts.Revoked = func(ctx context.Context, userID int64) { hub.EndSessions(ctx, userID, "") }
	if dist, ok := web.Dist(); ok {
		h, err := sys.Console(dist)
		if err != nil {
			slog.Error("console assets unreadable", "err", err)
			h = sys.NoConsole()
		}
		s.API.Mount("/", h)
	} else {
		s.API.Mount("/", sys.NoConsole())
	}
	s.handler = httpapi.Chain(http.MaxBytesHandler(s.API, 16<<20))
	return s
}

// UseEngine makes e the running demo simulator (tests drive their own).
func (s *Server) UseEngine(e *demo.Engine) {
	s.Engine = e
	s.engine.Store(e)
}

// Handler is the whole HTTP surface.
func (s *Server) Handler() http.Handler { return s.handler }

// Bootstrap seeds a fresh database: the demo organisations and fleet with --demo (then
// back-fills its history and starts the simulator), else a first administrator whose
// password is printed once.
func (s *Server) Bootstrap(ctx context.Context) error {
	if !s.Cfg.Demo {
		pw, err := demo.SeedFirstAdmin(ctx, s.DB)
		if err != nil {
			return err
		}
		if pw != "" {
			fmt.Printf("\nFirst start: created user \"admin\" with password %q — shown only this once.\n"+
				"Change it with: helio user passwd admin\n\n", pw)
		}
		return nil
	}
	s.Ready.Set("seeding", 0, "demo accounts and fleet")
	acc, created, err := demo.SeedAccounts(ctx, s.DB)
	if err != nil {
		return err
	}
	if created {
		slog.Info("demo accounts created", "users", "admin, operator, other", "password", demo.Password)
	} else if acc, err = demo.LoadAccounts(ctx, s.DB); err != nil {
		return fmt.Errorf("--demo on a database without the demo accounts: %w", err)
	}
	if err := s.startDemoCloud(ctx, acc.OrgID, created); err != nil {
		return err
	}
	if err := s.startDemoNotify(ctx, acc.OrgID, acc.AdminID, created); err != nil {
		return err
	}
	if created {
		if err := s.seedDemoEscalation(ctx, acc); err != nil {
			return err
		}
	}
	fleet := demo.Fleet()
	if err := demo.SeedFleet(ctx, s.DB, acc, fleet); err != nil {
		return err
	}
	if _, err := demo.SeedManuals(ctx, s.DB, s.Library.Blobs, acc); err != nil {
		return fmt.Errorf("demo manuals: %w", err)
	}
	if created {
		if err := demo.SeedOrganisation(ctx, s.DB, acc, fleet); err != nil {
			return err
		}
	}
	ids, err := demo.DeviceIDs(ctx, s.DB)
	if err != nil {
		return err
	}
	simulator, err := sim.New(fleet, s.Cfg.Seed)
	if err != nil {
		return err
	}
	s.Writer.Refresh()
	s.Engine = &demo.Engine{Sim: simulator, Writer: s.Writer, Reader: s.Reader, IDs: ids,
		Interval: time.Duration(float64(demo.Step) / s.Cfg.SimSpeed),
		Progress: func(done float64, detail string) { s.Ready.Set("backfilling", done, detail) }}
	s.Figures.Weather = demo.WeatherSource(simulator)
	plans := make(chan error, 1)
	go func() { plans <- demo.SeedPlans(ctx, s.DB, fleet, s.Cfg.Seed, time.Now()) }()
	last, err := s.Engine.Prepare(ctx)
	if err != nil {
		return err
	}
	now := time.Now()
	from := last.Add(demo.Step)
	if last.IsZero() {
		from = now.AddDate(0, 0, -s.Cfg.BackfillDays)
	}
	if now.Sub(from) >= demo.Step {
		slog.Info("back-filling demo history", "from", from.UTC().Format(time.RFC3339), "devices", len(ids))
		start := time.Now()
		var lastLog time.Time
		progress := s.Engine.Progress
		s.Engine.Progress = func(done float64, detail string) {
			progress(done, detail)
			if time.Since(lastLog) > 5*time.Second || done >= 1 {
				lastLog = time.Now()
				slog.Info("back-fill", "progress", fmt.Sprintf("%.0f%%", done*100), "detail", detail)
			}
		}
		s.Engine.Judge = s.Alarms.Replay
		res, err := s.Engine.Backfill(ctx, from, now)
		s.Engine.Progress, s.Engine.Judge = progress, nil
		if err != nil {
			return fmt.Errorf("demo back-fill: %w", err)
		}
		if _, err := demo.DealHistory(ctx, s.DB, acc, now); err != nil {
			return err
		}
		// the deals are of alarms older than the fleet state's window; read it again all the same
		if err := s.Fleet.ReloadAlarms(ctx); err != nil {
			return err
		}
		slog.Info("back-fill done", "samples", res.Samples, "seconds", time.Since(start).Seconds())
	}
	if err := <-plans; err != nil {
		return err
	}
	if err := demo.SeedOperations(ctx, s.DB, acc, s.Cfg.Seed, time.Now()); err != nil {
		return err
	}
	if _, err := s.Engine.StepNow(ctx, time.Now().Truncate(time.Second)); err != nil {
		return err
	}
	return nil
}

// fleetAlarm is an alarm change as the fleet state takes it.
func fleetAlarm(c alarm.Change) fleet.AlarmChange {
	out := fleet.AlarmChange{ID: c.ID, Station: c.StationID, Start: c.StartAt, Description: c.Description}
	switch c.Kind {
	case alarm.Opened:
		out.Kind = fleet.AlarmOpened
	case alarm.Recovered:
		out.Kind = fleet.AlarmRecovered
	case alarm.Dealt:
		out.Kind = fleet.AlarmDealt
	}
	return out
}

// rebuildOnly is a bus that carries nothing: the fleet state then converges with other
// replicas by its periodic rebuilds alone.
type rebuildOnly struct{}

func (rebuildOnly) Publish(context.Context, []byte) error  { return nil }
func (rebuildOnly) Subscribe(func([]byte)) (func(), error) { return func() {}, nil }
