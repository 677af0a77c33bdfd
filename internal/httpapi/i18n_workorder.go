package httpapi

// Messages of the work-order calls: refusals, export headers and values, and the
// message-centre texts.
func init() {
	for k, v := range workOrderMessages {
		messages[k] = v
	}
}

var workOrderMessages = map[string]map[string]string{
	"wo_title_chars":         m5("The title may not contain < or >", "标题不能包含 < 或 >", "標題不能包含 < 或 >", "제목에 < 또는 >를 쓸 수 없습니다", "件名に < や > は使えません"),
	"wo_unknown_action":      m5("Unknown action", "未知操作", "未知操作", "알 수 없는 작업입니다", "不明な操作です"),
	"wo_not_from_status":     m5("The work order's status does not allow this", "工单当前状态不允许此操作", "工單目前狀態不允許此操作", "작업 지시의 현재 상태에서는 할 수 없습니다", "作業指示の現在の状態では実行できません"),
	"wo_not_yours":           m5("Only the processor, the submitter or an administrator may do this", "只有处理人、提交人或管理员可以执行此操作", "只有處理人、提交人或管理員可以執行此操作", "처리자, 제출자 또는 관리자만 할 수 있습니다", "処理者、提出者または管理者のみ実行できます"),
	"wo_comment_required":    m5("Say why (a comment is required)", "请填写说明（必填）", "請填寫說明（必填）", "사유를 입력하세요(필수)", "理由を入力してください（必須）"),
	"wo_alarm_not_recovered": m5("The alarm has not recovered yet", "告警尚未恢复", "告警尚未恢復", "경보가 아직 복구되지 않았습니다", "アラームはまだ復旧していません"),
	"wo_user_or_dept":        m5("Assign a user or a department, not both", "请指派给用户或部门，不能同时指派", "請指派給使用者或部門，不能同時指派", "사용자 또는 부서 중 하나에만 배정하세요", "ユーザーか部署のどちらか一方に割り当ててください"),
	"wo_assignee_no_station": m5("This user cannot see the station", "该用户无权查看此电站", "該使用者無權查看此電站", "이 사용자는 해당 발전소를 볼 수 없습니다", "このユーザーはこの発電所を閲覧できません"),
	"wo_alarm_station":       m5("The alarm belongs to another station", "告警属于其他电站", "告警屬於其他電站", "경보가 다른 발전소에 속합니다", "アラームは別の発電所のものです"),
	"wo_alarm_has_order":     m5("This alarm already has an open work order %v", "该告警已有未完成的工单 %v", "該告警已有未完成的工單 %v", "이 경보에는 이미 진행 중인 작업 지시 %v가 있습니다", "このアラームには未完了の作業指示 %v があります"),
	"wo_file_too_large":      m5("The file is larger than 5 MB", "文件超过 5 MB", "檔案超過 5 MB", "파일이 5MB를 초과합니다", "ファイルが 5 MB を超えています"),
	"wo_file_type":           m5("Attach a JPEG, PNG or WebP photo or a PDF", "请上传 JPEG、PNG、WebP 图片或 PDF", "請上傳 JPEG、PNG、WebP 圖片或 PDF", "JPEG, PNG, WebP 사진 또는 PDF를 첨부하세요", "JPEG、PNG、WebP の写真または PDF を添付してください"),
	"wo_too_many_files":      m5("At most %v attachments per work order", "每个工单最多 %v 个附件", "每個工單最多 %v 個附件", "작업 지시당 첨부 파일은 최대 %v개입니다", "作業指示あたりの添付は %v 件までです"),

	"wo_col_number":        m5("Number", "工单编号", "工單編號", "번호", "番号"),
	"wo_col_title":         m5("Title", "标题", "標題", "제목", "件名"),
	"wo_col_station":       m5("Station", "电站", "電站", "발전소", "発電所"),
	"wo_col_submit_time":   m5("Submitted", "提交时间", "提交時間", "제출 시간", "提出日時"),
	"wo_col_status":        m5("Status", "状态", "狀態", "상태", "ステータス"),
	"wo_col_timeout":       m5("Timeout", "超时状态", "逾時狀態", "시간 초과", "期限超過"),
	"wo_col_priority":      m5("Priority", "优先级", "優先級", "우선순위", "優先度"),
	"wo_col_overtime":      m5("Overtime (h)", "超时时长 (h)", "逾時時長 (h)", "초과 시간 (h)", "超過時間 (h)"),
	"wo_col_submitter":     m5("Submitter", "提交人", "提交人", "제출자", "提出者"),
	"wo_col_processor":     m5("Processor", "处理人", "處理人", "처리자", "処理者"),
	"wo_col_planned_start": m5("Planned start", "计划开始", "計畫開始", "계획 시작", "計画開始"),
	"wo_col_planned_end":   m5("Planned end", "计划完成", "計畫完成", "계획 종료", "計画終了"),
	"wo_col_planned_hours": m5("Planned hours", "计划工时 (h)", "計畫工時 (h)", "계획 시간 (h)", "計画工数 (h)"),
	"wo_col_actual_start":  m5("Actual start", "实际开始", "實際開始", "실제 시작", "実績開始"),
	"wo_col_actual_end":    m5("Actual end", "实际完成", "實際完成", "실제 종료", "実績終了"),
	"wo_col_actual_hours":  m5("Actual hours", "实际工时 (h)", "實際工時 (h)", "실제 시간 (h)", "実績工数 (h)"),
	"wo_col_deviation":     m5("Deviation (%)", "偏差 (%)", "偏差 (%)", "편차 (%)", "偏差 (%)"),

	"wo_status_1":   m5("Pending acceptance", "待接单", "待接單", "접수 대기", "受付待ち"),
	"wo_status_2":   m5("Pending processing", "待处理", "待處理", "처리 대기", "処理待ち"),
	"wo_status_3":   m5("Executing", "执行中", "執行中", "진행 중", "実行中"),
	"wo_status_4":   m5("Finished", "已完成", "已完成", "완료", "完了"),
	"wo_status_5":   m5("Rejected", "已驳回", "已駁回", "반려됨", "却下"),
	"wo_timeout_0":  m5("On time", "未超时", "未逾時", "정상", "期限内"),
	"wo_timeout_1":  m5("Timed out", "已超时", "已逾時", "시간 초과", "期限超過"),
	"wo_priority_1": m5("Low", "低", "低", "낮음", "低"),
	"wo_priority_2": m5("Normal", "普通", "普通", "보통", "普通"),
	"wo_priority_3": m5("Urgent", "紧急", "緊急", "긴급", "緊急"),
	"wo_priority_4": m5("Very urgent", "非常紧急", "非常緊急", "매우 긴급", "至急"),

	"wo_msg_create":    m5("New work order %v for you", "新工单 %v 待您接单", "新工單 %v 待您接單", "새 작업 지시 %v가 배정되었습니다", "新しい作業指示 %v が届きました"),
	"wo_msg_assign":    m5("Work order %v was assigned to you", "工单 %v 已指派给您", "工單 %v 已指派給您", "작업 지시 %v가 배정되었습니다", "作業指示 %v が割り当てられました"),
	"wo_msg_accept":    m5("Work order %v was accepted", "工单 %v 已接单", "工單 %v 已接單", "작업 지시 %v가 접수되었습니다", "作業指示 %v が受け付けられました"),
	"wo_msg_reject":    m5("Work order %v was rejected", "工单 %v 已被驳回", "工單 %v 已被駁回", "작업 지시 %v가 반려되었습니다", "作業指示 %v が却下されました"),
	"wo_msg_start":     m5("Work on order %v has begun", "工单 %v 已开始执行", "工單 %v 已開始執行", "작업 지시 %v 작업이 시작되었습니다", "作業指示 %v の作業が始まりました"),
	"wo_msg_finish":    m5("Work order %v is finished", "工单 %v 已完成", "工單 %v 已完成", "작업 지시 %v가 완료되었습니다", "作業指示 %v が完了しました"),
	"wo_msg_recovered": m5("The alarm of work order %v recovered: it can be closed", "工单 %v 的告警已恢复，可关闭工单", "工單 %v 的告警已恢復，可關閉工單", "작업 지시 %v의 경보가 복구되어 종료할 수 있습니다", "作業指示 %v のアラームが復旧しました（終了できます）"),
	"wo_msg_close":     m5("Work order %v was closed: its alarm recovered", "工单 %v 已关闭：告警已恢复", "工單 %v 已關閉：告警已恢復", "작업 지시 %v 종료: 경보가 복구되었습니다", "作業指示 %v を終了しました（アラーム復旧）"),

	"plan_twelve_months":   m5("Give twelve months, January first", "请填写 12 个月（从一月开始）", "請填寫 12 個月（從一月開始）", "1월부터 12개월을 입력하세요", "1 月から 12 か月分を入力してください"),
	"plan_in_approval":     m5("The plan is in approval and cannot change now", "计划审批中，暂不能修改", "計畫審批中，暫不能修改", "계획이 승인 중이라 지금은 바꿀 수 없습니다", "計画は承認中のため変更できません"),
	"plan_approver":        m5("Choose an administrator other than yourself", "请选择除您以外的管理员", "請選擇除您以外的管理員", "본인이 아닌 관리자를 선택하세요", "自分以外の管理者を選んでください"),
	"plan_not_draft":       m5("Only a draft or refused plan can be submitted", "只有草稿或被驳回的计划可以提交", "只有草稿或被駁回的計畫可以提交", "초안이나 반려된 계획만 제출할 수 있습니다", "下書きか却下された計画のみ提出できます"),
	"plan_not_approver":    m5("Only the chosen approver may decide", "只有指定的审批人可以审批", "只有指定的審批人可以審批", "지정된 승인자만 결정할 수 있습니다", "指定された承認者のみ判断できます"),
	"plan_not_in_approval": m5("The plan is not in approval", "该计划不在审批中", "該計畫不在審批中", "계획이 승인 중이 아닙니다", "計画は承認中ではありません"),
	"plan_msg_submitted":   m5("Plan of %v for %v awaits your approval", "%v 的 %v 年计划待您审批", "%v 的 %v 年計畫待您審批", "%v의 %v년 계획이 승인을 기다립니다", "%v の %v 年計画が承認待ちです"),
	"plan_msg_approved":    m5("Plan of %v for %v was approved", "%v 的 %v 年计划已批准", "%v 的 %v 年計畫已核准", "%v의 %v년 계획이 승인되었습니다", "%v の %v 年計画が承認されました"),
	"plan_msg_refused":     m5("Plan of %v for %v was refused", "%v 的 %v 年计划被驳回", "%v 的 %v 年計畫被駁回", "%v의 %v년 계획이 반려되었습니다", "%v の %v 年計画が却下されました"),
	"plan_msg_content":     m5("%v kWh planned for the year", "全年计划 %v kWh", "全年計畫 %v kWh", "연간 계획 %v kWh", "年間計画 %v kWh"),
}
