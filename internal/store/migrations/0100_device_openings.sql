-- A device's opening counters: its energy counters (kWh) when its recorded history begins,
-- what it produced (charged, imported, …) before Helio saw it. A station's and a device's
-- lifetime figures are the opening plus the recorded roll-ups (docs/kpi.md). basis says
-- where the figure comes from ("simulator": the demo's solar model since grid connection).
CREATE TABLE device_openings (
    device_id BIGINT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    energy_kwh DOUBLE PRECISION NOT NULL,
    energy2_kwh DOUBLE PRECISION NOT NULL DEFAULT 0,
    as_of BIGINT NOT NULL,
    basis TEXT NOT NULL
);
