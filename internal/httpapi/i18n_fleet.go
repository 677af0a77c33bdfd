package httpapi

// Messages of the fleet calls: cover uploads and the column headers and values of the
// station and device exports.
func init() {
	for k, v := range fleetMessages {
		messages[k] = v
	}
}

func m5(en, zh, tw, ko, ja string) map[string]string {
	return map[string]string{"en-US": en, "zh-CN": zh, "zh-TW": tw, "ko-KR": ko, "ja-JP": ja}
}

var fleetMessages = map[string]map[string]string{
	"cover_type":      m5("The cover must be a JPEG, PNG or WebP image", "封面必须是 JPEG、PNG 或 WebP 图片", "封面必須是 JPEG、PNG 或 WebP 圖片", "표지는 JPEG, PNG 또는 WebP 이미지여야 합니다", "カバーは JPEG、PNG、WebP 画像である必要があります"),
	"cover_too_large": m5("The cover is larger than 10 MB", "封面超过 10 MB", "封面超過 10 MB", "표지가 10MB를 초과합니다", "カバーが 10 MB を超えています"),
	"cover_ratio":     m5("The cover must be 4:3; this image is %v×%v", "封面比例必须为 4:3，该图片为 %v×%v", "封面比例必須為 4:3，該圖片為 %v×%v", "표지는 4:3이어야 합니다. 이 이미지는 %v×%v입니다", "カバーは 4:3 である必要があります（この画像は %v×%v）"),

	"invalid_ingest_key": m5("Missing or unknown ingest key (X-Helio-Key)", "缺少或无效的接入密钥 (X-Helio-Key)", "缺少或無效的接入金鑰 (X-Helio-Key)", "수집 키(X-Helio-Key)가 없거나 올바르지 않습니다", "取り込みキー (X-Helio-Key) がないか不明です"),
	"not_your_device":    m5("Device %v is not covered by this key", "该密钥无权写入设备 %v", "該金鑰無權寫入設備 %v", "이 키로는 장치 %v에 쓸 수 없습니다", "このキーではデバイス %v に書き込めません"),
	"unknown_device":     m5("Unknown device", "未知设备", "未知設備", "알 수 없는 장치", "不明なデバイス"),
	"missing_time":       m5("The sample has no time", "样本缺少时间", "樣本缺少時間", "샘플에 시간이 없습니다", "サンプルに時刻がありません"),
	"not_finite":         m5("A value is not a finite number", "存在非有限数值", "存在非有限數值", "유한한 숫자가 아닌 값이 있습니다", "有限でない数値があります"),
	"negative_counter":   m5("An energy counter is negative", "电量计数器为负数", "電量計數器為負數", "에너지 카운터가 음수입니다", "電力量カウンターが負です"),
	"power_out_of_range": m5("Power is beyond what the device can produce", "功率超出设备能力", "功率超出設備能力", "출력이 장치 한계를 넘습니다", "出力が機器の能力を超えています"),
	"value_out_of_range": m5("A value is outside its possible range", "数值超出可能范围", "數值超出可能範圍", "값이 가능한 범위를 벗어났습니다", "値が取り得る範囲外です"),
	"future_time":        m5("The time is in the future", "时间在未来", "時間在未來", "시간이 미래입니다", "時刻が未来です"),
	"too_old":            m5("The time is older than the raw data window", "时间早于原始数据保留期", "時間早於原始資料保留期", "시간이 원시 데이터 보존 기간보다 오래되었습니다", "時刻が生データの保持期間より古いです"),

	"col.name":                m5("Name", "名称", "名稱", "이름", "名称"),
	"col.parent":              m5("Parent station", "所属电站", "所屬電站", "상위 발전소", "親発電所"),
	"col.country":             m5("Country", "国家/地区", "國家/地區", "국가/지역", "国/地域"),
	"col.region":              m5("Region", "行政区域", "行政區域", "행정 구역", "行政区域"),
	"col.location":            m5("Location", "位置", "位置", "위치", "所在地"),
	"col.stationType":         m5("Station type", "电站类型", "電站類型", "발전소 유형", "発電所タイプ"),
	"col.systemType":          m5("System type", "系统类型", "系統類型", "시스템 유형", "システムタイプ"),
	"col.capacity":            m5("Installed capacity (kWp)", "装机容量 (kWp)", "裝置容量 (kWp)", "설비 용량 (kWp)", "設備容量 (kWp)"),
	"col.comm":                m5("Communication", "通讯状态", "通訊狀態", "통신 상태", "通信状態"),
	"col.alarm":               m5("Alarm", "告警", "告警", "경보", "アラーム"),
	"col.powerKw":             m5("Current power (kW)", "当前功率 (kW)", "目前功率 (kW)", "현재 출력 (kW)", "現在の出力 (kW)"),
	"col.todayKwh":            m5("Today (kWh)", "今日发电量 (kWh)", "今日發電量 (kWh)", "오늘 발전량 (kWh)", "本日の発電量 (kWh)"),
	"col.specificYield":       m5("Specific yield today (kWh/kWp)", "今日单位千瓦发电量 (kWh/kWp)", "今日單位千瓦發電量 (kWh/kWp)", "오늘 비발전량 (kWh/kWp)", "本日の発電量/kWp (kWh/kWp)"),
	"col.eqHours":             m5("Equivalent hours (h)", "等效小时 (h)", "等效小時 (h)", "등가 시간 (h)", "等価時間 (h)"),
	"col.pr":                  m5("PR yesterday (%)", "昨日 PR (%)", "昨日 PR (%)", "어제 PR (%)", "昨日の PR (%)"),
	"col.totalKwh":            m5("Total (kWh)", "累计发电量 (kWh)", "累計發電量 (kWh)", "누적 발전량 (kWh)", "累計発電量 (kWh)"),
	"col.buildDate":           m5("Build date", "建站日期", "建站日期", "준공일", "建設日"),
	"col.gridDate":            m5("Grid connection", "并网日期", "併網日期", "계통 연계일", "系統連系日"),
	"col.currency":            m5("Currency", "币种", "幣別", "통화", "通貨"),
	"col.owner":               m5("Owner", "业主", "業主", "소유자", "所有者"),
	"col.tags":                m5("Tags", "标签", "標籤", "태그", "タグ"),
	"col.sn":                  m5("Serial number", "序列号", "序號", "일련번호", "シリアル番号"),
	"col.deviceType":          m5("Device type", "设备类型", "設備類型", "장치 유형", "機器タイプ"),
	"col.model":               m5("Model", "型号", "型號", "모델", "型式"),
	"col.station":             m5("Station", "电站", "電站", "발전소", "発電所"),
	"col.state":               m5("State", "状态", "狀態", "상태", "状態"),
	"col.ratedKw":             m5("Rated power (kW)", "额定功率 (kW)", "額定功率 (kW)", "정격 출력 (kW)", "定格出力 (kW)"),
	"col.capacityKwh":         m5("Capacity (kWh)", "容量 (kWh)", "容量 (kWh)", "용량 (kWh)", "容量 (kWh)"),
	"col.collector":           m5("Collector", "采集器", "採集器", "수집기", "コレクター"),
	"col.lastSeen":            m5("Last seen (UTC)", "最后通讯 (UTC)", "最後通訊 (UTC)", "마지막 수신 (UTC)", "最終受信 (UTC)"),
	"comm.1":                  m5("Connecting", "接入中", "接入中", "연결 중", "接続中"),
	"comm.2":                  m5("Normal", "通讯正常", "通訊正常", "정상", "正常"),
	"comm.3":                  m5("Some devices offline", "部分设备离线", "部分設備離線", "일부 장치 오프라인", "一部の機器がオフライン"),
	"comm.4":                  m5("All devices offline", "全部设备离线", "全部設備離線", "모든 장치 오프라인", "全機器がオフライン"),
	"alarm.0":                 m5("None", "无告警", "無告警", "없음", "なし"),
	"alarm.1":                 m5("Alarms", "有告警", "有告警", "경보 있음", "アラームあり"),
	"stationType.ground":      m5("Ground-mounted", "地面电站", "地面電站", "지상형", "地上設置"),
	"stationType.rooftop":     m5("Rooftop", "屋顶电站", "屋頂電站", "지붕형", "屋根設置"),
	"stationType.residential": m5("Residential", "户用电站", "戶用電站", "주택용", "住宅用"),
	"systemType.pv":           m5("PV", "光伏", "光電", "태양광", "太陽光"),
	"systemType.pv_storage":   m5("PV + storage", "光储", "光儲", "태양광+저장", "太陽光+蓄電"),
	"deviceType.inverter":     m5("Inverter", "逆变器", "逆變器", "인버터", "インバーター"),
	"deviceType.battery":      m5("Battery", "电池", "電池", "배터리", "蓄電池"),
	"deviceType.storage":      m5("All-in-one storage", "储能一体机", "儲能一體機", "일체형 저장장치", "一体型蓄電システム"),
	"deviceType.meter":        m5("Meter", "电表", "電錶", "계량기", "メーター"),
	"state.running":           m5("Running", "运行", "運行", "운전", "運転中"),
	"state.standby":           m5("Standby", "待机", "待機", "대기", "待機"),
	"state.fault":             m5("Fault", "故障", "故障", "고장", "故障"),
	"state.offline":           m5("Offline", "离线", "離線", "오프라인", "オフライン"),
}
