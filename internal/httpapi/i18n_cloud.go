package httpapi

// Messages of vendor-cloud connections.
func init() {
	for k, v := range cloudMessages {
		messages[k] = v
	}
}

var cloudMessages = map[string]map[string]string{
	"cloud_no_secret_key": m5("The server has no secret key (--secret-key, HELIO_SECRET_KEY): credentials cannot be stored",
		"服务器未配置密钥（--secret-key、HELIO_SECRET_KEY），无法保存凭据", "伺服器未設定金鑰（--secret-key、HELIO_SECRET_KEY），無法儲存憑證",
		"서버에 비밀 키(--secret-key, HELIO_SECRET_KEY)가 없어 자격 증명을 저장할 수 없습니다", "サーバーに秘密鍵（--secret-key、HELIO_SECRET_KEY）がないため、認証情報を保存できません"),
	"cloud_name_taken": m5("A connection of this name exists", "已有同名连接", "已有同名連線", "같은 이름의 연결이 있습니다", "同じ名前の接続があります"),
	"cloud_refused": m5("The vendor refused the credentials: give new ones", "厂商拒绝了该凭据，请提供新的凭据", "廠商拒絕了該憑證，請提供新的憑證",
		"공급업체가 자격 증명을 거부했습니다. 새 자격 증명을 입력하세요", "ベンダーが認証情報を拒否しました。新しい認証情報を入力してください"),
	"cloud_quota": m5("Today's calls to the vendor are spent; try again after 00:00 UTC", "今日对厂商的调用次数已用完，请在 UTC 0 点后重试",
		"今日對廠商的呼叫次數已用完，請在 UTC 0 點後重試", "오늘 공급업체 호출 한도를 모두 썼습니다. UTC 00:00 이후 다시 시도하세요",
		"本日のベンダー呼び出し回数を使い切りました。UTC 0 時以降に再試行してください"),
	"cloud_vendor_unavailable": m5("The vendor's cloud did not answer; try again later", "厂商云平台未响应，请稍后重试", "廠商雲端平台未回應，請稍後重試",
		"공급업체 클라우드가 응답하지 않습니다. 나중에 다시 시도하세요", "ベンダーのクラウドが応答しません。後で再試行してください"),
	"cloud_not_offered": m5("Not among the sites and devices the vendor lists", "不在厂商列出的站点和设备中", "不在廠商列出的站點和設備中",
		"공급업체가 나열한 사이트와 장치에 없습니다", "ベンダーが示したサイトと機器にありません"),
	"cloud_vendor_fixed": m5("A connection's vendor cannot change: add a new connection", "连接的厂商不可更改，请新建连接", "連線的廠商不可變更，請新增連線",
		"연결의 공급업체는 바꿀 수 없습니다. 새 연결을 추가하세요", "接続のベンダーは変更できません。新しい接続を追加してください"),
}
