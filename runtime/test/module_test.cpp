// Tests of module loading and calling: real kernels on random odd-sized
// inputs, result aliasing, multi-dispatch chains, argument validation, and
// corrupt modules (checksums, trailer, bad indices, sizes, limits, names,
// symbols, arch, truncation, flips).
#include "tessel/runtime/module.h"
#include "test_module_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>

using namespace tessel::rt;
using namespace tessel::rt::testutil;

namespace {

class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto d = createDevice("cpu");
    ASSERT_TRUE(d.ok()) << d.status().toString();
    device = *d;
  }

  std::shared_ptr<Module> load(const ModuleDesc &desc) {
    auto m = Module::loadBytes(device, buildModule(desc), "test.tmod");
    EXPECT_TRUE(m.ok()) << m.status().toString();
    return m.ok() ? *m : nullptr;
  }

  // The load error of `desc` (empty if it loads).
  std::string loadError(const ModuleDesc &desc) {
    auto m = Module::loadBytes(device, buildModule(desc), "bad.tmod");
    return m.ok() ? "" : m.status().message();
  }

  HostTensor randomF32(std::vector<int64_t> shape) {
    HostTensor t = HostTensor::zeros(TensorType{ElementType::f32, std::move(shape)});
    std::uniform_real_distribution<float> dist(-10, 10);
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.data<float>()[i] = dist(rng);
    return t;
  }

  std::shared_ptr<Device> device;
  std::mt19937 rng{42};
};

ModuleDesc addModule(std::vector<int64_t> shape) {
  ModuleDesc m = testModule();
  addAddFunction(m, "add", std::move(shape));
  return m;
}

// Error text must never carry raw bytes from a damaged file.
bool isPrintableAscii(const std::string &s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

} // namespace

TEST_F(ModuleTest, AddOnOddSizes) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{1}, {7}, {64}, {65}, {1001}, {3, 37}, {}}) {
    auto module = load(addModule(shape));
    ASSERT_TRUE(module);
    HostTensor a = randomF32(shape), b = randomF32(shape);
    auto out = module->call("add", {a, b});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    ASSERT_EQ(out->size(), 1u);
    const HostTensor &r = (*out)[0];
    EXPECT_EQ(r.type, a.type);
    for (int64_t i = 0; i < a.numElements(); ++i)
      ASSERT_EQ(r.data<float>()[i], a.data<float>()[i] + b.data<float>()[i]) << i;
  }
}

// Calls of a program without Reads replay a recording kept by the function
// (its buffers too): each call still sees only its own inputs.
TEST_F(ModuleTest, RepeatedCallsReuseTheRecording) {
  ModuleDesc desc = testModule();
  addAddScaleFunction(desc, "add_scale", 101, 0.5f);
  auto module = load(desc);
  ASSERT_TRUE(module);
  for (int call = 0; call < 5; ++call) {
    HostTensor a = randomF32({101}), b = randomF32({101});
    auto out = module->call("add_scale", {a, b});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    for (int64_t i = 0; i < 101; ++i) {
      float sum = a.data<float>()[i] + b.data<float>()[i];
      ASSERT_EQ((*out)[1].data<float>()[i], sum) << "call " << call << " element " << i;
      ASSERT_EQ((*out)[0].data<float>()[i], sum * 0.5f) << "call " << call << " element " << i;
    }
  }
}

TEST_F(ModuleTest, MultiDispatchChainThroughTransients) {
  ModuleDesc desc = testModule();
  addAddFunction(desc, "add", {5});
  addAddScaleFunction(desc, "add_scale", 131, -1.5f);
  auto module = load(desc);
  ASSERT_TRUE(module);
  EXPECT_EQ(module->functions().size(), 2u);
  HostTensor a = randomF32({131}), b = randomF32({131});
  auto out = module->call("add_scale", {a, b});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  ASSERT_EQ(out->size(), 2u);
  for (int i = 0; i < 131; ++i) {
    float sum = a.data<float>()[i] + b.data<float>()[i];
    ASSERT_EQ((*out)[0].data<float>()[i], sum * -1.5f);
    ASSERT_EQ((*out)[1].data<float>()[i], sum);
  }
  auto fn = module->lookupFunction("add_scale");
  ASSERT_TRUE(fn.ok());
  EXPECT_EQ((*fn)->dispatchCount(), 2u);
  EXPECT_EQ((*fn)->signature(), "(131xf32, 131xf32) -> (131xf32, 131xf32)");
  EXPECT_CONTAINS(module->describe(), "function add_scale(131xf32, 131xf32)");
}

// A persistent grid (cuda: launched with at most N blocks per SM of the
// device) is read and described; the cpu driver runs the grid as given.
TEST_F(ModuleTest, PersistentGridIsDescribed) {
  ModuleDesc desc = addModule({5});
  desc.executables[0].exports[0].residentBlocksPerSm = 2;
  auto module = load(desc);
  ASSERT_TRUE(module);
  EXPECT_CONTAINS(module->describe(), "persistent grid (at most 2 per SM)");
}

