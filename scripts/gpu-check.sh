#!/usr/bin/env bash
# Checks the runtime on a GPU machine that has no build tools of ours.
#
#   scripts/gpu-check.sh prepare [DIR]   (here: a build machine)
#       Builds the runtime (Release) and fills DIR (default .carry/gpu, which
#       git ignores) with everything the GPU machine needs: bin/tessel-run,
#       bin/tessel-hal-cts (the HAL conformance suite; gtest linked in,
#       kernels embedded) and, if tessel-compile supports --target=cpu,cuda,
#       the e2e suite compiled for cuda alone (DIR/e2e; cuda-only modules get
#       fused row dispatches), for --cuda-arch=$GPU_CHECK_CUDA_ARCH (default
#       sm_80,sm_90a: an H100/H200 runs the sm_90a executable, wgmma + TMA).
#   scripts/gpu-check.sh pack [DIR]      (here) writes DIR.tar.xz: the
#       device tool carries at most 64 MiB, which DIR alone nearly fills.
#   scripts/gpu-check.sh run [DIR | DIR.tar.xz]  (there: from the repo root)
#       Prints the GPUs, runs the conformance suite (cpu, cuda stream, cuda
#       graph), the e2e suite on cuda in both command buffer modes, as
#       sm_80 code and (persistent grids) as a 7-SM GPU, and
#       compute-sanitizer memcheck, then a table of pass/fail counts per step.
#       Exit status 0 only if no step failed. GPU_CHECK_BUDGET=SECONDS caps the
#       whole run: step timeouts shrink so the table is always printed.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

die() {
  echo "gpu-check: $*" >&2
  exit 1
}

# A python3 that has numpy (run_e2e.py needs it).
find_python() {
  for p in "${PYTHON:-}" python3 /usr/bin/python3; do
    [ -n "$p" ] && command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null &&
      { echo "$p"; return 0; }
  done
  return 1
}

