-- Station roll-ups are read by station, resolution and time for every kind at once (fleet
-- totals, period series). The primary key puts the kind before the resolution, and a day
-- row carries kilobytes of packed hours and slots, so such a read walked every row of the
-- station and its overflow pages: a longer history meant a slower dashboard. This index
-- holds the figures themselves, so those reads never touch the wide rows.
CREATE INDEX telemetry_station_rollups_figures ON telemetry_station_rollups (station_id, res, bucket, kind, bucket_end,
    energy_kwh, energy2_kwh, power_kwh, max_power_kw, min_power_kw, samples, irradiance_sum, irradiation_kwh_m2,
    ref_energy_kwh, fault_min, online_min, dc_voltage_sum, dc_current_sum, ac_voltage_sum, frequency_sum, temp_sum, soc_sum);
