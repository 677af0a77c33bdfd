package ingest

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
	"github.com/helio-energy/helio/internal/telemetry"
)

// startMapConsumer starts a consumer with mapping on the real broker, under a mapping
// root of its own (so that tests running side by side do not see each other's topics).
func startMapConsumer(t *testing.T, db *store.DB) (*Mapping, string) {
	t.Helper()
	clientID, root := uniq("helio-test-map-"), uniq("helio-test-map-")
	t.Cleanup(func() { forgetSession(clientID) })
	mp := NewMapping(db)
	m, err := StartMQTT(telemetry.NewWriter(db, telemetry.Options{}), MQTTOptions{URL: brokerURL(), ClientID: clientID,
		TopicPrefix: uniq("helio-test-") + "/v1", MapPrefix: root, Mapping: mp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	select {
	case <-m.Ready():
	case <-time.After(20 * time.Second):
		t.Fatal("not subscribed")
	}
	return mp, root
}

func latest(t *testing.T, db *store.DB, id int64) telemetry.Sample {
	t.Helper()
	got, err := telemetry.LatestIn(context.Background(), db, []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	return got[id]
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func applyPreset(t *testing.T, db *store.DB, org int64, key string) {
	t.Helper()
	p, ok := findPreset(key)
	if !ok {
		t.Fatal(key)
	}
	if _, err := AddRules(context.Background(), db, org, p.rulesAt(p.Root), true); err != nil {
		t.Fatal(err)
	}
}

// waitArrived waits until a topic is listed with a reason.
func waitArrived(t *testing.T, mp *Mapping, org int64, topic, reason string) ArrivedTopic {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, a := range mp.Arrived.List(org) {
			if a.Topic == topic && a.Reason == reason {
				return a
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s not listed as %s: %+v", topic, reason, mp.Arrived.List(org))
	return ArrivedTopic{}
}

// Each preset, fed payloads of the shape its project documents, gives one sample per
// device and cycle with the fields scaled; a cycle without the counter carries it.
func TestMQTTMappedPresets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("M"))
		now := time.Now().UnixMilli()
		var st int64
		if err := db.QueryRow(context.Background(), "SELECT station_id FROM devices WHERE id = ?", f.inv1).Scan(&st); err != nil {
			t.Fatal(err)
		}
		dev := func(sn, typ string) int64 {
			return insert(t, db, `INSERT INTO devices (org_id, station_id, name, sn, type, rated_power_kw, collector_sn, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, 10, '', ?, ?)`, f.org, st, sn, sn, typ, now, now)
		}
		portal := uniq("c0619ab")
		tasSN := uniq("TAS-")
		tas := dev(tasSN, "meter")
		charger := dev(portal+"-solarcharger-0", "inverter")
		battery := dev(portal+"-battery-512", "battery")
		for _, k := range []string{"opendtu", "ahoydtu", "tasmota", "victron"} {
			applyPreset(t, db, f.org, k)
		}
		mp, root := startMapConsumer(t, db)
		pub := publisher(t)
		at := func(topic string) string { return fmt.Sprintf("%s/%d/%s", root, f.org, topic) }

		// OpenDTU: one plain number per topic (docs/MQTT_Topics.md), two cycles; the
		// second publishes only the power
		for topic, v := range map[string]string{"0/power": "850.5", "0/yieldtotal": "1234.567", "0/yieldday": "2100",
			"0/voltage": "230.1", "0/frequency": "50.01", "0/temperature": "35.2", "1/voltage": "31.2", "1/current": "6.80",
			"status/producing": "1", "name": "HM-800"} {
			publish(t, pub, at("solar/"+f.inv1SN+"/"+topic), v)
		}
		waitStored(t, db, 1, f.inv1, 0, always)
		s := latest(t, db, f.inv1)
		if !near(s.PowerKW, 0.8505) || s.EnergyKWh != 1234.567 || s.ACVoltageV != 230.1 || s.FrequencyHz != 50.01 ||
			s.TempC != 35.2 || s.DCVoltageV != 31.2 || s.DCCurrentA != 6.8 || s.Status != 1 {
			t.Fatalf("OpenDTU sample %+v", s)
		}
		publish(t, pub, at("solar/"+f.inv1SN+"/0/power"), "900")
		waitStored(t, db, 2, f.inv1, 0, always)
		if s := latest(t, db, f.inv1); !near(s.PowerKW, 0.9) || s.EnergyKWh != 1234.567 {
			t.Fatalf("second cycle %+v: the counter must be carried", s)
		}
		waitArrived(t, mp, f.org, "solar/"+f.inv1SN+"/name", "no_rule")

		// AhoyDTU: ch0 is the AC side, ch1 the first input
		for topic, v := range map[string]string{"ch0/P_AC": "412", "ch0/YieldTotal": "88.25", "ch0/U_AC": "229.5",
			"ch0/F_AC": "49.98", "ch0/Temp": "28.1", "ch1/U_DC": "33.4", "ch1/I_DC": "6.2"} {
			publish(t, pub, at("inverter/"+f.inv2SN+"/"+topic), v)
		}
		waitStored(t, db, 1, f.inv2, 0, always)
		if s := latest(t, db, f.inv2); !near(s.PowerKW, 0.412) || s.EnergyKWh != 88.25 || s.ACVoltageV != 229.5 ||
			s.FrequencyHz != 49.98 || s.TempC != 28.1 || s.DCVoltageV != 33.4 || s.DCCurrentA != 6.2 {
			t.Fatalf("AhoyDTU sample %+v", s)
		}

		// Tasmota: tele/<topic>/SENSOR with the ENERGY object
		publish(t, pub, at("tele/"+tasSN+"/SENSOR"), `{"Time":"2024-06-01T12:00:00","ENERGY":{"TotalStartTime":"2024-01-01T00:00:00",`+
			`"Total":321.5,"Yesterday":1.2,"Today":0.8,"Period":3,"Power":450,"ApparentPower":460,"ReactivePower":50,"Factor":0.98,"Voltage":229,"Current":1.96}}`)
		publish(t, pub, at("tele/"+tasSN+"/STATE"), `{"Time":"2024-06-01T12:00:00","Uptime":"0T01:00:00","POWER":"ON"}`)
		waitStored(t, db, 1, tas, 0, always)
		if s := latest(t, db, tas); !near(s.PowerKW, 0.45) || s.EnergyKWh != 321.5 || s.ACVoltageV != 229 {
			t.Fatalf("Tasmota sample %+v", s)
		}
		waitArrived(t, mp, f.org, "tele/"+tasSN+"/STATE", "no_rule")

		// Victron Venus OS: N/<portal>/<service>/<instance>/<path>, payload {"value": x}
		for topic, v := range map[string]string{"solarcharger/0/Yield/Power": "1520", "solarcharger/0/Yield/User": "4521.3",
			"solarcharger/0/Pv/V": "98.4", "battery/512/Soc": "76.5", "battery/512/Dc/0/Power": "-1200",
			"battery/512/Dc/0/Voltage": "52.8", "battery/512/Dc/0/Current": "-22.7", "battery/512/Dc/0/Temperature": "24",
			"battery/512/History/DischargedEnergy": "812.4", "battery/512/History/ChargedEnergy": "901.1",
			"system/0/Serial": `"` + portal + `"`} {
			publish(t, pub, at("N/"+portal+"/"+topic), `{"value": `+v+`}`)
		}
		waitStored(t, db, 1, charger, 0, always)
		waitStored(t, db, 1, battery, 0, always)
		if s := latest(t, db, charger); !near(s.PowerKW, 1.52) || s.EnergyKWh != 4521.3 || s.DCVoltageV != 98.4 {
			t.Fatalf("Victron charger %+v", s)
		}
		// Victron counts a battery discharging as negative power; Helio as positive
		if s := latest(t, db, battery); s.SOC != 76.5 || !near(s.PowerKW, 1.2) || s.DCVoltageV != 52.8 || s.DCCurrentA != 22.7 ||
			s.TempC != 24 || s.EnergyKWh != 812.4 || s.Energy2KWh != 901.1 {
			t.Fatalf("Victron battery %+v", s)
		}
		waitArrived(t, mp, f.org, "N/"+portal+"/system/0/Serial", "no_rule")
	})
}

// Messages that give no sample are counted and listed, never dropped silently; another
// organisation's root never reaches this organisation's devices; a consumer started
// afresh takes a device's counter from its latest stored sample.
func TestMQTTMappedUnstoredAndOrganisations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("U"))
		applyPreset(t, db, f.org, "opendtu")
		applyPreset(t, db, f.otherOrg, "opendtu")
		mp, root := startMapConsumer(t, db)
		pub := publisher(t)
		at := func(org int64, topic string) string { return fmt.Sprintf("%s/%d/%s", root, org, topic) }

		noRule := mqttMapped.Value("no_rule")
		unknown := mqttMapped.Value("unknown_device")
		publish(t, pub, at(f.org, "solar/dtu/ip"), "192.168.1.20")
		publish(t, pub, at(f.org, "solar/NO-SUCH-INV/0/power"), "100")
		// the other organisation names our inverter: it is not its device
		publish(t, pub, at(f.otherOrg, "solar/"+f.inv1SN+"/0/power"), "100")
		publish(t, pub, at(f.otherOrg, "something/else"), "x")
		a := waitArrived(t, mp, f.org, "solar/dtu/ip", "no_rule")
		if a.Count != 1 || a.Payload != "192.168.1.20" {
			t.Fatalf("listed %+v", a)
		}
		if a := waitArrived(t, mp, f.org, "solar/NO-SUCH-INV/0/power", "unknown_device"); a.Device != "NO-SUCH-INV" {
			t.Fatalf("listed %+v", a)
		}
		waitArrived(t, mp, f.otherOrg, "solar/"+f.inv1SN+"/0/power", "unknown_device")
		waitArrived(t, mp, f.otherOrg, "something/else", "no_rule")
		for _, x := range mp.Arrived.List(f.org) {
			if x.Topic == "something/else" {
				t.Fatal("another organisation's topic listed under ours")
			}
		}
		if mqttMapped.Value("no_rule")-noRule < 2 || mqttMapped.Value("unknown_device")-unknown < 2 {
			t.Fatal("not counted")
		}
		time.Sleep(mergeWindow + 300*time.Millisecond)
		if n := stored(t, db, f.inv1, 0, always); n != 0 {
			t.Fatalf("%d samples stored for our inverter from another organisation's root", n)
		}

		// a counter stored before a restart is carried by the next consumer's first round
		publish(t, pub, at(f.org, "solar/"+f.inv1SN+"/0/power"), "500")
		publish(t, pub, at(f.org, "solar/"+f.inv1SN+"/0/yieldtotal"), "77.5")
		waitStored(t, db, 1, f.inv1, 0, always)
		mp2, root2 := startMapConsumer(t, db)
		_ = mp2
		publish(t, pub, fmt.Sprintf("%s/%d/solar/%s/0/power", root2, f.org, f.inv1SN), "600")
		waitStored(t, db, 2, f.inv1, 0, always)
		if s := latest(t, db, f.inv1); !near(s.PowerKW, 0.6) || s.EnergyKWh != 77.5 {
			t.Fatalf("after a restart %+v: the counter must come from the stored sample", s)
		}
	})
}