prepare() {
  local dir=$1 build=build-gpu-check
  command -v cmake >/dev/null || die "cmake not found"
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  echo "gpu-check: building the runtime (Release) in $build"
  cmake -S runtime -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null ||
    die "cmake configure failed"
  cmake --build "$build" --target tessel-run tessel-hal-cts -j "$(nproc)" >/dev/null ||
    die "build failed (run: cmake --build $build)"
  [ -x "$build/cts/tessel-hal-cts" ] || die "tessel-hal-cts was not built (is googletest installed?)"

  rm -rf "$dir"
  mkdir -p "$dir/bin"
  cp "$build/tessel-run" "$build/cts/tessel-hal-cts" "$dir/bin/"
  if ldd "$dir"/bin/* | grep -q "not found"; then
    ldd "$dir"/bin/*
    die "a binary needs a library this machine lacks"
  fi
  # Only system libraries may remain dynamic (libstdc++, libc, libm, and
  # zlib for the module checksums); the GPU machine's are newer, which is
  # fine.
  local extra
  extra=$(ldd "$dir"/bin/* | awk '/=>/ {print $1}' |
          grep -vE '^(libstdc\+\+|libm|libgcc_s|libc|libdl|libpthread|libz|linux-vdso|ld-linux)' || true)
  [ -z "$extra" ] || die "unexpected shared libraries: $extra"

  local compiler=build/compiler/tools/tessel-compile
  if [ ! -x "$compiler" ]; then
    echo "gpu-check: skipping e2e: $compiler not built (scripts/setup.sh builds it)"
  else
    local probe_dir case_mlir
    probe_dir=$(mktemp -d)
    case_mlir=$(ls test/e2e/cases/*.mlir | head -1)
    if ! "$compiler" "$case_mlir" --target=cpu,cuda -o "$probe_dir/probe.tmod" \
        >"$probe_dir/log" 2>&1; then
      echo "gpu-check: skipping e2e: tessel-compile does not support --target=cpu,cuda yet:"
      head -3 "$probe_dir/log" | sed 's/^/    /'
    else
      local py
      py=$(find_python) || die "no python3 with numpy for run_e2e.py"
      echo "gpu-check: preparing the e2e suite for cuda (cuda-only modules: fused row dispatches) in $dir/e2e"
      "$py" test/e2e/run_e2e.py --prepare="$dir/e2e" --compiler="$compiler" \
        --target=cuda --compiler-arg=--cuda-arch="${GPU_CHECK_CUDA_ARCH:-sm_80,sm_90a}" \
        -j "$(nproc)" | tail -3
    fi
    rm -rf "$probe_dir"
  fi
  {
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (+local changes)')"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(${CXX:-c++} --version | head -1)"
  } >"$dir/BUILD_INFO"
  echo "gpu-check: prepared $dir ($(du -sh "$dir" | cut -f1)):"
  find "$dir" -maxdepth 2 | sort | head -20
}

# --- run ----------------------------------------------------------------------

declare -a ROWS=()
FAILED=0
BUDGET=${GPU_CHECK_BUDGET:-0}
START=$SECONDS

# Timeout for the next step: WANT seconds, or less to stay inside the budget.
step_timeout() {
  local want=$1
  if [ "$BUDGET" -gt 0 ]; then
    local left=$((BUDGET - (SECONDS - START) - 10))
    [ "$left" -lt "$want" ] && want=$left
    [ "$want" -lt 5 ] && want=5
  fi
  echo "$want"
}
LAST_STATUS=

# row NAME PASS FAIL SKIP STATUS
row() {
  ROWS+=("$(printf '%-34s %6s %6s %6s  %s' "$1" "$2" "$3" "$4" "$5")")
  [ "$5" = FAIL ] && FAILED=1
  return 0
}

# Runs the CTS binary with a gtest filter and records its counts.
cts_step() {
  local name=$1 filter=$2 log
  log=$(mktemp)
  echo "=== $name: tessel-hal-cts --gtest_filter=$filter"
  # Into a file first: a pipe into head would cut the log short.
  timeout "$(step_timeout 120)" "$DIR/bin/tessel-hal-cts" --gtest_filter="$filter" >"$log" 2>&1
  local rc=$?
  grep -E '^\[  (FAILED|SKIPPED) \]|^\[==========\]|^\[  PASSED  \]|fault reported as|failed after [0-9]+ GiB|^device:|Failure|Expected|Which is|: error|skipped: |does not support' "$log" |
    grep -vE '^\[  (FAILED|SKIPPED) \] .*[^)]$' | cut -c1-300 | head -60
  # What each failure said (the lines after gtest's "file:line: Failure").
  grep -A8 -E ': Failure$' "$log" | cut -c1-400 | head -60
  local pass fail skip
  pass=$(grep -cE '^\[       OK \] .* \([0-9]+ ms\)$' "$log")
  fail=$(grep -cE '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$log")
  skip=$(grep -cE '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$log")
  local status=ok
  if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ]; then
    status=FAIL
    [ "$rc" -eq 124 ] && echo "    (timed out)"
    [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && echo "    (exit status $rc)"
  elif [ "$pass" -eq 0 ]; then
    status=SKIPPED
  fi
  row "$name" "$pass" "$fail" "$skip" "$status"
  LAST_STATUS=$status
  rm -f "$log"
}

# Runs the prepared e2e suite with RUNNER and extra runner args.
e2e_step() {
  local name=$1 runner=$2 jobs=$3
  shift 3
  local log
  log=$(mktemp)
  echo "=== $name"
  timeout "$(step_timeout 300)" "$PY" "$DIR/e2e/run_e2e.py" --check="$DIR/e2e" --runner="$runner" --device=cuda \
    -j "$jobs" "$@" >"$log" 2>&1
  local rc=$?
  grep -vE '^PASS ' "$log" | cut -c1-400 | head -40
  local summary pass fail status=ok
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
  pass=$(echo "$summary" | awk '{print $1}')
  fail=$(echo "$summary" | awk '{print $3}')
  if [ -z "$summary" ]; then
    pass=-; fail=-; status=FAIL
    [ "$rc" -eq 124 ] && echo "    (timed out)"
    echo "    (no summary; exit status $rc)"
  elif [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ]; then
    status=FAIL
  fi
  row "$name" "$pass" "$fail" 0 "$status"
  rm -f "$log"
}

run() {
  DIR=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1 (run 'prepare' first and carry it)"
  [ -x "$DIR/bin/tessel-hal-cts" ] || die "$DIR/bin/tessel-hal-cts missing (run 'prepare' first)"
  [ -x "$DIR/bin/tessel-run" ] || die "$DIR/bin/tessel-run missing (run 'prepare' first)"
  echo "gpu-check: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  [ -f "$DIR/BUILD_INFO" ] && sed 's/^/gpu-check: /' "$DIR/BUILD_INFO"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L
    nvidia-smi --query-gpu=driver_version --format=csv,noheader | sed 's/^/driver: /'
  else
    echo "gpu-check: nvidia-smi not found; the cuda steps will be skipped"
  fi
  local jobs
  jobs=$(nproc)
  [ "$jobs" -gt 8 ] && jobs=8

  cts_step "cts cpu" '*/cpu:CudaOptionsTest.*:CudaAvailabilityTest.*'
  cts_step "cts cuda_stream" '*/cuda_stream'
  cts_step "cts cuda_graph + cuda driver tests" '*/cuda_graph:CudaDriverTest.*'
  # Without a usable CUDA device the cuda tests skip; the rest would only
  # repeat the driver's message for every case.
  if [ "$LAST_STATUS" = SKIPPED ]; then
    echo "gpu-check: no usable CUDA device (see the skip messages above); skipping e2e and memcheck"
    row "e2e / memcheck" - - - "no CUDA device"
    finish
    return $FAILED
  fi

  PY=$(find_python) || PY=
  if [ ! -f "$DIR/e2e/manifest.json" ]; then
    echo "=== e2e: not prepared ($DIR/e2e/manifest.json missing; see 'prepare')"
    row "e2e cuda graph" - - - "not prepared"
    row "e2e cuda stream" - - - "not prepared"
  elif [ -z "$PY" ]; then
    echo "=== e2e: no python3 with numpy here"
    row "e2e cuda graph" - - - "no numpy"
    row "e2e cuda stream" - - - "no numpy"
  else
    e2e_step "e2e cuda graph" "$DIR/bin/tessel-run" "$jobs" --runner-arg=--cuda-command-buffer=graph
    e2e_step "e2e cuda stream" "$DIR/bin/tessel-run" "$jobs" --runner-arg=--cuda-command-buffer=stream
    # The same modules through their other executable: on a 9.0 device
    # the default is the sm_90a one; TESSEL_CUDA_ARCH=sm_80 forces the
    # sm_80 code (mma.sync, PTX JIT), as an A100 would run it.
    TESSEL_CUDA_ARCH=sm_80 e2e_step "e2e cuda graph, TESSEL_CUDA_ARCH=sm_80" "$DIR/bin/tessel-run" "$jobs" \
      --runner-arg=--cuda-command-buffer=graph
    # Persistent grids (wgmma GEMM, grid scatter, radix sort) as a 7-SM GPU
    # launches them: fewer blocks than compiled, each with more work.
    local persistent
    persistent=$("$PY" -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"]; k=("wgmma","forced_strategies","scatter","sort"); print(",".join(x["name"] for x in c if any(s in x["name"] for s in k) and not x.get("error")))' "$DIR/e2e/manifest.json")
    TESSEL_CUDA_SM_LIMIT=7 e2e_step "e2e persistent grids, TESSEL_CUDA_SM_LIMIT=7" "$DIR/bin/tessel-run" "$jobs" \
      --runner-arg=--cuda-command-buffer=graph --case="$persistent"
  fi

  # tessel-run's default device choice on a module with a cuda executable,
  # and the environment variable choosing stream command buffers.
  if [ -f "$DIR/e2e/manifest.json" ] && [ -n "$PY" ]; then
    echo "=== tessel-run default device"
    local cmd pass=0 fail=0
    # The first case's inputs, drawn as run_e2e.py --check draws them.
    cmd=$("$PY" -c '
import json, os, shlex, sys, tempfile
root = sys.argv[1]
sys.path.insert(0, root)
import run_e2e
case = next(c for c in json.load(open(os.path.join(root, "manifest.json")))["cases"] if not c.get("error"))
entry, ins = run_e2e.Case(case["name"], cases_dir=os.path.join(root, case["name"])).materialize(0)[:2]
tmp = tempfile.mkdtemp(prefix="gpu-check-")
paths = [os.path.join(tmp, "in%d.npy" % i) for i in range(len(ins))]
for p, x in zip(paths, ins):
    run_e2e.save_npy(p, x)
print(" ".join([shlex.quote(os.path.join(root, case["module"])), "--function=" + entry.function]
               + ["--input=@" + shlex.quote(p) for p in paths]))' "$DIR/e2e")
    for mode in "" stream; do
      local out
      out=$(eval TESSEL_CUDA_COMMAND_BUFFER=$mode "\"$DIR/bin/tessel-run\"" "$cmd" 2>&1 >/dev/null | head -3)
      echo "  TESSEL_CUDA_COMMAND_BUFFER=$mode: $out"
      if echo "$out" | grep -q "^tessel-run: device cuda (.*${mode:-graph} command buffers)"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1))
      fi
    done
    row "tessel-run default device" "$pass" "$fail" 0 "$([ "$fail" -eq 0 ] && echo ok || echo FAIL)"
  fi

  local sanitizer
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ ! -x "$sanitizer" ]; then
    echo "=== memcheck: compute-sanitizer not found"
    row "memcheck" - - - "no sanitizer"
  else
    local wrap
    wrap=$(mktemp -d)
    # The CTS under memcheck (cuda only; the fault test faults on purpose,
    # and API errors are not reported: tests provoke them on purpose).
    cat >"$wrap/tessel-hal-cts" <<EOF
