// Texture objects (CUDA 13 has no texture references).
#include <cuda_runtime.h>

__global__ void tex_kernel(cudaTextureObject_t t1, cudaTextureObject_t t2,
                           float *out) {
  int i = threadIdx.x;
  float a = tex1Dfetch<float>(t1, i);
  float4 b = tex2D<float4>(t2, i + 0.5f, 0.5f);
  float c = tex2DLod<float>(t2, 0.5f, 0.5f, 0.0f);
  out[i] = a + b.x + c;
}

int main() {
  float *buf;
  cudaMalloc(&buf, 1024 * sizeof(float));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buf;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = 1024 * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  td.filterMode = cudaFilterModePoint;
  td.addressMode[0] = cudaAddressModeClamp;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  tex_kernel<<<1, 32>>>(t, t, buf);
  cudaDestroyTextureObject(t);
  cudaFree(buf);
  return 0;
}
