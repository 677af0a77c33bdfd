package httpapi

// Messages of the /v1/scada calls: register maps, field connections, remote debugging.
func init() {
	for k, v := range scadaMessages {
		messages[k] = v
	}
}

var scadaMessages = map[string]map[string]string{
	"scada_too_many":         m5("A map holds at most %v registers", "一个点表最多 %v 个寄存器", "一個點表最多 %v 個暫存器", "맵에는 레지스터를 최대 %v개까지 넣을 수 있습니다", "マップのレジスタは最大 %v 個です"),
	"scada_register_name":    m5("Use letters, digits, dot, dash or underscore, starting with a letter", "只能使用字母、数字、点、短横线或下划线，并以字母开头", "只能使用字母、數字、點、短橫線或底線，並以字母開頭", "문자로 시작하고 문자, 숫자, 점, 대시, 밑줄만 사용하세요", "英字で始め、英数字・ドット・ハイフン・下線のみ使えます"),
	"scada_duplicate_name":   m5("Another register is already called %v", "已有寄存器名为 %v", "已有暫存器名為 %v", "%v 이름의 레지스터가 이미 있습니다", "%v という名前のレジスタが既にあります"),
	"scada_scale":            m5("The scale must be a finite number other than 0", "倍率必须是非零的有限数", "倍率必須是非零的有限數", "배율은 0이 아닌 유한한 숫자여야 합니다", "倍率は 0 以外の有限の数値である必要があります"),
	"scada_duplicate_target": m5("%v is already fed by register %v", "%v 已由寄存器 %v 提供", "%v 已由暫存器 %v 提供", "%v 값은 이미 레지스터 %v에서 가져옵니다", "%v は既にレジスタ %v から取得しています"),
	"scada_writable_holding": m5("Only holding registers can be written", "只有保持寄存器可写", "只有保持暫存器可寫", "홀딩 레지스터만 쓸 수 있습니다", "書き込めるのは保持レジスタのみです"),
	"scada_not_linked":       m5("The device is not connected over Modbus", "该设备未通过 Modbus 接入", "該設備未透過 Modbus 接入", "장치가 Modbus로 연결되어 있지 않습니다", "デバイスは Modbus で接続されていません"),
	"scada_map_in_use":       m5("The map is used by %v devices", "该点表正被 %v 台设备使用", "該點表正被 %v 台設備使用", "이 맵을 %v대의 장치가 사용 중입니다", "このマップは %v 台のデバイスで使用中です"),
	"scada_not_writable":     m5("The register is not in the device's map or not writable", "该寄存器不在设备点表中或不可写", "該暫存器不在設備點表中或不可寫", "레지스터가 장치 맵에 없거나 쓸 수 없습니다", "レジスタがデバイスのマップにないか、書き込み不可です"),
	"scada_confirm":          m5("Confirm the write", "请确认写入", "請確認寫入", "쓰기를 확인하세요", "書き込みを確認してください"),
	"scada_value_range":      m5("The value does not fit a %v register", "该值超出 %v 寄存器的范围", "該值超出 %v 暫存器的範圍", "값이 %v 레지스터 범위를 벗어납니다", "値が %v レジスタの範囲外です"),
	"scada_device_error":     m5("The device did not answer: %v", "设备未应答：%v", "設備未應答：%v", "장치가 응답하지 않았습니다: %v", "デバイスが応答しませんでした: %v"),
	"scada_host":             m5("Enter an IP address or host name", "请输入 IP 地址或主机名", "請輸入 IP 位址或主機名稱", "IP 주소 또는 호스트 이름을 입력하세요", "IP アドレスまたはホスト名を入力してください"),
	"scada_timeout_interval": m5("The timeout must be shorter than the poll interval", "超时必须短于采集间隔", "逾時必須短於採集間隔", "시간 제한은 폴링 간격보다 짧아야 합니다", "タイムアウトはポーリング間隔より短くしてください"),
	"scada_name_taken":       m5("Another map is already called %v", "已有点表名为 %v", "已有點表名為 %v", "%v 이름의 맵이 이미 있습니다", "%v という名前のマップが既にあります"),
}