#!/bin/sh
exec "$sanitizer" --tool memcheck --report-api-errors no --error-exitcode 86 --print-limit 20 "$DIR/bin/tessel-hal-cts" "\$@"
EOF
    cat >"$wrap/tessel-run" <<EOF
#!/bin/sh
exec "$sanitizer" --tool memcheck --error-exitcode 86 --print-limit 20 "$DIR/bin/tessel-run" "\$@"
EOF
    chmod +x "$wrap/tessel-hal-cts" "$wrap/tessel-run"
    local log
    log=$(mktemp)
    echo "=== memcheck cts (cuda graph+stream)"
    timeout "$(step_timeout 150)" "$wrap/tessel-hal-cts" \
      --gtest_filter='*/cuda_graph:*/cuda_stream:CudaDriverTest.*-*KernelFault*:*ExhaustDeviceMemory*' >"$log" 2>&1
    local rc=$?
    grep -E '^=========|^\[  FAILED  \]|^\[  PASSED  \]' "$log" | cut -c1-300 | head -40
    local pass fail skip status=ok
    pass=$(grep -cE '^\[       OK \] .* \([0-9]+ ms\)$' "$log")
    fail=$(grep -cE '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$log")
    skip=$(grep -cE '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$log")
    if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ]; then
      status=FAIL
      echo "    (exit status $rc; 86 = memcheck found errors, 124 = timed out)"
    elif [ "$pass" -eq 0 ]; then
      status=SKIPPED
    fi
    row "memcheck cts (cuda)" "$pass" "$fail" "$skip" "$status"
    rm -f "$log"
    if [ -f "$DIR/e2e/manifest.json" ] && [ -n "$PY" ]; then
      # A representative third of the cases (every third one): memcheck
      # makes each process start slowly.
      local subset
      subset=$("$PY" -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"]; print(",".join(x["name"] for x in c[::3] if not x.get("error")))' "$DIR/e2e/manifest.json")
      e2e_step "memcheck e2e (cuda graph, 1/3)" "$wrap/tessel-run" "$jobs" \
        --runner-arg=--cuda-command-buffer=graph --case="$subset"
      # Every tensor-core kernel variant (wgmma + TMA on sm_90a; mma.sync:
      # cp.async, register copies, edges, layouts, epilogues), the split-K cases (partials with the batch
      # loop inside an operand's layout), the kernels with dynamic extents
      # (matmul variants, flash attention) and the primitives (grid scans:
      # shuffles, shared memory, look-back atomics) under racecheck (shared
      # memory hazards), synccheck (barriers) and memcheck.
      local tc tool
      tc=$("$PY" -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"]; k=("tensor_core","split_k","wgmma","dynamic_matmul","dynamic_attention","scan","gather_embedding","scatter","sort","argmax","stream_compaction"); print(",".join(x["name"] for x in c if any(s in x["name"] for s in k) and not x.get("error")))' "$DIR/e2e/manifest.json")
      for tool in racecheck synccheck memcheck; do
        printf '#!/bin/sh\nexec "%s" --tool %s --error-exitcode 86 --print-limit 20 "%s" "$@"\n' \
          "$sanitizer" "$tool" "$DIR/bin/tessel-run" >"$wrap/tessel-run-$tool"
        chmod +x "$wrap/tessel-run-$tool"
        e2e_step "$tool tensor-core + primitive e2e" "$wrap/tessel-run-$tool" "$jobs" \
          --runner-arg=--cuda-command-buffer=stream --case="$tc"
      done
    else
      row "memcheck e2e" - - - "not prepared"
    fi
    rm -rf "$wrap"
  fi

  finish
  return $FAILED
}

finish() {
  echo
  echo "gpu-check results ($(date -u +%Y-%m-%dT%H:%M:%SZ)):"
  printf '%-34s %6s %6s %6s  %s\n' step pass fail skip status
  printf '%s\n' "${ROWS[@]}"
}

# The device tool carries at most 64 MiB: `pack` writes DIR.tar.xz, and
# `run` takes it in place of DIR (the e2e inputs are drawn there now, so
# DIR is small; packing still saves the transfer).
pack() {
  local dir=$1
  [ -d "$dir" ] || die "nothing prepared in $dir"
  rm -f "$dir.tar.xz"
  tar cf - -C "$(dirname "$dir")" "$(basename "$dir")" | xz -6 -T2 >"$dir.tar.xz" ||
    die "packing $dir failed"
  echo "gpu-check: packed $dir.tar.xz ($(du -h "$dir.tar.xz" | cut -f1)): carry that file, not $dir"
}

# DIR, or DIR.tar.xz unpacked into a temporary directory first.
run_from() {
  local arg=$1
  case "$arg" in
  *.tar.xz)
    local tmp
    tmp=$(mktemp -d)
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$arg" "$tmp" ||
      die "cannot unpack $arg"
    run "$tmp/$(basename "${arg%.tar.xz}")" ;;
  *) run "$arg" ;;
  esac
}

case "${1:-}" in
prepare) prepare "${2:-.carry/gpu}" ;;
pack) pack "${2:-.carry/gpu}" ;;
run) run_from "${2:-.carry/gpu}" ;;
*) usage ;;
esac
