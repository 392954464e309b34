// Writes the fuzzers' seed corpora (runtime/fuzz/corpus/), or with --check
// verifies that the committed ones are what this program writes (ctest
// fuzz_seeds), so that the seeds stay valid as the formats change. Modules
// are compared by Module::describeBytes, not byte for byte: the builder's
// layout depends on the compiler's argument evaluation order.
//   make_fuzz_seeds [--check] CORPUSDIR
// CORPUSDIR/fuzz_module: small valid modules (binaries are a few stand-in
// bytes, not the 20 KB test kernel library, so that mutations land in the
// FlatBuffer); CORPUSDIR/fuzz_npy: .npy files of every dtype, rank 0,
// empty, versions 1-3, and the headers the parser rejects (big-endian,
// fortran order); CORPUSDIR/fuzz_literal: tensor literals.
#include "test_module_builder.h"

#include "module_generated.h"

#include "tessel/runtime/module.h"
#include "tessel/runtime/npy.h"
#include "tessel/runtime/tensor.h"

#include <cstdio>
#include <exception>
#include <cstring>
#include <map>
#include <string>

using namespace tessel::rt;
using namespace tessel::rt::testutil;
namespace fb = tessel::fb;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes text(const std::string &s) { return Bytes(s.begin(), s.end()); }

// A module whose functions have no dispatch: loadable and callable by the
// fuzzer. f(a: 2x3xf32) -> a; g() -> constant 4xi32; h() -> transient 3xbf16.
ModuleDesc slotOnlyModule() {
  ModuleDesc m;
  TensorType a{ElementType::f32, {2, 3}};
  m.functions.push_back({"identity", {a}, {a}, {argumentSlot(0, a.byteSize())}, {}, {0}});
  m.functions.push_back({"constant",
                         {},
                         {TensorType{ElementType::i32, {4}}},
                         {constantSlotOf(std::vector<int32_t>{1, 2, 3, 4})},
                         {},
                         {0}});
  m.functions.push_back(
      {"transient", {}, {TensorType{ElementType::bf16, {3}}}, {transientSlot(6)}, {}, {0}});
  return m;
}

InstructionDesc op(fb::Opcode opcode, std::vector<int64_t> operands) {
  return InstructionDesc{static_cast<uint8_t>(opcode), std::move(operands)};
}

// Host programs (schema version 6) without dispatches: pick(n: i32, a, b:
// 3xf32) -> n > 2 ? a : b (a device read, a forward branch; callable by
// the fuzzer), and count(n: i64) -> 4xi32 constant after a loop of n
// integer steps (a back edge: described only).
ModuleDesc programModule() {
  ModuleDesc m;
  TensorType n{ElementType::i32, {}}, v{ElementType::f32, {3}};
  FunctionDesc pick{"pick", {n, v, v}, {v}, {}, {}, {}};
  ProgramDesc p;
  p.intRegisters = 3;
  p.bufferRegisters = 3;
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Argument, {1, 1}),
                    op(fb::Opcode_Argument, {2, 2}), op(fb::Opcode_Int, {0, 0}),
                    op(fb::Opcode_Read, {1, 0, 0, fb::ElementType_i32}),
                    op(fb::Opcode_Int, {2, 2}), op(fb::Opcode_CmpGt, {2, 1, 2}),
                    op(fb::Opcode_CondBranch, {2, 8, 9}), op(fb::Opcode_Return, {1}),
                    op(fb::Opcode_Return, {2})};
  pick.program = p;
  m.functions.push_back(pick);
  FunctionDesc count{"count", {TensorType{ElementType::i64, {}}},
                     {TensorType{ElementType::i32, {4}}}, {}, {}, {}};
  ProgramDesc q;
  q.intRegisters = 4;
  q.bufferRegisters = 2;
  q.constants = {Bytes(16, 7)};
  q.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Int, {0, 0}),
                    op(fb::Opcode_Read, {1, 0, 0, fb::ElementType_i64}),
                    op(fb::Opcode_Int, {2, 1}), op(fb::Opcode_CmpLt, {3, 0, 1}),
                    op(fb::Opcode_CondBranch, {3, 6, 8}), op(fb::Opcode_Add, {0, 0, 2}),
                    op(fb::Opcode_Branch, {4}), op(fb::Opcode_Constant, {1, 0}),
                    op(fb::Opcode_Return, {1})};
  count.program = q;
  m.functions.push_back(count);
  return m;
}

