# petkit: `make serve` and `make test` are the whole set-up on a fresh Debian machine with Swift.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
STUBS ?= Stubs
# Libraries the package links (Package.swift declares them as apt providers too).
BUILD_PACKAGES := libcurl4-openssl-dev libssl-dev zlib1g-dev libsqlite3-dev libyaml-dev libxml2-dev pkg-config
# Tools the tests use: docker-compose validates docker-compose.yml, python3 runs helper scripts,
# script (bsdutils) gives a tool a pseudo-terminal, chromium and chromium-driver open the HTML
# report, petmock's dashboard and a cross-origin fetch through petmock's CORS headless
# (Tests/e2e/html-report.sh, Tests/e2e/dashboard.sh, Tests/e2e/cors.sh).
TEST_PACKAGES := docker-compose python3 python3-venv curl openssl bsdutils chromium chromium-driver
# Tools the benchmarks use.
BENCH_PACKAGES := wrk nginx-light hyperfine procps python3 python3-venv
SWIFT_FLAGS ?=
# Fuzzing (Fuzz/run.sh): seconds per target for `make fuzz`, and for the short run `make test` ends with.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
# The smoke run is a gate, so it repeats: the same seed draws the same inputs on every machine.
FUZZ_SMOKE_SEED ?= 1
# Soak (Benchmarks/soak.py): how long wrk loads petmock.
SOAK_SECONDS ?= 180

.PHONY: deps test-deps bench-deps build release dist serve test bench bench-server bench-petmock bench-template bench-urlsession-stubs bench-client bench-contract bench-openapi bench-openapi-mock bench-https bench-stateful lint format clean \
	fuzz fuzz-smoke hostile soak sanitize test-portable

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

test-deps: deps
	@scripts/install-deps.sh $(TEST_PACKAGES)

bench-deps: deps
	@scripts/install-deps.sh $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

# petmock's release build (scripts/build-petmock.sh): the Swift runtime and Foundation linked
# statically, relative relocations packed; peak RSS serving Stubs/ about 21 MB (docs/benchmarks.md).
# The release archive of petmock and petcontract for this machine (scripts/release.sh), in dist/.
dist: deps
	SWIFT=$(SWIFT) scripts/release.sh "$$(sed -n 's/^public let petkitVersion = "\(.*\)"$$/\1/p' Sources/HTTPCore/Shared/Version.swift)" dist

serve: deps
	SWIFT=$(SWIFT) scripts/build-petmock.sh $(SWIFT_FLAGS) >/dev/null
	.build/release/petmock serve --stubs $(STUBS) --host $(HOST) --port $(PORT)

test: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	@for script in Tests/e2e/*.sh; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		bash "$$script" || exit 1; \
	done
	$(MAKE) --no-print-directory fuzz-smoke

# The whole suite again over the back ends macOS uses (poll(2) and the polling file watcher),
# as on a system without epoll or inotify.
test-portable: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	PETKIT_POLLER=poll PETKIT_WATCHER=polling $(SWIFT) test --skip-build

# Each fuzz target for FUZZ_SECONDS; figures to Benchmarks/results/fuzz.txt. Fails on any crash.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RESULTS=Benchmarks/results/fuzz.txt SWIFT=$(SWIFT) bash Fuzz/run.sh

# The short run `make test` ends with, so that CI catches a parser regression the seeds reach.
fuzz-smoke: deps
	FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) FUZZ_SEED=$(FUZZ_SMOKE_SEED) SWIFT=$(SWIFT) bash Fuzz/run.sh

# Hostile clients (slowloris, floods past the connection and descriptor limits, smuggling,
# oversized requests, vanishing clients) against petapi and petmock; about a minute.
hostile: test-deps
	SWIFT=$(SWIFT) bash Tests/hostile/run.sh

# petmock --watch under wrk with rotating variants and faults, admin traffic and hot-reload
# edits for SOAK_SECONDS; figures to Benchmarks/results/soak.txt.
soak: bench-deps
	python3 Benchmarks/soak.py --petmock "$$(SWIFT=$(SWIFT) scripts/build-petmock.sh)" --stubs Stubs \
		--seconds $(SOAK_SECONDS) --results Benchmarks/results/soak.txt

# The whole test suite under ThreadSanitizer, then AddressSanitizer (own build folders, each
# built once; swift test only). Suppressions, each with its reason: Tests/sanitizers/ and
# docs/hardening.md. .ci/run runs it after `make test` (about 5 minutes from a fresh clone).
sanitize: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan $(SWIFT_FLAGS)
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/sanitizers/tsan.supp halt_on_error=0" \
		$(SWIFT) test --skip-build --sanitize=thread --build-path .build-tsan
	$(SWIFT) build --build-tests --sanitize=address --build-path .build-asan $(SWIFT_FLAGS)
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/sanitizers/lsan.supp" \
		$(SWIFT) test --skip-build --sanitize=address --build-path .build-asan

bench: bench-deps
	@for script in Benchmarks/*.sh; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		bash "$$script" || exit 1; \
	done

bench-server: bench-deps
	bash Benchmarks/bench-server.sh

bench-petmock: bench-deps
	bash Benchmarks/bench-petmock.sh

bench-template:
	bash Benchmarks/bench-template.sh

bench-urlsession-stubs:
	bash Benchmarks/bench-urlsession-stubs.sh

bench-client: bench-deps
	bash Benchmarks/bench-client.sh

bench-contract: bench-deps
	bash Benchmarks/bench-contract.sh

bench-openapi: bench-deps
	bash Benchmarks/bench-openapi.sh

bench-openapi-mock: bench-deps
	bash Benchmarks/bench-openapi-mock.sh

bench-stateful: bench-deps
	bash Benchmarks/bench-stateful.sh

bench-https: bench-deps
	bash Benchmarks/bench-https.sh

# Every Swift file we own, the same list for both (the packages' .build folders are left out).
FORMAT_PATHS := Sources Tests Package.swift Fuzz/Sources Benchmarks/ServerBench \
	Benchmarks/BenchSupport Benchmarks/ClientBench Benchmarks/ContractBench Benchmarks/OpenAPIBench Benchmarks/TemplateBench \
	Benchmarks/URLSessionStubBench \
	Examples/RepoBrowser/Sources Examples/RepoBrowser/Tests \
	Examples/RepoBrowser/Package.swift

# swift-format, then no Linux-only call outside a guard (scripts/check-portability.sh).
lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
	scripts/check-portability.sh Sources
	scripts/check-link-closure.sh

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

clean:
	rm -rf .build
