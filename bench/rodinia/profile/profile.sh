#!/bin/bash
# perf cpu-clock profiles at one thread (see bundle.sh); results in $OUT/prof.tar.xz:
# per program, perf report (dso, symbol) and sample counts per instruction
# (symbol+offset) for Tessel and OpenMP, the loaded Tessel kernels (.so)
# and the OpenMP binary, for objdump here.
P=$(cd $(dirname $0) && pwd); O=/tmp/profout; rm -rf $O; mkdir -p $O; cd $P
export LD_LIBRARY_PATH=$P/lib
PERF="$P/bin/perf"
gcc -O2 -shared -fPIC src/omp_region.c -o omp_region.so -ldl
g++ -O3 -fopenmp -march=native -w src/needle.cpp -o nw_omp
g++ -O3 -fopenmp -march=native -w src/srad2/srad.cpp -o srad2_omp
gcc -O3 -fopenmp -march=native -w -Isrc/lud/common src/lud/omp/lud.c src/lud/omp/lud_omp.c src/lud/common/common.c -lm -o lud_omp
python3 - <<'PY'
import random
r = random.Random(51); n = 2048   # lud's input: diagonally dominant, as run_reference.py's
with open('matrix.dat', 'w') as f:
    f.write('%d\n' % n)
    for i in range(n):
        row = [r.random() for _ in range(n)]; row[i] += n / 4.0
        f.write(' '.join('%.6f' % v for v in row) + '\n')
PY
prof() { local n=$1 targs=$2 obin=$3 oargs=$4
  mkdir -p $O/$n/exe
  TESSEL_CPU_EXECUTABLE_DIR=$O/$n/exe TESSEL_DEVICE=cpu TESSEL_CPU_THREADS=1 $PERF record -q -e cpu-clock -F 4000 -o $P/$n.t.data bin/$n $targs >/dev/null 2>&1
  $PERF report -i $P/$n.t.data --sort dso,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | head -15 > $O/$n/tessel-report.txt
  $PERF script -i $P/$n.t.data -F ip,sym,symoff,dso 2>/dev/null | grep tessel-cpu | sort | uniq -c | sort -rn > $O/$n/tessel-ips.txt
  OMP_NUM_THREADS=1 $PERF record -q -e cpu-clock -F 4000 -o $P/$n.o.data ./$obin $oargs >/dev/null 2>&1
  $PERF report -i $P/$n.o.data --sort dso,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | head -15 > $O/$n/omp-report.txt
  $PERF script -i $P/$n.o.data -F ip,sym,symoff,dso 2>/dev/null | grep "$obin" | sort | uniq -c | sort -rn > $O/$n/omp-ips.txt
  cp $obin $O/$n/
}
prof nw "16384 10" nw_omp "16384 10 1"
prof srad2 "2048 2048 0 31 0 31 0.5 40" srad2_omp "2048 2048 0 31 0 31 1 0.5 40"
prof lud "-i matrix.dat" lud_omp "-n 1 -i matrix.dat"
# srad2 at 1T: blocks in other orders? time of Tessel 1T vs 2T vs 16T
for t in 1 2 4 16; do rm -f t.txt; TESSEL_CUDART_TIMING=$P/t.txt TESSEL_DEVICE=cpu TESSEL_CPU_THREADS=$t TESSEL_CPU_PIN=1 bin/srad2 2048 2048 0 31 0 31 0.5 40 >/dev/null 2>&1; echo "srad2 ${t}T $(grep -o 'kernel_ms=[0-9.]*' t.txt)"; rm -f r.txt; OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores RODINIA_REGION_OUT=$P/r.txt LD_PRELOAD=$P/omp_region.so ./srad2_omp 2048 2048 0 31 0 31 $t 0.5 40 >/dev/null 2>&1; echo "srad2 omp ${t}T $(grep -o 'region_ms=[0-9.]*' r.txt)"; done
tar -C $O -cJf $OUT/prof.tar.xz .
ls -la $OUT