TEST_F(ModuleTest, KernelUsingLibm) {
  const int64_t n = 77;
  ModuleDesc desc = testModule();
  TensorType t{ElementType::f32, {n}};
  FunctionDesc f{"exp", {t}, {t}, {}, {}, {}};
  f.slots = {constantSlotOf(std::vector<int64_t>{n}), argumentSlot(0, t.byteSize()),
             transientSlot(t.byteSize())};
  f.dispatches = {{addExport(desc, "exp_f32", workgroupsFor(n), 3), {0, 1, 2}}};
  f.resultSlots = {2};
  desc.functions.push_back(f);
  auto module = load(desc);
  ASSERT_TRUE(module);
  HostTensor a = randomF32({n});
  auto out = module->call("exp", {a});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  for (int i = 0; i < n; ++i) {
    float e = std::exp(a.data<float>()[i]);
    ASSERT_NEAR((*out)[0].data<float>()[i], e, 1e-5 * e);
  }
}

TEST_F(ModuleTest, AliasedResultsComeBackAsCopies) {
  // f(a: 6xf32) -> (a, a as 2x3, constant, constant): no dispatches at all.
  TensorType flat{ElementType::f32, {6}}, grid{ElementType::f32, {2, 3}};
  std::vector<float> constant = {1, 2, 3, 4, 5, 6};
  ModuleDesc desc;
  FunctionDesc f{"alias", {flat}, {flat, grid, grid, flat}, {}, {}, {}};
  f.slots = {argumentSlot(0, 24), constantSlotOf(constant)};
  f.resultSlots = {0, 0, 1, 1};
  desc.functions.push_back(f);
  auto module = load(desc); // no executable needed without dispatches
  ASSERT_TRUE(module);
  HostTensor a = randomF32({6});
  for (int call = 0; call < 2; ++call) {
    auto out = module->call("alias", {a});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    ASSERT_EQ(out->size(), 4u);
    EXPECT_EQ((*out)[0].bytes, a.bytes);
    EXPECT_EQ((*out)[1].bytes, a.bytes);
    EXPECT_EQ((*out)[1].type, grid);
    EXPECT_EQ((*out)[2].data<float>()[5], 6.0f);
    EXPECT_NE((*out)[0].bytes.data(), (*out)[1].bytes.data());
    EXPECT_NE((*out)[2].bytes.data(), (*out)[3].bytes.data());
    (*out)[0].data<float>()[0] = 1e9f; // results are the caller's to modify
    EXPECT_NE(a.data<float>()[0], 1e9f);
  }
}

TEST_F(ModuleTest, InPlaceKernelDoesNotTouchCallerInput) {
  // wg_ids_i32 updates its second binding in place; here that is the
  // argument slot, which is also the result.
  TensorType t{ElementType::i32, {3, 6, 4}};
  ModuleDesc desc = testModule();
  uint32_t ordinal = addExport(desc, "wg_ids_i32", 4, 2);
  desc.executables[0].exports[ordinal].workgroupCount = {4, 6, 3};
  FunctionDesc f{"ids", {t}, {t}, {}, {}, {}};
  f.slots = {constantSlotOf(std::vector<int64_t>{4, 6, 3}), argumentSlot(0, t.byteSize())};
  f.dispatches = {{ordinal, {0, 1}}};
  f.resultSlots = {1};
  desc.functions.push_back(f);
  auto module = load(desc);
  ASSERT_TRUE(module);
  HostTensor in = HostTensor::zeros(t);
  for (int i = 0; i < 72; ++i)
    in.data<int32_t>()[i] = static_cast<int32_t>(rng() % 1000);
  HostTensor original = in;
  auto out = module->call("ids", {in});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(in.bytes, original.bytes);
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 4; ++x) {
        int i = (z * 6 + y) * 4 + x;
        EXPECT_EQ((*out)[0].data<int32_t>()[i], in.data<int32_t>()[i] + 1 + x + 100 * y + 10000 * z);
      }
}

TEST_F(ModuleTest, ConcurrentCalls) {
  auto module = load(addModule({333}));
  ASSERT_TRUE(module);
  HostTensor a = randomF32({333}), b = randomF32({333});
  auto work = [&](bool &ok) {
    ok = true;
    for (int i = 0; i < 50 && ok; ++i) {
      auto out = module->call("add", {a, b});
      ok = out.ok() && (*out)[0].data<float>()[332] == a.data<float>()[332] + b.data<float>()[332];
    }
  };
  bool ok1 = false, ok2 = false;
  std::thread t([&] { work(ok1); });
  work(ok2);
  t.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
}

TEST_F(ModuleTest, ArgumentErrorsNameTheArgument) {
  ModuleDesc desc = testModule();
  addAddFunction(desc, "main", {4, 6});
  auto module = load(desc);
  ASSERT_TRUE(module);
  HostTensor good = randomF32({4, 6});
  auto err = [&](std::vector<HostTensor> in) {
    auto out = module->call("main", in);
    return out.ok() ? std::string() : out.status().message();
  };
  EXPECT_EQ(err({good, randomF32({4, 5})}),
            "function 'main': argument 1 has type 4x5xf32 but expected 4x6xf32 (dimension 1 is "
            "5, expected 6)");
  EXPECT_EQ(err({good, randomF32({4})}),
            "function 'main': argument 1 has type 4xf32 but expected 4x6xf32");
  // A tensor's type is static: "?" in one is refused, never matched.
  HostTensor dynamic = good;
  dynamic.type.shape[0] = kDynamicDim;
  EXPECT_EQ(err({good, dynamic}),
            "function 'main': argument 1: type ?x6xf32 has a dynamic dimension (?): only "
            "function signatures have them, a tensor's shape is static");
  EXPECT_EQ(err({good, good, good}), "function 'main' expects 2 arguments, got 3");
  EXPECT_EQ(err({}), "function 'main' expects 2 arguments, got 0");
  EXPECT_EQ(err({HostTensor::zeros(TensorType{ElementType::i32, {4, 6}}), good}),
            "function 'main': argument 0 has type 4x6xi32 but expected 4x6xf32");
  HostTensor shortBytes = good;
  shortBytes.bytes.resize(10);
  EXPECT_CONTAINS(err({good, shortBytes}), "argument 1 of type 4x6xf32 holds 10 bytes");
  auto missing = module->call("nope", {good, good});
  ASSERT_FALSE(missing.ok());
  EXPECT_CONTAINS(missing.status().message(), "no function 'nope' (available: main)");
}

