// Tests of dynamic shapes (schema version 7): a program over ?xf32 tensors
// whose kernel takes the element count as a push constant and whose
// workgroup count comes from a count program, called with many sizes
// (0 skips the dispatch); Dim and Assert; result shapes from the Return;
// recorded calls per argument shape; and the loader's checks of every new
// field, including the version 6 modules that use one.
#include "tessel/runtime/module.h"
#include "test_module_builder.h"

#include "module_generated.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>

using namespace tessel::rt;
using namespace tessel::rt::testutil;
namespace fb = tessel::fb;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

InstructionDesc op(fb::Opcode opcode, std::vector<int64_t> operands) {
  return InstructionDesc{static_cast<uint8_t>(opcode), std::move(operands)};
}

constexpr int64_t kDyn = kDynamicDim;

/// ceil(n / 4) x 1 x 1 from push constant n (register 0).
CountProgramDesc quarterCount() {
  return CountProgramDesc{3,
                          {op(fb::Opcode_Int, {1, 3}), op(fb::Opcode_Add, {1, 0, 1}),
                           op(fb::Opcode_Int, {2, 4}), op(fb::Opcode_DivS, {1, 1, 2}),
                           op(fb::Opcode_Int, {2, 1})},
                          {1, 2, 2}};
}

/// add(a: ?xf32, b: ?xf32) -> ?xf32 through add_n_f32 (n as push constant,
/// ceil(n / 4) workgroups); asserts that a and b have one length.
ModuleDesc addModule() {
  ModuleDesc m = testModule();
  ExportDesc x{"add_n_f32", {}, 3};
  x.pushConstantCount = 1;
  x.workgroupCountProgram = quarterCount();
  m.executables[0].exports.push_back(x);
  TensorType vec{ElementType::f32, {kDyn}};
  FunctionDesc f;
  f.name = "add";
  f.arguments = {vec, vec};
  f.results = {vec};
  ProgramDesc p;
  p.intRegisters = 4;
  p.bufferRegisters = 3;
  p.messages = {"a has {} elements but b has {}"};
  p.instructions = {
      op(fb::Opcode_Argument, {0, 0}),
      op(fb::Opcode_Argument, {1, 1}),
      op(fb::Opcode_Dim, {0, 0, 0}),
      op(fb::Opcode_Dim, {1, 1, 0}),
      op(fb::Opcode_CmpEq, {2, 0, 1}),
      op(fb::Opcode_Assert, {2, 0, 0, 1}), // 5
      op(fb::Opcode_Int, {3, 4}),
      op(fb::Opcode_Mul, {3, 0, 3}),
      op(fb::Opcode_Alloc, {2, 3}),
      op(fb::Opcode_Dispatch, {0, 0, 1, 2, 0}), // 9
      op(fb::Opcode_Return, {2, 0}),             // 10
  };
  f.program = std::move(p);
  m.functions.push_back(std::move(f));
  return m;
}

HostTensor f32Vector(const std::vector<float> &values) {
  HostTensor t = HostTensor::zeros(
      TensorType{ElementType::f32, {static_cast<int64_t>(values.size())}});
  if (!values.empty())
    std::memcpy(t.bytes.data(), values.data(), values.size() * 4);
  return t;
}

std::vector<float> randomValues(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-8, 8);
  std::vector<float> v(static_cast<size_t>(n));
  for (float &x : v)
    x = dist(rng);
  return v;
}

class DynamicShapeTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto d = createDevice("cpu");
    ASSERT_TRUE(d.ok()) << d.status().toString();
    device = *d;
  }
  StatusOr<std::shared_ptr<Module>> load(const ModuleDesc &desc) {
    return Module::loadBytes(device, buildModule(desc), "dynamic.tmod");
  }
  std::string loadError(const ModuleDesc &desc) {
    auto m = load(desc);
    return m.ok() ? "" : m.status().message();
  }
  // Calls add(a, b) for a and b of `n` elements and checks every element
  // and the result's shape.
  void checkAdd(const Function &f, int64_t n, uint32_t seed) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> a = randomValues(n, seed), b = randomValues(n, seed + 1);
    auto out = f.call({f32Vector(a), f32Vector(b)});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    ASSERT_EQ(out->size(), 1u);
    const HostTensor &r = (*out)[0];
    ASSERT_EQ(r.type, (TensorType{ElementType::f32, {n}}));
    ASSERT_EQ(r.bytes.size(), size_t(n) * 4);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(r.data<float>()[i], a[i] + b[i]) << "element " << i;
  }
  std::shared_ptr<Device> device;
};

} // namespace

