package sim

import "github.com/helio-energy/helio/internal/pvmodel"

// DemoFleet returns the demo fleet. It is deterministic: every call returns the same
// fleet, with the same keys and serial numbers.
func DemoFleet() Fleet {
	var f Fleet
	b := &builder{}

	// 1. China, Qinghai: utility ground plant on the high desert.
	b.begin(0, stationInfo{
		key: "cn-golmud", name: "Golmud Desert PV Plant", location: "Golmud, Haixi, Qinghai",
		address: "Dongchuan Industrial Park, Golmud, Qinghai 816000", region: "Qinghai", country: "CN",
		lat: 36.42, lng: 94.95, alt: 2810, tz: "Asia/Shanghai", stype: StationGround, sys: SystemPV,
		azimuth: 180, tilt: 33, build: "2019-09-20", grid: "2019-12-28", line: "35 kV Dongchuan line 2",
		currency: "CNY", price: 0.2277, subsidy: 0.05, costPerKWp: 3200,
		owner: "Li Wei", ownerPhone: "+86 971 555 0137", company: "Haixi Sunlight New Energy Co., Ltd.",
		manager: "Zhang Qiang", managerPhone: "+86 979 555 0142", tags: []string{"utility", "desert", "high-altitude"},
		voltage: 400, freq: 50,
		climate: pvmodel.Climate{AnnualMeanC: 5.5, SeasonalAmpC: 13, DailyRangeC: 14,
			Cloudiness:     [12]float64{0.11, 0.12, 0.15, 0.18, 0.22, 0.27, 0.3, 0.27, 0.21, 0.12, 0.09, 0.09},
			LinkeTurbidity: 2.4, Albedo: 0.28, DustDays: 0.12, SpecificYieldKWhKWp: 2020},
	})
	for n, name := range []string{"Array A", "Array B", "Array C"} {
		s := b.sub(n+1, name, "", LoadProfile{LoadAuxiliary, 12}, 0)
		c1 := b.collector(s, name+" logger 1", loggerMain)
		c2 := b.collector(s, name+" logger 2", loggerMain)
		enabled := 12
		if n == 2 {
			enabled = 11
		}
		b.inverters(s, 1, 5, invSF110, moduleSpec{545, 22}, enabled, c1, 180, 33)
		b.inverters(s, 6, 5, invSF110, moduleSpec{545, 22}, enabled, c2, 180, 33)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c1)
	}
	b.finish(&f)

	// 2. United States, California: utility plant with battery containers.
	b.begin(1, stationInfo{
		key: "us-kern", name: "Kern Valley Solar + Storage", location: "Rosamond, Kern County, California",
		address: "4100 W Rosamond Blvd, Rosamond, CA 93560", region: "California", country: "US",
		lat: 34.87, lng: -118.21, alt: 710, tz: "America/Los_Angeles", stype: StationGround, sys: SystemPVStorage,
		azimuth: 180, tilt: 25, build: "2021-03-15", grid: "2021-06-30", line: "SCE Antelope 66 kV",
		currency: "USD", price: 0.045, subsidy: 0.008, costPerKWp: 1100, costPerKWh: 350,
		owner: "Maria Gonzalez", ownerPhone: "+1 661 555 0118", company: "Antelope Valley Solar Holdings LLC",
		manager: "David Chen", managerPhone: "+1 661 555 0164", tags: []string{"utility", "storage", "caiso"},
		voltage: 480, freq: 60,
		climate: pvmodel.Climate{AnnualMeanC: 17, SeasonalAmpC: 10, DailyRangeC: 15,
			Cloudiness:     [12]float64{0.14, 0.13, 0.11, 0.08, 0.05, 0.02, 0.02, 0.02, 0.03, 0.06, 0.1, 0.13},
			LinkeTurbidity: 2.5, Albedo: 0.25, DustDays: 0.04, SpecificYieldKWhKWp: 1910},
	})
	for n, name := range []string{"Block North", "Block Central", "Block South"} {
		s := b.sub(n+1, name, "", LoadProfile{LoadAuxiliary, 15}, 0)
		s.Dispatch = DispatchTimeShift
		c1 := b.collector(s, name+" logger 1", loggerMain)
		c2 := b.collector(s, name+" logger 2", loggerMain)
		b.inverters(s, 1, 4, invSF125, moduleSpec{540, 28}, 10, c1, 180, 25)
		b.inverters(s, 5, 4, invSF125, moduleSpec{540, 28}, 10, c2, 180, 25)
		b.battery(s, "bess", "BESS-01", "Voltara VC-1000", 1000, 250, c1)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c1)
	}
	b.finish(&f)

	// 3. Spain, Extremadura: utility plant; the third block runs inverters that report
	// daily counters.
	b.begin(2, stationInfo{
		key: "es-merida", name: "Mérida Solar Farm", location: "Mérida, Badajoz, Extremadura",
		address: "Carretera N-630 km 620, 06800 Mérida, Badajoz", region: "Extremadura", country: "ES",
		lat: 38.92, lng: -6.34, alt: 220, tz: "Europe/Madrid", stype: StationGround, sys: SystemPV,
		azimuth: 180, tilt: 30, build: "2020-05-10", grid: "2020-07-22", line: "REE Mérida 45 kV",
		currency: "EUR", price: 0.052, costPerKWp: 620,
		owner: "Javier Morales", ownerPhone: "+34 924 555 017", company: "Energía Solar Extremeña S.L.",
		manager: "Lucía Fernández", managerPhone: "+34 924 555 093", tags: []string{"utility", "merchant"},
		voltage: 400, freq: 50,
		climate: pvmodel.Climate{AnnualMeanC: 17, SeasonalAmpC: 9, DailyRangeC: 14,
			Cloudiness:     [12]float64{0.23, 0.21, 0.19, 0.18, 0.14, 0.06, 0.03, 0.03, 0.1, 0.17, 0.21, 0.23},
			LinkeTurbidity: 3, Albedo: 0.22, FogDays: 0.1, SpecificYieldKWhKWp: 1610},
	})
	for n, name := range []string{"Field 1", "Field 2", "Field 3"} {
		s := b.sub(n+1, name, "", LoadProfile{LoadAuxiliary, 10}, 0)
		c := b.collector(s, name+" logger", loggerMain)
		m := invSF100
		if n == 2 {
			m = invNW100
		}
		b.inverters(s, 1, 8, m, moduleSpec{550, 26}, 9, c, 180, 30)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c)
	}
	b.finish(&f)

	// 4. Australia, Western Australia: three homes with all-in-one storage, arrays
	// facing north.
	b.begin(3, stationInfo{
		key: "au-perth", name: "Perth Hills Home Storage", location: "Kalamunda, Perth, Western Australia",
		address: "Kalamunda WA 6076", region: "Western Australia", country: "AU",
		lat: -31.97, lng: 116.06, alt: 280, tz: "Australia/Perth", stype: StationResidential, sys: SystemPVStorage,
		azimuth: 0, tilt: 20, build: "2022-02-14", grid: "2022-02-25", line: "Western Power LV",
		currency: "AUD", price: 0.31, subsidy: 0.07, costPerKWp: 1100, costPerKWh: 900,
		owner: "Sarah Mitchell", ownerPhone: "+61 8 5550 1203", company: "Perth Hills Energy Co-op",
		manager: "Tom Nguyen", managerPhone: "+61 8 5550 1288", tags: []string{"residential", "storage", "vpp"},
		voltage: 230, freq: 50,
		climate: pvmodel.Climate{AnnualMeanC: 18.5, SeasonalAmpC: 6, DailyRangeC: 12,
			Cloudiness:     [12]float64{0.06, 0.06, 0.09, 0.17, 0.25, 0.31, 0.31, 0.29, 0.23, 0.17, 0.11, 0.07},
			LinkeTurbidity: 2.6, Albedo: 0.2, SpecificYieldKWhKWp: 1720},
	})
	for n, home := range []struct {
		name, addr string
		peak       float64
		az         float64
	}{
		{"Mitchell home", "12 Heath Rd, Kalamunda WA 6076", 3.6, 0},
		{"Okafor home", "7 Lesmurdie Rd, Lesmurdie WA 6076", 4.2, 350},
		{"Rossi home", "31 Canning Rd, Kalamunda WA 6076", 3.0, 15},
	} {
		s := b.sub(n+1, home.name, home.addr, LoadProfile{LoadResidential, home.peak}, n*9)
		s.AzimuthDeg = home.az
		c := b.collector(s, home.name+" dongle", dongle)
		b.inverters(s, 1, 1, invSF5, moduleSpec{440, 8}, 2, c, home.az, 20)
		b.storage(s, "Voltara Home 13.5", 13.5, 5, c)
		b.meter(s, MeterGrid, "Meterix DDSU-1P", c)
	}
	b.finish(&f)

	// 5. South Africa, Western Cape: winery rooftops with batteries (self-consumption
	// and backup), arrays facing north.
	b.begin(4, stationInfo{
		key: "za-stellenbosch", name: "Stellenbosch Winery Rooftop", location: "Stellenbosch, Western Cape",
		address: "R44 Helshoogte Rd, Stellenbosch 7600", region: "Western Cape", country: "ZA",
		lat: -33.93, lng: 18.86, alt: 140, tz: "Africa/Johannesburg", stype: StationRooftop, sys: SystemPVStorage,
		azimuth: 0, tilt: 15, build: "2021-09-01", grid: "2021-10-15", line: "Eskom Stellenbosch 11 kV",
		currency: "ZAR", price: 2.45, costPerKWp: 14000, costPerKWh: 5500,
		owner: "Pieter van der Merwe", ownerPhone: "+27 21 555 0147", company: "Vinecrest Estate (Pty) Ltd",
		manager: "Thandi Mokoena", managerPhone: "+27 21 555 0199", tags: []string{"commercial", "storage", "backup"},
		voltage: 400, freq: 50,
		climate: pvmodel.Climate{AnnualMeanC: 17, SeasonalAmpC: 5, DailyRangeC: 11,
			Cloudiness:     [12]float64{0.07, 0.07, 0.1, 0.17, 0.24, 0.28, 0.28, 0.25, 0.2, 0.15, 0.1, 0.07},
			LinkeTurbidity: 2.7, Albedo: 0.18, FogDays: 0.08, SpecificYieldKWhKWp: 1680},
	})
	for n, bld := range []struct {
		name  string
		peak  float64
		batKW float64
	}{{"Cellar roof", 140, 100}, {"Bottling hall", 110, 100}, {"Barrel warehouse", 60, 50}} {
		s := b.sub(n+1, bld.name, "", LoadProfile{LoadCommercial, bld.peak}, 0)
		c := b.collector(s, bld.name+" logger", loggerMain)
		b.inverters(s, 1, 4, invSF50, moduleSpec{450, 18}, 8, c, 0, 15)
		b.battery(s, "bess", "BESS-01", "Voltara VC-200", 2*bld.batKW, bld.batKW, c)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c)
		b.meter(s, MeterLoad, "Meterix DTSD-3P", c)
	}
	b.finish(&f)

	// 6. Germany, Bavaria: logistics-centre rooftops.
	b.begin(5, stationInfo{
		key: "de-munich", name: "Munich Logistics Centre Rooftop", location: "Garching bei München, Bavaria",
		address: "Daimlerstraße 14, 85748 Garching bei München", region: "Bavaria", country: "DE",
		lat: 48.25, lng: 11.65, alt: 480, tz: "Europe/Berlin", stype: StationRooftop, sys: SystemPV,
		azimuth: 185, tilt: 12, build: "2018-04-10", grid: "2018-06-01", line: "Bayernwerk 20 kV Garching",
		currency: "EUR", price: 0.0877, costPerKWp: 900,
		owner: "Katrin Bauer", ownerPhone: "+49 89 5550 1730", company: "Isar Logistik GmbH",
		manager: "Markus Weber", managerPhone: "+49 89 5550 1766", tags: []string{"commercial", "rooftop", "eeg"},
		voltage: 400, freq: 50,
		climate: pvmodel.Climate{AnnualMeanC: 9, SeasonalAmpC: 9.5, DailyRangeC: 9,
			Cloudiness:     [12]float64{0.5, 0.46, 0.42, 0.39, 0.39, 0.35, 0.32, 0.32, 0.35, 0.42, 0.5, 0.53},
			LinkeTurbidity: 3.2, Albedo: 0.2, FogDays: 0.18, SpecificYieldKWhKWp: 1080},
	})
	for n, hall := range []struct {
		name string
		peak float64
	}{{"Hall 1", 220}, {"Hall 2", 180}, {"Hall 3", 150}} {
		s := b.sub(n+1, hall.name, "", LoadProfile{LoadIndustrial, hall.peak}, 0)
		c := b.collector(s, hall.name+" logger", loggerMain)
		b.inverters(s, 1, 5, invSF50, moduleSpec{400, 20}, 8, c, 185, 12)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c)
		b.meter(s, MeterLoad, "Meterix DTSD-3P", c)
	}
	b.finish(&f)

	// 7. Japan, Osaka: factory rooftops; plant 2 runs inverters with daily counters,
	// plant 3 has an east–west array.
	b.begin(6, stationInfo{
		key: "jp-osaka", name: "Osaka Bay Factory Rooftop", location: "Suminoe-ku, Osaka",
		address: "1-2-3 Nanko-kita, Suminoe-ku, Osaka 559-0034", region: "Osaka", country: "JP",
		lat: 34.63, lng: 135.43, alt: 5, tz: "Asia/Tokyo", stype: StationRooftop, sys: SystemPV,
		azimuth: 180, tilt: 10, build: "2017-10-02", grid: "2017-12-20", line: "Kansai 6.6 kV Nanko",
		currency: "JPY", price: 21, costPerKWp: 200000,
		owner: "Tanaka Hiroshi", ownerPhone: "+81 6 5550 1212", company: "Naniwa Precision Works Co., Ltd.",
		manager: "Suzuki Aiko", managerPhone: "+81 6 5550 1287", tags: []string{"commercial", "rooftop", "fit"},
		voltage: 202, freq: 60,
		climate: pvmodel.Climate{AnnualMeanC: 17, SeasonalAmpC: 11, DailyRangeC: 7,
			Cloudiness:     [12]float64{0.32, 0.35, 0.35, 0.35, 0.35, 0.46, 0.39, 0.32, 0.39, 0.32, 0.32, 0.29},
			LinkeTurbidity: 3.6, Albedo: 0.18, HazeDays: 0.1, DustDays: 0.06, TyphoonDays: 0.06,
			SpecificYieldKWhKWp: 1260},
	})
	for n, plant := range []struct {
		name string
		peak float64
		m    inverterModel
	}{{"Plant 1", 260, invKP495}, {"Plant 2", 200, invKP495D}, {"Plant 3", 180, invKP495}} {
		s := b.sub(n+1, plant.name, "", LoadProfile{LoadIndustrial, plant.peak}, n*30)
		c := b.collector(s, plant.name+" logger", loggerMain)
		if n == 2 {
			s.AzimuthDeg = 90
			b.inverters(s, 1, 2, plant.m, moduleSpec{460, 20}, 6, c, 90, 10)
			b.inverters(s, 3, 2, plant.m, moduleSpec{460, 20}, 6, c, 270, 10)
		} else {
			b.inverters(s, 1, 4, plant.m, moduleSpec{460, 20}, 6, c, 180, 10)
		}
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c)
		b.meter(s, MeterLoad, "Meterix DTSD-3P", c)
	}
	b.finish(&f)

	// 8. South Korea, Jeju: three homes with all-in-one storage; their inverters report
	// daily counters.
	b.begin(7, stationInfo{
		key: "kr-jeju", name: "Jeju Seaside Homes", location: "Aewol-eup, Jeju-si, Jeju",
		address: "Aewol-eup, Jeju-si, Jeju-do 63042", region: "Jeju", country: "KR",
		lat: 33.46, lng: 126.33, alt: 40, tz: "Asia/Seoul", stype: StationResidential, sys: SystemPVStorage,
		azimuth: 180, tilt: 25, build: "2023-03-08", grid: "2023-03-20", line: "KEPCO LV Aewol",
		currency: "KRW", price: 180, subsidy: 40, costPerKWp: 1500000, costPerKWh: 600000,
		owner: "Kim Min-jun", ownerPhone: "+82 64 555 0121", company: "Jeju Green Homes",
		manager: "Park Ji-woo", managerPhone: "+82 64 555 0178", tags: []string{"residential", "storage", "island"},
		voltage: 220, freq: 60,
		climate: pvmodel.Climate{AnnualMeanC: 16, SeasonalAmpC: 10, DailyRangeC: 6,
			Cloudiness:     [12]float64{0.52, 0.48, 0.41, 0.38, 0.38, 0.45, 0.45, 0.38, 0.38, 0.34, 0.41, 0.51},
			LinkeTurbidity: 3.3, Albedo: 0.18, HazeDays: 0.08, DustDays: 0.08, TyphoonDays: 0.05,
			SpecificYieldKWhKWp: 1240},
	})
	for n, home := range []struct {
		name string
		peak float64
	}{{"Kim home", 2.6}, {"Lee home", 3.1}, {"Choi home", 2.2}} {
		s := b.sub(n+1, home.name, "", LoadProfile{LoadResidential, home.peak}, n*5)
		c := b.collector(s, home.name+" dongle", dongle)
		b.inverters(s, 1, 1, invKP3, moduleSpec{400, 5}, 2, c, 180, 25)
		b.storage(s, "Voltara Home 10", 10, 5, c)
		b.meter(s, MeterGrid, "Meterix DDSU-1P", c)
	}
	b.finish(&f)

	// 9. Taiwan, Tainan: aquavoltaic plant over fish ponds (aerators are the load);
	// its inverters report daily counters.
	b.begin(8, stationInfo{
		key: "tw-tainan", name: "Tainan Aquavoltaic Farm", location: "Qigu District, Tainan",
		address: "Qigu District, Tainan City 724", region: "Tainan", country: "TW",
		lat: 23.14, lng: 120.08, alt: 3, tz: "Asia/Taipei", stype: StationGround, sys: SystemPV,
		azimuth: 180, tilt: 10, build: "2022-08-01", grid: "2022-11-30", line: "Taipower 11.4 kV Qigu",
		currency: "TWD", price: 4.1, costPerKWp: 45000,
		owner: "Chen Yi-ting", ownerPhone: "+886 6 555 0131", company: "Anping Aqua-Solar Co., Ltd.",
		manager: "Lin Chih-hao", managerPhone: "+886 6 555 0190", tags: []string{"utility", "aquavoltaic", "fit"},
		voltage: 380, freq: 60,
		climate: pvmodel.Climate{AnnualMeanC: 24.5, SeasonalAmpC: 5, DailyRangeC: 7,
			Cloudiness:     [12]float64{0.24, 0.25, 0.25, 0.28, 0.35, 0.42, 0.39, 0.39, 0.32, 0.21, 0.21, 0.23},
			LinkeTurbidity: 4, Albedo: 0.1, HazeDays: 0.15, TyphoonDays: 0.08, SpecificYieldKWhKWp: 1410},
	})
	for n, name := range []string{"Pond A", "Pond B", "Pond C"} {
		s := b.sub(n+1, name, "", LoadProfile{LoadAuxiliary, 20}, 0)
		c := b.collector(s, name+" logger", loggerMain)
		b.inverters(s, 1, 6, invHT60, moduleSpec{460, 20}, 8, c, 180, 10)
		b.meter(s, MeterGrid, "Meterix DTSD-3P", c)
	}
	b.finish(&f)

	return f
}