TEST_F(ModuleTest, StructuralErrorsNameTheProblem) {
  struct Case {
    const char *what;
    void (*breakIt)(ModuleDesc &);
    std::string needle;
  } cases[] = {
      {"binding slot", [](ModuleDesc &m) { m.functions[0].dispatches[0].bindings[3] = 9; },
       "module file 'bad.tmod': function 'add': dispatch 0 binds slot 9 but there are 4 slots"},
      {"result slot", [](ModuleDesc &m) { m.functions[0].resultSlots[0] = 4; },
       "function 'add': result 0 is in slot 4 but there are 4 slots"},
      {"result count", [](ModuleDesc &m) { m.functions[0].resultSlots.push_back(3); },
       "has 1 results but 2 result slots"},
      {"argument index", [](ModuleDesc &m) { m.functions[0].slots[2].argument = 2; },
       "slot 2 is argument 2 but there are 2 arguments"},
      {"argument size", [](ModuleDesc &m) { m.functions[0].slots[1].byteSize = 20; },
       "slot 1 holds argument 0 of type 7xf32 (28 bytes) but has byte_size 20"},
      {"result size", [](ModuleDesc &m) { m.functions[0].slots[3].byteSize = 32; },
       "result 0 of type 7xf32 (28 bytes) is in slot 3 of byte_size 32"},
      {"constant size", [](ModuleDesc &m) { m.functions[0].slots[0].byteSize = 16; },
       "slot 0 is a constant of byte_size 16 but has 8 bytes of data"},
      {"slot kind", [](ModuleDesc &m) { m.functions[0].slots[3].kind = 7; },
       "slot 3 has unknown kind 7"},
      {"negative shape", [](ModuleDesc &m) { m.functions[0].results[0].shape = {-7}; },
       "result 0: type -7xf32 has a negative dimension"},
      {"element type",
       [](ModuleDesc &m) { m.functions[0].arguments[1].elementType = static_cast<ElementType>(42); },
       "argument 1 has unknown element type 42"},
      {"ordinal", [](ModuleDesc &m) { m.functions[0].dispatches[0].ordinal = 3; },
       "dispatch 0 uses export 3 but executable 0 (cpu) has 1 exports"},
      {"binding count", [](ModuleDesc &m) { m.functions[0].dispatches[0].bindings.pop_back(); },
       "dispatch 0 has 3 bindings but export 'add_f32' of executable 0 (cpu) takes 4"},
      {"workgroup entries", [](ModuleDesc &m) { m.executables[0].exports[0].workgroupCount = {1, 1}; },
       "export 0 'add_f32': workgroup_count must have 3 entries"},
      {"workgroup zero", [](ModuleDesc &m) { m.executables[0].exports[0].workgroupCount = {1, 0, 1}; },
       "workgroup_count entries must be > 0"},
      {"workgroup total",
       [](ModuleDesc &m) { m.executables[0].exports[0].workgroupCount = {1u << 20, 1u << 20, 2}; },
       "more than 1099511627776 workgroups"},
      {"workgroup product wraps to 0 in 64 bits",
       [](ModuleDesc &m) { m.executables[0].exports[0].workgroupCount = {1u << 20, 1u << 20, 1u << 24}; },
       "more than 1099511627776 workgroups"},
      {"resident blocks per SM",
       [](ModuleDesc &m) { m.executables[0].exports[0].residentBlocksPerSm = 33; },
       "export 0 'add_f32': resident_blocks_per_sm 33 (at most 32, and 0 for a CUDA C kernel"},
      {"workgroup size zero",
       [](ModuleDesc &m) { m.executables[0].exports[0].workgroupSize = {32, 0, 1}; },
       "export 0 'add_f32': workgroup_size entries must be > 0 and multiply to at most 1024 threads"},
      {"workgroup size too large",
       [](ModuleDesc &m) { m.executables[0].exports[0].workgroupSize = {64, 32, 1}; },
       "workgroup_size entries must be > 0 and multiply to at most 1024 threads"},
      {"workgroup size entries",
       [](ModuleDesc &m) { m.executables[0].exports[0].workgroupSize = {64}; },
       "workgroup_size must have 3 entries"},
      {"shared memory",
       [](ModuleDesc &m) { m.executables[0].exports[0].sharedMemoryBytes = 227 * 1024 + 1; },
       "export 0 'add_f32': 232449 bytes of shared memory (at most 232448)"},
      {"binding count limit",
       [](ModuleDesc &m) { m.executables[0].exports[0].bindingCount = 5000; },
       "export 0 'add_f32': 5000 bindings (at most 4096)"},
      {"export name", [](ModuleDesc &m) { m.executables[0].exports[0].name = "add\x01\xff"; },
       "executable 0 (cpu): export 0: name is not printable ASCII without spaces (5 bytes)"},
      {"export name empty", [](ModuleDesc &m) { m.executables[0].exports[0].name = ""; },
       "executable 0 (cpu): export 0: name is missing"},
      {"export name long",
       [](ModuleDesc &m) { m.executables[0].exports[0].name = std::string(2000, 'a'); },
       "export 0: name is 2000 bytes long (at most 1024)"},
      {"function name", [](ModuleDesc &m) { m.functions[0].name = "a\nb"; },
       "function 0: name is not printable ASCII (3 bytes)"},
      {"target name", [](ModuleDesc &m) { m.executables[0].target = "c\tpu"; },
       "executable 0: target is not printable ASCII without spaces (4 bytes)"},
      {"arch name", [](ModuleDesc &m) { m.executables[0].binaries[0].arch = "x86 64"; },
       "executable 0 (cpu): binary 0: arch is not printable ASCII without spaces"},
      {"feature name",
       [](ModuleDesc &m) { m.executables[0].binaries[0].features = {"avx2", "\x80"}; },
       "binary 0 (elf-shared-object " + hostArchName() + "): feature 1 is not printable ASCII"},
      {"transient with data",
       [](ModuleDesc &m) {
         m.functions[0].slots[3].data = {1, 2, 3};
         m.functions[0].slots[3].hasData = true;
       },
       "function 'add': slot 3 is not a constant but carries 3 bytes of data"},
      {"export counts differ",
       [](ModuleDesc &m) {
         ExecutableDesc cuda = m.executables[0];
         cuda.target = "cuda";
         cuda.exports.push_back(cuda.exports[0]);
         m.executables.push_back(cuda);
       },
       "executable 1 (cuda) has 2 exports but executable 0 (cpu) has 1"},
      {"binary checksum",
       [](ModuleDesc &m) {
         BinaryDesc &b = m.executables[0].binaries[0];
         b.crc32 = crc32Of(b.data) ^ 0x10u;
       },
       "executable 0 (cpu): cpu binary 0 (elf-shared-object " + hostArchName() +
           "): checksum mismatch: the binary is damaged (expected crc32 0x"},
      {"newer version", [](ModuleDesc &m) { m.version = 10; },
       "module file 'bad.tmod' has schema version 10 but this runtime reads versions 3 to 9"},
      {"older version", [](ModuleDesc &m) { m.version = 2; },
       "module file 'bad.tmod' has schema version 2 but this runtime reads versions 3 to 9: "
       "recompile it with tessel-compile"},
      {"scratch in version 4",
       [](ModuleDesc &m) {
         m.version = 4;
         m.executables[0].exports[0].scratchBytes = 64;
       },
       "export 0 'add_f32': has dispatch scratch (scratch_bytes), which needs schema version 5, "
       "but the module has version 4"},
      {"scratch on cuda",
       [](ModuleDesc &m) {
         ExecutableDesc cuda = m.executables[0];
         cuda.target = "cuda";
         cuda.exports[0].scratchBytes = 64;
         m.executables.push_back(cuda);
       },
       "executable 1 (cuda): export 0 'add_f32': has dispatch scratch (scratch_bytes), which only "
       "cpu kernels of abi Bindings take (target 'cuda')"},
      {"scratch zeroed past its end",
       [](ModuleDesc &m) {
         m.executables[0].exports[0].scratchBytes = 64;
         m.executables[0].exports[0].scratchZeroedBytes = 65;
       },
       "export 0 'add_f32': scratch_bytes 64 and scratch_zeroed_bytes 65 (at most 68719476736, "
       "the zeroed bytes at most the scratch)"},
      {"scratch too large",
       [](ModuleDesc &m) { m.executables[0].exports[0].scratchBytes = uint64_t(1) << 40; },
       "scratch_bytes 1099511627776 and scratch_zeroed_bytes 0 (at most 68719476736"},
      {"tensor map on cpu",
       [](ModuleDesc &m) { m.executables[0].exports[0].tensorMaps.push_back({}); },
       "executable 0 (cpu): export 0 'add_f32': has 1 tensor map but only cuda kernels take "
       "them (target 'cpu')"},
      {"duplicate", [](ModuleDesc &m) { m.functions.push_back(m.functions[0]); },
       "function 'add' is defined twice"},
      {"missing symbol", [](ModuleDesc &m) { m.executables[0].exports[0].name = "sub_f32"; },
       "executable '0 (cpu)': shared object has no symbol 'sub_f32'"},
      {"arch", [](ModuleDesc &m) { m.executables[0].binaries[0].arch = "sparc"; },
       "no elf-shared-object binary for this host's arch"},
      {"target", [](ModuleDesc &m) { m.executables[0].target = "cuda"; },
       "no executable for target 'cpu' (module has: cuda)"},
      {"no executables", [](ModuleDesc &m) { m.executables.clear(); },
       "no executable for target 'cpu' (module has: none)"},
  };
  for (const Case &c : cases) {
    ModuleDesc desc = addModule({7});
    c.breakIt(desc);
    std::string err = loadError(desc);
    EXPECT_NE(err.find(c.needle), std::string::npos) << c.what << ": " << err;
    EXPECT_NE(err.find("'bad.tmod'"), std::string::npos) << c.what << ": " << err;
    EXPECT_TRUE(isPrintableAscii(err)) << c.what << ": " << err;
  }
}

