package httpapi

// Messages of line-protocol ingest rules.
func init() {
	for k, v := range lineMessages {
		messages[k] = v
	}
}

var lineMessages = map[string]map[string]string{
	"line_too_many_rules": m5("At most %v rules", "最多 %v 条规则", "最多 %v 條規則", "규칙은 최대 %v개입니다", "ルールは最大 %v 件です"),
	"line_bad_name": m5("At most %v characters, without control characters",
		"最多 %v 个字符，且不含控制字符", "最多 %v 個字元，且不含控制字元", "제어 문자 없이 최대 %v자", "制御文字を含まない %v 文字以内"),
	"line_rule_twice": m5("This measurement and field already have a rule (rule %v)",
		"该测量与字段已有规则（第 %v 条）", "該測量與欄位已有規則（第 %v 條）", "이 측정값과 필드에는 이미 규칙이 있습니다(규칙 %v)", "この測定とフィールドにはすでにルールがあります（ルール %v）"),
}
