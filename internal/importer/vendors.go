package importer

// Vendors are the templates shipped for vendor portals' exports whose layout is documented
// publicly (vendors_test.go reads a sample of each). The fuller template comes first: a
// file both fit is proposed the fuller one.
var Vendors = []Template{
	{
		Name: "SMA Sunny Explorer, energy and power (CSV)", Vendor: "SMA", BuiltIn: true, Key: "sunnyExplorerPower",
		Source: "Sunny Explorer's CSV export (" + SunnyExplorerSignature + "): read as one row per inverter and time",
		Mapping: Mapping{TimeColumn: SunnyTime, TimeFormat: sunnyLayout, DeviceColumn: SunnySerial, Match: MatchSerial,
			Columns: []Column{
				{Name: "Counter kWh", Field: FieldEnergy, Unit: "kWh", Energy: EnergyCounter},
				{Name: "Analog kW", Field: FieldPower, Unit: "kW"},
			}},
	},
	{
		Name: "SMA Sunny Explorer, total yield (CSV)", Vendor: "SMA", BuiltIn: true, Key: "sunnyExplorerYield",
		Source: "Sunny Explorer's CSV export (" + SunnyExplorerSignature + "), daily or any other: its lifetime counter",
		Mapping: Mapping{TimeColumn: SunnyTime, TimeFormat: sunnyLayout, DeviceColumn: SunnySerial, Match: MatchSerial,
			Columns: []Column{
				{Name: "Counter kWh", Field: FieldEnergy, Unit: "kWh", Energy: EnergyCounter},
			}},
	},
}
