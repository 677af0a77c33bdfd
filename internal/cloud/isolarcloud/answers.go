package isolarcloud

import "encoding/json"

// The API's JSON answers, as documented; the stand-in serves the same types. Every answer
// is this envelope; result_code "1" is success and anything else an error named by
// result_code and result_msg (HTTP status 200 either way).

// Answer is the envelope of every call.
type Answer struct {
	ReqSerialNum string          `json:"req_serial_num"`
	ResultCode   string          `json:"result_code"`
	ResultMsg    string          `json:"result_msg"`
	ResultData   json.RawMessage `json:"result_data"`
}

// The result codes and messages the client tells apart.
const (
	CodeSuccess = "1"
	// CodeTokenInvalid (result_msg MsgTokenInvalid): the token expired or was never valid;
	// the client logs in again once. Some gateways answer CodeTokenInvalidAlt.
	CodeTokenInvalid    = "E00003"
	CodeTokenInvalidAlt = "010"
	MsgTokenInvalid     = "er_token_login_invalid"
	// CodeKeyRefused: the app key or the access key is not valid.
	CodeKeyRefused   = "E911"
	MsgInvalidAppKey = "er_invalid_appkey"
	MsgInvalidAccess = "er_invalid_access_key"
	// CodeRateLimit: the app key's calls for the hour are spent.
	CodeRateLimit = "E916"
	MsgRateLimit  = "er_request_frequency_limit"
	// CodeParameter: a parameter is missing or out of range (a time span too long).
	CodeParameter = "E00002"
	MsgParameter  = "er_parameter_value_invalid"
)

// LoginAnswer is /openapi/login's result_data.
type LoginAnswer struct {
	Token       *string `json:"token"`
	UserID      string  `json:"user_id"`
	UserAccount string  `json:"user_account"`
	// LoginState "1" is logged in; others: a wrong password ("0") or a locked account ("2").
	LoginState  string  `json:"login_state"`
	ErrTimes    string  `json:"err_times"`
	DisableTime *string `json:"disable_time"`
}

// StationListAnswer is /openapi/getPowerStationList's result_data.
type StationListAnswer struct {
	RowCount int       `json:"rowCount"`
	PageList []Station `json:"pageList"`
}

// Station is one plant of the list.
type Station struct {
	PsID        int64  `json:"ps_id"`
	PsName      string `json:"ps_name"`
	PsLocation  string `json:"ps_location"`
	PsType      int    `json:"ps_type"`
	PsStatus    int    `json:"ps_status"`
	InstallDate string `json:"install_date"` // "yyyy-MM-dd HH:mm:ss", plant local time
	// TimeZone is the plant's current UTC offset, "GMT+8".
	TimeZone      string   `json:"ps_current_time_zone"`
	TotalCapacity Measure  `json:"total_capcity"` // sic: the API's spelling
	Latitude      *float64 `json:"latitude"`
	Longitude     *float64 `json:"longitude"`
}

// Measure is a value with its unit; the API scales both (kWp, MWp…).
type Measure struct {
	Unit  string `json:"unit"`
	Value string `json:"value"`
}

// DeviceListAnswer is /openapi/getDeviceList's result_data.
type DeviceListAnswer struct {
	RowCount int      `json:"rowCount"`
	PageList []Device `json:"pageList"`
}

// Device is one device of a plant.
type Device struct {
	UUID               int64  `json:"uuid"`
	PsID               int64  `json:"ps_id"`
	PsKey              string `json:"ps_key"` // "{ps_id}_{device_type}_{…}_{channel}": the handle of data calls
	DeviceSN           string `json:"device_sn"`
	DeviceName         string `json:"device_name"`
	DeviceType         int    `json:"device_type"` // 1: inverter
	TypeName           string `json:"type_name"`
	DeviceModelCode    string `json:"device_model_code"`
	DeviceModelID      int64  `json:"device_model_id"`
	ChannelID          int    `json:"chnnl_id"`
	DevStatus          string `json:"dev_status"`
	DevFaultStatus     int    `json:"dev_fault_status"`
	CommunicationDevSN string `json:"communication_dev_sn"`
	GridConnectionDate string `json:"grid_connection_date"`
}

// MinuteDataAnswer is /openapi/getDevicePointMinuteDataList's result_data: per ps_key the
// readings, each a map of "time_stamp" (yyyyMMddHHmmss, plant local time) and the asked
// points as strings or numbers ("p24": "8123"; null where the device reported nothing).
type MinuteDataAnswer map[string][]map[string]any