// Parameters and state (schema version 9) without dispatches:
// step(v: 3xf32) -> 3xf32 returns parameter w (its data in the module) and
// stores v into the mutable parameter s (starting as a splat of 1.0).
ModuleDesc stateModule() {
  ModuleDesc m;
  TensorType v{ElementType::f32, {3}};
  float w[3] = {0.5f, -2.0f, 8.0f}, one = 1.0f;
  Bytes wBytes(12), oneBytes(4);
  std::memcpy(wBytes.data(), w, 12);
  std::memcpy(oneBytes.data(), &one, 4);
  m.parameters.push_back({"layer.0/w", v, wBytes});
  m.parameters.push_back({"state", v, std::nullopt, /*isMutable=*/true, oneBytes});
  FunctionDesc step{"step", {v}, {v}, {}, {}, {}};
  ProgramDesc p;
  p.bufferRegisters = 3;
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Parameter, {1, 0}),
                    op(fb::Opcode_Parameter, {2, 1}), op(fb::Opcode_GlobalStore, {1, 0}),
                    op(fb::Opcode_Return, {1})};
  step.program = p;
  m.functions.push_back(step);
  return m;
}

// Dynamic shapes (schema version 7) without dispatches: rows(a: ?x3xf32)
// -> the first `a.dim(0) - 1` rows of a as ?x3xf32 (Dim, an Assert that a
// has a row, a result dimension in the Return; callable by the fuzzer).
// Plus a stand-in cpu export with push constants and a workgroup count
// program (described only: no function dispatches it).
ModuleDesc dynamicModule() {
  ModuleDesc m;
  ExecutableDesc e;
  e.binaries.push_back({"elf-shared-object", "x86_64", {}, text("stand-in binary"), std::nullopt});
  ExportDesc x{"add_n_f32", {}, 3};
  x.pushConstantCount = 1;
  x.workgroupCountProgram = CountProgramDesc{
      3,
      {op(fb::Opcode_Int, {1, 3}), op(fb::Opcode_Add, {1, 0, 1}), op(fb::Opcode_Int, {2, 4}),
       op(fb::Opcode_DivS, {1, 1, 2}), op(fb::Opcode_Int, {2, 1})},
      {1, 2, 2}};
  e.exports.push_back(x);
  m.executables.push_back(e);
  TensorType rows{ElementType::f32, {kDynamicDim, 3}};
  FunctionDesc f{"rows", {rows}, {rows}, {}, {}, {}};
  ProgramDesc p;
  p.intRegisters = 4;
  p.bufferRegisters = 2;
  p.messages = {"rows needs a row, got {} of {} columns"};
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Dim, {0, 0, 0}),
                    op(fb::Opcode_Dim, {3, 0, 1}),   op(fb::Opcode_Int, {1, 1}),
                    op(fb::Opcode_CmpGe, {2, 0, 1}), op(fb::Opcode_Assert, {2, 0, 0, 3}),
                    op(fb::Opcode_Sub, {0, 0, 1}),   op(fb::Opcode_Int, {1, 12}),
                    op(fb::Opcode_Mul, {1, 0, 1}),   op(fb::Opcode_Alloc, {1, 1}),
                    op(fb::Opcode_Return, {1, 0})};
  f.program = p;
  m.functions.push_back(f);
  return m;
}

// add(a, b: 2x3xf32) -> a + b over a stand-in cpu binary (described only).
ModuleDesc dispatchModule() {
  ModuleDesc m;
  ExecutableDesc e;
  e.binaries.push_back({"elf-shared-object", "x86_64", {}, text("stand-in binary"), std::nullopt});
  e.exports.push_back({"add_f32", {1, 1, 1}, 4});
  m.executables.push_back(e);
  TensorType t{ElementType::f32, {2, 3}};
  m.functions.push_back({"add",
                         {t, t},
                         {t},
                         {constantSlotOf(std::vector<int64_t>{6}), argumentSlot(0, 24),
                          argumentSlot(1, 24), transientSlot(24)},
                         {{0, {0, 1, 2, 3}}},
                         {3}});
  return m;
}

