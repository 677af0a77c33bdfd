# Helio — one binary: Go back end with the React console embedded.
#   make demo   install, build and start the console with the demo fleet
#   make test   every test: lint, Go (SQLite, PostgreSQL, MQTT), web unit, browser end-to-end
#               (the browser suite beside the rest: scripts/test.sh)
#   make bench  the benchmark suite; writes docs/performance.md
#   make bench-large  10,000 stations on PostgreSQL; its section of docs/performance.md

GO       ?= go
NPM      ?= npm
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X github.com/helio-energy/helio/internal/server.Version=$(VERSION)
DEMO_DATA ?= ./data/demo
# Go packages: ./... would also walk into web/node_modules, where some npm packages ship Go.
GOPKGS   := ./cmd/... ./internal/... ./bench/... ./web
DEMO_ADDR ?= 127.0.0.1:8080
DEMO_MAIL ?= 127.0.0.1:1025
DEMO_MAIL_UI ?= 127.0.0.1:8025
# The binary, the tests, go vet and staticcheck compile each package with the same flags, so a
# package is compiled once for all of them (without it the tests compile the tree again).
export GOFLAGS ?= -trimpath

.PHONY: all demo build web deps chromium fonts influxdb telegraf test test-go test-web test-e2e lint staticcheck bench bench-large soak fuzz clean api

all: build

## Front-end packages, installed from the lock file when it changed.
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	touch $@

deps: web/node_modules/.installed

## Debian's Chromium (and CJK fonts for the zh/ja/ko screenshots) for the browser tests.
chromium:
	@if ! command -v chromium >/dev/null 2>&1 || ! [ -d /usr/share/fonts/opentype/noto ]; then \
	  echo "installing Debian's chromium and fonts-noto-cjk for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; fi

