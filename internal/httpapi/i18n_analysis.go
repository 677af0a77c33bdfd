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

// Report texts (file titles, headers, sheet names, the delivery message).
var reportMessages = map[string]map[string]string{
	"rpt.title":               m5("Generation report %v – %v", "发电报表 %v – %v", "發電報表 %v – %v", "발전 보고서 %v – %v", "発電レポート %v – %v"),
	"rpt.total":               m5("All stations", "全部电站", "全部電站", "전체 발전소", "全発電所"),
	"rpt.period":              m5("Period", "统计周期", "統計週期", "기간", "期間"),
	"rpt.generated":           m5("Generated", "生成时间", "產生時間", "생성 시각", "作成日時"),
	"rpt.bucket":              m5("Time", "时间", "時間", "시간", "時間"),
	"rpt.sheet.summary":       m5("Summary", "汇总", "彙總", "요약", "概要"),
	"rpt.sheet.detail":        m5("Detail", "明细", "明細", "상세", "明細"),
	"rpt.stationInfo":         m5("Stations", "电站信息", "電站資訊", "발전소 정보", "発電所情報"),
	"rpt.subsystemInfo":       m5("Sub-stations", "子系统信息", "子系統資訊", "하위 시스템 정보", "サブシステム情報"),
	"rpt.deviceInfo":          m5("Devices", "设备信息", "設備資訊", "장치 정보", "機器情報"),
	"rpt.timezone":            m5("Time zone", "时区", "時區", "시간대", "タイムゾーン"),
	"rpt.chart.energy":        m5("Energy of all stations", "全部电站发电量", "全部電站發電量", "전체 발전소 발전량", "全発電所の発電量"),
	"rpt.chart.specificYield": m5("Specific yield by station", "各电站等效利用小时", "各電站等效利用小時", "발전소별 비발전량", "発電所別の比発電量"),
	"rpt.m.yield":             m5("Yield", "发电量", "發電量", "발전량", "発電量"),
	"rpt.m.specificYield":     m5("Specific yield", "单位千瓦发电量", "單位千瓦發電量", "비발전량", "比発電量"),
	"rpt.m.equivalentHours":   m5("Equivalent hours", "等效小时", "等效小時", "등가 시간", "等価時間"),
	"rpt.m.pr":                m5("Performance ratio", "系统效率 PR", "系統效率 PR", "성능비 PR", "性能比 PR"),
	"rpt.m.prTemp":            m5("PR, temperature-corrected", "温度修正 PR", "溫度修正 PR", "온도 보정 PR", "温度補正 PR"),
	"rpt.m.availability":      m5("Availability", "可利用率", "可利用率", "가용률", "稼働率"),
	"rpt.m.co2":               m5("CO₂ avoided", "二氧化碳减排", "二氧化碳減排", "CO₂ 감축", "CO₂ 削減量"),
	"rpt.m.revenue":           m5("Revenue", "收益", "收益", "수익", "収益"),
	"rpt.m.expected":          m5("Expected yield", "理论发电量", "理論發電量", "예상 발전량", "期待発電量"),
	"rpt.m.actualVsExpected":  m5("Actual vs expected", "实际/理论", "實際/理論", "실제/예상", "実績/期待"),
	"rpt.m.selfConsumption":   m5("Self-consumption", "自发自用率", "自發自用率", "자가 소비율", "自家消費率"),
	"rpt.m.autarky":           m5("Autarky", "自给率", "自給率", "자급률", "自給率"),
	"rpt.msg.title":           m5("Report ready: %v", "报表已生成：%v", "報表已產生：%v", "보고서 준비됨: %v", "レポート作成完了：%v"),
	"rpt.msg.content":         m5("Download %v (link valid until %v UTC): %v", "下载 %v（链接有效期至 UTC %v）：%v", "下載 %v（連結有效期至 UTC %v）：%v", "%v 다운로드 (링크 유효: UTC %v까지): %v", "%v をダウンロード（リンクの有効期限 UTC %v）：%v"),
	"rpt.msg.failed":          m5("Report failed: %v", "报表生成失败：%v", "報表產生失敗：%v", "보고서 생성 실패: %v", "レポート作成失敗：%v"),
}

func init() {
	for k, v := range reportMessages {
		messages[k] = v
	}
}

func init() {
	messages["report_not_ready"] = m5("The report is not ready yet", "报表尚未生成", "報表尚未產生", "보고서가 아직 준비되지 않았습니다", "レポートはまだできていません")
}
