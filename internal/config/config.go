// Package config reads the `helio serve` flags and their HELIO_* environment twins.
package config

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is everything `helio serve` can be told.
type Config struct {
	Addr    string
	DataDir string
	Demo    bool
	DBURL   string
	MQTTURL string
	// NATSURL carries live events between replicas (empty: one replica).
	NATSURL string
	// MQTTClientID names this replica's persistent MQTT session.
	MQTTClientID string
	// MQTTShareGroup makes replicas split the telemetry stream (an MQTT shared subscription).
	MQTTShareGroup string
	// MQTTInFlight is the broker's window of unacknowledged messages per client
	// (Mosquitto's max_inflight_messages): the consumer writes half of it per batch.
	MQTTInFlight int
	SessionTTL   time.Duration
	LogoutURL    string
	MonitorURL   string
	// PublicURL is the console's address as people reach it: the links in webhook
	// deliveries and e-mails ("" leaves them out).
	PublicURL string
	// SMTP is the mail relay of alarm e-mails and address verification (SMTPAddr "": none).
	SMTPAddr, SMTPUsername, SMTPPassword, SMTPFrom, SMTPSecurity string
	// Seed makes the demo fleet and simulator deterministic.
	Seed int64
	// BackfillDays is how much history the demo back-fills on first start.
	BackfillDays int
	// SimSpeed runs the live simulator faster than the wall clock (1 = real time).
	SimSpeed float64
	// RawRetention is how long raw telemetry samples are kept; roll-ups are kept for ever.
	RawRetention time.Duration
	LogFormat    string
	// AnswerCache is how long a dashboard read's answer is kept for the users with the same view of the fleet (0: off).
	AnswerCache time.Duration
	// PprofAddr serves Go's profiler (net/http/pprof) on a second listener; empty: off.
	PprofAddr string
	// SyslogRetention is how long the system log keeps entries (0: for ever).
	SyslogRetention time.Duration
	// EmissionFactor is the grid emission factor for carbon reduction, kg CO₂ per kWh.
	EmissionFactor float64
	// The assistant's OpenAI-compatible endpoints (empty URL: the built-in answerer, BM25 only).
	LLMURL, LLMModel, LLMKey       string
	EmbedURL, EmbedModel, EmbedKey string
	// MetricsToken, when set, is the bearer token GET /metrics requires.
	MetricsToken string
	// MetricsAddr, when set, serves /metrics on this address instead of the main one.
	MetricsAddr string
	// TrustProxy honours X-Forwarded-For (client address) and X-Forwarded-Proto (HSTS)
	// from the proxy in front of Helio.
	TrustProxy bool
	// ReadTimeout bounds reading a whole request (a client trickling its body byte by byte
	// is cut off); headers get at most 10 s of it.
	ReadTimeout time.Duration
	// SecretKey seals credentials Helio keeps for others (vendor-cloud API keys); empty:
	// such credentials are refused rather than stored in clear.
	SecretKey string
}

