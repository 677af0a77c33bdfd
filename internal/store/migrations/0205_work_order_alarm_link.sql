-- A work order opened from an alarm keeps the alarm's device (id, name and serial number, as
-- they were when the order was opened) and, when its title is the alarm's description, the
-- description's message key and arguments, so that the title is shown in the reader's
-- language. Orders opened before this step get them from their alarm.
ALTER TABLE work_orders ADD COLUMN device_id BIGINT REFERENCES devices(id) ON DELETE SET NULL;
ALTER TABLE work_orders ADD COLUMN device_name TEXT NOT NULL DEFAULT '';
ALTER TABLE work_orders ADD COLUMN device_sn TEXT NOT NULL DEFAULT '';
-- empty: the title is shown as written
ALTER TABLE work_orders ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
ALTER TABLE work_orders ADD COLUMN title_args TEXT NOT NULL DEFAULT '[]';

UPDATE work_orders SET
    device_id = (SELECT a.device_id FROM alarms a WHERE a.id = work_orders.alarm_id),
    device_name = COALESCE((SELECT a.device_name FROM alarms a WHERE a.id = work_orders.alarm_id), ''),
    device_sn = COALESCE((SELECT a.device_sn FROM alarms a WHERE a.id = work_orders.alarm_id), '')
    WHERE alarm_id IS NOT NULL;
UPDATE work_orders SET
    title_key = (SELECT a.msg_key FROM alarms a WHERE a.id = work_orders.alarm_id),
    title_args = (SELECT a.msg_args FROM alarms a WHERE a.id = work_orders.alarm_id)
    WHERE alarm_id IS NOT NULL
      AND title = (SELECT a.description FROM alarms a WHERE a.id = work_orders.alarm_id);

-- An alarm's orders, newest first (the alarm's detail lists them).
CREATE INDEX work_orders_alarm ON work_orders (alarm_id, created_at);