// A retained message, sent again by the broker on subscription, writes no sample of its
// own: its value stands in for a field the next round lacks.
func TestMQTTMappedRetained(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("R"))
		applyPreset(t, db, f.org, "opendtu")
		pub := publisher(t)
		root := uniq("helio-test-map-")
		topic := fmt.Sprintf("%s/%d/solar/%s/0/yieldtotal", root, f.org, f.inv1SN)
		if tok := pub.Publish(topic, 1, true, "55.5"); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		t.Cleanup(func() { pub.Publish(topic, 1, true, "").WaitTimeout(5 * time.Second) })
		mp := NewMapping(db)
		clientID := uniq("helio-test-map-")
		t.Cleanup(func() { forgetSession(clientID) })
		m, err := StartMQTT(telemetry.NewWriter(db, telemetry.Options{}), MQTTOptions{URL: brokerURL(), ClientID: clientID,
			TopicPrefix: uniq("helio-test-") + "/v1", MapPrefix: root, Mapping: mp})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Stop)
		<-m.Ready()
		retained := mqttMapped.Value("retained")
		deadline := time.Now().Add(10 * time.Second)
		for mqttMapped.Value("retained") == retained && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(mergeWindow + 300*time.Millisecond)
		if n := stored(t, db, f.inv1, 0, always); n != 0 {
			t.Fatalf("%d samples from a retained message alone", n)
		}
		publish(t, pub, fmt.Sprintf("%s/%d/solar/%s/0/power", root, f.org, f.inv1SN), "300")
		waitStored(t, db, 1, f.inv1, 0, always)
		if s := latest(t, db, f.inv1); !near(s.PowerKW, 0.3) || s.EnergyKWh != 55.5 {
			t.Fatalf("%+v: want the power with the retained counter", s)
		}
	})
}

// A merged sample the write path refuses (here watts taken as kilowatts: 850 kW on a
// 50 kW inverter) is listed with the write path's reason, not lost from sight.
func TestMQTTMappedRejectedListed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFleet(t, db, uniq("W"))
		bad := MapRule{Name: "watts as kW", Topic: "wrong/{serial}/power", Device: "{serial}", Fields: []FieldMap{{Field: "powerKw", Scale: 1}}}
		if _, err := AddRules(context.Background(), db, f.org, []MapRule{bad}, false); err != nil {
			t.Fatal(err)
		}
		mp, root := startMapConsumer(t, db)
		pub := publisher(t)
		publish(t, pub, fmt.Sprintf("%s/%d/wrong/%s/power", root, f.org, f.inv1SN), "850")
		a := waitArrived(t, mp, f.org, "wrong/"+f.inv1SN+"/power", "rejected")
		if a.Detail != telemetry.ReasonPower || a.Device != f.inv1SN || a.Payload != "850" {
			t.Fatalf("listed %+v", a)
		}
		if n := stored(t, db, f.inv1, 0, always); n != 0 {
			t.Fatalf("%d samples stored", n)
		}
	})
}
