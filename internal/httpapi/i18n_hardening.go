package httpapi

// Messages of the hardening limits: sign-in capacity, list sizes, images, ingest keys.
func init() {
	for k, v := range hardeningMessages {
		messages[k] = v
	}
}

var hardeningMessages = map[string]map[string]string{
	"sign_in_busy": m5("Too many sign-ins at once; try again in a moment", "同时登录的请求过多，请稍后再试", "同時登入的請求過多，請稍後再試",
		"동시에 로그인하는 요청이 너무 많습니다. 잠시 후 다시 시도하세요", "同時のサインインが多すぎます。しばらくしてから再試行してください"),
}
