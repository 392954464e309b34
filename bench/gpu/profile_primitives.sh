#!/usr/bin/env bash
# ncu metrics of the primitives' main kernels (issue 11), on the GPU
# machine, after prepare_primitives.sh: bash .carry/prim/profile_primitives.sh
# (needs bin/tessel-run in the folder: prepare_primitives.sh copies it).
# One launch per kernel, clocks not locked; prints metric = value.
# ONLY=sort (a substring of the case names) profiles only those cases.
cd "$(dirname "$0")"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,l1tex__t_sector_hit_rate.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,launch__grid_size,launch__block_size
prof() { name=$1; fn=$2; kern=$3; shift 3; ins=""
  [[ -n "${ONLY:-}" && $name != *"$ONLY"* ]] && return 0
  for i in "$@"; do ins="$ins --input=@$i"; done
  echo "=== $name ($kern)"; ncu --kernel-name regex:"$kern" --launch-count 1 --metrics $M --csv ./bin/tessel-run modules/$name.tmod --function=$fn $ins --cuda-command-buffer=stream 2>/dev/null | grep '^"' | awk -F'","' 'NR>1 {print $(NF-2) " = " $NF}' | tr -d '"' ; }
python3 -c "
import numpy as np; r=np.random.default_rng(1)
np.save('/tmp/p_scan.npy', r.integers(-1,2,1<<28).astype(np.float32))
np.save('/tmp/p_rows.npy', r.standard_normal((8192,8192),dtype=np.float32))
np.save('/tmp/p_topk.npy', r.standard_normal((4096,32000),dtype=np.float32))
t=np.zeros((1<<20,768),np.float16); np.save('/tmp/p_table.npy', t); np.save('/tmp/p_ids.npy', r.integers(0,1<<20,32768,dtype=np.int32))
np.save('/tmp/p_keys.npy', r.integers(0,1<<32,1<<26,dtype=np.uint64).astype(np.uint32).view(np.int32))
np.save('/tmp/p_norm.npy', r.standard_normal(1<<28, dtype=np.float32))
n=1<<24; np.save('/tmp/p_dst.npy', np.zeros(n,np.float32)); np.save('/tmp/p_idx.npy', r.integers(0,n,n,dtype=np.int32)); np.save('/tmp/p_src.npy', np.ones(n,np.float32))
"
prof scan_incl_f32_2e28 scan scan_dispatch_1 /tmp/p_scan.npy
prof cumsum_rows_8192 cumsum cumsum_dispatch_0 /tmp/p_rows.npy
prof gather_f16_32768x768 gather gather_dispatch_0 /tmp/p_table.npy /tmp/p_ids.npy
prof scatter_add_f32_2e24 index_add index_add_dispatch_1 /tmp/p_dst.npy /tmp/p_idx.npy /tmp/p_src.npy
prof topk_4096x32000 topk topk_dispatch_0 /tmp/p_topk.npy
prof sort_u32_2e26 sort sort_dispatch_2 /tmp/p_keys.npy
# The radix sort's own bottleneck metrics: shared-memory pipe (MIO)
# throttling, bank conflicts, L2 write sectors, issue slots.
M=gpu__time_duration.sum,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,smsp__inst_executed.sum,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
prof sort_u32_2e26 sort sort_dispatch_2 /tmp/p_keys.npy
# The fused compaction kernel (predicate + look-back scan + scatter of the
# selected elements): where its time goes (L2 write sectors of the
# scattered 4-byte stores against the bytes written to DRAM, issue slots,
# stalls).
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_write.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct
prof compact_empty_f32_2e28 compact compact_dispatch_0 /tmp/p_norm.npy
prof scan_incl_f32_2e28 scan scan_dispatch_1 /tmp/p_norm.npy
