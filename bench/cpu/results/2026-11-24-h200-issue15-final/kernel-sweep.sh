# Prepared here (at 06547e8): for each VARIANT:FLAGS in def: mc64:--tessel-cpu-packed-mc-groups=64
# nc512:--tessel-cpu-packed-nc=512 mc64nc512:(both) kc128 kc512 mr12 mr14 nr3:--tessel-cpu-packed-nr-vectors=3
# mr4nr4: tessel-compile bench/programs/cpu/matmul_2048.mlir --target=cpu --cpu=x86-64-v4 FLAGS -o .carry/mk/m2048.VARIANT.tmod;
# cp tessel-bench (Release, bench/cpu/prepare.sh) to .carry/mk. There: bash .carry/mk/run.sh
#!/bin/bash
# One-thread and 16-thread medians of matmul 2048^3 f32 per packed-kernel variant.
cd "$(dirname "$0")"
python3 -c "
import numpy as np
r=np.random.default_rng(0)
np.save('a.npy', r.standard_normal((2048,2048),dtype=np.float32)); np.save('b.npy', r.standard_normal((2048,2048),dtype=np.float32))"
for th in 1 16; do
for m in m2048.*.tmod; do
  t=$(TESSEL_CPU_THREADS=$th ./tessel-bench $m --device=cpu --input=@a.npy --input=@b.npy --runs=$([ $th = 1 ] && echo 5 || echo 21) --warmup=2 --warmup-ms=0 2>&1 | grep -o "median [0-9.]* us" | head -1 | awk '{print $2/1000}')
  echo "threads=$th $m $t ms $(python3 -c "print('%.0f GFLOP/s' % (2*2048**3/($t*1e6)))")"
done; done
python3 -c "
import torch, time, numpy as np
for th in (1,16):
  torch.set_num_threads(th)
  a=torch.randn(2048,2048); b=torch.randn(2048,2048)
  for _ in range(3): a@b
  ts=[]
  for _ in range(5 if th==1 else 21):
    t=time.perf_counter(); a@b; ts.append(time.perf_counter()-t)
  m=np.median(ts)*1e3; print('threads=%d torch %.2f ms %.0f GFLOP/s'%(th,m,2*2048**3/(m*1e6)))
"