// The file checksum, the trailer and older modules: each error names the
// part that failed.
TEST_F(ModuleTest, IntegrityErrorsNameThePart) {
  ModuleDesc desc = addModule({7});
  std::vector<uint8_t> flat = buildFlatBuffer(desc);
  std::vector<uint8_t> good = sealModule(flat);
  ASSERT_EQ(good.size(), flat.size() + kTrailerSize);
  auto err = [&](const std::vector<uint8_t> &bytes) {
    auto m = Module::loadBytes(device, bytes, "m.tmod");
    return m.ok() ? std::string() : m.status().message();
  };
  EXPECT_EQ(err(good), "");

  // One flipped bit in the FlatBuffer.
  std::vector<uint8_t> flipped = good;
  flipped[flat.size() / 2] ^= 0x04;
  char expected[160];
  std::snprintf(expected, sizeof(expected),
                "module file 'm.tmod': module checksum mismatch: the file is damaged (expected "
                "crc32 0x%08x, got 0x%08x)",
                crc32Of(flat),
                crc32Of(std::vector<uint8_t>(flipped.begin(), flipped.begin() + flat.size())));
  EXPECT_EQ(err(flipped), expected);
  // A module of schema version 1: no trailer.
  ModuleDesc old = desc;
  old.version = 1;
  EXPECT_EQ(err(buildFlatBuffer(old)),
            "module file 'm.tmod' has schema version 1 (no checksums) but this runtime reads "
            "versions 3 to 9: recompile it with tessel-compile");
  // Version 2 (a trailer, no tensor maps): an older module to recompile.
  old.version = 2;
  EXPECT_EQ(err(buildModule(old)),
            "module file 'm.tmod' has schema version 2 but this runtime reads versions 3 to 9: "
            "recompile it with tessel-compile");
  // Version 3 without its trailer, or with bytes appended after it.
  EXPECT_CONTAINS(err(flat), "truncated or corrupt module file 'm.tmod': the integrity trailer at "
                             "its end is missing");
  std::vector<uint8_t> appended = good;
  appended.insert(appended.end(), {1, 2, 3});
  EXPECT_CONTAINS(err(appended), "the integrity trailer at its end is missing");
  // A byte inserted before the trailer.
  std::vector<uint8_t> inserted = good;
  inserted.insert(inserted.begin() + flat.size(), 0);
  EXPECT_CONTAINS(err(inserted), "its trailer records " + std::to_string(flat.size()) +
                                     " bytes of module data but the file has " +
                                     std::to_string(flat.size() + 1));
  // A damaged trailer version.
  std::vector<uint8_t> version = good;
  version[flat.size() + 8] = 7;
  EXPECT_CONTAINS(err(version), "its trailer has version 7 (this runtime reads 1)");
  // A damaged stored checksum.
  std::vector<uint8_t> stored = good;
  stored[flat.size() + 12] ^= 0xff;
  EXPECT_CONTAINS(err(stored), "module checksum mismatch: the file is damaged");
}

