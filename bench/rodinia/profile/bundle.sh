#!/bin/bash
# Builds a carry folder for profiling Tessel's and OpenMP's nw, srad_v2 and
# lud at one thread on the GPU machine, whose host has no perf: this
# machine's perf with the libraries it links (the host's libc and libstdc++
# are used there), the three programs built with tessel-cc for the CPU, the
# OpenMP sources (built there with gcc -O3 -fopenmp -march=native) and the
# region shim. Usage, from the repository root:
#   bash bench/rodinia/profile/bundle.sh .carry/prof
# then on the device (run tool, carry [".carry/prof"]):
#   cd .carry/prof && ./profile.sh         # $OUT/prof.tar.xz
set -euo pipefail
P=${1:?usage: bundle.sh DIR}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
rm -rf "$P"; mkdir -p "$P/lib" "$P/bin" "$P/src/srad2" "$P/src/lud"
cp "$(command -v perf)" "$P/bin/"
for l in $(ldd "$(command -v perf)" | awk '{print $3}' | grep "^/"); do
  case $(basename "$l") in libc.so*|libm.so*|libstdc++*|libgcc_s*) ;; *) cp -L "$l" "$P/lib/";; esac
done
tcc="$repo/build/compiler/tools/tessel-cc --target=cpu -O2 --cpu=x86-64-v4,x86-64-v3"
r=$repo/test/rodinia
$tcc -I$r/cuda/nw -DTRACEBACK $r/cuda/nw/needle.cu -lm -o "$P/bin/nw"
$tcc -DOUTPUT $r/cuda/srad/srad_v2/srad.cu -o "$P/bin/srad2"
$tcc -I$r/cuda/lud/common $r/cuda/lud/cuda/lud.cu $r/cuda/lud/cuda/lud_kernel.cu \
  $r/cuda/lud/common/common.c -o "$P/bin/lud"
cp $r/openmp/nw/needle.cpp "$P/src/"
cp $r/openmp/srad/srad_v2/* "$P/src/srad2/"
cp -r $r/openmp/lud/omp $r/openmp/lud/common "$P/src/lud/"
cp "$repo/bench/rodinia/shims/omp_region.c" "$P/src/"
cp "$repo/bench/rodinia/profile/profile.sh" "$P/"
du -sh "$P"
