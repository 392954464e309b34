// Case 8: 3-D grids and blocks (gridDim.z, blockDim.z) and grid-stride loops.
//  - ids: every thread of a 3x2x2 grid of 5x3x4 blocks writes its ids and the
//    launch dimensions at its own global (x, y, z) position;
//  - stencil3d: a 37x21x13 volume covered by a grid smaller than the volume
//    (grid-stride loops in x, y and z), 7-point integer stencil, clamped;
//  - column_sums: 8x4x3 blocks stage a sub-volume in a 3-D shared array,
//    barrier, then each thread sums its z column plus a neighbour's (partial
//    blocks at the edges of the volume);
//  - tile_rotate: a grid-stride loop over tiles holding two barriers (its trip
//    count depends on the block only), with a linearised 3-D thread id and a
//    linearised 3-D block id.
#include "e2e_common.h"

#include <vector>

__global__ void ids(int4 *out) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  int gz = blockIdx.z * blockDim.z + threadIdx.z;
  int X = gridDim.x * blockDim.x, Y = gridDim.y * blockDim.y;
  int4 *r = &out[(gz * Y + gy) * X + gx]; // (whole-int4 stores: struct_assign.cu)
  r->x = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  r->y = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  r->z = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  r->w = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
}

__device__ int at(const int *v, int X, int Y, int Z, int x, int y, int z) {
  x = min(max(x, 0), X - 1);
  y = min(max(y, 0), Y - 1);
  z = min(max(z, 0), Z - 1);
  return v[(z * Y + y) * X + x];
}

__global__ void stencil3d(const int *in, int *out, int X, int Y, int Z) {
  for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < Z; z += gridDim.z * blockDim.z)
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < Y; y += gridDim.y * blockDim.y)
      for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < X; x += gridDim.x * blockDim.x)
        out[(z * Y + y) * X + x] =
            6 * at(in, X, Y, Z, x, y, z) - at(in, X, Y, Z, x - 1, y, z) -
            at(in, X, Y, Z, x + 1, y, z) - at(in, X, Y, Z, x, y - 1, z) -
            at(in, X, Y, Z, x, y + 1, z) - at(in, X, Y, Z, x, y, z - 1) -
            at(in, X, Y, Z, x, y, z + 1);
}

#define BX 8
#define BY 4
#define BZ 3

__global__ void column_sums(const int *in, int *out, int X, int Y, int Z) {
  __shared__ int s[BZ][BY][BX];
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty, z = blockIdx.z * BZ + tz;
  bool inside = x < X && y < Y && z < Z;
  s[tz][ty][tx] = inside ? in[(z * Y + y) * X + x] : 0;
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < BZ; ++k)
    acc += s[k][ty][tx] * (k + 1) + s[k][ty][(tx + 1) % BX];
  if (inside)
    out[(z * Y + y) * X + x] = acc;
}

__global__ void tile_rotate(const int *in, int *out, int n) {
  extern __shared__ int tile[];
  int bd = blockDim.x * blockDim.y * blockDim.z;
  int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int nblocks = gridDim.x * gridDim.y * gridDim.z;
  for (int base = bid * bd; base < n; base += nblocks * bd) {
    int i = base + tid;
    int mine = i < n ? in[i] : -1;
    tile[tid] = mine;
    __syncthreads();
    int m = min(bd, n - base); // valid elements of this tile
    if (i < n)
      out[i] = tile[(tid + 1) % m] * 3 + mine;
    __syncthreads();
  }
}