// A module with one cuda executable whose export takes 3 bindings and one
// valid tensor map (TensorMapDesc's default) of binding 0.
ModuleDesc tensorMapModule() {
  ModuleDesc m;
  ExecutableDesc cuda;
  cuda.target = "cuda";
  cuda.exports = {ExportDesc{"mm", {1, 1, 1}, 3, {128, 1, 1}, 0, {TensorMapDesc{}}}};
  cuda.binaries.push_back({"ptx", "sm_90a", {}, {'x'}, std::nullopt});
  m.executables.push_back(cuda);
  return m;
}

// Every rule on tensor maps, checked when the module is read (so before any
// device is involved): each error names executable, export and map.
// Schema version 3 (no CUDA C kernels) still loads and runs.
TEST_F(ModuleTest, Version3ModuleLoads) {
  ModuleDesc desc = addModule({65});
  desc.version = 3;
  auto module = load(desc);
  ASSERT_TRUE(module);
  EXPECT_CONTAINS(module->describe(), "schema version 3");
  HostTensor a = randomF32({65}), b = randomF32({65});
  auto out = module->call("add", {a, b});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ((*out)[0].data<float>()[64], a.data<float>()[64] + b.data<float>()[64]);
}

// A module of CUDA C kernels only (no functions): loads, describes its
// kernels, and hands them to the CUDA runtime library (kernel_module.h).
ModuleDesc cudaCModule() {
  ModuleDesc m = testModule();
  m.executables[0].exports = {cudaCExport("axpb_cuda_c", {8, 8, 4, 4, 8}),
                              cudaCExport("launch_info_cuda_c", {8, 1})};
  m.executables[0].exports[1].sharedMemoryBytes = 256;
  return m;
}

TEST_F(ModuleTest, CudaCKernelsOnlyModule) {
  auto module = load(cudaCModule());
  ASSERT_TRUE(module);
  EXPECT_TRUE(module->functions().empty());
  EXPECT_CONTAINS(module->describe(),
                  "export 0: axpb_cuda_c, CUDA C kernel, 5 parameters (8, 8, 4, 4, 8 bytes)");
  EXPECT_CONTAINS(module->describe(), "export 1: launch_info_cuda_c, CUDA C kernel, 2 parameters "
                                      "(8, 1 bytes), 256 bytes of static shared memory");
}

