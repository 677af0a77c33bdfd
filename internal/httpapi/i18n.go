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
	"malformed_multipart": {
		"en-US": "The request body is not a valid multipart form", "zh-CN": "请求体不是有效的 multipart 表单", "zh-TW": "請求內容不是有效的 multipart 表單",
		"ko-KR": "요청 본문이 올바른 multipart 양식이 아닙니다", "ja-JP": "リクエスト本文が正しい multipart フォームではありません"},
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

	// Alarms, notification settings and the message centre.
	"ids_or_all": {
		"en-US": "Give either ids or all, not both", "zh-CN": "请提供 ids 或 all，不能同时提供", "zh-TW": "請提供 ids 或 all，不能同時提供",
		"ko-KR": "ids 또는 all 중 하나만 지정하세요", "ja-JP": "ids と all のどちらか一方を指定してください"},
	"too_many": {
		"en-US": "At most %v items", "zh-CN": "最多 %v 项", "zh-TW": "最多 %v 項", "ko-KR": "최대 %v개까지 가능합니다", "ja-JP": "%v 件以内にしてください"},
	"unknown_ids": {
		"en-US": "Unknown ids: %v", "zh-CN": "未知的 id：%v", "zh-TW": "未知的 id：%v", "ko-KR": "알 수 없는 id: %v", "ja-JP": "不明な id: %v"},
	"at_least_one": {
		"en-US": "Choose at least one", "zh-CN": "请至少选择一项", "zh-TW": "請至少選擇一項", "ko-KR": "하나 이상 선택하세요", "ja-JP": "1 つ以上選択してください"},
	"needs_sort": {
		"en-US": "Give a sort column with the order", "zh-CN": "指定排序方向时须同时指定排序列", "zh-TW": "指定排序方向時須同時指定排序欄",
		"ko-KR": "정렬 방향과 함께 정렬할 열을 지정하세요", "ja-JP": "並べ替えの向きには並べ替える列も指定してください"},
	"range_reversed": {
		"en-US": "Must not be before the start of the range", "zh-CN": "不能早于起始时间", "zh-TW": "不能早於起始時間",
		"ko-KR": "시작보다 앞설 수 없습니다", "ja-JP": "開始より前にはできません"},
	"range_too_long_days": {
		"en-US": "The range may span at most %v days", "zh-CN": "时间范围最多 %v 天", "zh-TW": "時間範圍最多 %v 天",
		"ko-KR": "기간은 최대 %v일입니다", "ja-JP": "期間は最大 %v 日です"},
	"range_too_long_months": {
		"en-US": "The range may span at most %v months", "zh-CN": "时间范围最多 %v 个月", "zh-TW": "時間範圍最多 %v 個月",
		"ko-KR": "기간은 최대 %v개월입니다", "ja-JP": "期間は最大 %v か月です"},
	"range_too_long_years": {
		"en-US": "The range may span at most %v years", "zh-CN": "时间范围最多 %v 年", "zh-TW": "時間範圍最多 %v 年",
		"ko-KR": "기간은 최대 %v년입니다", "ja-JP": "期間は最大 %v 年です"},
	"alarm_rule_offline": {
		"en-US": "Communication lost", "zh-CN": "通讯中断", "zh-TW": "通訊中斷", "ko-KR": "통신 끊김", "ja-JP": "通信断"},
	"alarm_rule_inverter_fault": {
		"en-US": "Inverter fault", "zh-CN": "逆变器故障", "zh-TW": "逆變器故障", "ko-KR": "인버터 고장", "ja-JP": "インバータ故障"},
	"alarm_rule_string_loss": {
		"en-US": "String loss", "zh-CN": "组串缺失", "zh-TW": "組串缺失", "ko-KR": "스트링 손실", "ja-JP": "ストリング欠損"},
	"alarm_rule_over_temperature": {
		"en-US": "Over-temperature", "zh-CN": "过温", "zh-TW": "過溫", "ko-KR": "과열", "ja-JP": "過温度"},
	"alarm_rule_grid_fault": {
		"en-US": "Grid fault", "zh-CN": "电网异常", "zh-TW": "電網異常", "ko-KR": "계통 이상", "ja-JP": "系統異常"},
	"alarm_rule_battery_fault": {
		"en-US": "Battery fault", "zh-CN": "电池故障", "zh-TW": "電池故障", "ko-KR": "배터리 고장", "ja-JP": "蓄電池故障"},
	"alarm_rule_low_output": {
		"en-US": "Low output", "zh-CN": "发电量偏低", "zh-TW": "發電量偏低", "ko-KR": "발전량 저하", "ja-JP": "発電量低下"},
	"alarm_desc_offline": {
		"en-US": "No data for more than %v minutes", "zh-CN": "超过 %v 分钟无数据", "zh-TW": "超過 %v 分鐘無資料",
		"ko-KR": "%v분 넘게 데이터가 없습니다", "ja-JP": "%v 分以上データがありません"},
	"alarm_desc_comms_lost": {
		"en-US": "The collector cannot reach the device", "zh-CN": "采集器无法连接该设备", "zh-TW": "採集器無法連線該設備",
		"ko-KR": "수집기가 장치에 연결할 수 없습니다", "ja-JP": "コレクタが機器に接続できません"},
	"alarm_desc_collector_offline": {
		"en-US": "Collector %v: no data from its %v devices for more than %v minutes",
		"zh-CN": "采集器 %v：其 %v 台设备超过 %v 分钟无数据", "zh-TW": "採集器 %v：其 %v 台設備超過 %v 分鐘無資料",
		"ko-KR": "수집기 %v: 연결된 장치 %v대에서 %v분 넘게 데이터가 없습니다", "ja-JP": "コレクタ %v: 配下の %v 台の機器から %v 分以上データがありません"},
	"alarm_desc_inverter_fault": {
		"en-US": "The inverter reports a fault and has stopped", "zh-CN": "逆变器报告故障并已停机", "zh-TW": "逆變器回報故障並已停機",
		"ko-KR": "인버터가 고장을 보고하고 정지했습니다", "ja-JP": "インバータが故障を報告し停止しました"},
	"alarm_desc_battery_fault": {
		"en-US": "The battery reports a fault (state of charge %v %%)", "zh-CN": "电池报告故障（荷电状态 %v %%）",
		"zh-TW": "電池回報故障（荷電狀態 %v %%）", "ko-KR": "배터리가 고장을 보고했습니다(충전 상태 %v %%)",
		"ja-JP": "蓄電池が故障を報告しました（充電率 %v %%）"},
	"alarm_desc_over_temperature_status": {
		"en-US": "Derating for temperature: %v °C", "zh-CN": "因温度降额运行：%v °C", "zh-TW": "因溫度降額運轉：%v °C",
		"ko-KR": "온도로 인한 출력 제한: %v °C", "ja-JP": "温度による出力制限: %v °C"},
	"alarm_desc_over_temperature": {
		"en-US": "Temperature %v °C reaches the limit of %v °C", "zh-CN": "温度 %v °C 达到上限 %v °C",
		"zh-TW": "溫度 %v °C 達到上限 %v °C", "ko-KR": "온도 %v °C가 한계 %v °C에 도달했습니다", "ja-JP": "温度 %v °C が上限 %v °C に達しました"},
	"alarm_desc_string_loss": {
		"en-US": "%v of %v strings producing", "zh-CN": "%v/%v 路组串在发电", "zh-TW": "%v/%v 路組串在發電",
		"ko-KR": "스트링 %v/%v개만 발전 중", "ja-JP": "%v/%v ストリングのみ発電中"},
	"alarm_desc_low_output": {
		"en-US": "Output %v kW, expected %v kW at %v W/m²", "zh-CN": "输出 %v kW，预期 %v kW（辐照度 %v W/m²）",
		"zh-TW": "輸出 %v kW，預期 %v kW（輻照度 %v W/m²）", "ko-KR": "출력 %v kW, 예상 %v kW (일사량 %v W/m²)",
		"ja-JP": "出力 %v kW、期待値 %v kW（日射強度 %v W/m²）"},
	"alarm_desc_grid_over_voltage": {
		"en-US": "Grid over-voltage: %v V (nominal %v V)", "zh-CN": "电网过压：%v V（额定 %v V）", "zh-TW": "電網過壓：%v V（額定 %v V）",
		"ko-KR": "계통 과전압: %v V (정격 %v V)", "ja-JP": "系統過電圧: %v V（定格 %v V）"},
	"alarm_desc_grid_under_voltage": {
		"en-US": "Grid under-voltage: %v V (nominal %v V)", "zh-CN": "电网欠压：%v V（额定 %v V）", "zh-TW": "電網欠壓：%v V（額定 %v V）",
		"ko-KR": "계통 저전압: %v V (정격 %v V)", "ja-JP": "系統不足電圧: %v V（定格 %v V）"},
	"alarm_desc_grid_over_frequency": {
		"en-US": "Grid over-frequency: %v Hz (nominal %v Hz)", "zh-CN": "电网过频：%v Hz（额定 %v Hz）", "zh-TW": "電網過頻：%v Hz（額定 %v Hz）",
		"ko-KR": "계통 과주파수: %v Hz (정격 %v Hz)", "ja-JP": "系統周波数上昇: %v Hz（定格 %v Hz）"},
	"alarm_desc_grid_under_frequency": {
		"en-US": "Grid under-frequency: %v Hz (nominal %v Hz)", "zh-CN": "电网欠频：%v Hz（额定 %v Hz）", "zh-TW": "電網欠頻：%v Hz（額定 %v Hz）",
		"ko-KR": "계통 저주파수: %v Hz (정격 %v Hz)", "ja-JP": "系統周波数低下: %v Hz（定格 %v Hz）"},
	"alarm_desc_grid_fault": {
		"en-US": "The device reports a grid fault and has disconnected", "zh-CN": "设备报告电网故障并已脱网",
		"zh-TW": "設備回報電網故障並已解聯", "ko-KR": "장치가 계통 고장을 보고하고 분리되었습니다", "ja-JP": "機器が系統異常を報告し解列しました"},
	"alarm_deal_remote_reset": {
		"en-US": "Remote reset", "zh-CN": "远程复位", "zh-TW": "遠端復位", "ko-KR": "원격 리셋", "ja-JP": "遠隔リセット"},
	"alarm_deal_onsite_repair": {
		"en-US": "On-site repair", "zh-CN": "现场维修", "zh-TW": "現場維修", "ko-KR": "현장 수리", "ja-JP": "現地修理"},
	"alarm_deal_replaced": {
		"en-US": "Part replaced", "zh-CN": "更换部件", "zh-TW": "更換零件", "ko-KR": "부품 교체", "ja-JP": "部品交換"},
	"alarm_deal_false_alarm": {
		"en-US": "False alarm", "zh-CN": "误报", "zh-TW": "誤報", "ko-KR": "오경보", "ja-JP": "誤報"},
	"alarm_deal_other": {
		"en-US": "Other", "zh-CN": "其他", "zh-TW": "其他", "ko-KR": "기타", "ja-JP": "その他"},
	"alarm_type_1": {
		"en-US": "Device alarm", "zh-CN": "设备告警", "zh-TW": "設備告警", "ko-KR": "장치 경보", "ja-JP": "機器アラーム"},
	"alarm_type_2": {
		"en-US": "Data alarm", "zh-CN": "数据告警", "zh-TW": "資料告警", "ko-KR": "데이터 경보", "ja-JP": "データアラーム"},
	"alarm_level_0": {
		"en-US": "Signal change", "zh-CN": "变位", "zh-TW": "變位", "ko-KR": "신호 변경", "ja-JP": "信号変化"},
	"alarm_level_1": {
		"en-US": "Alarm", "zh-CN": "告警", "zh-TW": "告警", "ko-KR": "경보", "ja-JP": "警報"},
	"alarm_level_2": {
		"en-US": "Fault", "zh-CN": "故障", "zh-TW": "故障", "ko-KR": "고장", "ja-JP": "故障"},
	"alarm_status_1": {
		"en-US": "Occurring", "zh-CN": "发生中", "zh-TW": "發生中", "ko-KR": "발생 중", "ja-JP": "発生中"},
	"alarm_status_2": {
		"en-US": "Recovered", "zh-CN": "已恢复", "zh-TW": "已恢復", "ko-KR": "복구됨", "ja-JP": "復旧済み"},
	"alarm_deal_status_0": {
		"en-US": "Unprocessed", "zh-CN": "未处理", "zh-TW": "未處理", "ko-KR": "미처리", "ja-JP": "未処理"},
	"alarm_deal_status_1": {
		"en-US": "Processed", "zh-CN": "已处理", "zh-TW": "已處理", "ko-KR": "처리됨", "ja-JP": "処理済み"},
	"alarm_csv_id":          {"en-US": "ID", "zh-CN": "编号", "zh-TW": "編號", "ko-KR": "번호", "ja-JP": "番号"},
	"alarm_csv_station":     {"en-US": "Station", "zh-CN": "电站", "zh-TW": "電站", "ko-KR": "발전소", "ja-JP": "発電所"},
	"alarm_csv_device":      {"en-US": "Device", "zh-CN": "设备", "zh-TW": "設備", "ko-KR": "장치", "ja-JP": "機器"},
	"alarm_csv_sn":          {"en-US": "Serial number", "zh-CN": "序列号", "zh-TW": "序號", "ko-KR": "일련번호", "ja-JP": "シリアル番号"},
	"alarm_csv_device_type": {"en-US": "Device type", "zh-CN": "设备类型", "zh-TW": "設備類型", "ko-KR": "장치 유형", "ja-JP": "機器種別"},
	"alarm_csv_rule":        {"en-US": "Alarm", "zh-CN": "告警名称", "zh-TW": "告警名稱", "ko-KR": "경보명", "ja-JP": "アラーム名"},
	"alarm_csv_type":        {"en-US": "Alarm type", "zh-CN": "告警类型", "zh-TW": "告警類型", "ko-KR": "경보 유형", "ja-JP": "アラーム種別"},
	"alarm_csv_level":       {"en-US": "Level", "zh-CN": "级别", "zh-TW": "級別", "ko-KR": "등급", "ja-JP": "レベル"},
	"alarm_csv_status":      {"en-US": "Alarm status", "zh-CN": "告警状态", "zh-TW": "告警狀態", "ko-KR": "경보 상태", "ja-JP": "アラーム状態"},
	"alarm_csv_deal_status": {"en-US": "Deal status", "zh-CN": "处理状态", "zh-TW": "處理狀態", "ko-KR": "처리 상태", "ja-JP": "処理状態"},
	"alarm_csv_description": {"en-US": "Description", "zh-CN": "描述", "zh-TW": "描述", "ko-KR": "설명", "ja-JP": "説明"},
	"alarm_csv_occurred":    {"en-US": "Occurred", "zh-CN": "发生时间", "zh-TW": "發生時間", "ko-KR": "발생 시간", "ja-JP": "発生時刻"},
	"alarm_csv_start":       {"en-US": "Start time", "zh-CN": "开始时间", "zh-TW": "開始時間", "ko-KR": "시작 시간", "ja-JP": "開始時刻"},
	"alarm_csv_last":        {"en-US": "Last alarm time", "zh-CN": "最后告警时间", "zh-TW": "最後告警時間", "ko-KR": "마지막 경보 시간", "ja-JP": "最終アラーム時刻"},
	"alarm_csv_recovery":    {"en-US": "Recovery time", "zh-CN": "恢复时间", "zh-TW": "恢復時間", "ko-KR": "복구 시간", "ja-JP": "復旧時刻"},
	"alarm_csv_reason":      {"en-US": "Reason", "zh-CN": "原因", "zh-TW": "原因", "ko-KR": "원인", "ja-JP": "原因"},
	"alarm_csv_deal_method": {"en-US": "Deal method", "zh-CN": "处理方式", "zh-TW": "處理方式", "ko-KR": "처리 방법", "ja-JP": "処理方法"},
	"alarm_csv_deal_by":     {"en-US": "Dealt by", "zh-CN": "处理人", "zh-TW": "處理人", "ko-KR": "처리자", "ja-JP": "処理者"},
	"alarm_csv_deal_time":   {"en-US": "Deal time", "zh-CN": "处理时间", "zh-TW": "處理時間", "ko-KR": "처리 시간", "ja-JP": "処理時刻"},
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
