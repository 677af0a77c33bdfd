// Command helio is the Helio console: one binary serving the web app, the API and the
// device ingest. See `helio help`.
package main

import (
	"os"

	_ "time/tzdata" // every station timezone, whatever the host has installed

	"github.com/helio-energy/helio/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
