package server_test

// importMapping is a mapping every import call accepts.
const importMapping = `{"headerRow":0,"timeColumn":"time","timeFormat":"2006-01-02 15:04","zone":"","deviceColumn":"sn","match":"serial",` +
	`"columns":[{"name":"p","field":"power","unit":"kW","energy":"","device":""}]}`

// importBodies are the /v2/import calls' example bodies for the matrices.
func importBodies(*fixture) map[string]string {
	files := `{"files":[{"fileId":1,"device":""}],"mapping":` + importMapping + `}`
	return map[string]string{
		"POST /v2/import/file/delete":     `{"fileId":1}`,
		"POST /v2/import/preview":         `{"fileId":1}`,
		"POST /v2/import/template/save":   `{"templateId":0,"name":"Matrix","vendor":"Matrix portal","mapping":` + importMapping + `}`,
		"POST /v2/import/template/delete": `{"templateId":1}`,
		"POST /v2/import/dryrun":          files,
		"POST /v2/import/job/start":       files,
		"POST /v2/import/job/pause":       `{"jobId":1}`,
		"POST /v2/import/job/resume":      `{"jobId":1}`,
		"POST /v2/import/job/cancel":      `{"jobId":1}`,
	}
}

// importBodyIDs are the import calls naming a file, template or job in their body.
var importBodyIDs = []string{"POST /v2/import/file/delete", "POST /v2/import/preview", "POST /v2/import/template/delete",
	"POST /v2/import/dryrun", "POST /v2/import/job/start", "POST /v2/import/job/pause", "POST /v2/import/job/resume",
	"POST /v2/import/job/cancel"}
