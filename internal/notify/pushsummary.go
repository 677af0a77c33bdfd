package notify

import (
	"fmt"

	"github.com/helio-energy/helio/internal/httpapi"
)

// A summary push stands for several alarms of one user (a storm, or what came within the
// push gap): "12 new alarms", the newest alarm's title, opening the alarm list.

// summaryTopic is the RFC 8030 Topic of summaries: a push service holding a summary it
// could not hand over yet (the phone is off) replaces it with the next one.
const summaryTopic = "helio-alarm-summary"

// summaryTag is the notification tag of summaries: the browser shows the newest in place of
// the one before.
const summaryTag = "alarm-summary"

// summaryText is a summary's title ("%d": the count) and body ("%s": the newest alarm's
// title) in each console language.
var summaryText = map[string][2]string{
	"en-US": {"%d new alarms", "Newest: %s. The alarm list has them all."},
	"zh-CN": {"%d 条新告警", "最新：%s。告警列表中可查看全部。"},
	"zh-TW": {"%d 則新告警", "最新：%s。告警列表中可查看全部。"},
	"ko-KR": {"새 경보 %d건", "최신: %s. 경보 목록에서 모두 볼 수 있습니다."},
	"ja-JP": {"新しいアラーム %d 件", "最新: %s。すべてアラーム一覧で確認できます。"},
}

// summary is the push of several deliveries in lang: counted, the newest alarm's title, the
// highest level (a fault makes it urgent), the oldest delivery's id (the same on every
// attempt: the oldest stays in the set until it is sent).
func summary(list []pushItem, level int, newest, lang string) PushMessage {
	text, ok := summaryText[lang]
	if !ok {
		text = summaryText[httpapi.Locales[0]]
	}
	oldest := list[0].key()
	for _, it := range list {
		oldest = min(oldest, it.key())
	}
	return PushMessage{Title: fmt.Sprintf(text[0], len(list)), Body: fmt.Sprintf(text[1], newest), URL: "/alarm",
		Tag: summaryTag, Level: level, ID: DeliveryID(oldest), Count: len(list)}
}