// Flags registers every option on fs, each defaulting to its HELIO_* variable, and
// returns the config they fill.
func Flags(fs *flag.FlagSet) *Config {
	c := &Config{}
	fs.StringVar(&c.Addr, "addr", env("HELIO_ADDR", "127.0.0.1:8080"), "listen address (HELIO_ADDR)")
	fs.StringVar(&c.DataDir, "data", env("HELIO_DATA", "./data"), "directory for the embedded database and uploads (HELIO_DATA)")
	fs.BoolVar(&c.Demo, "demo", envBool("HELIO_DEMO", false), "seed a demo fleet on first start and run the simulator (HELIO_DEMO)")
	fs.StringVar(&c.DBURL, "db", env("HELIO_DB", ""), "database URL: postgres://… for PostgreSQL; empty for SQLite in --data (HELIO_DB)")
	fs.StringVar(&c.MQTTURL, "mqtt", env("HELIO_MQTT", ""), "MQTT broker to take device samples from, e.g. mqtt://127.0.0.1:1883 (HELIO_MQTT)")
	fs.StringVar(&c.MQTTClientID, "mqtt-client-id", env("HELIO_MQTT_CLIENT_ID", "helio-ingest"), "MQTT client id: the broker keeps this session's messages while Helio is down; one per replica (HELIO_MQTT_CLIENT_ID)")
	fs.StringVar(&c.MQTTShareGroup, "mqtt-share-group", env("HELIO_MQTT_SHARE_GROUP", ""), "with several replicas: subscribe as this shared-subscription group ($share/GROUP/…) so each sample reaches one replica (HELIO_MQTT_SHARE_GROUP)")
	fs.IntVar(&c.MQTTInFlight, "mqtt-inflight", int(envInt("HELIO_MQTT_INFLIGHT", 20)), "the broker's window of unacknowledged messages per client, Mosquitto's max_inflight_messages: half of it is written per batch, so a larger window lets a large fleet's small messages be written together (HELIO_MQTT_INFLIGHT)")
	fs.StringVar(&c.NATSURL, "nats", env("HELIO_NATS", ""), "NATS server that carries live events between replicas, e.g. nats://127.0.0.1:4222 (HELIO_NATS)")
	fs.DurationVar(&c.SessionTTL, "session-ttl", envDuration("HELIO_SESSION_TTL", 12*time.Hour), "how long a sign-in lasts (HELIO_SESSION_TTL)")
	fs.StringVar(&c.LogoutURL, "logout-url", env("HELIO_LOGOUT_URL", ""), "external page to open after logout (HELIO_LOGOUT_URL)")
	fs.StringVar(&c.PublicURL, "public-url", env("HELIO_PUBLIC_URL", ""), "the console's address as people reach it, for links in webhook deliveries (HELIO_PUBLIC_URL)")
	fs.StringVar(&c.SMTPAddr, "smtp-addr", env("HELIO_SMTP_ADDR", ""), "SMTP relay host:port for alarm e-mails; empty: no e-mail (HELIO_SMTP_ADDR)")
	fs.StringVar(&c.SMTPUsername, "smtp-username", env("HELIO_SMTP_USERNAME", ""), "SMTP user name; empty: no authentication (HELIO_SMTP_USERNAME)")
	fs.StringVar(&c.SMTPPassword, "smtp-password", env("HELIO_SMTP_PASSWORD", ""), "SMTP password (HELIO_SMTP_PASSWORD)")
	fs.StringVar(&c.SMTPFrom, "smtp-from", env("HELIO_SMTP_FROM", "helio@localhost"), "the sender address of e-mails (HELIO_SMTP_FROM)")
	fs.StringVar(&c.SMTPSecurity, "smtp-security", env("HELIO_SMTP_SECURITY", "starttls"), "starttls, tls (port 465) or none (a relay on this host) (HELIO_SMTP_SECURITY)")
	fs.StringVar(&c.MonitorURL, "monitor-url", env("HELIO_MONITOR_URL", ""), "external real-time monitor linked from the menu (HELIO_MONITOR_URL)")
	fs.Int64Var(&c.Seed, "seed", envInt("HELIO_SEED", 20260101), "demo fleet seed (HELIO_SEED)")
	fs.IntVar(&c.BackfillDays, "backfill-days", int(envInt("HELIO_BACKFILL_DAYS", 365)), "days of demo history to generate on first start (HELIO_BACKFILL_DAYS)")
	fs.Float64Var(&c.SimSpeed, "sim-speed", envFloat("HELIO_SIM_SPEED", 1), "demo simulator speed relative to the clock (HELIO_SIM_SPEED)")
	fs.DurationVar(&c.RawRetention, "raw-retention", envDuration("HELIO_RAW_RETENTION", 14*24*time.Hour), "how long raw samples are kept (HELIO_RAW_RETENTION)")
	fs.DurationVar(&c.SyslogRetention, "syslog-retention", envDuration("HELIO_SYSLOG_RETENTION", 180*24*time.Hour), "how long the system log keeps who changed what (0: for ever) (HELIO_SYSLOG_RETENTION)")
	fs.Float64Var(&c.EmissionFactor, "emission-factor", envFloat("HELIO_EMISSION_FACTOR", 0.475), "grid emission factor for carbon reduction, kg CO2 per kWh (HELIO_EMISSION_FACTOR)")
	fs.DurationVar(&c.AnswerCache, "answer-cache", envDuration("HELIO_ANSWER_CACHE", 5*time.Second), "how long a dashboard read's answer is kept for the users with the same view of the fleet; an API write drops its organisation's at once (0: off) (HELIO_ANSWER_CACHE)")
	fs.StringVar(&c.PprofAddr, "pprof-addr", env("HELIO_PPROF_ADDR", ""), "serve Go's profiler on this address, e.g. 127.0.0.1:6060 (keep it on loopback; empty: off) (HELIO_PPROF_ADDR)")
	fs.StringVar(&c.LLMURL, "llm-url", env("HELIO_LLM_URL", ""), "the assistant's OpenAI-compatible chat endpoint, e.g. http://127.0.0.1:11434/v1 (empty: the built-in answerer) (HELIO_LLM_URL)")
	fs.StringVar(&c.LLMModel, "llm-model", env("HELIO_LLM_MODEL", "llama3.1"), "chat model name (HELIO_LLM_MODEL)")
	fs.StringVar(&c.LLMKey, "llm-key", env("HELIO_LLM_KEY", ""), "chat endpoint API key, if it needs one (HELIO_LLM_KEY)")
	fs.StringVar(&c.EmbedURL, "embeddings-url", env("HELIO_EMBEDDINGS_URL", ""), "OpenAI-compatible embeddings endpoint; passages are then ranked by BM25 and embeddings together (HELIO_EMBEDDINGS_URL)")
	fs.StringVar(&c.EmbedModel, "embeddings-model", env("HELIO_EMBEDDINGS_MODEL", "nomic-embed-text"), "embeddings model name (HELIO_EMBEDDINGS_MODEL)")
	fs.StringVar(&c.EmbedKey, "embeddings-key", env("HELIO_EMBEDDINGS_KEY", ""), "embeddings endpoint API key, if it needs one (HELIO_EMBEDDINGS_KEY)")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("HELIO_METRICS_TOKEN", ""), "bearer token that GET /metrics requires (empty: none) (HELIO_METRICS_TOKEN)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", env("HELIO_METRICS_ADDR", ""), "serve /metrics on this address instead of --addr, e.g. 127.0.0.1:9090 (HELIO_METRICS_ADDR)")
	fs.BoolVar(&c.TrustProxy, "trust-proxy", envBool("HELIO_TRUST_PROXY", false), "behind a reverse proxy: take the client address from X-Forwarded-For and send HSTS when X-Forwarded-Proto is https (HELIO_TRUST_PROXY)")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", envDuration("HELIO_READ_TIMEOUT", time.Minute), "longest time to read one request, headers and body (HELIO_READ_TIMEOUT)")
	fs.StringVar(&c.SecretKey, "secret-key", env("HELIO_SECRET_KEY", ""), "key that seals stored credentials such as vendor-cloud API keys (AES-GCM; a long random string, the same on every replica; empty: none can be stored) (HELIO_SECRET_KEY)")
	fs.StringVar(&c.LogFormat, "log", env("HELIO_LOG", "text"), "log format: text or json (HELIO_LOG)")
	return c
}

