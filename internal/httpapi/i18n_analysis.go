package httpapi

// Messages of the analysis calls: comparisons, report templates, records and files.
func init() {
	for k, v := range analysisMessages {
		messages[k] = v
	}
}

var analysisMessages = map[string]map[string]string{
	"date_format": m5("Use the format %v", "请使用 %v 格式", "請使用 %v 格式", "%v 형식을 사용하세요", "%v の形式で入力してください"),
}
