package httpapi

// Messages of the workplace calls.
func init() {
	for k, v := range workplaceMessages {
		messages[k] = v
	}
}

var workplaceMessages = map[string]map[string]string{
	"unknown_shortcut":   m5("No such area for a shortcut: %v", "没有可添加为快捷方式的该功能：%v", "沒有可加入為捷徑的該功能：%v", "바로가기로 둘 수 없는 영역입니다: %v", "ショートカットにできない機能です：%v"),
	"duplicate_shortcut": m5("A shortcut appears twice: %v", "快捷方式重复：%v", "捷徑重複：%v", "바로가기가 중복되었습니다: %v", "ショートカットが重複しています：%v"),
	"read_only":          m5("This field cannot be set", "该字段不可设置", "該欄位不可設定", "이 필드는 설정할 수 없습니다", "この項目は設定できません"),
}
