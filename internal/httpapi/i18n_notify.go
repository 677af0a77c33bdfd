package httpapi

// Messages of alarm notifications: the notice of a reached daily limit.
func init() {
	for k, v := range notifyMessages {
		messages[k] = v
	}
}

var notifyMessages = map[string]map[string]string{
	"notify_limit_title": m5("Daily notification limit of %v reached",
		"已达到每日 %v 条的通知上限", "已達到每日 %v 則的通知上限", "일일 알림 한도 %v건에 도달했습니다", "1 日の通知上限 %v 件に達しました"),
	"notify_limit_content": m5("You have been notified of %v alarms today (time zone %v). Further alarms today are recorded but not notified; the alarm list shows them all, and Notification settings shows how many were held back. Raise the daily limit there to receive more.",
		"今天（时区 %[2]v）已向您通知 %[1]v 条告警。今天之后的告警会被记录但不再通知；告警列表会显示全部告警，通知设置中可查看未通知的数量。如需接收更多，请在通知设置中提高每日上限。",
		"今天（時區 %[2]v）已向您通知 %[1]v 則告警。今天之後的告警會被記錄但不再通知；告警列表會顯示全部告警，通知設定中可查看未通知的數量。如需接收更多，請在通知設定中提高每日上限。",
		"오늘(시간대 %[2]v) %[1]v건의 경보를 알려 드렸습니다. 오늘 이후의 경보는 기록되지만 알리지 않습니다. 경보 목록에서 모든 경보를 볼 수 있고, 알림 설정에서 알리지 않은 건수를 확인할 수 있습니다. 더 받으려면 알림 설정에서 일일 한도를 높이세요.",
		"本日（タイムゾーン %[2]v）は %[1]v 件のアラームを通知しました。本日これ以降のアラームは記録されますが通知されません。アラーム一覧ですべて確認でき、通知設定で通知されなかった件数を確認できます。さらに受け取るには通知設定で 1 日の上限を上げてください。"),
	// webhooks (internal/notify): titles and facts of a delivery
	"webhook_alarm_raised":           m5("Alarm raised: %v at %v", "告警产生：%[2]v 的%[1]v", "告警產生：%[2]v 的%[1]v", "경보 발생: %[2]v의 %[1]v", "アラーム発生: %[2]v の%[1]v"),
	"webhook_alarm_recovered":        m5("Alarm recovered: %v at %v", "告警恢复：%[2]v 的%[1]v", "告警恢復：%[2]v 的%[1]v", "경보 복구: %[2]v의 %[1]v", "アラーム復旧: %[2]v の%[1]v"),
	"webhook_alarm_dealt":            m5("Alarm dealt with: %v at %v", "告警已处理：%[2]v 的%[1]v", "告警已處理：%[2]v 的%[1]v", "경보 처리됨: %[2]v의 %[1]v", "アラーム対応済み: %[2]v の%[1]v"),
	"webhook_workorder_created":      m5("Work order %v created: %v", "工单 %v 已创建：%v", "工單 %v 已建立：%v", "작업 지시 %v 생성: %v", "作業指示 %v 作成: %v"),
	"webhook_workorder_transitioned": m5("Work order %v updated: %v", "工单 %v 已更新：%v", "工單 %v 已更新：%v", "작업 지시 %v 변경: %v", "作業指示 %v 更新: %v"),
	"webhook_report_ready":           m5("Report ready: %v", "报表已生成：%v", "報表已產生：%v", "보고서 준비됨: %v", "レポート作成完了: %v"),
	"webhook_test_title":             m5("Test delivery from Helio", "来自 Helio 的测试推送", "來自 Helio 的測試推送", "Helio의 테스트 전송", "Helio からのテスト送信"),
	"webhook_open":                   m5("Open in Helio", "在 Helio 中打开", "在 Helio 中開啟", "Helio에서 열기", "Helio で開く"),
	"webhook_fact_level":             m5("Level", "级别", "級別", "등급", "レベル"),
	"webhook_fact_station":           m5("Station", "电站", "電站", "발전소", "発電所"),
	"webhook_fact_device":            m5("Device", "设备", "設備", "장치", "機器"),
	"webhook_fact_started":           m5("Started", "开始时间", "開始時間", "시작", "開始"),
	"webhook_fact_recovered":         m5("Recovered", "恢复时间", "恢復時間", "복구", "復旧"),
	"webhook_fact_description":       m5("Description", "描述", "描述", "설명", "説明"),
	"webhook_fact_dealt_by":          m5("Dealt with by", "处理人", "處理人", "처리자", "対応者"),
	"webhook_fact_reason":            m5("Reason", "处理说明", "處理說明", "처리 내용", "対応内容"),
	"webhook_fact_status":            m5("Status", "状态", "狀態", "상태", "状態"),
	"webhook_fact_by":                m5("By", "操作人", "操作人", "작업자", "操作者"),
	"webhook_fact_at":                m5("Time", "时间", "時間", "시간", "時刻"),
	"webhook_fact_format":            m5("Format", "格式", "格式", "형식", "形式"),
	"webhook_name_taken":             m5("A webhook of this name exists", "已有同名 Webhook", "已有同名 Webhook", "같은 이름의 웹훅이 있습니다", "同じ名前の Webhook があります"),
	"webhook_url_invalid":            m5("Enter an http:// or https:// address without a user name", "请输入不含用户名的 http:// 或 https:// 地址", "請輸入不含使用者名稱的 http:// 或 https:// 位址", "사용자 이름 없이 http:// 또는 https:// 주소를 입력하세요", "ユーザー名を含まない http:// または https:// のアドレスを入力してください"),
	"digest_range":                   m5("Choose 0 (each alarm at once) or %v to %v minutes", "请选择 0（每条告警立即发送）或 %v 至 %v 分钟", "請選擇 0（每則告警立即傳送）或 %v 至 %v 分鐘", "0(경보마다 즉시) 또는 %v~%v분을 선택하세요", "0（アラームごとにすぐ）または %v～%v 分を選んでください"),
	"mail_digest_subject":            m5("Helio: %v alarms", "Helio：%v 条告警", "Helio：%v 則告警", "Helio: 경보 %v건", "Helio: アラーム %v 件"),
	"mail_footer": m5("You receive this because e-mail is one of your alarm notification methods in Helio (Alarm › Notification settings).",
		"您收到此邮件，是因为您在 Helio 的告警通知方式中选择了邮件（告警 › 通知设置）。", "您收到此郵件，是因為您在 Helio 的告警通知方式中選擇了郵件（告警 › 通知設定）。",
		"Helio의 경보 알림 방식으로 이메일을 선택했기 때문에 이 메일을 받았습니다(경보 › 알림 설정).", "Helio のアラーム通知方法でメールを選んでいるため、このメールが届いています（アラーム › 通知設定）。"),
	"mail_verify_subject":   m5("Helio: confirm your e-mail address", "Helio：请确认您的邮箱地址", "Helio：請確認您的電子郵件地址", "Helio: 이메일 주소를 확인하세요", "Helio: メールアドレスを確認してください"),
	"mail_verify_body":      m5("Open the link below within 24 hours to receive Helio's alarm e-mails at %v.", "请在 24 小时内打开下面的链接，以便在 %v 接收 Helio 的告警邮件。", "請在 24 小時內開啟下面的連結，以便在 %v 接收 Helio 的告警郵件。", "%v에서 Helio의 경보 메일을 받으려면 24시간 안에 아래 링크를 여세요.", "%v で Helio のアラームメールを受け取るには、24 時間以内に下のリンクを開いてください。"),
	"mail_verify_link":      m5("Confirm the address", "确认邮箱地址", "確認電子郵件地址", "주소 확인", "アドレスを確認"),
	"mail_no_address":       m5("Enter an e-mail address in your profile first", "请先在个人资料中填写邮箱地址", "請先在個人資料中填寫電子郵件地址", "먼저 프로필에 이메일 주소를 입력하세요", "先にプロフィールにメールアドレスを入力してください"),
	"mail_no_relay":         m5("The server has no SMTP relay configured (--smtp-addr): no e-mail can leave it", "服务器未配置 SMTP 中继（--smtp-addr）：无法发送邮件", "伺服器未設定 SMTP 中繼（--smtp-addr）：無法傳送郵件", "서버에 SMTP 릴레이(--smtp-addr)가 설정되지 않아 메일을 보낼 수 없습니다", "サーバーに SMTP リレー（--smtp-addr）が設定されていないため、メールを送れません"),
	"mail_relay_refused":    m5("The SMTP relay refused the e-mail: %v", "SMTP 中继拒绝了邮件：%v", "SMTP 中繼拒絕了郵件：%v", "SMTP 릴레이가 메일을 거부했습니다: %v", "SMTP リレーがメールを拒否しました: %v"),
	"push_endpoint_invalid": m5("A push service's https:// address is needed", "需要推送服务的 https:// 地址", "需要推播服務的 https:// 位址", "푸시 서비스의 https:// 주소가 필요합니다", "プッシュサービスの https:// アドレスが必要です"),
	"mail_digest_more":      m5("… and %v more alarms: the alarm list shows them all.", "……另有 %v 条告警：告警列表中可查看全部。", "……另有 %v 則告警：告警列表中可查看全部。", "… 그 외 경보 %v건: 경보 목록에서 모두 볼 수 있습니다.", "… ほかにアラーム %v 件: アラーム一覧ですべて確認できます。"),
	"mail_held":             m5("Your daily limit held back %v alarms today (time zone %v): the alarm list shows them all.", "今天（时区 %[2]v）每日上限已拦下 %[1]v 条告警：告警列表中可查看全部。", "今天（時區 %[2]v）每日上限已攔下 %[1]v 則告警：告警列表中可查看全部。", "오늘(시간대 %[2]v) 일일 한도로 경보 %[1]v건이 보류되었습니다: 경보 목록에서 모두 볼 수 있습니다.", "本日（タイムゾーン %[2]v）は 1 日の上限により %[1]v 件のアラームが保留されました: アラーム一覧ですべて確認できます。"),
	"webhook_too_many":      m5("An organisation has at most %v webhooks: delete one first", "一个组织最多 %v 个 Webhook：请先删除一个", "一個組織最多 %v 個 Webhook：請先刪除一個", "조직당 웹훅은 최대 %v개입니다: 먼저 하나를 삭제하세요", "1 つの組織の Webhook は最大 %v 件です: 先に 1 件削除してください"),
}
