// Reference side of the GPU benchmark suite (bench/gpu/run.py): the same
// inputs as Tessel, run through NVIDIA's libraries, timed with CUDA events
// (warm-up, then one event pair around each run, runs back to back, median
// and spread), output written as .npy for the comparison.
//
//   bench-ref copy BYTES RUNS                       cudaMemcpy D2D (ceiling)
//   bench-ref sum  IN.npy OUT.npy RUNS              cub::DeviceReduce::Sum
//   bench-ref gemm A.npy B.npy OUT.npy RUNS ROTATE [nt] [tf32]
//                                                   cublasGemmEx, f32,
//                                                   CUBLAS_COMPUTE_32F_PEDANTIC;
//                                                   nt: B is NxK (C = A B^T).
//                                                   f16 (<f2) or bf16 (<u2, raw
//                                                   bits) A and B: tensor cores,
//                                                   the default math mode,
//                                                   CUBLAS_COMPUTE_32F, f32 C;
//                                                   3-D A and B (batch first):
//                                                   cublasGemmStridedBatchedEx;
//                                                   i8 (|i1) A and B:
//                                                   CUBLAS_COMPUTE_32I, i32 C
//                                                   (needs nt); tf32: f32 A, B
//                                                   on TF32 tensor cores
//                                                   (CUBLAS_COMPUTE_32F_FAST_TF32)
// Prints one JSON line. Every CUDA/cuBLAS call is checked; outputs are
// filled with 0xFF (NaN) before the run that is written out.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o bench-ref bench_ref.cu -lcublas
#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "bench-ref: %s failed: %s (%s:%d)\n", #x, cudaGetErrorString(e_),      \
                   __FILE__, __LINE__);                                                            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
