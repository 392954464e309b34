// Tests of module parameters (schema version 9): parameters files
// (safetensors) and their errors, parameters stored in the module or
// supplied at load time and checked against the module, shared by calls,
// and the loader's checks of the Parameter table and opcode.
#include "tessel/runtime/module.h"
#include "tessel/runtime/parameters.h"
#include "test_module_builder.h"

#include "module_generated.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tessel::rt;
using namespace tessel::rt::testutil;
namespace fb = tessel::fb;

namespace {

InstructionDesc op(fb::Opcode opcode, std::vector<int64_t> operands) {
  return InstructionDesc{static_cast<uint8_t>(opcode), std::move(operands)};
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> b(values.size() * sizeof(T));
  std::memcpy(b.data(), values.data(), b.size());
  return b;
}

/// A safetensors file: the header `json` (padded to 8 bytes), then `data`.
std::vector<uint8_t> safetensors(std::string json, const std::vector<uint8_t> &data) {
  json.append((8 - json.size() % 8) % 8, ' ');
  std::vector<uint8_t> file(8);
  for (int i = 0; i < 8; ++i)
    file[i] = static_cast<uint8_t>(uint64_t(json.size()) >> (8 * i));
  file.insert(file.end(), json.begin(), json.end());
  file.insert(file.end(), data.begin(), data.end());
  return file;
}

std::string openError(const std::vector<uint8_t> &file) {
  auto pf = ParameterFile::fromBytes(file.data(), file.size(), "w.safetensors");
  return pf.ok() ? "" : pf.status().message();
}

constexpr int64_t kN = 100;
const std::vector<float> kWeights = [] {
  std::vector<float> w(kN);
  for (int64_t i = 0; i < kN; ++i)
    w[i] = 0.25f * float(i) - 3.0f;
  return w;
}();

/// f(a: 100xf32) -> a + w: one add_f32 dispatch of the argument and
/// parameter `w` (in the module, or external without `data`).
ModuleDesc addParameterModule(bool inside) {
  ModuleDesc m = testModule();
  uint32_t add = addExport(m, "add_f32", workgroupsFor(kN), 4);
  TensorType vec{ElementType::f32, {kN}};
  ParameterDesc w{"layer.0/w", vec};
  if (inside)
    w.data = bytesOf(kWeights);
  m.parameters.push_back(w);
  FunctionDesc f;
  f.name = "add_w";
  f.arguments = {vec};
  f.results = {vec};
  ProgramDesc p;
  p.intRegisters = 1;
  p.bufferRegisters = 4;
  p.constants = {bytesOf(std::vector<int64_t>{kN})};
  p.instructions = {
      op(fb::Opcode_Argument, {0, 0}),   op(fb::Opcode_Parameter, {1, 0}),
      op(fb::Opcode_Constant, {2, 0}),   op(fb::Opcode_Int, {0, kN * 4}),
      op(fb::Opcode_Alloc, {3, 0}),      op(fb::Opcode_Dispatch, {add, 2, 0, 1, 3}),
      op(fb::Opcode_Return, {3}),
  };
  f.program = std::move(p);
  m.functions.push_back(std::move(f));
  return m;
}

class ParametersTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto d = createDevice("cpu");
    ASSERT_TRUE(d.ok()) << d.status().toString();
    device = *d;
  }
  StatusOr<std::shared_ptr<Module>> load(const ModuleDesc &desc, const LoadOptions &options = {}) {
    return Module::loadBytes(device, buildModule(desc), "m.tmod", options);
  }
  std::string loadError(const ModuleDesc &desc, const LoadOptions &options = {}) {
    auto m = load(desc, options);
    return m.ok() ? "" : m.status().message();
  }
  /// Calls add_w on a = 0..99 twice and checks both results.
  void expectAddsWeights(const Module &module) {
    HostTensor a = HostTensor::zeros(TensorType{ElementType::f32, {kN}});
    for (int64_t i = 0; i < kN; ++i)
      a.data<float>()[i] = float(i);
    for (int call = 0; call < 2; ++call) {
      auto out = module.call("add_w", {a});
      ASSERT_TRUE(out.ok()) << out.status().toString();
      for (int64_t i = 0; i < kN; ++i)
        ASSERT_EQ((*out)[0].data<float>()[i], float(i) + kWeights[i]) << "call " << call << " [" << i << "]";
    }
  }
  std::shared_ptr<Device> device;
  /// The external weights of addParameterModule, and another tensor.
  std::vector<uint8_t> file = safetensors(
      R"({"__metadata__":{"format":"pt"},"other":{"dtype":"I8","shape":[2],"data_offsets":[0,2]},)"
      R"("layer.0/w":{"dtype":"F32","shape":[100],"data_offsets":[2,402]}})",
      [] {
        std::vector<uint8_t> d = {7, 8};
        std::vector<uint8_t> w = bytesOf(kWeights);
        d.insert(d.end(), w.begin(), w.end());
        return d;
      }());
};

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST_F(ParametersTest, FileListsItsTensors) {
  auto pf = ParameterFile::fromBytes(file.data(), file.size(), "w.safetensors");
  ASSERT_TRUE(pf.ok()) << pf.status().toString();
  ASSERT_EQ((*pf)->tensors().size(), 2u);
  const ParameterFile::Tensor *w = (*pf)->find("layer.0/w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->type.toString(), "100xf32");
  EXPECT_EQ(std::memcmp(w->data, kWeights.data(), 400), 0);
  EXPECT_EQ((*pf)->find("other")->type.toString(), "2xi8");
  EXPECT_EQ((*pf)->find("missing"), nullptr);
}

TEST_F(ParametersTest, MalformedFilesNameTheProblem) {
  std::vector<uint8_t> w = bytesOf(kWeights);
  auto entry = [](const std::string &fields) { return "{\"w\":{" + fields + "}}"; };
  struct Case {
    const char *what;
    std::vector<uint8_t> bytes;
    const char *needle;
  } cases[] = {
      {"short", {1, 2, 3}, "parameters file 'w.safetensors': 3 bytes, too short for a safetensors header"},
      {"header length", safetensors("{}", {}) /* patched below */, "the header is"},
      {"not json", safetensors("{\"w\": [", {}), "the header is not valid JSON"},
      {"not an object", safetensors("[1, 2]", {}), "the header is not a JSON object"},
      {"entry not an object", safetensors("{\"w\": 3}", {}), "tensor 'w' is not an object"},
      {"no dtype", safetensors(entry(R"("shape":[1],"data_offsets":[0,4])"), w), "tensor 'w' has no \"dtype\" string"},
      {"bad dtype", safetensors(entry(R"("dtype":"U8","shape":[1],"data_offsets":[0,1])"), w),
       "tensor 'w' dtype 'U8' is not supported (supported: F64"},
      {"bad shape", safetensors(entry(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])"), w),
       "tensor 'w' has a shape entry that is not a non-negative integer"},
      {"bad offsets", safetensors(entry(R"("dtype":"F32","shape":[2],"data_offsets":[0])"), w),
       "tensor 'w' has no \"data_offsets\" [begin, end]"},
      {"size mismatch", safetensors(entry(R"("dtype":"F32","shape":[2],"data_offsets":[0,4])"), w),
       "tensor 'w' is 2xf32 (8 bytes) but its data_offsets [0, 4) hold 4 bytes"},
      {"reversed offsets", safetensors(entry(R"("dtype":"F32","shape":[2],"data_offsets":[8,0])"), w),
       "tensor 'w' has data_offsets [8, 0) that end before they begin"},
      {"truncated", safetensors(entry(R"("dtype":"F32","shape":[101],"data_offsets":[0,404])"), w),
       "tensor 'w' needs bytes [0, 404) of the data but the file has 400 (truncated?)"},
  };
  cases[1].bytes[0] = 0xff; // a header length far beyond the file
  for (const Case &c : cases)
    EXPECT_CONTAINS(openError(c.bytes), c.needle) << c.what;
}

TEST_F(ParametersTest, MissingFileIsAnError) {
  auto pf = ParameterFile::open("/nonexistent/w.safetensors");
  ASSERT_FALSE(pf.ok());
  EXPECT_EQ(pf.status().message(),
            "cannot open parameters file '/nonexistent/w.safetensors': No such file or directory");
}

TEST_F(ParametersTest, ParameterInTheModule) {
  auto m = load(addParameterModule(/*inside=*/true));
  ASSERT_TRUE(m.ok()) << m.status().toString();
  expectAddsWeights(**m);
  EXPECT_CONTAINS((*m)->describe(), "1 parameter: 400 bytes in the module, 0 bytes external\n"
                                    "  parameter 0: 'layer.0/w', 100xf32\n");
  EXPECT_CONTAINS((*m)->describe(), "1: Parameter b1, #0");
}

TEST_F(ParametersTest, ExternalParameterFromAFile) {
  auto pf = ParameterFile::fromBytes(file.data(), file.size(), "w.safetensors");
  ASSERT_TRUE(pf.ok()) << pf.status().toString();
  LoadOptions options;
  options.parameters = {*pf};
  auto m = load(addParameterModule(/*inside=*/false), options);
  ASSERT_TRUE(m.ok()) << m.status().toString();
  expectAddsWeights(**m);
  EXPECT_CONTAINS((*m)->describe(), "parameter 0: 'layer.0/w', 100xf32, external");
}

TEST_F(ParametersTest, ExternalParameterErrorsNameTheTensor) {
  ModuleDesc m = addParameterModule(/*inside=*/false);
  EXPECT_EQ(loadError(m), "module file 'm.tmod': parameter 'layer.0/w' (100xf32) is external and no "
                          "parameters file was given (tessel-run --parameters=FILE)");
  auto check = [&](const std::string &json, const std::vector<uint8_t> &data, const std::string &error) {
    std::vector<uint8_t> bytes = safetensors(json, data);
    auto pf = ParameterFile::fromBytes(bytes.data(), bytes.size(), "x.safetensors");
    ASSERT_TRUE(pf.ok()) << pf.status().toString();
    LoadOptions options;
    options.parameters = {*pf};
    EXPECT_EQ(loadError(m, options), error);
  };
  std::vector<uint8_t> w = bytesOf(kWeights);
  check(R"({"w":{"dtype":"F32","shape":[100],"data_offsets":[0,400]}})", w,
        "module file 'm.tmod': parameter 'layer.0/w' (100xf32) is external and not in the "
        "parameters files given ('x.safetensors')");
  check(R"({"layer.0/w":{"dtype":"F32","shape":[10,10],"data_offsets":[0,400]}})", w,
        "module file 'm.tmod': parameter 'layer.0/w' (100xf32): parameters file 'x.safetensors' "
        "holds it as 10x10xf32");
  check(R"({"layer.0/w":{"dtype":"I32","shape":[100],"data_offsets":[0,400]}})", w,
        "module file 'm.tmod': parameter 'layer.0/w' (100xf32): parameters file 'x.safetensors' "
        "holds it as 100xi32");
}

TEST_F(ParametersTest, LoaderChecksTheParameterTable) {
  struct Case {
    const char *what;
    void (*mutate)(ModuleDesc &);
    const char *needle;
  } cases[] = {
      {"before version 9", [](ModuleDesc &m) { m.version = 8; },
       "module file 'm.tmod': the module has parameters, which schema version 8 does not have "
       "(version 9 added it)"},
      {"data size", [](ModuleDesc &m) { m.parameters[0].data->pop_back(); },
       "module file 'm.tmod': parameter 'layer.0/w' of type 100xf32 (400 bytes) carries 399 bytes "
       "of data"},
      {"twice", [](ModuleDesc &m) { m.parameters.push_back(m.parameters[0]); },
       "module file 'm.tmod': parameter 'layer.0/w' is defined twice"},
      {"dynamic", [](ModuleDesc &m) { m.parameters[0].type.shape = {-1}; },
       "parameter 'layer.0/w' has a dynamic type ?xf32 (parameters have static shapes)"},
      {"no name", [](ModuleDesc &m) { m.parameters[0].name = ""; },
       "module file 'm.tmod': parameter 0: name is missing"},
      {"index", [](ModuleDesc &m) { m.functions[0].program->instructions[1].operands[1] = 1; },
       "program instruction 1: Parameter reads parameter 1 but the module has 1"},
      {"opcode before version 9",
       [](ModuleDesc &m) {
         m.version = 8;
         m.parameters.clear();
       },
       "program instruction 1: uses Parameter, which schema version 8 does not have"},
  };
  for (const Case &c : cases) {
    ModuleDesc m = addParameterModule(/*inside=*/true);
    c.mutate(m);
    EXPECT_CONTAINS(loadError(m), c.needle) << c.what;
  }
}

/// f(a: 100xf32) -> s + a, and s becomes that, for state s (mutable
/// parameter 0, starting as kWeights): through a new buffer and a
/// GlobalStore copy, or (`inPlace`) written into s's own buffer.
ModuleDesc accumulateModule(bool inPlace) {
  ModuleDesc m = addParameterModule(/*inside=*/true);
  m.parameters[0].isMutable = true;
  std::vector<InstructionDesc> &in = m.functions[0].program->instructions;
  if (inPlace) {
    in[5] = op(fb::Opcode_Dispatch, {0, 2, 0, 1, 1});
    in[6] = op(fb::Opcode_GlobalStore, {0, 1});
    in.push_back(op(fb::Opcode_Return, {1}));
  } else {
    in[6] = op(fb::Opcode_GlobalStore, {0, 3});
    in.push_back(op(fb::Opcode_Return, {3}));
  }
  return m;
}

TEST_F(ParametersTest, StatePersistsAcrossCalls) {
  for (bool inPlace : {false, true}) {
    auto m = load(accumulateModule(inPlace));
    ASSERT_TRUE(m.ok()) << m.status().toString();
    EXPECT_CONTAINS((*m)->describe(), "parameter 0: 'layer.0/w', 100xf32, mutable\n");
    HostTensor a = HostTensor::zeros(TensorType{ElementType::f32, {kN}});
    for (int64_t i = 0; i < kN; ++i)
      a.data<float>()[i] = float(i);
    for (int call = 1; call <= 3; ++call) {
      auto out = (*m)->call("add_w", {a});
      ASSERT_TRUE(out.ok()) << out.status().toString();
      for (int64_t i = 0; i < kN; ++i)
        ASSERT_EQ((*out)[0].data<float>()[i], float(call) * float(i) + kWeights[i])
            << (inPlace ? "in place" : "copied") << ", call " << call << " [" << i << "]";
    }
    // A second load of the module starts again from the initial value.
    auto again = load(accumulateModule(inPlace));
    ASSERT_TRUE(again.ok());
    auto out = (*again)->call("add_w", {a});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ((*out)[0].data<float>()[5], 5.0f + kWeights[5]);
  }
}

TEST_F(ParametersTest, SplatStateStartsAsItsValue) {
  ModuleDesc m = accumulateModule(/*inPlace=*/true);
  m.parameters[0].data.reset();
  m.parameters[0].splat = bytesOf(std::vector<float>{1.5f});
  auto loaded = load(m);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  HostTensor a = HostTensor::zeros(TensorType{ElementType::f32, {kN}});
  a.data<float>()[7] = 2.0f;
  auto out = (*loaded)->call("add_w", {a});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ((*out)[0].data<float>()[0], 1.5f);
  EXPECT_EQ((*out)[0].data<float>()[7], 3.5f);
}

TEST_F(ParametersTest, LoaderChecksState) {
  struct Case {
    const char *what;
    void (*mutate)(ModuleDesc &);
    const char *needle;
  } cases[] = {
      {"store to a constant parameter", [](ModuleDesc &m) { m.parameters[0].isMutable = false; },
       "program instruction 6: GlobalStore writes parameter 'layer.0/w', which is not mutable"},
      {"store index", [](ModuleDesc &m) { m.functions[0].program->instructions[6].operands[0] = 3; },
       "program instruction 6: GlobalStore writes parameter 3 but the module has 1"},
      {"data and splat", [](ModuleDesc &m) { m.parameters[0].splat = std::vector<uint8_t>(4); },
       "parameter 'layer.0/w' has both data and a splat value"},
      {"splat of a huge tensor (fuzz_module found it expanded on the host)",
       [](ModuleDesc &m) {
         m.parameters[0].data.reset();
         m.parameters[0].splat = std::vector<uint8_t>(4);
         m.parameters[0].type.shape = {int64_t(1) << 50};
       },
       "parameter 'layer.0/w' (1125899906842624xf32): "},
      {"splat size",
       [](ModuleDesc &m) {
         m.parameters[0].data.reset();
         m.parameters[0].splat = std::vector<uint8_t>(2);
       },
       "parameter 'layer.0/w' of type 100xf32 has a splat value of 2 bytes (one element: 4)"},
  };
  for (const Case &c : cases) {
    ModuleDesc m = accumulateModule(/*inPlace=*/false);
    c.mutate(m);
    EXPECT_CONTAINS(loadError(m), c.needle) << c.what;
  }
}

TEST_F(ParametersTest, StoreOfTheWrongSizeFailsTheCall) {
  ModuleDesc m = accumulateModule(/*inPlace=*/false);
  // Store the 8-byte constant n instead of the 400-byte result.
  m.functions[0].program->instructions[6] = op(fb::Opcode_GlobalStore, {0, 2});
  auto loaded = load(m);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  auto out = (*loaded)->call("add_w", {HostTensor::zeros(TensorType{ElementType::f32, {kN}})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "function 'add_w': instruction 6 (GlobalStore): a value of 8 "
                                    "bytes for parameter 0 of 400 bytes");
}

} // namespace
