#!/usr/bin/env bash
# Two petmock builds side by side in one run: this one (PETMOCK) and PETMOCK_BASELINE (an
# earlier build, as scripts/build-petmock.sh makes it), each serving the same four roots at
# once: Stubs/ (GET /api/pets), the proxy stub (to a local nginx), the templated stub and
# 1,000 mappings (the pet list last in priority). Every round runs wrk on each pair back to
# back, the two builds in turn first and second; a pair's ratio (this build over the
# baseline) is the median of its rounds. Then both builds' peak RSS serving Stubs/.
# Then, with valgrind (INSTRUCTIONS=0 leaves it out), the user-space instructions per request
# of both builds on the same four paths, which a loaded machine does not move.
# Targets: every ratio >= 0.95 (instructions: this build's at most 1.05 of the baseline's);
# memory no higher than the baseline's (+2% for noise), read as the anonymous (heap) RSS: the
# peak RSS also counts the binary's pages mapped around those touched, which moves with the
# page cache by a megabyte or more between runs of one build.
# Usage: Benchmarks/lib/petmock-ab.sh PETMOCK [DURATION] [ROUNDS]   (PETMOCK_BASELINE=path;
# bench-petmock.sh calls it for BENCH_ONLY=ab; ROUNDS 0 counts instructions only). Prints a
# table; writes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
petmock="$1"
duration="${2:-5s}"
rounds="${3:-5}"
baseline="${PETMOCK_BASELINE:?PETMOCK_BASELINE: the earlier build to compare with}"
[ -x "$baseline" ] || { echo "PETMOCK_BASELINE: expected an executable, found '$baseline'" >&2; exit 64; }

# shellcheck source=servers.sh
source Benchmarks/lib/servers.sh

start_proxy_upstream "$petmock"
write_template_root "$work/template"
mkdir -p "$work/one/mappings" "$work/many/mappings"
python3 Benchmarks/lib/many-mappings.py "$work/one/mappings" "$work/many/mappings" Stubs/mappings/pets.json

# The four cases: name, stub root, path asked.
cases=(stubs proxy templated many)
declare -A root=([stubs]=Stubs [proxy]="$work/proxy" [templated]="$work/template" [many]="$work/many")
declare -A path=([stubs]=/api/pets [proxy]=/api/pets [templated]="/api/templated/42$template_query" [many]=/api/pets)
declare -A port pid_of
for build in new old; do
    binary="$petmock"; [ "$build" = old ] && binary="$baseline"
    for name in "${cases[@]}"; do
        port[$build.$name]="$(free_port)"
        pid_of[$build.$name]="$(start "${port[$build.$name]}" "${path[$name]%%\?*}" "$binary" serve --stubs "${root[$name]}" --port "${port[$build.$name]}")"
        pids+=("${pid_of[$build.$name]}")
    done
done

run() { wrk -t2 -c64 -d"$duration" "http://127.0.0.1:$1$2"; }
rps() { echo "$1" | awk '/^Requests\/sec:/ { print $2 }'; }
errors() { echo "$1" | awk '/Non-2xx|Socket errors/ { print }' | tr '\n' ' '; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
meets() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = (op == ">=") ? v >= t : v <= t; print (v == "n/a" ? "n/a" : ok ? "yes" : "NO") }'; }
row() { printf '%-34s %12s %12s %7s %8s %4s\n' "$@"; }
declare -A label=([stubs]="req/s, Stubs/" [proxy]="req/s, proxy stub" [templated]="req/s, templated stub" [many]="req/s, 1,000 mappings")
if [ "$rounds" -gt 0 ]; then
    declare -A ratios rates
    problems=""
    echo "petmock A/B: this build ($petmock) over the baseline ($baseline), wrk -t2 -c64 -d$duration, $rounds rounds"
    echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for round in $(seq "$rounds"); do
        for name in "${cases[@]}"; do
            order=(new old); ((round % 2)) || order=(old new)
            declare -A got=()
            for build in "${order[@]}"; do
                out="$(run "${port[$build.$name]}" "${path[$name]}")"
                got[$build]="$(rps "$out")"
                found="$(errors "$out")"
                [ -n "$found" ] && problems+="round $round $build $name: $found"$'\n'
            done
            ratios[$name]+="$(ratio "${got[new]}" "${got[old]}") "
            rates[$name.new]+="${got[new]} "; rates[$name.old]+="${got[old]} "
        done
    done
    echo
    row "figure" "this build" "baseline" "ratio" "target" "met"
    for name in "${cases[@]}"; do
        # shellcheck disable=SC2086
        m="$(median ${ratios[$name]})"
        # shellcheck disable=SC2086
        row "${label[$name]}" "$(median ${rates[$name.new]})" "$(median ${rates[$name.old]})" "$m" ">= 0.95" "$(meets "$m" ">=" 0.95)"
    done
    rss_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
    new_rss="$(rss_kb "${pid_of[new.stubs]}")"; old_rss="$(rss_kb "${pid_of[old.stubs]}")"
    r="$(ratio "$new_rss" "$old_rss")"
    row "peak RSS KB, Stubs/ (all runs)" "$new_rss" "$old_rss" "$r" "" ""
    # The peak counts the binary's pages the kernel mapped around each one touched, which moves
    # by a megabyte or more with what the page cache holds; the heap's does not.
    anon_kb() { awk '/^RssAnon:/ { print $2 }' "/proc/$1/status"; }
    new_anon="$(anon_kb "${pid_of[new.stubs]}")"; old_anon="$(anon_kb "${pid_of[old.stubs]}")"
    r="$(ratio "$new_anon" "$old_anon")"
    row "anonymous RSS KB, Stubs/ (after)" "$new_anon" "$old_anon" "$r" "<= 1.02" "$(meets "$r" "<=" 1.02)"
    echo
    for name in "${cases[@]}"; do echo "rounds, $name: ${ratios[$name]}"; done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%s' "$problems"
fi

[ "${INSTRUCTIONS:-1}" = 0 ] && exit 0
scripts/install-deps.sh valgrind binutils
warm=10500 count=2000  # past the journal's 10,000 entries: its steady state
new_binary="$(stripped "$petmock" new)"; old_binary="$(stripped "$baseline" old)"
echo
echo "user-space instructions per request (cachegrind), one kept-alive connection, $count requests after $warm"
row "figure" "this build" "baseline" "ratio" "target" "met"
for name in "${cases[@]}"; do
    new_count="$(per_request "${path[$name]}" "$new_binary" serve --stubs "${root[$name]}" --port '{PORT}')"
    old_count="$(per_request "${path[$name]}" "$old_binary" serve --stubs "${root[$name]}" --port '{PORT}')"
    r="$(ratio "$new_count" "$old_count")"
    row "instructions, ${label[$name]#req/s, }" "$new_count" "$old_count" "$r" "<= 1.05" "$(meets "$r" "<=" 1.05)"
done
