package importer

// Vendors are the templates shipped for vendor portals' exports whose layout is documented
// publicly (vendors_test.go reads a sample of each).
var Vendors = []Template{}
