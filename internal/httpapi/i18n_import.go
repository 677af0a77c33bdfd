package httpapi

// Messages of the history import (internal/importer).
func init() {
	for k, v := range importMessages {
		messages[k] = v
	}
}

var importMessages = map[string]map[string]string{
	"import_not_in_file": m5("The file has no column of this name",
		"文件中没有此名称的列", "檔案中沒有此名稱的欄位", "파일에 이 이름의 열이 없습니다", "ファイルにこの名前の列がありません"),
	"import_unknown_device": m5("No device of the organisation has this serial number or name",
		"本组织没有此序列号或名称的设备", "本組織沒有此序號或名稱的裝置", "조직에 이 일련번호나 이름의 장치가 없습니다", "組織にこのシリアル番号または名前の機器はありません"),
	"import_missing_device": m5("Name a device column, a device for the file, or a device for the column",
		"请指定设备列、文件对应的设备或列对应的设备", "請指定裝置欄位、檔案對應的裝置或欄位對應的裝置", "장치 열, 파일의 장치 또는 열의 장치를 지정하세요", "機器の列、ファイルの機器、または列の機器を指定してください"),
	"import_unknown": m5("Not one of the accepted values",
		"不是可接受的取值", "不是可接受的值", "허용되는 값이 아닙니다", "使用できる値ではありません"),
	"import_not_energy": m5("Only energy columns are a counter or per-interval energy",
		"只有电量列可设为累计值或区间电量", "只有電量欄位可設為累計值或區間電量", "에너지 열만 누적값 또는 구간 에너지가 될 수 있습니다", "カウンタまたは区間エネルギーを指定できるのはエネルギー列だけです"),
	"import_beyond_file": m5("The file has fewer rows than this",
		"文件的行数少于此值", "檔案的列數少於此值", "파일의 행 수가 이보다 적습니다", "ファイルの行数がこれより少ないです"),
	"import_file_type": m5("Upload a CSV (.csv, .txt) or Excel (.xlsx) file",
		"请上传 CSV（.csv、.txt）或 Excel（.xlsx）文件", "請上傳 CSV（.csv、.txt）或 Excel（.xlsx）檔案", "CSV(.csv, .txt) 또는 Excel(.xlsx) 파일을 올리세요", "CSV（.csv、.txt）または Excel（.xlsx）ファイルをアップロードしてください"),
	"import_unreadable": m5("The file cannot be read as CSV or XLSX",
		"无法以 CSV 或 XLSX 读取该文件", "無法以 CSV 或 XLSX 讀取該檔案", "파일을 CSV 또는 XLSX로 읽을 수 없습니다", "ファイルを CSV または XLSX として読み取れません"),
	"import_job_state": m5("The import is %s: this is not possible now",
		"导入任务处于%s状态，现在无法执行此操作", "匯入工作處於%s狀態，現在無法執行此操作", "가져오기 작업이 %s 상태라 지금은 할 수 없습니다", "インポートは %s の状態のため、今は実行できません"),
	"import_file_in_use": m5("An import that has not ended reads this file: cancel it first",
		"有未结束的导入任务正在读取此文件，请先取消该任务", "有未結束的匯入工作正在讀取此檔案，請先取消該工作", "끝나지 않은 가져오기 작업이 이 파일을 읽고 있습니다. 먼저 취소하세요", "終了していないインポートがこのファイルを読んでいます。先に取り消してください"),
	"import_quota": m5("The organisation's import files would exceed %d bytes: delete files no longer needed",
		"本组织的导入文件将超过 %d 字节，请删除不再需要的文件", "本組織的匯入檔案將超過 %d 位元組，請刪除不再需要的檔案", "조직의 가져오기 파일이 %d바이트를 넘게 됩니다. 필요 없는 파일을 지우세요", "組織のインポートファイルが %d バイトを超えます。不要なファイルを削除してください"),
}
