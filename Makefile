# petkit: `make serve` and `make test` are the whole set-up on a fresh Debian machine with Swift.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
STUBS ?= Stubs
# Libraries the package links (Package.swift declares them as apt providers too).
BUILD_PACKAGES := libcurl4-openssl-dev zlib1g-dev libsqlite3-dev pkg-config
# Tools the tests use: docker-compose validates docker-compose.yml, python3 runs helper scripts.
TEST_PACKAGES := docker-compose python3 python3-venv curl
# Tools the benchmarks use.
BENCH_PACKAGES := wrk nginx-light hyperfine procps python3 python3-venv
SWIFT_FLAGS ?=

.PHONY: deps test-deps bench-deps build release serve test bench bench-server bench-petmock bench-client bench-contract lint format clean

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

serve: deps
	$(SWIFT) build -c release --product petmock $(SWIFT_FLAGS)
	.build/release/petmock serve --stubs $(STUBS) --host $(HOST) --port $(PORT)

test: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	@for script in Tests/e2e/*.sh; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		bash "$$script" || exit 1; \
	done

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

bench-client: bench-deps
	bash Benchmarks/bench-client.sh

bench-contract: bench-deps
	bash Benchmarks/bench-contract.sh

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