TEST_F(DynamicShapeTest, KernelWithPushConstantAndCountProgram) {
  auto module = load(addModule());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  const Function &f = **(*module)->lookupFunction("add");
  EXPECT_EQ(f.signature(), "(?xf32, ?xf32) -> (?xf32)");
  uint32_t seed = 1;
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(3), int64_t(4), int64_t(5), int64_t(7),
                    int64_t(64), int64_t(1001)})
    checkAdd(f, n, seed += 2);
  std::string description = (*module)->describe();
  EXPECT_CONTAINS(description, "function add(?xf32, ?xf32) -> (?xf32): 11 instructions, 1 "
                               "dispatches\n");
  EXPECT_CONTAINS(description, "  2: Dim i0, #0, #0\n");
  EXPECT_CONTAINS(description, "  5: Assert i2, #0, i0, i1  \"a has {} elements but b has {}\"\n");
  EXPECT_CONTAINS(description, "  9: Dispatch #0, b0, b1, b2, i0\n");
  EXPECT_CONTAINS(description, "  10: Return b2, i0\n");
  EXPECT_CONTAINS(description, "  export 0: add_n_f32, workgroups from a program of 5 "
                               "instructions, 3 bindings, 1 push constant\n");
}

// Function::call keeps recordings per argument shape: alternating shapes
// must never replay a recording of the other one.
TEST_F(DynamicShapeTest, RecordedCallsAreKeptPerShape) {
  auto module = load(addModule());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  const Function &f = **(*module)->lookupFunction("add");
  uint32_t seed = 100;
  for (int round = 0; round < 4; ++round)
    for (int64_t n : {int64_t(9), int64_t(130), int64_t(2)})
      checkAdd(f, n, seed++);
  // More shapes than the cache keeps, then the first again.
  for (int64_t n = 10; n < 20; ++n)
    checkAdd(f, n, seed++);
  checkAdd(f, 9, seed++);
}

TEST_F(DynamicShapeTest, PreparedCallHasTheRecordedShapes) {
  auto module = load(addModule());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  const Function &f = **(*module)->lookupFunction("add");
  std::vector<float> a = randomValues(6, 1), b = randomValues(6, 2);
  auto prepared = f.prepare({f32Vector(a), f32Vector(b)});
  ASSERT_TRUE(prepared.ok()) << prepared.status().toString();
  EXPECT_EQ((*prepared)->dispatchCount(), 1u);
  ASSERT_TRUE((*prepared)->run().ok());
  auto results = (*prepared)->results();
  ASSERT_TRUE(results.ok()) << results.status().toString();
  ASSERT_EQ((*results)[0].type, (TensorType{ElementType::f32, {6}}));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ((*results)[0].data<float>()[i], a[i] + b[i]);
  // A count of 0 records no dispatch at all.
  auto empty = f.prepare({f32Vector({}), f32Vector({})});
  ASSERT_TRUE(empty.ok()) << empty.status().toString();
  EXPECT_EQ((*empty)->dispatchCount(), 0u);
}