// Validate reports the first option that cannot work.
func (c *Config) Validate() error {
	switch {
	case c.Addr == "":
		return fmt.Errorf("--addr must not be empty")
	case c.SessionTTL < time.Minute:
		return fmt.Errorf("--session-ttl must be at least 1m")
	case c.BackfillDays < 0 || c.BackfillDays > 3660:
		return fmt.Errorf("--backfill-days must be between 0 and 3660")
	case c.SimSpeed <= 0 || c.SimSpeed > 10000:
		return fmt.Errorf("--sim-speed must be above 0 and at most 10000")
	case c.SyslogRetention < 0:
		return fmt.Errorf("--syslog-retention must not be negative")
	case c.AnswerCache < 0 || c.AnswerCache > time.Minute:
		return fmt.Errorf("--answer-cache must be between 0 and 1m")
	case c.RawRetention < time.Hour:
		return fmt.Errorf("--raw-retention must be at least 1h")
	case c.SMTPSecurity != "starttls" && c.SMTPSecurity != "tls" && c.SMTPSecurity != "none":
		return fmt.Errorf("--smtp-security must be starttls, tls or none")
	case c.EmissionFactor <= 0 || c.EmissionFactor > 2:
		return fmt.Errorf("--emission-factor must be above 0 and at most 2 kg/kWh")
	case c.ReadTimeout != 0 && (c.ReadTimeout < time.Second || c.ReadTimeout > time.Hour):
		return fmt.Errorf("--read-timeout must be between 1s and 1h")
	case c.MetricsAddr != "" && c.MetricsAddr == c.Addr:
		return fmt.Errorf("--metrics-addr must differ from --addr")
	case c.LogFormat != "text" && c.LogFormat != "json":
		return fmt.Errorf("--log must be text or json")
	case c.MQTTInFlight < 1 || c.MQTTInFlight > 65535:
		return fmt.Errorf("--mqtt-inflight must be between 1 and 65535")
	}
	if c.MQTTURL != "" && !strings.HasPrefix(c.MQTTURL, "mqtt://") && !strings.HasPrefix(c.MQTTURL, "tcp://") {
		return fmt.Errorf("--mqtt must be mqtt://host:port")
	}
	return nil
}

func env(k, def string) string {
	if v, ok := os.LookupEnv(k); ok {
		return v
	}
	return def
}

func envBool(k string, def bool) bool {
	if b, err := strconv.ParseBool(os.Getenv(k)); err == nil {
		return b
	}
	return def
}

func envInt(k string, def int64) int64 {
	if n, err := strconv.ParseInt(os.Getenv(k), 10, 64); err == nil {
		return n
	}
	return def
}

func envFloat(k string, def float64) float64 {
	if n, err := strconv.ParseFloat(os.Getenv(k), 64); err == nil {
		return n
	}
	return def
}

func envDuration(k string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(k)); err == nil {
		return d
	}
	return def
}
