// The driver API subset of cuda.h.
#include <cuda.h>
#include <cstdio>

int main() {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr p;
  CUstream s;
  CUevent e0, e1;
  const char *msg = nullptr;
  int major = 0, n = 0;
  char name[128];
  size_t total = 0;
  if (cuInit(0) != CUDA_SUCCESS)
    return 1;
  cuDeviceGetCount(&n);
  cuDeviceGet(&dev, 0);
  cuDeviceGetName(name, sizeof(name), dev);
  cuDeviceTotalMem(&total, dev);
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       dev);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  cuModuleLoad(&mod, "kernel.cubin");
  cuModuleGetFunction(&fn, mod, "k");
  cuMemAlloc(&p, 1024);
  cuStreamCreate(&s, 0);
  cuEventCreate(&e0, 0);
  cuEventCreate(&e1, 0);
  cuEventRecord(e0, s);
  void *args[] = {&p};
  CUresult r = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr);
  cuEventRecord(e1, s);
  cuStreamSynchronize(s);
  float ms;
  cuEventElapsedTime(&ms, e0, e1);
  cuGetErrorString(r, &msg);
  cuMemFree(p);
  cuEventDestroy(e0);
  cuEventDestroy(e1);
  cuStreamDestroy(s);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  printf("%s %d %zu %s %f\n", name, major, total, msg, ms);
  return 0;
}
