// Writes the .tmod files used by the tessel-run tests (tessel_run_test.py):
//   OUTDIR/add.tmod    one function: add(2x3xf32, 2x3xf32) -> 2x3xf32
//   OUTDIR/multi.tmod  add(2x3xf32, 2x3xf32) -> 2x3xf32 and
//                      add_scale(7xf32, 7xf32) -> (7xf32 (a+b)*2, 7xf32 a+b)
#include "test_module_builder.h"

#include <cstdio>
#include <exception>

using namespace tessel::rt::testutil;

static bool write(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = f && std::fclose(f) == 0 && ok;
  if (!ok)
    std::fprintf(stderr, "make_test_module: cannot write '%s'\n", path.c_str());
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_module OUTDIR\n");
    return 2;
  }
  try {
    std::string dir = argv[1];
    ModuleDesc single = testModule();
    addAddFunction(single, "add", {2, 3});
    ModuleDesc multi = testModule();
    addAddFunction(multi, "add", {2, 3});
    addAddScaleFunction(multi, "add_scale", 7, 2.0f);
    return write(dir + "/add.tmod", buildModule(single)) &&
                   write(dir + "/multi.tmod", buildModule(multi))
               ? 0
               : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "make_test_module: %s\n", e.what());
    return 1;
  }
}
