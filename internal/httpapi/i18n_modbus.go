package httpapi

// Messages of the register map fields for non-SunSpec devices (code tables, bits,
// strings, scale registers, sums, coils).
func init() {
	for k, v := range modbusMessages {
		messages[k] = v
	}
}

var modbusMessages = map[string]map[string]string{
	"scada_unknown_register_field": m5("Not a register field; a register takes: %v", "不是寄存器字段；寄存器可用字段：%v", "不是暫存器欄位；暫存器可用欄位：%v", "레지스터 항목이 아닙니다. 사용할 수 있는 항목: %v", "レジスタの項目ではありません。使える項目: %v"),
	"scada_bool_function":          m5("Coils and discrete inputs take dataType bool, and bool is only for them", "线圈和离散输入的数据类型为 bool，bool 也只用于它们", "線圈和離散輸入的資料型別為 bool，bool 也只用於它們", "코일과 이산 입력은 dataType bool을 사용하며 bool은 이들에만 쓸 수 있습니다", "コイルとディスクリート入力は dataType bool で、bool はそれら専用です"),
	"scada_display_only":           m5("A string is display only: no target, code table, bit, scale register, sum or writing", "字符串仅用于显示：不能设置目标、码表、位、倍率寄存器、求和或写入", "字串僅用於顯示：不能設定目標、碼表、位元、倍率暫存器、加總或寫入", "문자열은 표시 전용입니다. 대상, 코드표, 비트, 배율 레지스터, 합계, 쓰기를 설정할 수 없습니다", "文字列は表示専用です。ターゲット、コード表、ビット、スケールレジスタ、合計、書き込みは設定できません"),
	"scada_size_string":            m5("Only string registers take a size", "只有字符串寄存器可以设置长度", "只有字串暫存器可以設定長度", "크기는 문자열 레지스터에만 지정할 수 있습니다", "サイズは文字列レジスタにのみ指定できます"),
	"scada_integer_only":           m5("Only whole-number registers take %v", "只有整数寄存器可以设置 %v", "只有整數暫存器可以設定 %v", "%v 항목은 정수 레지스터에만 지정할 수 있습니다", "%v は整数レジスタにのみ指定できます"),
	"scada_writable_plain":         m5("Only plain number registers (no bit, code table or scale register) can be written", "只有普通数值寄存器（无位、码表或倍率寄存器）可写", "只有一般數值暫存器（無位元、碼表或倍率暫存器）可寫", "비트, 코드표, 배율 레지스터가 없는 일반 숫자 레지스터만 쓸 수 있습니다", "書き込めるのはビット・コード表・スケールレジスタのない数値レジスタのみです"),
	"scada_offset":                 m5("The offset must be a finite number up to 10¹² in size", "偏移量必须是绝对值不超过 10¹² 的有限数", "偏移量必須是絕對值不超過 10¹² 的有限數", "오프셋은 크기가 10¹² 이하인 유한한 숫자여야 합니다", "オフセットは絶対値 10¹² 以下の有限の数値である必要があります"),
	"scada_scale_register":         m5("No other register called %v in the map to take the exponent from", "点表中没有名为 %v 的其他寄存器可提供指数", "點表中沒有名為 %v 的其他暫存器可提供指數", "지수를 가져올 %v 이름의 다른 레지스터가 맵에 없습니다", "指数を取得する %v という名前の別のレジスタがマップにありません"),
	"scada_scale_register_plain":   m5("The scale register %v must be a plain whole-number register (no bit, code table or scale register of its own)", "倍率寄存器 %v 必须是普通整数寄存器（无位、码表或自身的倍率寄存器）", "倍率暫存器 %v 必須是一般整數暫存器（無位元、碼表或自身的倍率暫存器）", "배율 레지스터 %v는 비트, 코드표, 자체 배율 레지스터가 없는 일반 정수 레지스터여야 합니다", "スケールレジスタ %v はビット・コード表・自身のスケールレジスタのない整数レジスタである必要があります"),
	"scada_too_many_codes":         m5("A code table holds at most %v codes", "一个码表最多 %v 个代码", "一個碼表最多 %v 個代碼", "코드표에는 코드를 최대 %v개까지 넣을 수 있습니다", "コード表のコードは最大 %v 個です"),
	"scada_code":                   m5("Use a whole number, a 0x hex number or default as the code", "代码请使用整数、0x 十六进制数或 default", "代碼請使用整數、0x 十六進位數或 default", "코드는 정수, 0x 16진수 또는 default로 입력하세요", "コードは整数、0x の16進数、または default で指定してください"),
	"scada_code_value":             m5("Use standby, running, fault, overTemp, gridFault or a number", "请使用 standby、running、fault、overTemp、gridFault 或数字", "請使用 standby、running、fault、overTemp、gridFault 或數字", "standby, running, fault, overTemp, gridFault 또는 숫자를 사용하세요", "standby、running、fault、overTemp、gridFault または数値を指定してください"),
	"scada_sum_target":             m5("Only registers feeding a measured value (not status or fault) can be summed", "只有提供测量值（非状态或故障）的寄存器可以求和", "只有提供量測值（非狀態或故障）的暫存器可以加總", "측정값(상태, 고장 제외)을 제공하는 레지스터만 합산할 수 있습니다", "合計できるのは測定値（状態・故障以外）を渡すレジスタのみです"),
	"scada_overlap":                m5("Overlaps register %v (%v–%v): registers may share the very same words, not part of them", "与寄存器 %v（%v–%v）部分重叠：寄存器只能完全共用相同的字，不能部分重叠", "與暫存器 %v（%v–%v）部分重疊：暫存器只能完全共用相同的字組，不能部分重疊", "레지스터 %v(%v–%v)와 일부 겹칩니다. 레지스터는 같은 워드를 통째로만 공유할 수 있습니다", "レジスタ %v（%v–%v）と一部重なっています。レジスタは同じワードを丸ごと共有する場合のみ重ねられます"),
}
