#!/usr/bin/env bash
# Checks the two LD_PRELOAD shims without a GPU: cuda_region.so against a
# fake libcudart (test/fake_cudart.c), omp_region.so on a small OpenMP
# program (gcc -fopenmp). Usage: bench/rodinia/shims/test_shims.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cc=${CC:-gcc}
fail=0
expect() { # what, got, want-regex
  if [[ "$2" =~ $3 ]]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want /$3/"; fail=1; fi
}
$cc -O2 -Wall -shared -fPIC "$here/cuda_region.c" -o "$t/cuda_region.so" -ldl
$cc -O2 -Wall -shared -fPIC "$here/omp_region.c" -o "$t/omp_region.so" -ldl
$cc -O2 -shared -fPIC "$here/test/fake_cudart.c" -o "$t/libfakecudart.so"
$cc -O2 "$here/test/launches.c" -L"$t" -lfakecudart -Wl,-rpath,"$t" -o "$t/launches"
for n in 0 1 5000 10000; do
  got=$(LD_PRELOAD="$t/cuda_region.so" "$t/launches" $n 2>&1)
  expect "cuda_region: $n+1 launches" "$got" "^cuda-region: launches=$((n + 1)) kernel_ms=$((n + 1))\.000$"
done
RODINIA_REGION_OUT="$t/region.txt" LD_PRELOAD="$t/cuda_region.so" "$t/launches" 3
expect "cuda_region: RODINIA_REGION_OUT" "$(cat "$t/region.txt")" "^cuda-region: launches=4 kernel_ms=4\.000$"
got=$(FAKE_CUDART_FAULT=1 LD_PRELOAD="$t/cuda_region.so" "$t/launches" 2 2>&1)
expect "cuda_region: a faulted kernel's error" "$got" \
  "^cuda-region: launches=3 kernel_ms=0\.000 \(some launches untimed\) cuda_error=700$"
$cc -O2 -fopenmp "$here/test/regions.c" -o "$t/regions"
got=$(OMP_NUM_THREADS=2 LD_PRELOAD="$t/omp_region.so" "$t/regions" 2>&1)
expect "omp_region: omp_set_num_threads is a no-op" "$got" "threads 2"
expect "omp_region: 4 regions, >= 80 ms" "$got" \
  "omp-region: regions=4 region_ms=(8[0-9]|9[0-9]|1[0-9][0-9])\.[0-9]+ set_num_threads_calls=1"
for clang in clang clang-22; do
  if command -v $clang >/dev/null && $clang -O2 -fopenmp "$here/test/regions.c" -o "$t/regions-clang" 2>/dev/null; then
    got=$(OMP_NUM_THREADS=2 LD_PRELOAD="$t/omp_region.so" "$t/regions-clang" 2>&1)
    expect "omp_region ($clang): omp_set_num_threads is a no-op" "$got" "threads 2"
    expect "omp_region ($clang, __kmpc_fork_call): 4 regions, >= 80 ms" "$got" \
      "omp-region: regions=4 region_ms=(8[0-9]|9[0-9]|1[0-9][0-9])\.[0-9]+"
    break
  fi
done
exit $fail