TEST_F(ModuleTest, CudaCErrorsNameTheExport) {
  struct Case {
    const char *what;
    void (*breakIt)(ModuleDesc &);
    std::string needle;
  } cases[] = {
      {"too many parameters",
       [](ModuleDesc &m) { m.executables[0].exports[0].parameterSizes.resize(257, 4); },
       "executable 0 (cpu): export 0 'axpb_cuda_c': 257 parameters (at most 256)"},
      {"empty parameter",
       [](ModuleDesc &m) { m.executables[0].exports[1].parameterSizes[1] = 0; },
       "export 1 'launch_info_cuda_c': parameter 1 has 0 bytes (1 to 4096 allowed)"},
      {"huge parameter",
       [](ModuleDesc &m) { m.executables[0].exports[0].parameterSizes[2] = 4097; },
       "export 0 'axpb_cuda_c': parameter 2 has 4097 bytes (1 to 4096 allowed)"},
      {"unknown abi", [](ModuleDesc &m) { m.executables[0].exports[0].abi = 7; },
       "export 0 'axpb_cuda_c': unknown abi 7 (this runtime knows Bindings = 0 and CudaC = 1)"},
      {"bindings", [](ModuleDesc &m) { m.executables[0].exports[0].bindingCount = 2; },
       "export 0 'axpb_cuda_c': a CUDA C kernel (abi CudaC) takes parameters, not bindings, but "
       "binding_count is 2"},
      {"persistent grid",
       [](ModuleDesc &m) { m.executables[0].exports[0].residentBlocksPerSm = 1; },
       "export 0 'axpb_cuda_c': resident_blocks_per_sm 1 (at most 32, and 0 for a CUDA C "
       "kernel, whose launch gives the grid)"},
      {"tensor maps",
       [](ModuleDesc &m) { m.executables[0].exports[0].tensorMaps.push_back({}); },
       "export 0 'axpb_cuda_c': has 1 tensor map but a CUDA C kernel (abi CudaC) takes none"},
      {"parameters of a bindings kernel",
       [](ModuleDesc &m) { m.executables[0].exports[0].abi = 0; },
       "export 0 'axpb_cuda_c': has parameter_sizes but is not a CUDA C kernel"},
      {"version 3", [](ModuleDesc &m) { m.version = 3; },
       "export 0 'axpb_cuda_c': is a CUDA C kernel (abi CudaC), which needs schema version 4, "
       "but the module has version 3"},
      {"dispatched by a function",
       [](ModuleDesc &m) {
         TensorType t{ElementType::f32, {4}};
         m.functions.push_back({"f", {t}, {t}, {argumentSlot(0, 16)}, {{1, {0}}}, {0}});
       },
       "function 'f': dispatch 0 uses export 1 'launch_info_cuda_c' of executable 0 (cpu), a "
       "CUDA C kernel (abi CudaC): those are launched only through the CUDA runtime API, never "
       "by a function"},
      {"executables disagree on the sizes",
       [](ModuleDesc &m) {
         ExecutableDesc cuda = m.executables[0];
         cuda.target = "cuda";
         cuda.exports[0].parameterSizes[4] = 4;
         m.executables.push_back(cuda);
       },
       "export 0 'axpb_cuda_c' of executable 1 (cuda) differs from export 0 'axpb_cuda_c' of "
       "executable 0 (cpu) in its parameter_sizes"},
      {"executables disagree on the name",
       [](ModuleDesc &m) {
         ExecutableDesc cuda = m.executables[0];
         cuda.target = "cuda";
         cuda.exports[1].name = "other";
         m.executables.push_back(cuda);
       },
       "export 1 'other' of executable 1 (cuda) differs from export 1 'launch_info_cuda_c' of "
       "executable 0 (cpu) in its name"},
      {"executables disagree on the abi",
       [](ModuleDesc &m) {
         ExecutableDesc cuda = m.executables[0];
         cuda.target = "cuda";
         cuda.exports[1] = ExportDesc{"launch_info_cuda_c", {1, 1, 1}, 1};
         m.executables.push_back(cuda);
       },
       "in its abi"},
  };
  for (const Case &c : cases) {
    ModuleDesc desc = cudaCModule();
    c.breakIt(desc);
    std::string err = loadError(desc);
    EXPECT_NE(err.find(c.needle), std::string::npos) << c.what << ": " << err;
    EXPECT_NE(err.find("'bad.tmod'"), std::string::npos) << c.what << ": " << err;
  }
}

