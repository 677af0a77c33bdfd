package httpapi

// Messages of the organisation's base currency and rates.
func init() {
	for k, v := range moneyMessages {
		messages[k] = v
	}
}

var moneyMessages = map[string]map[string]string{
	"money_base_rate": m5("The base currency needs no rate: it is worth 1",
		"基准币种无需汇率：其值恒为 1", "基準幣別無需匯率：其值恆為 1", "기준 통화에는 환율이 필요 없습니다(항상 1)", "基準通貨にはレートは不要です（常に 1）"),
	"money_rate_twice": m5("This currency already has a rate for this month",
		"该币种在此月份已有汇率", "該幣別在此月份已有匯率", "이 통화에는 이 달의 환율이 이미 있습니다", "この通貨にはこの月のレートがすでにあります"),
}