## Fonts embedded in PDF reports (Latin, Hangul, CJK TrueType files) and poppler-utils, whose
## pdftotext the report tests read PDFs back with.
fonts:
	@if ! [ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || ! [ -f /usr/share/fonts/truetype/nanum/NanumGothic.ttf ] || \
	  ! [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || ! command -v pdftotext >/dev/null 2>&1; then \
	  echo "installing Debian's fonts-droid-fallback, fonts-nanum, fonts-dejavu-core and poppler-utils for PDF reports"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-droid-fallback fonts-nanum fonts-dejavu-core poppler-utils >/dev/null; fi

## Debian's InfluxDB 1.x, the peer the benchmarks measure Helio against.
influxdb:
	@if ! command -v influxd >/dev/null 2>&1; then \
	  echo "installing Debian's influxdb for the benchmarks"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq influxdb >/dev/null; fi

## Telegraf, the collector the line-protocol test runs: a custom build with only its Modbus
## input and InfluxDB outputs, from the Go module proxy (about 2 minutes the first time).
TELEGRAF_VERSION ?= v1.37.2
MAILPIT_VERSION ?= v1.33.1
bin/telegraf:
	GOBIN=$(CURDIR)/bin $(GO) install -tags custom,inputs.modbus,outputs.influxdb,outputs.influxdb_v2 \
	  github.com/influxdata/telegraf/cmd/telegraf@$(TELEGRAF_VERSION)

telegraf: bin/telegraf

## Mailpit: a real SMTP server with an API to read what arrived, for the e-mail tests.
bin/mailpit:
	GOBIN=$(CURDIR)/bin $(GO) install github.com/axllent/mailpit@$(MAILPIT_VERSION)

## The console's bundle. Types are checked by make lint (npm run build checks them first).
web: deps
	cd web && $(NPM) run bundle $(if $(VARIANT),-- --mode $(VARIANT))

## bin/helio with the console embedded.
build: web
	$(GO) build -tags embedui -trimpath -ldflags "$(LDFLAGS)" -o bin/helio ./cmd/helio

## The demo runs Mailpit beside it: the e-mails it sends are read at http://$(DEMO_MAIL_UI).
demo: build fonts bin/mailpit
	@mkdir -p $(DEMO_DATA)
	@echo "E-mails the demo sends: http://$(DEMO_MAIL_UI)"
	@./bin/mailpit --quiet --smtp $(DEMO_MAIL) --listen $(DEMO_MAIL_UI) --database $(DEMO_DATA)/mailpit.db --disable-version-check & \
	  trap 'kill $$! 2>/dev/null' EXIT INT TERM; \
	  ./bin/helio serve --demo --data $(DEMO_DATA) --addr $(DEMO_ADDR) --public-url http://$(DEMO_ADDR) \
	    --smtp-addr $(DEMO_MAIL) --smtp-security none --smtp-from helio@demo.helio.example

## VET=0 and STATICCHECK=0 leave go vet and staticcheck out: make test's Go lane runs every
## vet check with the tests (-vet=all), then staticcheck, on the packages and test variants
## the tests compiled; beside the tests they would compile the same ones again at once.
VET ?= 1
STATICCHECK ?= 1
lint: deps
	@out=$$(gofmt -l cmd internal bench web/*.go 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(if $(filter 1,$(VET)),$(GO) vet $(GOPKGS))
	$(if $(filter 1,$(STATICCHECK)),$(GO) tool staticcheck $(GOPKGS))
	cd web && $(NPM) run lint

staticcheck:
	$(GO) tool staticcheck $(GOPKGS)

## web/src/api/openapi.json from the routes, and the console's API types from it.
api: deps
	HELIO_UPDATE_OPENAPI=1 $(GO) test -count=1 ./internal/sys -run TestOpenAPIFileIsFresh
	cd web && $(NPM) run gen:api

## The process tests (abusetest, crashtest, replicatest) run the one bin/helio the browser
## suite runs too, built once (BUILT=1: it is already built). Many packages wait on a server,
## a broker or a clock, so twice as many run at once as there are cores.
GOTEST_P ?= $(shell echo $$(( $$(nproc) * 2 )))
test-go: fonts bin/telegraf bin/mailpit $(if $(BUILT),,build)
	HELIO_TELEGRAF=$(CURDIR)/bin/telegraf HELIO_MAILPIT=$(CURDIR)/bin/mailpit HELIO_BIN=$(CURDIR)/bin/helio $(GO) test -count=1 -vet=all -p $(GOTEST_P) -timeout 20m $(GOPKGS)

test-web: deps chromium
	cd web && $(NPM) run test

test-e2e: build chromium fonts
	cd web && HELIO_BIN=$(CURDIR)/bin/helio $(NPM) run e2e

## Every test: the browser suite (in shards) beside lint, Go and console unit tests.
test:
	MAKE=$(MAKE) ./scripts/test.sh

## The benchmark suite: every figure beside its goal and a floor or peer measured in the
## same run; writes docs/performance.md.
bench: build chromium fonts influxdb bin/mailpit
	$(GO) run ./bench -bin $(CURDIR)/bin/helio -out docs/performance.md
	$(GO) run ./bench/reports -out docs/perf-analysis.md

## The issue's large size, 10,000 stations x 20 devices on PostgreSQL: the dashboard calls,
## two 5-minute MQTT rounds (through a broker of its own with a window of 200) and two
## replicas against one, written as the section "large" at the end of docs/performance.md
## (make bench keeps it). The fleet takes about an hour to build; it is kept in
## BENCH_LARGE_WORK and its database, and reused by the next run.
BENCH_LARGE_WORK ?= /var/tmp/helio-bench-large
bench-large: build
	GO=$(GO) BENCH_LARGE_WORK=$(BENCH_LARGE_WORK) ./scripts/bench-large.sh $(CURDIR)/bin/helio

## The demo fleet at 10x speed under dashboard load; memory, goroutines and open files
## at the start and the end.
SOAK ?= 10m
soak: build
	$(GO) run ./bench/soak -bin $(CURDIR)/bin/helio -duration $(SOAK)

## Each fuzz target for FUZZTIME.
FUZZTIME ?= 30s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

clean:
	rm -rf bin web/dist
