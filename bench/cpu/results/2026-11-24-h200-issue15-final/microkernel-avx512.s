# Inner loop of the packed AVX-512 microkernel (8 x 32 register tile, K step 1), from
# the executable embedded in matmul_2048.v4.tmod (tessel-compile --target=cpu --cpu=x86-64-v4,
# at 06547e8; objdump -d of the ELF found in the module). Per k: 2 B vector loads
# (packed panel, 128 B contiguous), 8 broadcasts of A (packed rows 1 KiB apart),
# 16 FMAs on 16 accumulators, 3 loop ops.
    15ea:	vmovups 0xe000(%rdi,%r14,4),%zmm16
    15f5:	mov    $0xfffffffffffffc00,%rcx
    15fc:	mov    %rsi,%r9
    15ff:	nop
    1600:	vmovaps -0x40(%r9),%zmm18
    1607:	vmovaps (%r9),%zmm19
    160d:	vbroadcastss -0x1800(%r15,%rcx,1),%zmm20
    1618:	vfmadd231ps %zmm18,%zmm20,%zmm3
    161e:	vfmadd231ps %zmm20,%zmm19,%zmm2
    1624:	vbroadcastss -0x1400(%r15,%rcx,1),%zmm20
    162f:	vfmadd231ps %zmm18,%zmm20,%zmm15
    1635:	vfmadd231ps %zmm20,%zmm19,%zmm14
    163b:	vbroadcastss -0x1000(%r15,%rcx,1),%zmm20
    1646:	vfmadd231ps %zmm18,%zmm20,%zmm13
    164c:	vfmadd231ps %zmm20,%zmm19,%zmm12
    1652:	vbroadcastss -0xc00(%r15,%rcx,1),%zmm20
    165d:	vfmadd231ps %zmm18,%zmm20,%zmm11
    1663:	vfmadd231ps %zmm20,%zmm19,%zmm10
    1669:	vbroadcastss -0x800(%r15,%rcx,1),%zmm20
    1674:	vfmadd231ps %zmm18,%zmm20,%zmm9
    167a:	vfmadd231ps %zmm20,%zmm19,%zmm8
    1680:	vbroadcastss -0x400(%r15,%rcx,1),%zmm20
    168b:	vfmadd231ps %zmm18,%zmm20,%zmm7
    1691:	vfmadd231ps %zmm20,%zmm19,%zmm6
    1697:	vbroadcastss (%r15,%rcx,1),%zmm20
    169e:	vfmadd231ps %zmm18,%zmm20,%zmm5
    16a4:	vfmadd231ps %zmm20,%zmm19,%zmm4
    16aa:	vbroadcastss 0x400(%r15,%rcx,1),%zmm20
    16b5:	vfmadd231ps %zmm18,%zmm20,%zmm17
    16bb:	vfmadd231ps %zmm19,%zmm20,%zmm16
    16c1:	sub    $0xffffffffffffff80,%r9
    16c5:	add    $0x4,%rcx
    16c9:	jne    1600 <matmul_dispatch_0+0x5c0>
    16cf:	vmovups %zmm3,(%rbx){%k1}
    16d5:	vmovups %zmm2,(%rdi,%r14,4)
    16dc:	vmovups %zmm15,0x2000(%rbx){%k1}
    16e6:	vmovups %zmm14,(%r8,%r14,4)
    16ed:	vmovups %zmm13,0x4000(%rbx){%k1}
    16f7:	vmovups %zmm12,0x2000(%r8,%r14,4)
    1702:	vmovups %zmm11,0x6000(%rbx){%k1}
    170c:	vmovups %zmm10,0x4000(%r8,%r14,4)
    1717:	vmovups %zmm9,0x8000(%rbx){%k1}
    1721:	vmovups %zmm8,0x6000(%r8,%r14,4)
    172c:	vmovups %zmm7,0xa000(%rbx){%k1}
