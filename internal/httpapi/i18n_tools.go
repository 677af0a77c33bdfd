package httpapi

// Messages of the tools calls.
func init() {
	for k, v := range toolsMessages {
		messages[k] = v
	}
}

var toolsMessages = map[string]map[string]string{
	"vmp_below_voc":     m5("Vmp must be below Voc", "Vmp 必须小于 Voc", "Vmp 必須小於 Voc", "Vmp는 Voc보다 작아야 합니다", "Vmp は Voc より小さくしてください"),
	"mppt_range_order":  m5("The MPPT maximum must be above the minimum", "MPPT 上限必须大于下限", "MPPT 上限必須大於下限", "MPPT 최대값은 최소값보다 커야 합니다", "MPPT 上限は下限より大きくしてください"),
	"mppt_above_max_dc": m5("The MPPT maximum cannot exceed the maximum DC voltage", "MPPT 上限不能超过最大直流电压", "MPPT 上限不能超過最大直流電壓", "MPPT 최대값은 최대 DC 전압을 넘을 수 없습니다", "MPPT 上限は最大 DC 電圧を超えられません"),
	"temp_range_order":  m5("The high temperature must be above the low one", "最高温度必须高于最低温度", "最高溫度必須高於最低溫度", "최고 온도는 최저 온도보다 높아야 합니다", "最高気温は最低気温より高くしてください"),
}
