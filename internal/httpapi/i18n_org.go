package httpapi

// Messages of the organisation, account, certification and system-log calls.
func init() {
	for k, v := range orgMessages {
		messages[k] = v
	}
}

var orgMessages = map[string]map[string]string{
	"dept_in_use":        m5("The department still has %v members and %v sub-departments: move or delete them first", "该部门仍有 %v 名成员和 %v 个下级部门，请先移走或删除", "該部門仍有 %v 名成員和 %v 個下級部門，請先移走或刪除", "부서에 아직 구성원 %v명과 하위 부서 %v개가 있습니다. 먼저 이동하거나 삭제하세요", "部署にまだ %v 人のメンバーと %v 個の下位部署があります。先に移動または削除してください"),
	"dept_name_taken":    m5("A department with this name already exists here", "同级已有同名部门", "同級已有同名部門", "같은 수준에 같은 이름의 부서가 있습니다", "同じ階層に同名の部署があります"),
	"unknown_dept":       m5("No such department", "部门不存在", "部門不存在", "해당 부서가 없습니다", "その部署はありません"),
	"unknown_station":    m5("Station %v is not a top-level station of the organisation", "电站 %v 不是本组织的一级电站", "電站 %v 不是本組織的一級電站", "발전소 %v는 조직의 최상위 발전소가 아닙니다", "発電所 %v は組織の最上位発電所ではありません"),
	"username_format":    m5("3 to 32 letters, digits, dots, dashes or underscores", "3 到 32 位字母、数字、点、横线或下划线", "3 到 32 位字母、數字、點、橫線或底線", "영문자, 숫자, 점, 하이픈, 밑줄 3~32자", "英数字・ドット・ハイフン・下線の 3〜32 文字"),
	"username_taken":     m5("This username is taken", "用户名已被使用", "使用者名稱已被使用", "이미 사용 중인 사용자 이름입니다", "このユーザー名は使用されています"),
	"email_format":       m5("Not an email address", "邮箱格式不正确", "電子郵件格式不正確", "이메일 형식이 아닙니다", "メールアドレスの形式ではありません"),
	"phone_format":       m5("Not a phone number (digits, spaces, dashes, an optional leading +)", "电话号码格式不正确（数字、空格、横线，可带前导 +）", "電話號碼格式不正確（數字、空格、橫線，可帶前導 +）", "전화번호 형식이 아닙니다(숫자, 공백, 하이픈, 앞에 + 가능)", "電話番号の形式ではありません（数字・空白・ハイフン、先頭に + 可）"),
	"url_format":         m5("The address must begin with http:// or https://", "网址必须以 http:// 或 https:// 开头", "網址必須以 http:// 或 https:// 開頭", "주소는 http:// 또는 https:// 로 시작해야 합니다", "アドレスは http:// または https:// で始まる必要があります"),
	"password_mismatch":  m5("The two passwords differ", "两次输入的密码不一致", "兩次輸入的密碼不一致", "두 비밀번호가 다릅니다", "2 つのパスワードが一致しません"),
	"wrong_password":     m5("The current password is wrong", "当前密码错误", "目前密碼錯誤", "현재 비밀번호가 올바르지 않습니다", "現在のパスワードが違います"),
	"password_unchanged": m5("The new password is the same as the current one", "新密码与当前密码相同", "新密碼與目前密碼相同", "새 비밀번호가 현재 비밀번호와 같습니다", "新しいパスワードが現在と同じです"),
	"not_yourself":       m5("You cannot do this to your own account", "不能对自己的账号执行此操作", "不能對自己的帳號執行此操作", "자신의 계정에는 할 수 없습니다", "自分のアカウントにはできません"),
	"last_admin":         m5("The organisation needs at least one active administrator", "组织至少需要一名启用的管理员", "組織至少需要一名啟用的管理員", "조직에는 활성 관리자가 한 명 이상 있어야 합니다", "組織には有効な管理者が少なくとも 1 人必要です"),
	"cancel_leftovers":   m5("Delete the %v departments, %v members and %v stations first", "请先删除 %v 个部门、%v 名成员和 %v 个电站", "請先刪除 %v 個部門、%v 名成員和 %v 個電站", "먼저 부서 %v개, 구성원 %v명, 발전소 %v개를 삭제하세요", "先に %v 個の部署、%v 人のメンバー、%v 個の発電所を削除してください"),
	"avatar_type":        m5("The avatar must be a PNG image", "头像必须是 PNG 图片", "頭像必須是 PNG 圖片", "아바타는 PNG 이미지여야 합니다", "アバターは PNG 画像である必要があります"),
	"avatar_too_large":   m5("The avatar is larger than 2 MB", "头像超过 2 MB", "頭像超過 2 MB", "아바타가 2MB를 초과합니다", "アバターが 2 MB を超えています"),
	"avatar_dimensions":  m5("The avatar must be between 16 and 4096 pixels on each side; this one is %v×%v", "头像每边须为 16 到 4096 像素，该图片为 %v×%v", "頭像每邊須為 16 到 4096 像素，該圖片為 %v×%v", "아바타는 각 변이 16~4096픽셀이어야 합니다. 이 이미지는 %v×%v입니다", "アバターは各辺 16〜4096 ピクセルである必要があります（この画像は %v×%v）"),
	"cert_open":          m5("A certification is already being audited", "已有认证正在审核中", "已有認證正在審核中", "이미 심사 중인 인증이 있습니다", "審査中の認証がすでにあります"),
	"cert_transition":    m5("This record can no longer be changed (%v)", "该记录已不能变更（%v）", "該記錄已不能變更（%v）", "이 기록은 더 이상 변경할 수 없습니다(%v)", "この記録はもう変更できません（%v）"),
	"settings_json":      m5("The settings must be a JSON object of at most 8 KB", "配置须为不超过 8 KB 的 JSON 对象", "設定須為不超過 8 KB 的 JSON 物件", "설정은 8KB 이하의 JSON 객체여야 합니다", "設定は 8 KB 以下の JSON オブジェクトである必要があります"),
	"col.time":           m5("Time (UTC)", "时间 (UTC)", "時間 (UTC)", "시간 (UTC)", "時刻 (UTC)"),
	"col.user":           m5("User", "用户", "使用者", "사용자", "ユーザー"),
	"col.action":         m5("Action", "操作", "操作", "작업", "操作"),
	"col.object":         m5("Object", "对象", "對象", "대상", "対象"),
	"col.detail":         m5("Detail", "详情", "詳情", "상세", "詳細"),
	"col.address":        m5("Address", "来源地址", "來源位址", "주소", "アドレス"),
	"col.status":         m5("Result", "结果", "結果", "결과", "結果"),
	"col.before":         m5("Before", "修改前", "修改前", "변경 전", "変更前"),
	"col.after":          m5("After", "修改后", "修改後", "변경 후", "変更後"),
	"col.route":          m5("Call", "接口", "介面", "호출", "呼び出し"),
}
