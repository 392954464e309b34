// Vector types: layout of the CUDA 13 ABI, make_*(), use on both sides.
#include <cuda_runtime.h>
#include <vector_types.h>
#include <vector_functions.h>

#define CHECK(T, S, A)                                                         \
  static_assert(sizeof(T) == S, "sizeof " #T);                                 \
  static_assert(alignof(T) == A, "alignof " #T);
CHECK(char1, 1, 1) CHECK(char2, 2, 2) CHECK(char3, 3, 1) CHECK(char4, 4, 4)
CHECK(uchar4, 4, 4) CHECK(short2, 4, 4) CHECK(short3, 6, 2)
CHECK(short4, 8, 8) CHECK(ushort4, 8, 8) CHECK(int1, 4, 4) CHECK(int2, 8, 8)
CHECK(int3, 12, 4) CHECK(int4, 16, 16) CHECK(uint2, 8, 8) CHECK(uint3, 12, 4)
CHECK(uint4, 16, 16) CHECK(long2, 16, 16) CHECK(ulong2, 16, 16)
CHECK(float1, 4, 4) CHECK(float2, 8, 8) CHECK(float3, 12, 4)
CHECK(float4, 16, 16) CHECK(longlong2, 16, 16) CHECK(ulonglong2, 16, 16)
CHECK(double1, 8, 8) CHECK(double2, 16, 16) CHECK(double3, 24, 8)
CHECK(double4_16a, 32, 16) CHECK(double4_32a, 32, 32)
CHECK(long4_16a, 32, 16) CHECK(ulong4_32a, 32, 32)
CHECK(longlong4_16a, 32, 16) CHECK(ulonglong4_32a, 32, 32)
CHECK(dim3, 12, 4)

__device__ float4 lerp4(float4 a, float4 b, float t) {
  return make_float4(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y),
                     a.z + t * (b.z - a.z), a.w + t * (b.w - a.w));
}

__global__ void vec_kernel(const float4 *a, const float4 *b, float4 *c,
                           int2 *i2, double2 *d2, uchar4 *px) {
  int i = threadIdx.x;
  c[i] = lerp4(a[i], b[i], 0.25f);
  float2 f2 = make_float2(c[i].x, c[i].y);
  float3 f3 = make_float3(f2.x, f2.y, 1.0f);
  i2[i] = make_int2((int)f3.x, (int)f3.z);
  d2[i] = make_double2(f2.x, f2.y);
  px[i] = make_uchar4(1, 2, 3, 255);
  uint3 u = make_uint3(1, 2, 3);
  dim3 d(u);
  uint3 back = d;
  i2[i].x += back.z;
}

int main() {
  float4 h = make_float4(1, 2, 3, 4);
  int3 i3 = make_int3(1, 2, 3);
  double4_32a w = make_double4_32a(1, 2, 3, 4);
  dim3 d(2, 3);
  return (int)(h.w + i3.z + w.w + d.x * d.y * d.z) == 24 ? 0 : 1;
}
