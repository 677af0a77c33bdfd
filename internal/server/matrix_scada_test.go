package server_test

import "fmt"

// scadaBodies are the /v1/scada calls' example bodies for the matrices.
func scadaBodies(f *fixture) map[string]string {
	dev := fmt.Sprintf(`{"deviceId":%d}`, f.device)
	return map[string]string{
		"POST /v1/scada/project/get":             `{}`,
		"POST /v1/scada/site/get":                fmt.Sprintf(`{"stationId":%d}`, f.station),
		"POST /v1/scada/dev/get":                 dev,
		"POST /v1/scada/dev/set":                 fmt.Sprintf(`{"deviceId":%d,"host":"127.0.0.1","port":1,"unitId":1,"intervalS":60,"timeoutMs":500,"mapId":0}`, f.device),
		"POST /v1/scada/dev/delete":              dev,
		"POST /v1/scada/register/get":            dev,
		"POST /v1/scada/register/set":            fmt.Sprintf(`{"deviceId":%d,"register":"power_limit","value":50,"confirm":true}`, f.device),
		"POST /v1/scada/register/config/add":     `{"id":0,"name":"Matrix map","model":"M1","registers":[{"name":"p","address":0,"function":"holding","dataType":"int16","target":"power"}]}`,
		"POST /v1/scada/config/get":              `{"id":1,"version":0}`,
		"POST /v1/scada/template/list":           `{}`,
		"POST /v1/scada/register/config/preview": fmt.Sprintf(`{"deviceId":%d,"map":{"name":"Matrix map","registers":[{"name":"p","address":0,"function":"holding","dataType":"int16","target":"power"}]}}`, f.device),
		"POST /v1/scada/config/delete":           `{"id":1,"version":0}`,
	}
}