#define CB(x)                                                                                      \
  do {                                                                                             \
    cublasStatus_t s_ = (x);                                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      std::fprintf(stderr, "bench-ref: %s failed: %s (%s:%d)\n", #x, cublasGetStatusString(s_),   \
                   __FILE__, __LINE__);                                                            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

namespace {

[[noreturn]] void die(const std::string &m) {
  std::fprintf(stderr, "bench-ref: %s\n", m.c_str());
  std::exit(1);
}

struct Array {
  std::vector<long> shape;
  std::vector<float> data;     // f32 arrays
  std::vector<uint16_t> half;  // f16 / bf16 arrays (raw bits)
  std::vector<int8_t> bytes8;  // i8 arrays
  cudaDataType type = CUDA_R_32F;
  size_t bytes() const {
    return type == CUDA_R_32F ? data.size() * 4 : type == CUDA_R_8I ? bytes8.size() : half.size() * 2;
  }
  const void *ptr() const {
    if (type == CUDA_R_32F)
      return data.data();
    if (type == CUDA_R_8I)
      return bytes8.data();
    return half.data();
  }
};

// .npy f32 C-order reader (versions 1-3).
Array readNpy(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    die("cannot open " + path);
  char magic[8];
  f.read(magic, 8);
  if (std::memcmp(magic, "\x93NUMPY", 6) != 0)
    die(path + ": not a .npy file");
  size_t hlen = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    f.read(reinterpret_cast<char *>(b), 2);
    hlen = b[0] | (b[1] << 8);
  } else {
    unsigned char b[4];
    f.read(reinterpret_cast<char *>(b), 4);
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (size_t(b[3]) << 24);
  }
  std::string header(hlen, ' ');
  f.read(&header[0], hlen);
  Array a;
  if (header.find("'<f2'") != std::string::npos)
    a.type = CUDA_R_16F;
  else if (header.find("'<u2'") != std::string::npos)
    a.type = CUDA_R_16BF;
  else if (header.find("'|i1'") != std::string::npos)
    a.type = CUDA_R_8I;
  else if (header.find("'<f4'") == std::string::npos)
    die(path + ": expected little-endian f32, f16 or bf16 (uint16 bits), header " + header);
  if (header.find("'fortran_order': False") == std::string::npos)
    die(path + ": expected C order, header " + header);
  size_t open = header.find('(', header.find("'shape'")), close = header.find(')', open);
  std::string dims = header.substr(open + 1, close - open - 1);
  size_t n = 1;
  for (size_t pos = 0; pos < dims.size();) {
    size_t comma = dims.find(',', pos);
    std::string tok = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (tok.find_first_of("0123456789") != std::string::npos) {
      a.shape.push_back(std::stol(tok));
      n *= a.shape.back();
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  if (a.type == CUDA_R_32F) {
    a.data.resize(n);
    f.read(reinterpret_cast<char *>(a.data.data()), n * sizeof(float));
  } else if (a.type == CUDA_R_8I) {
    a.bytes8.resize(n);
    f.read(reinterpret_cast<char *>(a.bytes8.data()), n);
  } else {
    a.half.resize(n);
    f.read(reinterpret_cast<char *>(a.half.data()), n * sizeof(uint16_t));
  }
  if (!f)
    die(path + ": truncated");
  return a;
}

// .npy of 4-byte values: f32 (descr <f4) or i32 (<i4).
template <typename T>
void writeNpy(const std::string &path, const std::vector<long> &shape, const std::vector<T> &v,
              const char *descr = "<f4") {
  std::string dims;
  for (long d : shape)
    dims += std::to_string(d) + ",";
  if (shape.size() > 1)
    dims.pop_back();
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                       dims + "), }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  unsigned short len = static_cast<unsigned short>(header.size());
  f.write(reinterpret_cast<const char *>(&len), 2);
  f << header;
  f.write(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T));
  if (!f)
    die("cannot write " + path);
}

// Runs `fn(i)` `warmup` times, then `runs` times with an event pair around
// each; prints the JSON stats (plus `extra`).
// Warm-up: `warmup` runs, then more until 25 ms of device time have passed
// (as tessel-bench --warmup-ms, and triton's do_bench).
constexpr float kWarmupMs = 25.0f;

template <typename F> void timeIt(F fn, int warmup, int runs, const std::string &extra) {
  cudaEvent_t w0, w1;
  CK(cudaEventCreate(&w0));
  CK(cudaEventCreate(&w1));
  CK(cudaEventRecord(w0));
  int done = 0;
  float warmedMs = 0;
  for (; done < warmup; ++done)
    fn(done);
  do {
    for (int j = 0; j < 4 && done < 100000; ++j)
      fn(done++);
    CK(cudaEventRecord(w1));
    CK(cudaEventSynchronize(w1));
    CK(cudaEventElapsedTime(&warmedMs, w0, w1));
  } while (warmedMs < kWarmupMs && done < 100000);
  CK(cudaEventDestroy(w0));
  CK(cudaEventDestroy(w1));
  CK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * runs);
  for (auto &e : ev)
    CK(cudaEventCreate(&e));
  for (int i = 0; i < runs; ++i) {
    CK(cudaEventRecord(ev[2 * i]));
    fn(i);
    CK(cudaEventRecord(ev[2 * i + 1]));
  }
  CK(cudaDeviceSynchronize());
  CK(cudaGetLastError());
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
    us.push_back(1000.0 * ms);
  }
  for (auto &e : ev)
    CK(cudaEventDestroy(e));
  std::sort(us.begin(), us.end());
  size_t n = us.size();
  auto at = [&](double q) { return us[static_cast<size_t>(q * (n - 1) + 0.5)]; };
  double median = n % 2 ? us[n / 2] : 0.5 * (us[n / 2 - 1] + us[n / 2]);
  std::printf("{\"median_us\": %.3f, \"min_us\": %.3f, \"p10_us\": %.3f, \"p90_us\": %.3f, "
              "\"max_us\": %.3f, \"runs\": %d%s}\n",
              median, us.front(), at(0.1), at(0.9), us.back(), runs, extra.c_str());
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    die("usage: bench-ref copy BYTES RUNS | sum IN OUT RUNS | gemm A B OUT RUNS ROTATE [nt]");
  std::string mode = argv[1];
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::string dev = std::string(", \"device\": \"") + prop.name + "\", \"l2_bytes\": " +
                    std::to_string(prop.l2CacheSize);

  if (mode == "copy" && argc == 4) {
    size_t bytes = std::stoull(argv[2]);
    int runs = std::atoi(argv[3]);
    void *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemset(a, 0x3c, bytes));
    timeIt([&](int) { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }, 3, runs,
           dev + ", \"bytes\": " + std::to_string(bytes));
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 0;
  }

  if (mode == "sum" && argc == 5) {
    Array x = readNpy(argv[2]);
    int runs = std::atoi(argv[4]);
    size_t n = x.data.size();
    float *dx, *dout;
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dout, sizeof(float)));
    CK(cudaMemcpy(dx, x.data.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    CK(cub::DeviceReduce::Sum(nullptr, tempBytes, dx, dout, static_cast<int64_t>(n)));
    void *temp;
    CK(cudaMalloc(&temp, tempBytes));
    CK(cudaMemset(dout, 0xFF, sizeof(float)));
    CK(cub::DeviceReduce::Sum(temp, tempBytes, dx, dout, static_cast<int64_t>(n)));
    CK(cudaDeviceSynchronize());
    std::vector<float> out(1);
    CK(cudaMemcpy(out.data(), dout, sizeof(float), cudaMemcpyDeviceToHost));
    writeNpy(argv[3], {}, out);
    timeIt([&](int) { CK(cub::DeviceReduce::Sum(temp, tempBytes, dx, dout, static_cast<int64_t>(n))); },
           5, runs, dev);
    return 0;
  }

  if (mode == "gemm" && argc >= 7 && argc <= 9) {
    Array a = readNpy(argv[2]), b = readNpy(argv[3]);
    int runs = std::atoi(argv[5]), rotate = std::max(1, std::atoi(argv[6]));
    bool transB = false, tf32 = false;
    for (int i = 7; i < argc; ++i) {
      std::string flag = argv[i];
      if (flag == "nt")
        transB = true;
      else if (flag == "tf32")
        tf32 = true;
      else
        die("gemm: unknown flag '" + flag + "' (nt, tf32)");
    }
    bool int8 = a.type == CUDA_R_8I;
    if (int8 && !transB)
      die("gemm: cuBLAS i8 needs B stored N x K (nt)");
    if (tf32 && a.type != CUDA_R_32F)
      die("gemm: tf32 needs f32 A and B");
    if (a.type != b.type)
      die("gemm: A and B have different types");
    bool batched = a.shape.size() == 3;
    size_t rank = batched ? 3 : 2;
    if (a.shape.size() != rank || b.shape.size() != rank ||
        (batched && a.shape[0] != b.shape[0]) ||
        a.shape[rank - 1] != b.shape[rank - (transB ? 1 : 2)])
      die(transB ? "gemm nt: A is [B]xMxK and B is [B]xNxK" : "gemm: A is [B]xMxK and B is [B]xKxN");
    int batch = batched ? a.shape[0] : 1;
    int m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[transB ? rank - 2 : rank - 1];
    size_t cCount = size_t(batch) * m * n;
    std::vector<void *> da(rotate), db(rotate);
    std::vector<void *> dc(rotate);
    for (int r = 0; r < rotate; ++r) {
      CK(cudaMalloc(&da[r], a.bytes()));
      CK(cudaMalloc(&db[r], b.bytes()));
      CK(cudaMalloc(&dc[r], 4 * cCount));
      CK(cudaMemcpy(da[r], a.ptr(), a.bytes(), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(db[r], b.ptr(), b.bytes(), cudaMemcpyHostToDevice));
      CK(cudaMemset(dc[r], 0xFF, 4 * cCount));
    }
    cublasHandle_t h;
    CB(cublasCreate(&h));
    // f32: exact f32 (no TF32) unless tf32. Others: cuBLAS's defaults,
    // tensor cores.
    bool exact = a.type == CUDA_R_32F && !tf32;
    CB(cublasSetMathMode(h, exact ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH));
    cublasComputeType_t compute = exact  ? CUBLAS_COMPUTE_32F_PEDANTIC
                                  : tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                  : int8 ? CUBLAS_COMPUTE_32I
                                         : CUBLAS_COMPUTE_32F;
    cudaDataType cType = int8 ? CUDA_R_32I : CUDA_R_32F;
    const float one = 1.0f, zero = 0.0f;
    const int32_t oneI = 1, zeroI = 0;
    const void *alpha = int8 ? static_cast<const void *>(&oneI) : &one;
    const void *beta = int8 ? static_cast<const void *>(&zeroI) : &zero;
    // Row-major C = A B is column-major C^T = B^T A^T; with B stored NxK
    // (row-major), the column-major KxN matrix it is must be transposed.
    auto gemm = [&](int i) {
      int r = i % rotate;
      cublasOperation_t opB = transB ? CUBLAS_OP_T : CUBLAS_OP_N;
      int ldb = transB ? k : n;
      if (batched)
        CB(cublasGemmStridedBatchedEx(h, opB, CUBLAS_OP_N, n, m, k, alpha, db[r], b.type, ldb,
                                      long(k) * n, da[r], a.type, k, long(m) * k, beta, dc[r],
                                      cType, n, long(m) * n, batch, compute,
                                      CUBLAS_GEMM_DEFAULT));
      else
        CB(cublasGemmEx(h, opB, CUBLAS_OP_N, n, m, k, alpha, db[r], b.type, ldb, da[r], a.type, k,
                        beta, dc[r], cType, n, compute, CUBLAS_GEMM_DEFAULT));
    };
    gemm(0);
    CK(cudaDeviceSynchronize());
    std::vector<long> shape = {m, n};
    if (batched)
      shape.insert(shape.begin(), batch);
    if (int8) {
      std::vector<int32_t> out(cCount);
      CK(cudaMemcpy(out.data(), dc[0], out.size() * 4, cudaMemcpyDeviceToHost));
      writeNpy(argv[4], shape, out, "<i4");
    } else {
      std::vector<float> out(cCount);
      CK(cudaMemcpy(out.data(), dc[0], out.size() * 4, cudaMemcpyDeviceToHost));
      writeNpy(argv[4], shape, out);
    }
    timeIt(gemm, 5, runs, dev + ", \"rotate\": " + std::to_string(rotate));
    CB(cublasDestroy(h));
    for (int r = 0; r < rotate; ++r) {
      CK(cudaFree(da[r]));
      CK(cudaFree(db[r]));
      CK(cudaFree(dc[r]));
    }
    return 0;
  }
  die("bad arguments for mode '" + mode + "'");
}
