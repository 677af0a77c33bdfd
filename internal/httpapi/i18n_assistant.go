package httpapi

// Messages of the assistant: document-store errors and the built-in answerer's sentences.
func init() {
	for k, v := range assistantMessages {
		messages[k] = v
	}
}

var assistantMessages = map[string]map[string]string{
	"doc_type":       m5("Upload a PDF, Markdown, text or HTML file", "请上传 PDF、Markdown、文本或 HTML 文件", "請上傳 PDF、Markdown、文字或 HTML 檔案", "PDF, Markdown, 텍스트 또는 HTML 파일을 올려 주세요", "PDF、Markdown、テキスト、HTML のファイルをアップロードしてください"),
	"doc_too_large":  m5("The file is larger than %v MB", "文件超过 %v MB", "檔案超過 %v MB", "파일이 %v MB를 초과합니다", "ファイルが %v MB を超えています"),
	"doc_empty":      m5("The file is empty", "文件为空", "檔案為空", "파일이 비어 있습니다", "ファイルが空です"),
	"doc_content":    m5("The file's content does not match its type", "文件内容与类型不符", "檔案內容與類型不符", "파일 내용이 형식과 맞지 않습니다", "ファイルの内容が種類と一致しません"),
	"doc_base64":     m5("The content is not valid base64", "内容不是有效的 base64", "內容不是有效的 base64", "내용이 올바른 base64가 아닙니다", "内容が正しい base64 ではありません"),
	"doc_duplicate":  m5("This file is already in the store as “%v”", "该文件已存在：“%v”", "該檔案已存在：「%v」", "이 파일은 이미 “%v”(으)로 있습니다", "このファイルは「%v」として登録済みです"),
	"doc_quota":      m5("The organisation's document store is full (%v documents)", "本组织的文档库已满（%v 个文档）", "本組織的文件庫已滿（%v 份文件）", "조직의 문서 저장소가 가득 찼습니다(문서 %v개)", "組織の文書ストアがいっぱいです（%v 件）"),
	"question":       m5("Ask a question of up to 2,000 characters", "请输入不超过 2000 字的问题", "請輸入不超過 2000 字的問題", "2,000자 이내로 질문하세요", "2,000 文字以内で質問してください"),
	"assistant_busy": m5("The assistant is answering too many questions; try again shortly", "助手正忙，请稍后再试", "助理正忙，請稍後再試", "어시스턴트가 바쁩니다. 잠시 후 다시 시도하세요", "アシスタントが混み合っています。しばらくしてから再試行してください"),

	"ans.least":         m5("%v made the least energy %v: %v kWh (%v kWh/kWp).", "%[2]v发电量最少的是 %[1]v：%[3]v kWh（%[4]v kWh/kWp）。", "%[2]v發電量最少的是 %[1]v：%[3]v kWh（%[4]v kWh/kWp）。", "%[2]v 발전량이 가장 적은 곳은 %[1]v입니다: %[3]v kWh (%[4]v kWh/kWp).", "%[2]vの発電量が最も少ないのは %[1]v です：%[3]v kWh（%[4]v kWh/kWp）。"),
	"ans.most":          m5("%v made the most energy %v: %v kWh (%v kWh/kWp).", "%[2]v发电量最多的是 %[1]v：%[3]v kWh（%[4]v kWh/kWp）。", "%[2]v發電量最多的是 %[1]v：%[3]v kWh（%[4]v kWh/kWp）。", "%[2]v 발전량이 가장 많은 곳은 %[1]v입니다: %[3]v kWh (%[4]v kWh/kWp).", "%[2]vの発電量が最も多いのは %[1]v です：%[3]v kWh（%[4]v kWh/kWp）。"),
	"ans.yesterday":     m5("yesterday", "昨天", "昨天", "어제", "昨日"),
	"ans.today":         m5("today so far", "今天截至目前", "今天截至目前", "오늘 현재까지", "本日これまで"),
	"ans.ranking":       m5("All stations, %v:", "全部电站（%v）：", "全部電站（%v）：", "전체 발전소, %v:", "全発電所（%v）："),
	"ans.station_line":  m5("%v: %v kWh (%v kWh/kWp)", "%v：%v kWh（%v kWh/kWp）", "%v：%v kWh（%v kWh/kWp）", "%v: %v kWh (%v kWh/kWp)", "%v：%v kWh（%v kWh/kWp）"),
	"ans.no_stations":   m5("You have no stations to look at.", "您没有可查看的电站。", "您沒有可檢視的電站。", "볼 수 있는 발전소가 없습니다.", "閲覧できる発電所がありません。"),
	"ans.why":           m5("%v made %v kWh yesterday (%v kWh/kWp; performance ratio %v %%), against a fleet median of %v kWh/kWp. Its devices spent %v device-minutes in a fault state.", "%v 昨天发电 %v kWh（%v kWh/kWp，性能比 %v%%），全站队中位数为 %v kWh/kWp。设备故障时长合计 %v 设备·分钟。", "%v 昨天發電 %v kWh（%v kWh/kWp，效能比 %v%%），全站隊中位數為 %v kWh/kWp。設備故障時長合計 %v 設備·分鐘。", "%v의 어제 발전량은 %v kWh(%v kWh/kWp, 성능비 %v%%)이며, 전체 중앙값은 %v kWh/kWp입니다. 장치 고장 시간은 합계 %v 장치·분입니다.", "%v の昨日の発電量は %v kWh（%v kWh/kWp、性能比 %v%%）、全体の中央値は %v kWh/kWp です。機器の故障時間は合計 %v 機器・分です。"),
	"ans.alarms":        m5("%v has %v occurring alarm(s):", "%v 当前有 %v 条告警：", "%v 目前有 %v 條告警：", "%v에 발생 중인 경보가 %v건 있습니다:", "%v では %v 件のアラームが発生中です："),
	"ans.alarms_fleet":  m5("Your stations have %v occurring alarm(s):", "您的电站当前有 %v 条告警：", "您的電站目前有 %v 條告警：", "발전소에 발생 중인 경보가 %v건 있습니다:", "発電所で %v 件のアラームが発生中です："),
	"ans.no_alarms":     m5("%v has no occurring alarm.", "%v 当前没有告警。", "%v 目前沒有告警。", "%v에 발생 중인 경보가 없습니다.", "%v で発生中のアラームはありません。"),
	"ans.alarm_line":    m5("%v — %v (since %v UTC, %v)", "%v — %v（自 %v UTC 起，%v）", "%v — %v（自 %v UTC 起，%v）", "%v — %v (%v UTC부터, %v)", "%v — %v（%v UTC から、%v）"),
	"ans.dealt":         m5("dealt with", "已处理", "已處理", "처리됨", "処理済み"),
	"ans.undealt":       m5("not yet dealt with", "未处理", "未處理", "미처리", "未処理"),
	"ans.device":        m5("%v (%v, %v) at %v is %v, %v kW, last heard %v UTC.", "%v（%v，%v）位于 %v，状态：%v，功率 %v kW，最后通讯 %v UTC。", "%v（%v，%v）位於 %v，狀態：%v，功率 %v kW，最後通訊 %v UTC。", "%v(%v, %v) / %v: 상태 %v, 출력 %v kW, 마지막 수신 %v UTC.", "%v（%v、%v）/ %v：状態 %v、出力 %v kW、最終受信 %v UTC。"),
	"ans.device_never":  m5("%v (%v, %v) at %v has never reported.", "%v（%v，%v）位于 %v，从未上报数据。", "%v（%v，%v）位於 %v，從未上報資料。", "%v(%v, %v) / %v: 보고한 적이 없습니다.", "%v（%v、%v）/ %v：一度も報告していません。"),
	"ans.state.running": m5("running", "运行", "運行", "운전", "運転中"),
	"ans.state.standby": m5("on standby", "待机", "待機", "대기", "待機"),
	"ans.state.fault":   m5("in fault", "故障", "故障", "고장", "故障"),
	"ans.state.offline": m5("offline", "离线", "離線", "오프라인", "オフライン"),
	"ans.passages":      m5("These passages of your documents may help:", "以下文档段落可能有帮助：", "以下文件段落可能有幫助：", "다음 문서 구절이 도움이 될 수 있습니다:", "次の文書の箇所が役立つかもしれません："),
	"ans.nothing":       m5("I found nothing in your documents or your fleet that answers this. Try other words, or upload the manual that covers it.", "未在您的文档或电站数据中找到答案。请换个说法，或上传相关手册。", "未在您的文件或電站資料中找到答案。請換個說法，或上傳相關手冊。", "문서나 발전소 데이터에서 답을 찾지 못했습니다. 다른 표현을 쓰거나 관련 설명서를 올려 주세요.", "文書や発電所のデータに答えが見つかりませんでした。別の言葉で試すか、該当するマニュアルをアップロードしてください。"),
	"ans.llm_failed":    m5("The language model could not answer (%v); here is what the built-in answerer found.", "语言模型无法回答（%v），以下是内置应答的结果。", "語言模型無法回答（%v），以下是內建應答的結果。", "언어 모델이 답하지 못했습니다(%v). 내장 응답기가 찾은 내용입니다.", "言語モデルが回答できませんでした（%v）。組み込みの応答機能が見つけた内容です。"),
}
