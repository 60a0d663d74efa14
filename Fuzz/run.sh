#!/usr/bin/env bash
# Builds the libFuzzer targets (release, with AddressSanitizer) and runs each for a bounded
# time, starting from its committed seed corpus. Prints executions and crashes per target and
# exits 1 when any target crashed, timed out or ran out of memory.
#
# Usage: Fuzz/run.sh [TARGET...]      (default: every target below)
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_RESULTS  file to write the figures to (default: none; `make fuzz` passes
#                 Benchmarks/results/fuzz.txt)
#   FUZZ_JOBS     parallel libFuzzer workers per target (default 1)
#   FUZZ_SEED     libFuzzer's random seed (default: a new one each run); a fixed seed makes a
#                 run repeat the same inputs, so a failure on one machine replays on another
#   SWIFT         the swift driver (default swift)
#
# New inputs that reach new code go to Fuzz/.work/corpus/<target>/ (not committed; copy the
# interesting ones to Fuzz/Corpus/<target>/). Crash reproducers go to Fuzz/.work/artifacts/;
# replay one with: .build-fuzz/release/<Binary> Fuzz/.work/artifacts/<target>/crash-...
set -euo pipefail
cd "$(dirname "$0")"

SWIFT=${SWIFT:-swift}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
RESULTS=${FUZZ_RESULTS:-}
JOBS=${FUZZ_JOBS:-1}
SEED=${FUZZ_SEED:-}

# target name (corpus folder) : executable
ALL_TARGETS=(
    http-request-parser:FuzzHTTPRequestParser
    tls-handshake:FuzzTLSHandshake
    http-response-reader:FuzzHTTPResponseReader
    json-parser:FuzzJSONParser
    openapi-reader:FuzzOpenAPIReader
    swagger2-converter:FuzzSwagger2Converter
    openapi-generation:FuzzOpenAPIGeneration
    stub-mappings:FuzzStubMappings
    stub-folder:FuzzStubFolder
    postman-reader:FuzzPostmanReader
    yaml-reader:FuzzYAMLReader
    stub-regex:FuzzStubRegex
    xml:FuzzXMLMatcher
    xml-serializer:FuzzXMLSerializer
    template:FuzzTemplate
    multipart:FuzzMultipartParser
    admin-settings:FuzzAdminSettings
    prefer-header:FuzzPreferHeader
    security-credentials:FuzzSecurityCredentials
    openapi-serving:FuzzOpenAPIServing
    webhook-definitions:FuzzWebhookDefinitions
    runtime-expression:FuzzRuntimeExpression
    state-file:FuzzStateFile
    state-extension:FuzzStateExtension
)

selected=()
if [ $# -gt 0 ]; then
    for name in "$@"; do
        found=""
        for entry in "${ALL_TARGETS[@]}"; do
            [ "${entry%%:*}" = "$name" ] && found=$entry
        done
        [ -n "$found" ] || { echo "fuzz: unknown target '$name'" >&2; exit 64; }
        selected+=("$found")
    done
else
    selected=("${ALL_TARGETS[@]}")
fi

echo "== building fuzz targets (release, -sanitize=fuzzer,address)"
# The targets are petkit's own when PETKIT_FUZZ=1 (Package.swift), built in .build-fuzz beside
# the other build folders. The manifest's targets depend on that variable, so its build plan is
# made afresh each time. ld.gold warns about every ASan helper symbol it cannot export; those
# lines are noise.
export PETKIT_FUZZ=1
build=("$SWIFT" build --package-path .. --scratch-path "$PWD/../.build-fuzz" -c release
    -Xswiftc -sanitize=fuzzer,address --disable-build-manifest-caching)
if ! "${build[@]}" >.work.build.log 2>&1; then
    grep -v "Cannot export local symbol" .work.build.log >&2
    rm -f .work.build.log
    exit 2
fi
rm -f .work.build.log
BIN=$("${build[@]}" --show-bin-path)

# The Swift runtime's backtracer would start on a crash and wait for a terminal; libFuzzer and
# ASan print their own report.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:symbolize=1}

summary=()
reproducers=()
failed=0
total_runs=0
for entry in "${selected[@]}"; do
    name=${entry%%:*}
    binary=${entry##*:}
    corpus=.work/corpus/$name
    artifacts=.work/artifacts/$name
    log=.work/logs/$name.log
    mkdir -p "$corpus" "$artifacts" .work/logs
    before=$(find "$artifacts" -type f | wc -l)
    touch "$log.start"
    echo "== $name: ${SECONDS_PER_TARGET}s"
    status=0
    # The work corpus comes first: libFuzzer writes new inputs only to the first folder, so the
    # committed seeds stay as they are.
    parallel=()
    [ "$JOBS" -gt 1 ] && parallel=(-jobs="$JOBS" -workers="$JOBS")
    [ -n "$SEED" ] && parallel+=(-seed="$SEED")
    "$BIN/$binary" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "${parallel[@]}" \
        "$corpus" "Corpus/$name" >"$log" 2>&1 || status=$?
    if [ "$JOBS" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null || true; rm -f fuzz-*.log; fi
    runs=$(grep -h "stat::number_of_executed_units" "$log" | awk '{sum += $2} END {print sum + 0}' || true)
    rate=$(grep -h "stat::average_exec_per_sec" "$log" | awk '{sum += $2} END {print sum + 0}' || true)
    coverage=$(grep -hoE "cov: [0-9]+" "$log" | tail -1 | awk '{print $2}' || true)
    after=$(find "$artifacts" -type f | wc -l)
    crashes=$((after - before))
    if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi
    total_runs=$((total_runs + runs))
    line=$(printf '%-22s %12s executions  %7s exec/s  cov %6s  corpus %5s  crashes %s' \
        "$name" "$runs" "$rate" "${coverage:-?}" "$(find "$corpus" -type f | wc -l)" "$crashes")
    echo "$line"
    summary+=("$line")
    if [ "$crashes" -ne 0 ]; then
        failed=1
        echo "fuzz: $name found a problem (exit $status); log: Fuzz/$log" >&2
        grep -E "ERROR|Fatal error|Precondition failed|SUMMARY|artifact_prefix|Test unit written" "$log" | head -20 >&2
        # The failing inputs go in the summary too, the last lines a CI log keeps: enough to
        # replay the failure from the log alone.
        reason=$(grep -hE "Fatal error|Precondition failed|ERROR: (AddressSanitizer|libFuzzer)" "$log" | head -1 | cut -c1-300 || true)
        reproducers+=("$name (exit $status): ${reason:-no message}")
        while IFS= read -r artifact; do
            reproducers+=("  $(basename "$artifact") base64: $(head -c 4096 "$artifact" | base64 -w0)")
        done < <(find "$artifacts" -type f -newer "$log.start" | head -3)
    fi
done

echo
echo "== fuzz summary (${SECONDS_PER_TARGET}s per target)"
printf '%s\n' "${summary[@]}"
if [ ${#reproducers[@]} -gt 0 ]; then
    echo
    echo "== failing inputs (replay: base64 -d > input; .build-fuzz/release/<Binary> input)"
    printf '%s\n' "${reproducers[@]}"
fi

if [ -n "$RESULTS" ]; then
    {
        echo "# make fuzz: libFuzzer + AddressSanitizer, release build, ${SECONDS_PER_TARGET}s per target, $JOBS worker(s)"
        echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores; $(swift --version 2>/dev/null | head -1)"
        echo "# seeds: Fuzz/Corpus/<target>; each target checks invariants beyond 'no crash' (see Fuzz/Sources)"
        printf '%s\n' "${summary[@]}"
        echo "total executions: $total_runs"
    } >"../$RESULTS"
    echo "figures written to $RESULTS"
fi
exit $failed
