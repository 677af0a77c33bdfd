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
}
