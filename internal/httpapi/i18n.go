package httpapi

import (
	"fmt"
	"net/http"
	"strings"
)

// Locales are the console's languages; the first is the fallback for unknown ones
// is English (SPEC: unknown locales fall back to English text).
var Locales = []string{"zh-CN", "en-US", "zh-TW", "ko-KR", "ja-JP"}

// messages holds every server message in the five locales, keyed by message key.
// Arguments are substituted with fmt verbs.
var messages = map[string]map[string]string{
	"ok": {"en-US": "ok", "zh-CN": "成功", "zh-TW": "成功", "ko-KR": "성공", "ja-JP": "成功"},
	"invalid_input": {
		"en-US": "Some fields are invalid", "zh-CN": "部分字段无效", "zh-TW": "部分欄位無效",
		"ko-KR": "일부 항목이 올바르지 않습니다", "ja-JP": "一部の項目が正しくありません"},
	"required": {
		"en-US": "Required", "zh-CN": "必填", "zh-TW": "必填", "ko-KR": "필수 항목입니다", "ja-JP": "必須項目です"},
	"too_long": {
		"en-US": "At most %v characters", "zh-CN": "最多 %v 个字符", "zh-TW": "最多 %v 個字元",
		"ko-KR": "최대 %v자까지 입력할 수 있습니다", "ja-JP": "%v 文字以内で入力してください"},
	"too_short": {
		"en-US": "At least %v characters", "zh-CN": "至少 %v 个字符", "zh-TW": "至少 %v 個字元",
		"ko-KR": "최소 %v자 이상 입력하세요", "ja-JP": "%v 文字以上で入力してください"},
	"unknown_field": {
		"en-US": "Unknown field", "zh-CN": "未知字段", "zh-TW": "未知欄位", "ko-KR": "알 수 없는 항목입니다", "ja-JP": "不明な項目です"},
	"wrong_type": {
		"en-US": "Must be %v", "zh-CN": "必须是%v", "zh-TW": "必須是%v", "ko-KR": "%v이어야 합니다", "ja-JP": "%vである必要があります"},
	"one_of": {
		"en-US": "Must be one of: %v", "zh-CN": "必须是以下之一：%v", "zh-TW": "必須是以下之一：%v",
		"ko-KR": "다음 중 하나여야 합니다: %v", "ja-JP": "次のいずれかである必要があります: %v"},
	"out_of_range": {
		"en-US": "Must be between %v and %v", "zh-CN": "必须在 %v 到 %v 之间", "zh-TW": "必須在 %v 到 %v 之間",
		"ko-KR": "%v에서 %v 사이여야 합니다", "ja-JP": "%v から %v の間である必要があります"},
	"invalid_format": {
		"en-US": "Invalid format", "zh-CN": "格式无效", "zh-TW": "格式無效", "ko-KR": "형식이 올바르지 않습니다", "ja-JP": "形式が正しくありません"},
	"password_rule": {
		"en-US": "More than 6 characters with digits, upper- and lower-case letters and no spaces",
		"zh-CN": "长度大于 6 位，须包含数字、大写和小写字母，不能有空格",
		"zh-TW": "長度大於 6 位，須包含數字、大寫和小寫字母，不能有空格",
		"ko-KR": "6자 초과, 숫자와 대문자·소문자를 포함하고 공백이 없어야 합니다",
		"ja-JP": "7 文字以上で、数字と英大文字・小文字を含み、空白を含まないでください"},
	"malformed_json": {
		"en-US": "The request body is not valid JSON", "zh-CN": "请求体不是有效的 JSON", "zh-TW": "請求內容不是有效的 JSON",
		"ko-KR": "요청 본문이 올바른 JSON이 아닙니다", "ja-JP": "リクエスト本文が正しい JSON ではありません"},
	"empty_body": {
		"en-US": "The request body is empty", "zh-CN": "请求体为空", "zh-TW": "請求內容為空",
		"ko-KR": "요청 본문이 비어 있습니다", "ja-JP": "リクエスト本文が空です"},
	"wrong_content_type": {
		"en-US": "Content-Type must be %v", "zh-CN": "Content-Type 必须是 %v", "zh-TW": "Content-Type 必須是 %v",
		"ko-KR": "Content-Type은 %v이어야 합니다", "ja-JP": "Content-Type は %v である必要があります"},
	"body_too_large": {
		"en-US": "The request body is larger than %v bytes", "zh-CN": "请求体超过 %v 字节", "zh-TW": "請求內容超過 %v 位元組",
		"ko-KR": "요청 본문이 %v바이트를 초과합니다", "ja-JP": "リクエスト本文が %v バイトを超えています"},
	"login_expired": {
		"en-US": "Login has expired, please sign in again", "zh-CN": "登录已过期，请重新登录", "zh-TW": "登入已過期，請重新登入",
		"ko-KR": "로그인이 만료되었습니다. 다시 로그인하세요", "ja-JP": "ログインの有効期限が切れました。再度ログインしてください"},
	"session_ended": {
		"en-US": "You have been logged out: your session was ended elsewhere", "zh-CN": "您已被登出：会话已在别处结束",
		"zh-TW": "您已被登出：工作階段已在別處結束", "ko-KR": "로그아웃되었습니다: 다른 곳에서 세션이 종료되었습니다",
		"ja-JP": "ログアウトされました: セッションは別の場所で終了しました"},
	"forbidden": {
		"en-US": "No access permission", "zh-CN": "没有访问权限", "zh-TW": "沒有存取權限", "ko-KR": "접근 권한이 없습니다", "ja-JP": "アクセス権限がありません"},
	"not_found": {
		"en-US": "Not found", "zh-CN": "未找到", "zh-TW": "找不到", "ko-KR": "찾을 수 없습니다", "ja-JP": "見つかりません"},
	"method_not_allowed": {
		"en-US": "Method not allowed", "zh-CN": "不支持的请求方法", "zh-TW": "不支援的請求方法", "ko-KR": "허용되지 않는 메서드입니다", "ja-JP": "許可されていないメソッドです"},
	"internal": {
		"en-US": "Internal server error", "zh-CN": "服务器内部错误", "zh-TW": "伺服器內部錯誤", "ko-KR": "서버 내부 오류", "ja-JP": "サーバー内部エラー"},
	"invalid_credentials": {
		"en-US": "Wrong username or password", "zh-CN": "用户名或密码错误", "zh-TW": "使用者名稱或密碼錯誤",
		"ko-KR": "사용자 이름 또는 비밀번호가 올바르지 않습니다", "ja-JP": "ユーザー名またはパスワードが正しくありません"},
	"too_many_attempts": {
		"en-US": "Too many failed sign-in attempts; try again in %v minutes", "zh-CN": "登录失败次数过多，请 %v 分钟后再试",
		"zh-TW": "登入失敗次數過多，請 %v 分鐘後再試", "ko-KR": "로그인 실패가 너무 많습니다. %v분 후에 다시 시도하세요",
		"ja-JP": "ログインの失敗が多すぎます。%v 分後に再試行してください"},
	"account_disabled": {
		"en-US": "This account is disabled", "zh-CN": "该账号已停用", "zh-TW": "該帳號已停用", "ko-KR": "비활성화된 계정입니다", "ja-JP": "このアカウントは無効です"},
	"duplicate": {
		"en-US": "Already in use", "zh-CN": "已被使用", "zh-TW": "已被使用", "ko-KR": "이미 사용 중입니다", "ja-JP": "既に使用されています"},
	"not_ready": {
		"en-US": "Starting up", "zh-CN": "正在启动", "zh-TW": "正在啟動", "ko-KR": "시작하는 중", "ja-JP": "起動中"},
}

