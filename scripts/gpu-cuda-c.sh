#!/usr/bin/env bash
# CUDA C programs (tessel-cc) on a GPU machine that has no build tools of ours.
#
#   scripts/gpu-cuda-c.sh prepare [DIR]   (here: the build machine)
#       Builds Rodinia (test/rodinia) and the CUDA C e2e programs
#       (test/cuda-e2e) with tessel-cc --target=cpu,cuda into DIR (default
#       .carry/cudac, which git ignores). CPU kernels for x86-64-v3, GPU
#       code for $CUDA_C_ARCH (default sm_80,sm_90).
#   scripts/gpu-cuda-c.sh run [DIR]       (there: from the repo root)
#       Builds Rodinia's CUDA sources with nvcc, writes the golden results of
#       the tests that need them (to $OUT/golden if OUT is set), then checks
#       every tessel-cc build against the nvcc build of the same sources,
#       on the GPU (TESSEL_DEVICE=cuda) and on the CPU (TESSEL_DEVICE=cpu),
#       and runs the e2e programs (self-checking) both ways. Prints a table last; exit 0 only
#       if every step passed.
set -uo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
dir=${2:-.carry/cudac}
tessel_cc=${TESSEL_CC:-build/compiler/tools/tessel-cc}
arch=${CUDA_C_ARCH:-sm_80,sm_90}

case "$mode" in
prepare)
  rm -rf "$dir" && mkdir -p "$dir"
  TESSEL_CC_FLAGS="--cpu=x86-64-v3 --cuda-arch=$arch" /usr/bin/python3 test/rodinia/run_reference.py \
    --build-tessel all --tessel-cc "$tessel_cc" --target=cpu,cuda --out "$dir/rodinia" 2>&1 |
    grep -E '^(built|FAIL)'
  mkdir -p "$dir/e2e"
  for f in test/cuda-e2e/*.cu; do
    [ -e "$f" ] || continue
    n=$(basename "$f" .cu)
    if "$tessel_cc" --target=cpu,cuda --cpu=x86-64-v3 --cuda-arch="$arch" -Itest/cuda-e2e \
      "$f" -o "$dir/e2e/$n" 2>"$dir/e2e/$n.log"; then
      echo "built $dir/e2e/$n"
    else
      echo "FAIL $n: $(grep -m1 error "$dir/e2e/$n.log")"
    fi
  done
  du -sh "$dir"
  ;;
run)
  declare -a rows
  status=0
  step() { # name, command...
    local name=$1
    shift
    echo "=== $name: $*"
    "$@"
    local rc=$?
    rows+=("$(printf '%-44s %s' "$name" "$([ $rc -eq 0 ] && echo ok || echo "FAILED ($rc)")")")
    [ $rc -eq 0 ] || status=1
  }
  nvidia-smi -L
  date -u +%FT%TZ
  export PYTHONUNBUFFERED=1
  work=/tmp/cudac-nvcc
  step "nvcc builds (Rodinia CUDA sources)" \
    python3 test/rodinia/run_reference.py --build-nvcc all --out "$work" --jobs 16
  for t in gaussian hotspot streamcluster particlefilter_float; do
    step "golden $t (nvcc on this GPU)" \
      python3 test/rodinia/run_reference.py --write-golden "$t" --nvcc-dir "$work"
  done
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/golden" && cp test/rodinia/golden/*.json "$OUT/golden/" 2>/dev/null
  fi
  for device in cuda cpu; do
    step "Rodinia tessel-cc vs nvcc, TESSEL_DEVICE=$device" env TESSEL_DEVICE=$device \
      python3 test/rodinia/run_reference.py --check all \
      --candidate "$PWD/$dir/rodinia/{test}/tessel_{test}" \
      --reference "$work/{test}/cuda_{test}"
  done
  step "Rodinia tessel-cc (cpu) vs the default references" env TESSEL_DEVICE=cpu \
    python3 test/rodinia/run_reference.py --check all \
    --candidate "$PWD/$dir/rodinia/{test}/tessel_{test}"
  for exe in "$dir"/e2e/*; do
    [ -x "$exe" ] && [ -f "$exe" ] || continue
    for device in cuda cpu; do
      step "e2e $(basename "$exe"), TESSEL_DEVICE=$device" \
        bash -c 'out=$(TESSEL_DEVICE='$device' timeout 120 "$1" 2>&1); rc=$?; echo "$out" | tail -3; [ $rc -eq 0 ] && echo "$out" | grep -q PASS' _ "$exe"
    done
  done
  echo
  echo "=== summary ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1))"
  printf '%s\n' "${rows[@]}"
  exit $status
  ;;
*)
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
