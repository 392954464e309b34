// Writes the BLOB (tessel/runtime/cuda_c_abi.h) embedded into
// test/cudart/axpb_program.cu's host object: a module whose CUDA C kernel
// _Z4axpbPfPKfifx (axpb(float*, float const*, int, float, long long)) is the
// cpu kernel of test/kernels/test_kernels.c and, with --ptx, also the PTX.
//   make_cudart_blob OUT.bin [--ptx=axpb_program.sm_80.ptx]
#include "test_module_builder.h"

#include <cstdio>
#include <exception>
#include <string>

using namespace tessel::rt::testutil;

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]).rfind("--ptx=", 0) != 0)) {
    std::fprintf(stderr, "usage: make_cudart_blob OUT.bin [--ptx=FILE]\n");
    return 2;
  }
  try {
    ModuleDesc m = testModule();
    m.producer = "make_cudart_blob";
    m.executables[0].exports = {cudaCExport("_Z4axpbPfPKfifx", {8, 8, 4, 4, 8})};
    if (argc == 3) {
      std::string path = std::string(argv[2]).substr(6);
      FILE *f = std::fopen(path.c_str(), "rb");
      if (!f) {
        std::fprintf(stderr, "make_cudart_blob: cannot open '%s'\n", path.c_str());
        return 1;
      }
      std::vector<uint8_t> ptx;
      int c;
      while ((c = std::fgetc(f)) != EOF)
        ptx.push_back(static_cast<uint8_t>(c));
      std::fclose(f);
      ExecutableDesc cuda;
      cuda.target = "cuda";
      cuda.exports = m.executables[0].exports;
      cuda.binaries.push_back({"ptx", "sm_80", {}, ptx, std::nullopt});
      m.executables.push_back(cuda);
    }
    std::vector<uint8_t> blob = cudaBlob(buildModule(m));
    FILE *out = std::fopen(argv[1], "wb");
    bool ok = out && std::fwrite(blob.data(), 1, blob.size(), out) == blob.size();
    ok = out && std::fclose(out) == 0 && ok;
    if (!ok) {
      std::fprintf(stderr, "make_cudart_blob: cannot write '%s'\n", argv[1]);
      return 1;
    }
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "make_cudart_blob: %s\n", e.what());
    return 1;
  }
}