TEST_F(DynamicShapeTest, AssertAndInputErrors) {
  auto module = load(addModule());
  ASSERT_TRUE(module.ok()) << module.status().toString();
  const Function &f = **(*module)->lookupFunction("add");
  auto out = f.call({f32Vector({1, 2, 3, 4, 5}), f32Vector({1, 2, 3, 4, 5, 6})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(), "function 'add': a has 5 elements but b has 6");
  HostTensor matrix = HostTensor::zeros(TensorType{ElementType::f32, {2, 3}});
  out = f.call({matrix, f32Vector({1})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            "function 'add': argument 0 has type 2x3xf32 but expected ?xf32");

  // A static dimension next to a dynamic one is still checked.
  ModuleDesc m = testModule();
  TensorType rows{ElementType::f32, {kDyn, 4}};
  ProgramDesc p;
  p.bufferRegisters = 1;
  p.intRegisters = 1;
  p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Dim, {0, 0, 0}),
                    op(fb::Opcode_Return, {0, 0})};
  m.functions.push_back({"rows", {rows}, {rows}, {}, {}, {}, p});
  auto identity = load(m);
  ASSERT_TRUE(identity.ok()) << identity.status().toString();
  out = (*identity)->call("rows", {HostTensor::zeros(TensorType{ElementType::f32, {3, 5}})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "function 'rows': argument 0 has type 3x5xf32 but expected "
                                    "?x4xf32 (dimension 1 is 5, expected 4)");
  HostTensor in = HostTensor::zeros(TensorType{ElementType::f32, {3, 4}});
  for (size_t k = 0; k < in.bytes.size(); ++k)
    in.bytes[k] = static_cast<uint8_t>(k);
  out = (*identity)->call("rows", {in});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ((*out)[0].type, in.type);
  EXPECT_EQ((*out)[0].bytes, in.bytes);
}

// Result dimensions come from the Return: a wrong one is a size mismatch, a
// negative one an error of its own.
TEST_F(DynamicShapeTest, ResultDimensionErrors) {
  auto call = [&](int64_t dim) {
    ModuleDesc m = testModule();
    TensorType vec{ElementType::i8, {kDyn}};
    ProgramDesc p;
    p.bufferRegisters = 1;
    p.intRegisters = 1;
    p.instructions = {op(fb::Opcode_Argument, {0, 0}), op(fb::Opcode_Int, {0, dim}),
                      op(fb::Opcode_Return, {0, 0})};
    m.functions.push_back({"f", {vec}, {vec}, {}, {}, {}, p});
    auto module = load(m);
    EXPECT_TRUE(module.ok()) << module.status().toString();
    if (!module.ok())
      return std::string("load failed");
    auto out = (*module)->call("f", {HostTensor::zeros(TensorType{ElementType::i8, {3}})});
    if (out.ok())
      return (*out)[0].type.toString();
    return out.status().message();
  };
  EXPECT_EQ(call(3), "3xi8");
  EXPECT_EQ(call(4), "function 'f': instruction 2 (Return): result 0 of type 4xi8 (4 bytes) is "
                     "a buffer of 3 bytes");
  EXPECT_EQ(call(-2), "function 'f': instruction 2 (Return): result dimension -2 (operand 1)");
}

TEST_F(DynamicShapeTest, WorkgroupCountErrors) {
  auto callWith = [&](CountProgramDesc count, int64_t n) {
    ModuleDesc m = addModule();
    m.executables[0].exports[0].workgroupCountProgram = std::move(count);
    auto module = load(m);
    EXPECT_TRUE(module.ok()) << module.status().toString();
    if (!module.ok())
      return std::string("load failed");
    auto out = (*module)->call("add", {f32Vector(randomValues(n, 1)), f32Vector(randomValues(n, 2))});
    return out.ok() ? std::string() : out.status().message();
  };
  // n - 10 workgroups along x.
  CountProgramDesc negative{3,
                            {op(fb::Opcode_Int, {1, 10}), op(fb::Opcode_Sub, {1, 0, 1}),
                             op(fb::Opcode_Int, {2, 1})},
                            {1, 2, 2}};
  EXPECT_EQ(callWith(negative, 3),
            "function 'add': dispatch 0 ('add_n_f32'): negative workgroup count -7x1x1");
  // y = n: above 65535 for a large n.
  CountProgramDesc tall{2, {op(fb::Opcode_Int, {1, 1})}, {1, 0, 1}};
  EXPECT_EQ(callWith(tall, 70000), "function 'add': dispatch 0 ('add_n_f32'): workgroup count "
                                   "1x70000x1 exceeds 2147483647x65535x65535");
  CountProgramDesc divide{2, {op(fb::Opcode_DivS, {1, 0, 1})}, {1, 1, 1}};
  EXPECT_EQ(callWith(divide, 4), "function 'add': dispatch 0: workgroup count program "
                                 "instruction 0 (DivS): division by zero");
  // A count of 0 in y skips the dispatch: the result is what Alloc left,
  // not a + b (the test cannot tell uninitialised memory from a sum, so
  // only the absence of an error is checked here; dispatchCount shows the
  // skip in PreparedCallHasTheRecordedShapes).
  CountProgramDesc noRows{2, {op(fb::Opcode_Int, {1, 0})}, {0, 1, 0}};
  EXPECT_EQ(callWith(noRows, 5), "");
}

TEST_F(DynamicShapeTest, LoaderChecks) {
  struct Case {
    const char *what;
    std::function<void(ModuleDesc &)> breakIt;
    std::string needle;
  };
  auto program = [](ModuleDesc &m) -> ProgramDesc & { return *m.functions[0].program; };
  auto count = [](ModuleDesc &m) -> CountProgramDesc & {
    return *m.executables[0].exports[0].workgroupCountProgram;
  };
  const Case cases[] = {
      {"negative dimension",
       [](ModuleDesc &m) { m.functions[0].arguments[1].shape = {-2}; },
       "function 'add': argument 1: type -2xf32 has a negative dimension"},
      {"dim argument", [&](ModuleDesc &m) { program(m).instructions[2].operands[1] = 2; },
       "function 'add': program instruction 2: Dim of argument 2 but there are 2"},
      {"dim dimension", [&](ModuleDesc &m) { program(m).instructions[3].operands[2] = 1; },
       "function 'add': program instruction 3: Dim 1 of argument 1 of type ?xf32 (rank 1)"},
      {"assert message", [&](ModuleDesc &m) { program(m).messages.clear(); },
       "program instruction 5: Assert of message 0 but there are 0"},
      {"assert value", [&](ModuleDesc &m) { program(m).instructions[5].operands[3] = 4; },
       "program instruction 5: Assert operand 3 is integer register 4 but there are 4"},
      {"message text", [&](ModuleDesc &m) { program(m).messages[0] = "tab\there"; },
       "function 'add': program message 0 is not printable ASCII (8 bytes)"},
      {"dispatch push constant",
       [&](ModuleDesc &m) { program(m).instructions[9].operands.pop_back(); },
       "program instruction 9: Dispatch has 3 bindings and push constants but export "
       "'add_n_f32' of executable 0 (cpu) takes 3 bindings and 1 push constant"},
      {"push constant register",
       [&](ModuleDesc &m) { program(m).instructions[9].operands[4] = 7; },
       "program instruction 9: Dispatch operand 4 is integer register 7 but there are 4"},
      {"push constants differ",
       [](ModuleDesc &m) {
         ExecutableDesc other = m.executables[0];
         other.exports[0].pushConstantCount = 2;
         other.exports[0].workgroupCountProgram->intRegisters = 3;
         m.executables.push_back(other);
       },
       "export 0 'add_n_f32' of executable 1 (cpu) differs from export 0 'add_n_f32' of "
       "executable 0 (cpu) in its push_constant_count"},
      {"return dims", [&](ModuleDesc &m) { program(m).instructions[10].operands.pop_back(); },
       "program instruction 10: Return of 1 operand but the function has 1 result and 1 "
       "dynamic result dimension (expected 2)"},
      {"return dim register",
       [&](ModuleDesc &m) { program(m).instructions[10].operands[1] = 9; },
       "program instruction 10: Return operand 1 is integer register 9 but there are 4"},
      {"count registers", [&](ModuleDesc &m) { count(m).intRegisters = 0; },
       "executable 0 (cpu): export 0 'add_n_f32': workgroup count program has 0 integer "
       "registers (at least the 1 push constant it starts with"},
      {"count opcode",
       [&](ModuleDesc &m) { count(m).instructions[1] = op(fb::Opcode_Dim, {1, 0, 0}); },
       "workgroup count program instruction 1: Dim is not allowed (only Int, Move, Add .. "
       "Select, SignExtend and ZeroExtend)"},
      {"count operand", [&](ModuleDesc &m) { count(m).instructions[1].operands[2] = 3; },
       "workgroup count program instruction 1: Add operand 2 is integer register 3 but there "
       "are 3"},
      {"count operand count", [&](ModuleDesc &m) { count(m).instructions[0].operands.pop_back(); },
       "workgroup count program instruction 0: Int has 1 operand (expected 2)"},
      {"count results", [&](ModuleDesc &m) { count(m).results.pop_back(); },
       "workgroup count program has 2 results (expected 3: x, y, z)"},
      {"count result register", [&](ModuleDesc &m) { count(m).results[2] = 3; },
       "workgroup count program: result 2 is integer register 3 but there are 3"},
      {"slot form",
       [](ModuleDesc &m) {
         TensorType vec{ElementType::f32, {kDyn}};
         m.functions.push_back({"slots", {vec}, {vec}, {argumentSlot(0, 0)}, {}, {0}});
       },
       "function 'slots': argument 0 has a dynamic dimension (?xf32) but the function has no "
       "program (slots have static sizes)"},
  };
  for (const Case &c : cases) {
    ModuleDesc m = addModule();
    c.breakIt(m);
    EXPECT_CONTAINS(loadError(m), c.needle) << c.what;
  }
}

// Each version 7 feature in a version 6 module is refused, naming it.
TEST_F(DynamicShapeTest, Version6ModulesCannotUseThem) {
  struct Case {
    const char *what;
    std::function<void(ModuleDesc &)> change;
    std::string needle;
  };
  auto program = [](ModuleDesc &m) -> ProgramDesc & { return *m.functions[0].program; };
  auto withoutDims = [](ModuleDesc &m) {
    for (TensorType *t : {&m.functions[0].arguments[0], &m.functions[0].arguments[1],
                          &m.functions[0].results[0]})
      t->shape = {8};
    m.functions[0].program->instructions[10].operands.pop_back();
  };
  const Case cases[] = {
      {"dynamic dimension",
       [&](ModuleDesc &m) {
         m.executables[0].exports[0] = ExportDesc{"add_n_f32", {1, 1, 1}, 3};
         program(m).instructions[9].operands.pop_back();
       },
       "function 'add': argument 0 has a dynamic dimension (?xf32), which schema version 6 does "
       "not have (version 7 added it)"},
      {"push constants",
       [&](ModuleDesc &m) { withoutDims(m); },
       "executable 0 (cpu): export 0 'add_n_f32': has push constants, which schema version 6 "
       "does not have (version 7 added it)"},
      {"count program",
       [&](ModuleDesc &m) {
         withoutDims(m);
         m.executables[0].exports[0].pushConstantCount = 0;
         m.executables[0].exports[0].workgroupCountProgram->intRegisters = 3;
       },
       "export 0 'add_n_f32': has a workgroup count program, which schema version 6 does not "
       "have (version 7 added it)"},
      {"messages",
       [&](ModuleDesc &m) {
         withoutDims(m);
         m.executables[0].exports[0] = ExportDesc{"add_n_f32", {1, 1, 1}, 3};
         program(m).instructions[9].operands.pop_back();
       },
       "function 'add': program has messages, which schema version 6 does not have (version 7 "
       "added it)"},
      {"dim",
       [&](ModuleDesc &m) {
         withoutDims(m);
         m.executables[0].exports[0] = ExportDesc{"add_n_f32", {1, 1, 1}, 3};
         program(m).instructions[9].operands.pop_back();
         program(m).messages.clear();
       },
       "function 'add': program instruction 2: uses Dim, which schema version 6 does not have "
       "(version 7 added it)"},
      {"assert",
       [&](ModuleDesc &m) {
         withoutDims(m);
         m.executables[0].exports[0] = ExportDesc{"add_n_f32", {1, 1, 1}, 3};
         program(m).instructions[9].operands.pop_back();
         program(m).messages.clear();
         program(m).instructions[2] = op(fb::Opcode_Int, {0, 8});
         program(m).instructions[3] = op(fb::Opcode_Int, {1, 8});
       },
       "function 'add': program instruction 5: uses Assert, which schema version 6 does not have "
       "(version 7 added it)"},
  };
  for (const Case &c : cases) {
    ModuleDesc m = addModule();
    m.version = 6;
    c.change(m);
    EXPECT_CONTAINS(loadError(m), c.needle) << c.what;
  }
}
