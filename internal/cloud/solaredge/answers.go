package solaredge

// The API's JSON answers, as documented; the stand-in serves the same types.

// SitesAnswer is /sites/list.
type SitesAnswer struct {
	Sites struct {
		Count int        `json:"count"`
		Site  []SiteInfo `json:"site"`
	} `json:"sites"`
}

// SiteInfo is one site of /sites/list and /site/{siteId}/details.
type SiteInfo struct {
	ID               int64   `json:"id"`
	Name             string  `json:"name"`
	AccountID        int64   `json:"accountId"`
	Status           string  `json:"status"`
	PeakPower        float64 `json:"peakPower"`
	Currency         string  `json:"currency"`
	InstallationDate string  `json:"installationDate"`
	Type             string  `json:"type"`
	Location         struct {
		Country     string `json:"country"`
		City        string `json:"city"`
		Address     string `json:"address"`
		Zip         string `json:"zip"`
		TimeZone    string `json:"timeZone"`
		CountryCode string `json:"countryCode"`
	} `json:"location"`
}

// DetailsAnswer is /site/{siteId}/details.
type DetailsAnswer struct {
	Details SiteInfo `json:"details"`
}

// EquipmentAnswer is /equipment/{siteId}/list.
type EquipmentAnswer struct {
	Reporters struct {
		Count int        `json:"count"`
		List  []Reporter `json:"list"`
	} `json:"reporters"`
}

// Reporter is an inverter (or SMI) of a site.
type Reporter struct {
	Name         string  `json:"name"`
	Manufacturer string  `json:"manufacturer"`
	Model        string  `json:"model"`
	SerialNumber string  `json:"serialNumber"`
	KWpDC        float64 `json:"kWpDC,omitempty"`
}

// DataPeriodAnswer is /site/{siteId}/dataPeriod (dates "YYYY-MM-DD").
type DataPeriodAnswer struct {
	DataPeriod struct {
		StartDate string `json:"startDate"`
		EndDate   string `json:"endDate"`
	} `json:"dataPeriod"`
}

// PowerAnswer is /site/{siteId}/power.
type PowerAnswer struct {
	Power struct {
		TimeUnit string       `json:"timeUnit"`
		Unit     string       `json:"unit"`
		Values   []PowerValue `json:"values"`
	} `json:"power"`
}

// PowerValue is one point of site power or energy; Value is null where there is no data.
type PowerValue struct {
	Date  string   `json:"date"`
	Value *float64 `json:"value"`
}

// EnergyAnswer is /site/{siteId}/energy.
type EnergyAnswer struct {
	Energy struct {
		TimeUnit string       `json:"timeUnit"`
		Unit     string       `json:"unit"`
		Values   []PowerValue `json:"values"`
	} `json:"energy"`
}

// EquipmentDataAnswer is /equipment/{siteId}/{serialNumber}/data.
type EquipmentDataAnswer struct {
	Data struct {
		Count       int         `json:"count"`
		Telemetries []Telemetry `json:"telemetries"`
	} `json:"data"`
}

// Telemetry is one inverter reading.
type Telemetry struct {
	Date                  string   `json:"date"`
	TotalActivePower      float64  `json:"totalActivePower"` // W
	DCVoltage             *float64 `json:"dcVoltage"`        // V
	GroundFaultResistance *float64 `json:"groundFaultResistance,omitempty"`
	PowerLimit            float64  `json:"powerLimit"`
	TotalEnergy           float64  `json:"totalEnergy"` // Wh, lifetime
	Temperature           float64  `json:"temperature"` // °C
	InverterMode          string   `json:"inverterMode"`
	OperationMode         int      `json:"operationMode"`
	L1Data                *Phase   `json:"L1Data,omitempty"`
}

// Phase is a phase's AC figures.
type Phase struct {
	ACCurrent   float64 `json:"acCurrent"`
	ACVoltage   float64 `json:"acVoltage"`
	ACFrequency float64 `json:"acFrequency"`
	ActivePower float64 `json:"activePower"`
}