int main() {
  const char *name = "grid3d";
  long failures = 0;
  Checksum sum;
  Lcg rng(13);

  // --- ids
  {
    dim3 grid(3, 2, 2), block(5, 3, 4);
    int X = 15, Y = 6, Z = 8, N = X * Y * Z;
    int4 *d;
    CHECK(cudaMalloc(&d, N * sizeof(int4)));
    POISON(d, N * sizeof(int4));
    ids<<<grid, block>>>(d);
    CHECK_LAUNCH();
    std::vector<int4> got(N);
    CHECK(cudaMemcpy(got.data(), d, N * sizeof(int4), cudaMemcpyDeviceToHost));
    Mismatches m("ids");
    for (int z = 0; z < Z; ++z)
      for (int y = 0; y < Y; ++y)
        for (int x = 0; x < X; ++x) {
          int k = (z * Y + y) * X + x;
          m.intAt(4 * k, got[k].x, x % 5 | (y % 3) << 8 | (z % 4) << 16);
          m.intAt(4 * k + 1, got[k].y, x / 5 | (y / 3) << 8 | (z / 4) << 16);
          m.intAt(4 * k + 2, got[k].z, 5 | 3 << 8 | 4 << 16);
          m.intAt(4 * k + 3, got[k].w, 3 | 2 << 8 | 2 << 16);
        }
    failures += m.count;
    sum.add(got.data(), N * sizeof(int4));
    CHECK(cudaFree(d));
  }

  const int X = 37, Y = 21, Z = 13, N = X * Y * Z;
  std::vector<int> h(N);
  for (int i = 0; i < N; ++i)
    h[i] = rng.range(-1000, 1000);
  int *din, *dout;
  CHECK(cudaMalloc(&din, N * sizeof(int)));
  CHECK(cudaMalloc(&dout, N * sizeof(int)));
  CHECK(cudaMemcpy(din, h.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  auto H = [&](int x, int y, int z) {
    x = std::min(std::max(x, 0), X - 1);
    y = std::min(std::max(y, 0), Y - 1);
    z = std::min(std::max(z, 0), Z - 1);
    return h[(z * Y + y) * X + x];
  };

  // --- stencil3d
  {
    POISON(dout, N * sizeof(int));
    stencil3d<<<dim3(2, 2, 3), dim3(8, 4, 2)>>>(din, dout, X, Y, Z);
    CHECK_LAUNCH();
    std::vector<int> got(N);
    CHECK(cudaMemcpy(got.data(), dout, N * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches m("stencil3d");
    for (int z = 0; z < Z; ++z)
      for (int y = 0; y < Y; ++y)
        for (int x = 0; x < X; ++x)
          m.intAt((z * Y + y) * X + x, got[(z * Y + y) * X + x],
                  6 * H(x, y, z) - H(x - 1, y, z) - H(x + 1, y, z) - H(x, y - 1, z) -
                      H(x, y + 1, z) - H(x, y, z - 1) - H(x, y, z + 1));
    failures += m.count;
    sum.add(got.data(), N * sizeof(int));
  }

  // --- column_sums
  {
    POISON(dout, N * sizeof(int));
    dim3 block(BX, BY, BZ), grid((X + BX - 1) / BX, (Y + BY - 1) / BY, (Z + BZ - 1) / BZ);
    column_sums<<<grid, block>>>(din, dout, X, Y, Z);
    CHECK_LAUNCH();
    std::vector<int> got(N);
    CHECK(cudaMemcpy(got.data(), dout, N * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches m("column_sums");
    auto S = [&](int x, int y, int z) {
      return x < X && y < Y && z < Z ? h[(z * Y + y) * X + x] : 0;
    };
    for (int z = 0; z < Z; ++z)
      for (int y = 0; y < Y; ++y)
        for (int x = 0; x < X; ++x) {
          int x0 = x / BX * BX, z0 = z / BZ * BZ, tx = x % BX;
          int acc = 0;
          for (int k = 0; k < BZ; ++k)
            acc += S(x, y, z0 + k) * (k + 1) + S(x0 + (tx + 1) % BX, y, z0 + k);
          m.intAt((z * Y + y) * X + x, got[(z * Y + y) * X + x], acc);
        }
    failures += m.count;
    sum.add(got.data(), N * sizeof(int));
  }

  // --- tile_rotate: block 4x3x5 = 60 threads, grid 2x2x3 = 12 blocks, n =
  // 10007 (tiles of 60; each block loops over ceil(167/12) or fewer tiles, the
  // last tile partial).
  {
    const int n = 10007;
    dim3 block(4, 3, 5), grid(2, 2, 3);
    int bd = 60;
    POISON(dout, N * sizeof(int));
    tile_rotate<<<grid, block, bd * sizeof(int)>>>(din, dout, n);
    CHECK_LAUNCH();
    std::vector<int> got(n);
    CHECK(cudaMemcpy(got.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    Mismatches m("tile_rotate");
    for (int i = 0; i < n; ++i) {
      int base = i / bd * bd, t = i - base, mm = std::min(bd, n - base);
      m.intAt(i, got[i], h[base + (t + 1) % mm] * 3 + h[i]);
    }
    failures += m.count;
    sum.add(got.data(), n * sizeof(int));
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return finish(name, failures, &sum);
}