// Three executables (cpu with dispatch scratch, cuda for sm_90a with tensor
// maps, cuda for other archs; two binaries each, features, workgroup sizes,
// shared memory), two functions over every element type and rank 0.
ModuleDesc richModule() {
  ModuleDesc m;
  m.producer = "tessel-compile fuzz seed";
  ExecutableDesc cpu;
  cpu.binaries.push_back({"elf-shared-object", "x86_64", {"+avx2", "fma"}, text("elf"), std::nullopt});
  cpu.binaries.push_back({"elf-shared-object", "aarch64", {}, text("elf64"), std::nullopt});
  cpu.exports.push_back({"k0", {2, 3, 4}, 3});
  cpu.exports.push_back({"k1", {1, 1, 1}, 1});
  // Dispatch scratch (schema 5): 4096 bytes, the first 256 zeroed.
  cpu.exports[0].scratchBytes = 4096;
  cpu.exports[0].scratchZeroedBytes = 256;
  ExecutableDesc cuda;
  cuda.target = "cuda";
  cuda.binaries.push_back({"cubin", "sm_90", {}, text("cubin"), std::nullopt});
  cuda.binaries.push_back({"ptx", "sm_80", {}, text(".version 8.0"), std::nullopt});
  cuda.exports.push_back({"k0", {2, 3, 4}, 3, {128, 2, 1}, 49152});
  cuda.exports.push_back({"k1", {1, 1, 1}, 1, {32, 1, 1}, 0});
  ExecutableDesc hopper;
  hopper.target = "cuda";
  hopper.binaries.push_back({"cubin", "sm_90a", {}, text("cubin"), std::nullopt});
  hopper.binaries.push_back({"ptx", "sm_90a", {}, text(".version 8.0"), std::nullopt});
  TensorMapDesc a, c;
  c.binding = 2;
  c.dataType = 7;
  c.globalDims = {8, 4, 2};
  c.globalStrides = {32, 128};
  c.boxDims = {8, 4, 1};
  c.elementStrides = {1, 1, 1};
  c.swizzle = 0;
  hopper.exports.push_back({"k0", {2, 3, 4}, 3, {128, 1, 1}, 98304, {a, c}});
  hopper.exports.push_back({"k1", {1, 1, 1}, 1, {32, 1, 1}, 0, {}});
  m.executables = {cpu, hopper, cuda};
  TensorType f64{ElementType::f64, {}}, f16{ElementType::f16, {2, 2}}, i64{ElementType::i64, {1}},
      i16{ElementType::i16, {3}}, i8{ElementType::i8, {0, 5}}, i1{ElementType::i1, {8}};
  m.functions.push_back({"mixed types",
                         {f64, f16, i64},
                         {i16, i8},
                         {argumentSlot(0, 8), argumentSlot(1, 8), argumentSlot(2, 8),
                          transientSlot(6), transientSlot(0)},
                         {{0, {0, 1, 3}}, {1, {4}}},
                         {3, 4}});
  m.functions.push_back({"flags",
                         {i1},
                         {i1},
                         {argumentSlot(0, 8), constantSlot(Bytes(8, 1))},
                         {{1, {1}}},
                         {1}});
  return m;
}

// CUDA C kernels only (schema version 4): no functions; a cpu and a cuda
// executable whose exports are abi CudaC with their parameter sizes.
ModuleDesc cudaCModule() {
  ModuleDesc m;
  ExecutableDesc cpu;
  cpu.binaries.push_back({"elf-shared-object", "x86_64", {}, text("elf"), std::nullopt});
  cpu.exports = {cudaCExport("_Z4axpbPfPKfif", {8, 8, 4, 4}), cudaCExport("_Z4nonev", {})};
  cpu.exports[0].sharedMemoryBytes = 1024;
  ExecutableDesc cuda = cpu;
  cuda.target = "cuda";
  cuda.binaries = {{"ptx", "sm_80", {}, text(".version 8.0"), std::nullopt}};
  m.executables = {cpu, cuda};
  return m;
}

