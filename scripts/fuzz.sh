#!/usr/bin/env bash
# Builds the libFuzzer fuzzers (runtime/fuzz, clang 22, ASan + UBSan) and
# runs each one for a bounded time or number of executions.
#   scripts/fuzz.sh [--time=SECONDS | --runs=N] [--seed=N] [--build-dir=DIR] [FUZZER...]
# --time=60 per fuzzer is the default (CI, scripts/test.sh); --runs=1000000
# is the long run recorded in docs/robustness.md.
# FUZZER: fuzzer binaries (paths, or names in DIR/fuzzers); by default every
# fuzz_* executable in DIR/fuzzers (DIR: build-asan, shared with
# scripts/sanitize.sh). A fuzzer NAME built elsewhere (e.g. the compiler's)
# is run the same way when given as a path.
# Seeds: */fuzz/corpus/NAME or */*/fuzz/corpus/NAME in the repository, read
# only, and the directories listed in */fuzz/NAME.seeds; dictionary:
# NAME.dict next to that corpus directory or .seeds file, if any. New
# inputs go to DIR/fuzz-out/corpus/NAME, crash/leak/timeout reproducers to
# DIR/fuzz-out/artifacts/NAME/, logs to DIR/fuzz-out/NAME.log (all outside
# the source tree). Exits 1 if any fuzzer reports a crash, leak, timeout,
# out-of-memory or sanitizer error. Prints one "fuzz: ..." line per fuzzer
# and a total.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

limit=(-max_total_time=60)
what="60 s"
dir=build-asan
fuzzers=()
seed=()
for arg in "$@"; do
  case "$arg" in
    --time=*) limit=(-max_total_time="${arg#*=}"); what="${arg#*=} s" ;;
    --runs=*) limit=(-runs="${arg#*=}"); what="${arg#*=} runs" ;;
    --build-dir=*) dir="${arg#*=}" ;;
    --seed=*) seed=(-seed="${arg#*=}") ;;
    -*) echo "usage: scripts/fuzz.sh [--time=SECONDS | --runs=N] [--seed=N] [--build-dir=DIR] [FUZZER...]" >&2
        exit 2 ;;
    *) fuzzers+=("$arg") ;;
  esac
done

./scripts/sanitize.sh --build-dir="$dir" --configure-only
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tessel-ccache}"
log=$(mktemp)
if ! ninja -C "$dir" -j "${TESSEL_BUILD_JOBS:-$(nproc)}" fuzzers >"$log" 2>&1; then
  grep -v '^\[' "$log" | tail -60
  rm -f "$log"
  echo "fuzz: FAILED: building the fuzzers failed" >&2
  exit 1
fi
rm -f "$log"

if ((${#fuzzers[@]} == 0)); then
  for f in "$dir"/fuzzers/fuzz_*; do
    [ -x "$f" ] && fuzzers+=("$f")
  done
fi
if ((${#fuzzers[@]} == 0)); then
  echo "fuzz: FAILED: no fuzzers in $dir/fuzzers" >&2
  exit 1
fi

out="$(cd "$dir" && pwd)/fuzz-out"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
failed=0
for f in "${fuzzers[@]}"; do
  [ -x "$f" ] || f="$dir/fuzzers/$f"
  name=$(basename "$f")
  if [ ! -x "$f" ]; then
    echo "fuzz: $name: FAILED: no such fuzzer ($f)"
    failed=$((failed + 1))
    continue
  fi
  seeds=()
  dict=()
  for d in */fuzz/corpus/"$name" */*/fuzz/corpus/"$name"; do
    [ -d "$d" ] || continue
    seeds+=("$root/$d")
    [ -f "$d/../../$name.dict" ] && dict=(-dict="$root/$d/../../$name.dict")
  done
  # NAME.seeds lists seed directories kept elsewhere in the repository
  # (the compiler fuzzer's are the e2e programs), NAME.dict beside it.
  for s in */fuzz/"$name".seeds; do
    [ -f "$s" ] || continue
    while read -r d; do
      [ -z "$d" ] || [ "${d#\#}" != "$d" ] || seeds+=("$root/$d")
    done <"$s"
    [ -f "${s%.seeds}.dict" ] && dict=(-dict="$root/${s%.seeds}.dict")
  done
  mkdir -p "$out/corpus/$name" "$out/artifacts/$name"
  flog="$out/$name.log"
  start=$SECONDS
  status=0
  # The first corpus directory receives new inputs; the seeds stay as they are.
  "$f" "${limit[@]}" "${seed[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$out/artifacts/$name/" "${dict[@]}" \
       "$out/corpus/$name" "${seeds[@]}" >"$flog" 2>&1 || status=$?
  took=$((SECONDS - start))
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$flog" | tail -1 | grep -o '[0-9]*$' || true)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$flog" | tail -1 || true)
  if [ "$status" -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$flog"; then
    echo "---- $flog (last 40 lines)"
    tail -40 "$flog"
    echo "fuzz: $name: FAILED (exit $status) after ${runs:-?} runs in ${took} s; reproducers in $out/artifacts/$name/"
    failed=$((failed + 1))
  else
    echo "fuzz: $name: ok: ${runs:-?} runs in ${took} s, ${cov:-cov: ?}, seeds ${#seeds[@]} dir(s)"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: FAILED: $failed of ${#fuzzers[@]} fuzzers ($what each) reported errors"
  exit 1
fi
echo "fuzz: ok: ${#fuzzers[@]} fuzzers ($what each), no crash, leak or sanitizer report"