// typeNames translates the type names used in "wrong_type" messages.
var typeNames = map[string]map[string]string{
	"a string":      {"en-US": "a string", "zh-CN": "字符串", "zh-TW": "字串", "ko-KR": "문자열", "ja-JP": "文字列"},
	"a number":      {"en-US": "a number", "zh-CN": "数字", "zh-TW": "數字", "ko-KR": "숫자", "ja-JP": "数値"},
	"an integer":    {"en-US": "an integer", "zh-CN": "整数", "zh-TW": "整數", "ko-KR": "정수", "ja-JP": "整数"},
	"true or false": {"en-US": "true or false", "zh-CN": "布尔值", "zh-TW": "布林值", "ko-KR": "참 또는 거짓", "ja-JP": "真偽値"},
	"an object":     {"en-US": "an object", "zh-CN": "对象", "zh-TW": "物件", "ko-KR": "객체", "ja-JP": "オブジェクト"},
	"a list":        {"en-US": "a list", "zh-CN": "列表", "zh-TW": "清單", "ko-KR": "목록", "ja-JP": "リスト"},
	"a date-time (RFC 3339)": {"en-US": "a date-time (RFC 3339)", "zh-CN": "日期时间（RFC 3339）",
		"zh-TW": "日期時間（RFC 3339）", "ko-KR": "날짜/시간(RFC 3339)", "ja-JP": "日時（RFC 3339）"},
}

// Locale picks the best supported locale from the request's Accept-Language header.
func Locale(r *http.Request) string {
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if l := matchLocale(tag); l != "" {
			return l
		}
	}
	return "en-US"
}

func matchLocale(tag string) string {
	t := strings.ToLower(tag)
	for _, l := range Locales {
		if t == strings.ToLower(l) {
			return l
		}
	}
	switch {
	case t == "zh" || strings.HasPrefix(t, "zh-hans") || t == "zh-sg":
		return "zh-CN"
	case strings.HasPrefix(t, "zh-hant") || t == "zh-hk" || t == "zh-mo":
		return "zh-TW"
	case strings.HasPrefix(t, "en"):
		return "en-US"
	case strings.HasPrefix(t, "ko"):
		return "ko-KR"
	case strings.HasPrefix(t, "ja"):
		return "ja-JP"
	}
	return ""
}

// T translates a message key for a locale. An unknown key is returned as is.
func T(locale, key string, args ...any) string {
	m, ok := messages[key]
	if !ok {
		return key
	}
	s, ok := m[locale]
	if !ok {
		s = m["en-US"]
	}
	args = append([]any(nil), args...)
	for i, a := range args {
		if str, ok := a.(string); ok {
			if tn, ok := typeNames[str]; ok {
				args[i] = tn[locale]
			}
		}
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// HasMessage reports whether key is in the catalogue (used by tests).
func HasMessage(key string) bool { _, ok := messages[key]; return ok }