TEST_F(ModuleTest, TensorMapErrorsNameTheMap) {
  auto describe = [](const ModuleDesc &desc) {
    auto text = Module::describeBytes(buildModule(desc), "bad.tmod");
    return text.ok() ? *text : "error: " + text.status().message();
  };
  std::string good = describe(tensorMapModule());
  EXPECT_CONTAINS(good, "export 0: mm, workgroups 1x1x1, 3 bindings, workgroup size 128x1x1, "
                        "1 tensor map\n");

  const std::string at = "error: module file 'bad.tmod': executable 0 (cuda): export 0 'mm': ";
  struct Case {
    const char *what;
    void (*breakIt)(TensorMapDesc &);
    std::string expected;
  } cases[] = {
      {"binding", [](TensorMapDesc &t) { t.binding = 3; },
       "tensor map 0: binding 3 but the export has 3 bindings"},
      {"dim push constant count", [](TensorMapDesc &t) { t.globalDimPushConstants = {-1}; },
       "tensor map 0: global_dim_push_constants has 1 entries but the map has rank 2 "
       "(expected 2)"},
      {"dim push constant -2", [](TensorMapDesc &t) { t.globalDimPushConstants = {-1, -2}; },
       "tensor map 0: global_dim_push_constants[1] is -2 (-1 or a push constant below 256)"},
      {"dim push constant beyond the export's",
       [](TensorMapDesc &t) { t.globalDimPushConstants = {-1, 0}; },
       "tensor map 0 takes a dimension from push constant 0 but the export has 0"},
      {"rank 6",
       [](TensorMapDesc &t) {
         t.globalDims = {2, 2, 2, 2, 2, 2};
         t.globalStrides = {16, 32, 64, 128, 256};
         t.boxDims = t.elementStrides = {1, 1, 1, 1, 1, 1};
       },
       "tensor map 0: rank 6 (global_dims has 6 entries; 1 to 5 allowed)"},
      {"rank 0", [](TensorMapDesc &t) { t.globalDims.clear(); },
       "tensor map 0: rank 0 (global_dims has 0 entries; 1 to 5 allowed)"},
      {"stride count", [](TensorMapDesc &t) { t.globalStrides = {128, 128}; },
       "tensor map 0: global_strides has 2 entries but the map has rank 2 (expected 1)"},
      {"box count", [](TensorMapDesc &t) { t.boxDims = {64}; },
       "tensor map 0: box_dims has 1 entries but the map has rank 2 (expected 2)"},
      {"element stride count", [](TensorMapDesc &t) { t.elementStrides = {1, 1, 1}; },
       "tensor map 0: element_strides has 3 entries but the map has rank 2 (expected 2)"},
      {"stride % 16", [](TensorMapDesc &t) { t.globalStrides = {120}; },
       "tensor map 0: global_strides[0] is 120 bytes (a positive multiple of 16 below 2^40 "
       "required)"},
      {"stride 0", [](TensorMapDesc &t) { t.globalStrides = {0}; },
       "tensor map 0: global_strides[0] is 0 bytes"},
      {"stride 2^40", [](TensorMapDesc &t) { t.globalStrides = {uint64_t(1) << 40}; },
       "tensor map 0: global_strides[0] is 1099511627776 bytes"},
      {"dim 0", [](TensorMapDesc &t) { t.globalDims = {64, 0}; },
       "tensor map 0: global_dims[1] is 0 (1 to 4294967296 allowed)"},
      {"dim 2^32+1", [](TensorMapDesc &t) { t.globalDims = {(uint64_t(1) << 32) + 1, 64}; },
       "tensor map 0: global_dims[0] is 4294967297 (1 to 4294967296 allowed)"},
      {"box > 256", [](TensorMapDesc &t) { t.boxDims = {64, 257}; },
       "tensor map 0: box_dims[1] is 257 (1 to 256 allowed)"},
      {"box 0", [](TensorMapDesc &t) { t.boxDims = {0, 64}; },
       "tensor map 0: box_dims[0] is 0 (1 to 256 allowed)"},
      {"element stride 9", [](TensorMapDesc &t) { t.elementStrides = {1, 9}; },
       "tensor map 0: element_strides[1] is 9 (1 to 8 allowed)"},
      {"element stride 0", [](TensorMapDesc &t) { t.elementStrides = {0, 1}; },
       "tensor map 0: element_strides[0] is 0 (1 to 8 allowed)"},
      {"data type", [](TensorMapDesc &t) { t.dataType = 13; },
       "tensor map 0: data_type 13 is not a value this runtime passes to cuTensorMapEncodeTiled "
       "(0 to 12)"},
      {"interleave", [](TensorMapDesc &t) { t.interleave = 3; },
       "tensor map 0: interleave 3 is not a value this runtime passes to "
       "cuTensorMapEncodeTiled (0 to 2)"},
      {"swizzle", [](TensorMapDesc &t) { t.swizzle = 4; },
       "tensor map 0: swizzle 4 is not a value this runtime passes to cuTensorMapEncodeTiled "
       "(0 to 3)"},
      {"l2 promotion", [](TensorMapDesc &t) { t.l2Promotion = 4; },
       "tensor map 0: l2_promotion 4 is not a value this runtime passes to "
       "cuTensorMapEncodeTiled (0 to 3)"},
      {"oob fill", [](TensorMapDesc &t) { t.oobFill = 2; },
       "tensor map 0: oob_fill 2 is not a value this runtime passes to cuTensorMapEncodeTiled "
       "(0 to 1)"},
  };
  for (const Case &c : cases) {
    ModuleDesc desc = tensorMapModule();
    c.breakIt(desc.executables[0].exports[0].tensorMaps[0]);
    std::string err = describe(desc);
    EXPECT_EQ(err.rfind(at + c.expected, 0), 0u) << c.what << ": " << err;
  }
  // A bad second map is named as map 1.
  ModuleDesc second = tensorMapModule();
  second.executables[0].exports[0].tensorMaps.push_back(TensorMapDesc{});
  second.executables[0].exports[0].tensorMaps[1].boxDims = {64, 300};
  EXPECT_EQ(describe(second), at + "tensor map 1: box_dims[1] is 300 (1 to 256 allowed)");
  // Rank 1 and 5 are the bounds.
  ModuleDesc ranks = tensorMapModule();
  TensorMapDesc r1, r5;
  r1.globalDims = {64};
  r1.globalStrides = {};
  r1.boxDims = {64};
  r1.elementStrides = {1};
  r5.globalDims = {8, 2, 2, 2, 2};
  r5.globalStrides = {16, 32, 64, 128};
  r5.boxDims = {8, 1, 1, 1, 1};
  r5.elementStrides = {1, 1, 1, 1, 8};
  ranks.executables[0].exports[0].tensorMaps = {r1, r5};
  EXPECT_CONTAINS(describe(ranks), ", 2 tensor maps\n");
  // At most 8 maps per export.
  ModuleDesc many = tensorMapModule();
  many.executables[0].exports[0].tensorMaps.assign(9, TensorMapDesc{});
  EXPECT_EQ(describe(many), at + "9 tensor maps (at most 8)");
  many.executables[0].exports[0].tensorMaps.pop_back();
  EXPECT_CONTAINS(describe(many), ", 8 tensor maps\n");
}

