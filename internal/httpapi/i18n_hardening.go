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
	"image_too_many_pixels": m5("The image is %v×%v pixels; at most %v megapixels", "图片为 %v×%v 像素，最多 %v 百万像素", "圖片為 %v×%v 像素，最多 %v 百萬像素",
		"이미지가 %v×%v 픽셀입니다. 최대 %v메가픽셀까지 가능합니다", "画像は %v×%v ピクセルです。最大 %v メガピクセルまでです"),
	"parent_cycle": m5("This device is above the chosen parent; a device cannot sit below itself", "该设备是所选上级设备的上级，设备不能位于自身之下",
		"該設備是所選上層設備的上層，設備不能位於自身之下", "이 장치는 선택한 상위 장치보다 위에 있습니다. 장치는 자기 자신 아래에 둘 수 없습니다",
		"このデバイスは選んだ親デバイスの上位にあります。デバイスを自分自身の下に置くことはできません"),
}