Bytes npyWithHeader(const std::string &dict, int major, const Bytes &data) {
  Bytes out = text("\x93NUMPY");
  out.push_back(static_cast<uint8_t>(major));
  out.push_back(0);
  size_t lenBytes = major == 1 ? 2 : 4;
  std::string header = dict + "\n";
  for (size_t i = 0; i < lenBytes; ++i)
    out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// A safetensors file: the header `json` padded to 8 bytes, then `data`.
Bytes safetensorsFile(std::string json, const Bytes &data) {
  json.append((8 - json.size() % 8) % 8, ' ');
  Bytes out(8);
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<uint8_t>(uint64_t(json.size()) >> (8 * i));
  out.insert(out.end(), json.begin(), json.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::map<std::string, Bytes> seeds() {
  std::map<std::string, Bytes> s;
  s["fuzz_module/empty.tmod"] = buildModule(ModuleDesc{});
  s["fuzz_module/slots.tmod"] = buildModule(slotOnlyModule());
  s["fuzz_module/dispatch.tmod"] = buildModule(dispatchModule());
  s["fuzz_module/rich.tmod"] = buildModule(richModule());
  s["fuzz_module/cuda_c.tmod"] = buildModule(cudaCModule());
  s["fuzz_module/program.tmod"] = buildModule(programModule());
  s["fuzz_module/dynamic.tmod"] = buildModule(dynamicModule());
  s["fuzz_module/state.tmod"] = buildModule(stateModule());
  s["fuzz_parameters/two.safetensors"] = safetensorsFile(
      R"({"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
      R"("b":{"dtype":"BF16","shape":[3],"data_offsets":[16,22]}})",
      Bytes(22, 0x3f));
  s["fuzz_parameters/types.safetensors"] = safetensorsFile(
      R"({"a":{"dtype":"I64","shape":[],"data_offsets":[0,8]},"m":{"dtype":"BOOL","shape":[4],)"
      R"("data_offsets":[8,12]},"e":{"dtype":"F16","shape":[0,3],"data_offsets":[12,12]}})",
      Bytes(12, 1));
  ModuleDesc v3 = dispatchModule();
  v3.version = 3;
  s["fuzz_module/dispatch_v3.tmod"] = buildModule(v3);

  const char *literals[] = {"2x3xf32=1,2,3,4,5,6", "f32=1.5",         "4x4xi32=-7",
                            "4xi1=true,0,1,false", "i64=-9007199254740993", "3xf16=nan,inf,-inf",
                            "2xbf16=1.5,-2e3",     "0x3xf32=",        "2xf64=0.1,1e-300",
                            "3xi16=-32768,0,32767", "2xi8= -128 , 127", "2x2x1xf32=1"};
  for (size_t i = 0; i < std::size(literals); ++i)
    s["fuzz_literal/" + std::to_string(i) + ".txt"] = text(literals[i]);

  struct Npy {
    const char *name, *literal;
  } npys[] = {{"f64", "2xf64=1.5,-2"}, {"f32", "2x3xf32=1,2,3,4,5,6"}, {"f16", "3xf16=1,nan,-inf"},
              {"bf16", "2xbf16=1.5,-2"}, {"i64", "2xi64=-1,7"},     {"i32", "i32=42"},
              {"i16", "1x2xi16=-3,3"},   {"i8", "4xi8=-128,0,1,127"}, {"i1", "3xi1=1,0,1"},
              {"empty", "0x4xf32="}};
  for (const Npy &n : npys)
    s["fuzz_npy/" + std::string(n.name) + ".npy"] = encodeNpy(*parseTensorLiteral(n.literal));
  Bytes f4 = encodeNpy(*parseTensorLiteral("2xf32=1,2"));
  Bytes f4data(f4.end() - 8, f4.end());
  s["fuzz_npy/big_endian.npy"] =
      npyWithHeader("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 1, f4data);
  s["fuzz_npy/fortran.npy"] =
      npyWithHeader("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }", 1, f4data);
  s["fuzz_npy/v2_long.npy"] =
      npyWithHeader("{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2L,)}", 2, f4data);
  s["fuzz_npy/v3_bfloat16.npy"] =
      npyWithHeader("{'descr': 'bfloat16', 'fortran_order': False, 'shape': (2,)}", 3, Bytes(4, 0x3f));
  s["fuzz_npy/u1.npy"] =
      npyWithHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (3,)}", 1, Bytes{0, 1, 2});
  s["fuzz_npy/v2_rank0.npy"] =
      npyWithHeader("{'descr': '<i8', 'fortran_order': False, 'shape': ()}", 2, Bytes(8, 0));
  return s;
}

Bytes readFile(const std::string &path, bool &ok) {
  Bytes bytes;
  FILE *f = std::fopen(path.c_str(), "rb");
  ok = f != nullptr;
  if (!f)
    return bytes;
  int c;
  while ((c = std::fgetc(f)) != EOF)
    bytes.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  return bytes;
}

// Whether a committed seed is what `expected` stands for.
bool sameSeed(const std::string &name, const Bytes &committed, const Bytes &expected) {
  if (name.size() < 5 || name.substr(name.size() - 5) != ".tmod")
    return committed == expected;
  auto a = Module::describeBytes(committed, name);
  auto b = Module::describeBytes(expected, name);
  return a.ok() && b.ok() && *a == *b;
}

bool writeFile(const std::string &path, const Bytes &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = f && std::fclose(f) == 0 && ok;
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::fprintf(stderr, "usage: make_fuzz_seeds [--check] CORPUSDIR\n");
    return 2;
  }
  std::string dir = argv[argc - 1];
  try {
    int bad = 0;
    for (const auto &[name, bytes] : seeds()) {
      std::string path = dir + "/" + name;
      if (check) {
        bool ok;
        Bytes committed = readFile(path, ok);
        if (!ok || !sameSeed(name, committed, bytes)) {
          std::fprintf(stderr, "make_fuzz_seeds: %s is %s\n", path.c_str(),
                       ok ? "out of date" : "missing");
          ++bad;
        }
      } else if (!writeFile(path, bytes)) {
        std::fprintf(stderr, "make_fuzz_seeds: cannot write '%s'\n", path.c_str());
        ++bad;
      }
    }
    if (bad && check)
      std::fprintf(stderr, "make_fuzz_seeds: regenerate with: make_fuzz_seeds %s\n", dir.c_str());
    return bad ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "make_fuzz_seeds: %s\n", e.what());
    return 1;
  }
}
