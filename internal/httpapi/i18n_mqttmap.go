package httpapi

// Messages of the MQTT mapping rules (internal/ingest map_api.go).
func init() {
	for k, v := range mqttMapMessages {
		messages[k] = v
	}
}

var mqttMapMessages = map[string]map[string]string{
	"mqtt_topic_level": m5("Level %v is not valid: use a word, + or {name}, and # only as the last level",
		"第 %v 级无效：请使用单词、+ 或 {name}，# 只能作为最后一级",
		"第 %v 級無效：請使用單字、+ 或 {name}，# 只能作為最後一級",
		"%v번째 단계가 올바르지 않습니다: 단어, + 또는 {name}을 사용하고 #은 마지막 단계에만 쓰십시오",
		"%v 番目の階層が無効です: 単語、+、{name} を使い、# は最後の階層にのみ使えます"),
	"mqtt_topic_levels": m5("At most %v levels", "最多 %v 级", "最多 %v 級", "최대 %v단계까지 가능합니다", "階層は %v までです"),
	"mqtt_topic_name_twice": m5("The part {%v} appears twice", "部分 {%v} 出现了两次", "部分 {%v} 出現了兩次",
		"{%v} 부분이 두 번 나옵니다", "{%v} が 2 回使われています"),
	"mqtt_device_part": m5("%v is not a part of the topic", "%v 不是主题中的部分", "%v 不是主題中的部分",
		"%v은(는) 토픽의 부분이 아닙니다", "%v はトピックの一部ではありません"),
	"mqtt_fields_limit": m5("At most %v fields in a rule", "每条规则最多 %v 个字段", "每條規則最多 %v 個欄位",
		"규칙 하나에 필드는 최대 %v개입니다", "1 つのルールのフィールドは %v 個までです"),
	"mqtt_field_twice": m5("This field is already mapped by the rule", "该字段已在此规则中映射", "該欄位已在此規則中對應",
		"이 필드는 이미 이 규칙에 매핑되어 있습니다", "このフィールドはこのルールですでに割り当てられています"),
	"mqtt_json_path": m5("A dotted path of names or indexes (at most %v steps), or empty for a plain-number payload",
		"应为以点分隔的名称或索引路径（最多 %v 段），纯数字负载请留空",
		"應為以點分隔的名稱或索引路徑（最多 %v 段），純數字負載請留空",
		"이름 또는 인덱스를 점으로 구분한 경로(최대 %v단계)이거나, 숫자만 있는 페이로드는 비워 두십시오",
		"名前またはインデックスをドットで区切ったパス（%v 段まで）。数値だけのペイロードは空にします"),
	"mqtt_rule_twice": m5("The organisation already has a rule for this topic", "本组织已有此主题的规则", "本組織已有此主題的規則",
		"조직에 이 토픽의 규칙이 이미 있습니다", "この組織にはこのトピックのルールがすでにあります"),
	"mqtt_rule_limit": m5("At most %v rules per organisation", "每个组织最多 %v 条规则", "每個組織最多 %v 條規則",
		"조직당 규칙은 최대 %v개입니다", "ルールは組織ごとに %v 個までです"),
	"mqtt_topic_root": m5("A base topic of plain levels (letters, digits, - _ .), without wildcards",
		"基础主题只能由普通级别组成（字母、数字、- _ .），不能含通配符",
		"基礎主題只能由一般層級組成（字母、數字、- _ .），不可含萬用字元",
		"기본 토픽은 일반 단계(문자, 숫자, - _ .)로만 이루어져야 하며 와일드카드는 쓸 수 없습니다",
		"ベーストピックは通常の階層（英数字、- _ .）のみで、ワイルドカードは使えません"),
}
