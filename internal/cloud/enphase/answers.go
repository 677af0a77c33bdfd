package enphase

// The API's JSON answers, as documented; the stand-in serves the same types.

// SystemsAnswer is GET /api/v4/systems (page by page).
type SystemsAnswer struct {
	Total       int      `json:"total"`
	CurrentPage int      `json:"current_page"`
	Size        int      `json:"size"`
	Count       int      `json:"count"`
	Items       string   `json:"items"` // "systems"
	Systems     []System `json:"systems"`
}

// System is one system of /systems.
type System struct {
	SystemID       int64   `json:"system_id"`
	Name           string  `json:"name"`
	PublicName     string  `json:"public_name"`
	TimeZone       string  `json:"timezone"`
	Address        Address `json:"address"`
	ConnectionType string  `json:"connection_type,omitempty"`
	Status         string  `json:"status"`
	LastReportAt   int64   `json:"last_report_at"`
	LastEnergyAt   int64   `json:"last_energy_at"`
	OperationalAt  int64   `json:"operational_at"`
	// EnergyLifetime, EnergyToday and SystemSize: the API answers -1 (release notes);
	// the size is read from the summary.
	EnergyLifetime int64   `json:"energy_lifetime"`
	EnergyToday    int64   `json:"energy_today"`
	SystemSize     float64 `json:"system_size"`
}

// Address is a system's address.
type Address struct {
	City       string `json:"city"`
	State      string `json:"state"`
	Country    string `json:"country"`
	PostalCode string `json:"postal_code"`
}

// SummaryAnswer is GET /api/v4/systems/{system_id}/summary.
type SummaryAnswer struct {
	SystemID          int64  `json:"system_id"`
	CurrentPower      int64  `json:"current_power"`   // W
	EnergyLifetime    int64  `json:"energy_lifetime"` // Wh
	EnergyToday       int64  `json:"energy_today"`    // Wh
	LastIntervalEndAt int64  `json:"last_interval_end_at"`
	LastReportAt      int64  `json:"last_report_at"`
	Modules           int    `json:"modules"`
	OperationalAt     int64  `json:"operational_at"` // epoch s
	SizeW             int64  `json:"size_w"`
	Source            string `json:"source"`
	Status            string `json:"status"`
	SummaryDate       string `json:"summary_date"` // YYYY-MM-DD
}

// ProductionMicroAnswer is GET /api/v4/systems/{system_id}/telemetry/production_micro.
type ProductionMicroAnswer struct {
	SystemID     int64      `json:"system_id"`
	Granularity  string     `json:"granularity"`
	TotalDevices int        `json:"total_devices"`
	StartAt      int64      `json:"start_at"`
	EndAt        int64      `json:"end_at"`
	Items        string     `json:"items"` // "intervals"
	Intervals    []Interval `json:"intervals"`
	Meta         Meta       `json:"meta"`
}

// Interval is the production of all the system's microinverters over one interval.
type Interval struct {
	EndAt            int64 `json:"end_at"` // epoch s, the interval's end
	DevicesReporting int   `json:"devices_reporting"`
	Powr             int64 `json:"powr"` // W, the interval's average
	Enwh             int64 `json:"enwh"` // Wh produced in the interval
}

// Meta is the system's state beside a telemetry answer.
type Meta struct {
	Status        string `json:"status"`
	LastReportAt  int64  `json:"last_report_at"`
	LastEnergyAt  int64  `json:"last_energy_at"`
	OperationalAt int64  `json:"operational_at"`
}

// ErrorAnswer is the API's error body (401, 403, 404, 422, 429 …); a 429 says which
// limit was reached in Period ("minute" or "month").
type ErrorAnswer struct {
	Message     string `json:"message"`
	Details     string `json:"details"`
	Code        int    `json:"code"`
	Period      string `json:"period,omitempty"`
	PeriodStart int64  `json:"period_start,omitempty"`
	PeriodEnd   int64  `json:"period_end,omitempty"`
	Limit       int    `json:"limit,omitempty"`
}

// TokenAnswer is POST /oauth/token.
type TokenAnswer struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int64  `json:"expires_in"` // s
	Scope        string `json:"scope,omitempty"`
}

// TokenError is the token endpoint's refusal.
type TokenError struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}