TEST_F(ModuleTest, NoExecutableForDevice) {
  ModuleDesc desc = addModule({7});
  ExecutableDesc cuda = desc.executables[0];
  cuda.target = "cuda";
  desc.executables = {cuda};
  EXPECT_CONTAINS(loadError(desc), "no executable for target 'cpu' (module has: cuda)");
}

TEST_F(ModuleTest, FileErrors) {
  auto missing = Module::loadFile(device, "/nonexistent/m.tmod");
  ASSERT_FALSE(missing.ok());
  EXPECT_CONTAINS(missing.status().message(), "cannot open module file '/nonexistent/m.tmod'");

  std::vector<uint8_t> bytes = buildModule(addModule({7}));
  std::vector<uint8_t> wrongId = bytes;
  wrongId[4] = 'X';
  auto m = Module::loadBytes(device, wrongId, "x.tmod");
  EXPECT_CONTAINS(m.status().message(), "'x.tmod' is not a Tessel module (file identifier 'XMOD'");
  auto tiny = Module::loadBytes(device, {1, 2, 3}, "x.tmod");
  EXPECT_CONTAINS(tiny.status().message(), "truncated or corrupt module file 'x.tmod'");
}

TEST_F(ModuleTest, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = buildModule(addModule({7}));
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + len);
    auto m = Module::loadBytes(device, cut, "cut.tmod");
    ASSERT_FALSE(m.ok()) << "length " << len;
    ASSERT_NE(m.status().message().find("'cut.tmod'"), std::string::npos) << m.status().message();
  }
}

// Any flipped byte, the embedded shared object included, is caught by the
// file checksum before anything else is read; only the file identifier
// (bytes 4-7) is checked first. (Which positions the seeded flips hit
// depends on the layout, i.e. on the compiler and the kernel library: a
// build in another directory used to hit the identifier and fail.)
TEST_F(ModuleTest, EveryFlipIsCaughtByTheChecksum) {
  ModuleDesc desc = testModule();
  addAddFunction(desc, "add", {7});
  std::vector<uint8_t> bytes = buildModule(desc);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> fuzzed = bytes;
    size_t pos = trial < 200 ? bytes.size() - 1 - trial % kTrailerSize : rng() % bytes.size();
    fuzzed[pos] ^= static_cast<uint8_t>(1 + rng() % 255);
    auto m = Module::loadBytes(device, fuzzed, "fuzz.tmod");
    ASSERT_FALSE(m.ok()) << "flip at " << pos;
    const std::string &msg = m.status().message();
    bool inIdentifier = pos >= 4 && pos < 8;
    ASSERT_TRUE(msg.find("module checksum mismatch") != std::string::npos ||
                msg.find("trailer") != std::string::npos ||
                (inIdentifier && msg.find("is not a Tessel module") != std::string::npos))
        << "flip at " << pos << ": " << msg;
    ASSERT_TRUE(isPrintableAscii(msg)) << msg;
  }
}

// A file that passes the checksum but was written wrong (flips applied
// before sealing, as a buggy or hostile writer would): flips anywhere
// except inside the embedded shared object, whose machine code and ELF
// tables the dynamic loader trusts and no runtime can vet. Every load must
// end in a clean error or a success.
TEST_F(ModuleTest, RandomByteFlipsNeverCrash) {
  ModuleDesc desc = testModule();
  addAddFunction(desc, "add", {7});
  addAddScaleFunction(desc, "add_scale", 100, 3.0f);
  std::vector<uint8_t> bytes = buildFlatBuffer(desc);
  std::vector<uint8_t> lib = testKernelLibrary();
  auto at = std::search(bytes.begin(), bytes.end(), lib.begin(), lib.end());
  ASSERT_NE(at, bytes.end());
  size_t libBegin = at - bytes.begin(), libEnd = libBegin + lib.size();
  size_t outside = bytes.size() - lib.size();

  std::mt19937 rng(2024);
  int failures = 0, successes = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> fuzzed = bytes;
    int flips = 1 + trial % 3;
    for (int f = 0; f < flips; ++f) {
      size_t pos = rng() % outside;
      if (pos >= libBegin)
        pos += libEnd - libBegin;
      fuzzed[pos] ^= static_cast<uint8_t>(1 + rng() % 255);
    }
    auto m = Module::loadBytes(device, sealModule(fuzzed), "fuzz.tmod");
    if (m.ok()) {
      ++successes;
    } else {
      ++failures;
      ASSERT_NE(m.status().message().find("'fuzz.tmod'"), std::string::npos)
          << m.status().message();
      ASSERT_TRUE(isPrintableAscii(m.status().message())) << m.status().message();
    }
  }
  // Both outcomes must occur, or the fuzzing did not reach the checks.
  EXPECT_GT(failures, 100);
  EXPECT_GT(successes, 0);
}
