package fusionsolar

import (
	"encoding/json"
	"strconv"
)

// The API's JSON requests and answers, as documented; the stand-in serves the same types.
// Every answer is the same envelope: success, failCode (0: none), data, params, message.

// Answer is the envelope of every answer; Data is decoded per call.
type Answer struct {
	Success  bool            `json:"success"`
	FailCode int             `json:"failCode"`
	Data     json.RawMessage `json:"data"`
	Params   map[string]any  `json:"params,omitempty"`
	Message  *string         `json:"message"`
}

// LoginRequest is /thirdData/login's body.
type LoginRequest struct {
	UserName   string `json:"userName"`
	SystemCode string `json:"systemCode"`
}

// StationsRequest is /thirdData/stations' body (pages from 1, at most 100 plants a page).
type StationsRequest struct {
	PageNo int `json:"pageNo"`
}

// StationsPage is /thirdData/stations' data.
type StationsPage struct {
	List      []Plant `json:"list"`
	PageCount int     `json:"pageCount"`
	PageNo    int     `json:"pageNo"`
	PageSize  int     `json:"pageSize"`
	Total     int     `json:"total"`
}

// Plant is one plant of the plant list.
type Plant struct {
	PlantCode    string  `json:"plantCode"`
	PlantName    string  `json:"plantName"`
	PlantAddress string  `json:"plantAddress"`
	Longitude    float64 `json:"longitude"`
	Latitude     float64 `json:"latitude"`
	Capacity     float64 `json:"capacity"` // kWp
	// GridConnectionDate is the plant's grid connection, RFC 3339 with the plant's UTC offset.
	GridConnectionDate string `json:"gridConnectionDate"`
	ContactPerson      string `json:"contactPerson,omitempty"`
}

// DevListRequest is /thirdData/getDevList's body: plant codes, comma-separated (at most 100).
type DevListRequest struct {
	StationCodes string `json:"stationCodes"`
}

// Device is one device of /thirdData/getDevList's data.
type Device struct {
	ID              int64   `json:"id"`
	DevDn           string  `json:"devDn"`
	DevName         string  `json:"devName"`
	DevTypeID       int     `json:"devTypeId"`
	EsnCode         string  `json:"esnCode"`
	InvType         string  `json:"invType"`
	Model           string  `json:"model,omitempty"`
	SoftwareVersion string  `json:"softwareVersion"`
	StationCode     string  `json:"stationCode"`
	Latitude        float64 `json:"latitude"`
	Longitude       float64 `json:"longitude"`
}

// Device types (devTypeId) Helio syncs: both are inverters.
const (
	TypeStringInverter      = 1
	TypeResidentialInverter = 38
)

// FiveMinutesRequest is /thirdData/getDevFiveMinutes' body: devices of one type
// (comma-separated ids, at most 10) and an instant of the day asked for, epoch ms.
type FiveMinutesRequest struct {
	DevIDs      string `json:"devIds"`
	DevTypeID   int    `json:"devTypeId"`
	CollectTime int64  `json:"collectTime"`
}

// FiveMinutes is one row of /thirdData/getDevFiveMinutes' data.
type FiveMinutes struct {
	DevID       int64          `json:"devId"`
	CollectTime int64          `json:"collectTime"` // epoch ms
	DataItemMap map[string]any `json:"dataItemMap"`
}

// Num reads a data item: a JSON number, a numeric string, or absent/null (ok false).
func (r FiveMinutes) Num(key string) (float64, bool) {
	switch v := r.DataItemMap[key].(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}

// The failCodes the client acts on (SmartPVMS Northbound API, "Error Code List").
const (
	CodeOK        = 0
	CodeRelogin   = 305   // USER_MUST_RELOGIN: the session expired
	CodeFrequency = 407   // ACCESS_FREQUENCY_IS_TOO_HIGH
	CodeBadLogin  = 20400 // USER_OR_VALUE_INVALID
)

// refusedCodes are the failCodes that mean the account itself is refused: unknown,
// disabled or expired system, wrong user name or system code, not authorised by the owner.
var refusedCodes = map[int]bool{20001: true, 20002: true, 20003: true, CodeBadLogin: true, 20056: true}
