// Tests of host programs (schema version 6, `HostProgram`): a loop whose
// trip count is read from the device, every integer opcode against C++,
// the loader's checks of registers, branch targets, operands and endings,
// and the errors a call can hit (a read while preparing, division by zero,
// a result of the wrong size, a register read before it is set).
#include "tessel/runtime/module.h"
#include "test_module_builder.h"

#include "module_generated.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace tessel::rt;
using namespace tessel::rt::testutil;
namespace fb = tessel::fb;

namespace {

InstructionDesc op(fb::Opcode opcode, std::vector<int64_t> operands) {
  return InstructionDesc{static_cast<uint8_t>(opcode), std::move(operands)};
}

std::vector<uint8_t> bytesOf(int64_t v) {
  std::vector<uint8_t> b(8);
  std::memcpy(b.data(), &v, 8);
  return b;
}

/// f(a, b: nxf32, k: i32) -> a + k b: a loop of add_f32 dispatches whose trip
/// count the host reads from argument 2.
ModuleDesc repeatAddModule(int64_t n) {
  ModuleDesc m = testModule();
  uint32_t add = addExport(m, "add_f32", workgroupsFor(n), 4);
  TensorType vec{ElementType::f32, {n}};
  FunctionDesc f;
  f.name = "repeat_add";
  f.arguments = {vec, vec, TensorType{ElementType::i32, {}}};
  f.results = {vec};
  ProgramDesc p;
  p.intRegisters = 6;
  p.bufferRegisters = 6;
  p.constants = {bytesOf(n)};
  p.instructions = {
      op(fb::Opcode_Argument, {0, 0}),
      op(fb::Opcode_Argument, {1, 1}),
      op(fb::Opcode_Argument, {2, 2}),
      op(fb::Opcode_Constant, {3, 0}),
      op(fb::Opcode_Int, {0, 0}),
      op(fb::Opcode_Read, {1, 2, 0, fb::ElementType_i32}), // 5: k
      op(fb::Opcode_Int, {2, 0}),                           // i = 0
      op(fb::Opcode_Int, {3, 1}),
      op(fb::Opcode_Int, {4, n * 4}),
      op(fb::Opcode_MoveBuffer, {4, 0}),                    // x = a
      op(fb::Opcode_CmpLt, {5, 2, 1}),                      // 10: i < k
      op(fb::Opcode_CondBranch, {5, 12, 17}),
      op(fb::Opcode_Alloc, {5, 4}),
      op(fb::Opcode_Dispatch, {add, 3, 4, 1, 5}),
      op(fb::Opcode_MoveBuffer, {4, 5}),
      op(fb::Opcode_Add, {2, 2, 3}),
      op(fb::Opcode_Branch, {10}),
      op(fb::Opcode_Return, {4}), // 17
  };
  f.program = std::move(p);
  m.functions.push_back(std::move(f));
  return m;
}

class HostProgramTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto d = createDevice("cpu");
    ASSERT_TRUE(d.ok()) << d.status().toString();
    device = *d;
  }
  StatusOr<std::shared_ptr<Module>> load(const ModuleDesc &desc) {
    return Module::loadBytes(device, buildModule(desc), "program.tmod");
  }
  std::string loadError(const ModuleDesc &desc) {
    auto m = load(desc);
    return m.ok() ? "" : m.status().message();
  }
  std::shared_ptr<Device> device;
};

HostTensor f32Vector(std::vector<float> values) {
  HostTensor t = HostTensor::zeros(
      TensorType{ElementType::f32, {static_cast<int64_t>(values.size())}});
  std::memcpy(t.bytes.data(), values.data(), values.size() * 4);
  return t;
}

HostTensor i32Scalar(int32_t v) {
  HostTensor t = HostTensor::zeros(TensorType{ElementType::i32, {}});
  std::memcpy(t.bytes.data(), &v, 4);
  return t;
}

HostTensor i64Scalar(int64_t v) {
  HostTensor t = HostTensor::zeros(TensorType{ElementType::i64, {}});
  std::memcpy(t.bytes.data(), &v, 8);
  return t;
}

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

} // namespace

TEST_F(HostProgramTest, LoopWithDeviceTripCount) {
  const int64_t n = 77;
  auto module = load(repeatAddModule(n));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-4, 4);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i)
    a[i] = dist(rng), b[i] = dist(rng);
  for (int32_t k : {0, 1, 5, -3}) {
    auto out = (*module)->call("repeat_add", {f32Vector(a), f32Vector(b), i32Scalar(k)});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    const float *r = (*out)[0].data<float>();
    for (int64_t i = 0; i < n; ++i) {
      float expected = a[i];
      for (int32_t t = 0; t < k; ++t)
        expected += b[i];
      ASSERT_EQ(r[i], expected) << "k " << k << " element " << i;
    }
  }
  const Function *f = *(*module)->lookupFunction("repeat_add");
  EXPECT_EQ(f->dispatchCount(), 1u);
  EXPECT_CONTAINS((*module)->describe(),
                  "function repeat_add(77xf32, 77xf32, i32) -> (77xf32): 18 instructions, 1 "
                  "dispatches, control flow\n  0: Argument b0, #0\n");
  // A program that reads the device cannot be recorded once.
  auto prepared = f->prepare({f32Vector(a), f32Vector(b), i32Scalar(2)});
  ASSERT_FALSE(prepared.ok());
  EXPECT_CONTAINS(prepared.status().message(),
                  "function 'repeat_add': instruction 5 (Read): the program reads a device value "
                  "on the host");
}

// Each integer opcode against C++ on a few operand pairs: the program
// computes `opcode a, b` and returns argument 1 if it equals argument 3's
// i64, else argument 2.
TEST_F(HostProgramTest, IntegerOpcodesMatchCpp) {
  struct Case {
    fb::Opcode opcode;
    int64_t (*expected)(int64_t, int64_t);
  };
  const Case cases[] = {
      {fb::Opcode_Add, [](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }},
      {fb::Opcode_Sub, [](int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }},
      {fb::Opcode_Mul, [](int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); }},
      {fb::Opcode_DivS, [](int64_t a, int64_t b) { return a / b; }},
      {fb::Opcode_RemS, [](int64_t a, int64_t b) { return a % b; }},
      {fb::Opcode_MinS, [](int64_t a, int64_t b) { return std::min(a, b); }},
      {fb::Opcode_MaxS, [](int64_t a, int64_t b) { return std::max(a, b); }},
      {fb::Opcode_And, [](int64_t a, int64_t b) { return a & b; }},
      {fb::Opcode_Or, [](int64_t a, int64_t b) { return a | b; }},
      {fb::Opcode_Xor, [](int64_t a, int64_t b) { return a ^ b; }},
      {fb::Opcode_CmpEq, [](int64_t a, int64_t b) { return int64_t(a == b); }},
      {fb::Opcode_CmpNe, [](int64_t a, int64_t b) { return int64_t(a != b); }},
      {fb::Opcode_CmpLt, [](int64_t a, int64_t b) { return int64_t(a < b); }},
      {fb::Opcode_CmpLe, [](int64_t a, int64_t b) { return int64_t(a <= b); }},
      {fb::Opcode_CmpGt, [](int64_t a, int64_t b) { return int64_t(a > b); }},
      {fb::Opcode_CmpGe, [](int64_t a, int64_t b) { return int64_t(a >= b); }},
      // Sign and zero extension from the low b bits.
      {fb::Opcode_SignExtend,
       [](int64_t a, int64_t b) { return int64_t(uint64_t(a) << (64 - b)) >> (64 - b); }},
      {fb::Opcode_ZeroExtend,
       [](int64_t a, int64_t b) { return int64_t(uint64_t(a) & ((uint64_t(1) << b) - 1)); }},
  };
  const std::pair<int64_t, int64_t> operands[] = {
      {7, 3}, {-7, 3}, {7, -3}, {-9, -9}, {INT64_MAX, 2}, {int64_t(0x1234ABCD87), 31}, {255, 8}};
  TensorType i64{ElementType::i64, {}};
  for (const Case &c : cases)
    for (auto [a, b] : operands) {
      bool extend = c.opcode == fb::Opcode_SignExtend || c.opcode == fb::Opcode_ZeroExtend;
      if (extend && (b < 1 || b > 63))
        continue;
      ModuleDesc m = testModule();
      FunctionDesc f;
      f.name = "f";
      f.arguments = {i64, i64, i64, i64};
      f.results = {i64};
      ProgramDesc p;
      p.intRegisters = 5;
      p.bufferRegisters = 4;
      for (int k = 0; k < 4; ++k)
        p.instructions.push_back(op(fb::Opcode_Argument, {k, k}));
      p.instructions.push_back(op(fb::Opcode_Int, {0, a}));
      p.instructions.push_back(op(fb::Opcode_Int, {1, b}));
      p.instructions.push_back(op(fb::Opcode_Int, {3, 0}));
      p.instructions.push_back(op(fb::Opcode_Read, {4, 2, 3, fb::ElementType_i64}));
      p.instructions.push_back(extend ? op(c.opcode, {2, 0, b}) : op(c.opcode, {2, 0, 1}));
      p.instructions.push_back(op(fb::Opcode_CmpEq, {2, 2, 4}));
      size_t at = p.instructions.size();
      p.instructions.push_back(op(fb::Opcode_CondBranch, {2, int64_t(at + 1), int64_t(at + 2)}));
      p.instructions.push_back(op(fb::Opcode_Return, {0}));
      p.instructions.push_back(op(fb::Opcode_Return, {1}));
      f.program = std::move(p);
      m.functions.push_back(std::move(f));
      auto module = load(m);
      ASSERT_TRUE(module.ok()) << module.status().toString();
      auto out = (*module)->call(
          "f", {i64Scalar(1), i64Scalar(0), i64Scalar(c.expected(a, b)), i64Scalar(0)});
      ASSERT_TRUE(out.ok()) << out.status().toString();
      EXPECT_EQ(*(*out)[0].data<int64_t>(), 1)
          << fb::EnumNameOpcode(c.opcode) << " " << a << ", " << b;
    }
}

TEST_F(HostProgramTest, LoadErrorsNameTheInstruction) {
  struct Case {
    const char *what;
    void (*breakIt)(ProgramDesc &);
    std::string needle;
  };
  const Case cases[] = {
      {"integer register", [](ProgramDesc &p) { p.instructions[4].operands[0] = 6; },
       "function 'repeat_add': program instruction 4: Int operand 0 is integer register 6 but "
       "there are 6"},
      {"buffer register", [](ProgramDesc &p) { p.instructions[9].operands[1] = -1; },
       "program instruction 9: MoveBuffer operand 1 is buffer register -1 but there are 6"},
      {"branch target", [](ProgramDesc &p) { p.instructions[16].operands[0] = 18; },
       "program instruction 16: Branch operand 0 branches to instruction 18 but there are 18"},
      {"operand count", [](ProgramDesc &p) { p.instructions[15].operands.pop_back(); },
       "program instruction 15: Add has 2 operands (expected 3)"},
      {"bindings", [](ProgramDesc &p) { p.instructions[13].operands.pop_back(); },
       "program instruction 13: Dispatch has 3 bindings but export 'add_f32' of executable 0 "
       "(cpu) takes 4"},
      {"export", [](ProgramDesc &p) { p.instructions[13].operands[0] = 1; },
       "Dispatch uses export 1 but executable 0 (cpu) has 1 exports"},
      {"opcode", [](ProgramDesc &p) { p.instructions[7].opcode = 200; },
       "program instruction 7: unknown opcode 200"},
      {"argument", [](ProgramDesc &p) { p.instructions[2].operands[1] = 3; },
       "Argument reads argument 3 but there are 3"},
      {"constant", [](ProgramDesc &p) { p.instructions[3].operands[1] = 1; },
       "Constant reads constant 1 but there are 1"},
      {"read type", [](ProgramDesc &p) { p.instructions[5].operands[3] = fb::ElementType_f32; },
       "Read of element type 1 (expected an integer type"},
      {"store type",
       [](ProgramDesc &p) { p.instructions[6] = op(fb::Opcode_Store, {5, 0, fb::ElementType_f16}); },
       "program instruction 6: Store of element type 2 (expected an integer type"},
      {"returns", [](ProgramDesc &p) { p.instructions[17].operands.push_back(0); },
       "Return of 2 buffers but the function has 1 result"},
      {"falls off", [](ProgramDesc &p) { p.instructions[17] = op(fb::Opcode_Int, {0, 1}); },
       "program ends with Int (expected Return or Branch"},
      {"empty", [](ProgramDesc &p) { p.instructions.clear(); },
       "program has 0 instructions (expected 1 to"},
      {"registers", [](ProgramDesc &p) { p.intRegisters = 1u << 30; },
       "program has 1073741824 integer and 6 buffer registers (at most 1048576 each)"},
  };
  for (const Case &c : cases) {
    ModuleDesc m = repeatAddModule(5);
    c.breakIt(*m.functions[0].program);
    EXPECT_CONTAINS(loadError(m), c.needle) << c.what;
  }
  ModuleDesc both = repeatAddModule(5);
  both.functions[0].slots = {argumentSlot(0, 20)};
  EXPECT_CONTAINS(loadError(both),
                  "function 'repeat_add': has both a program and slots, dispatches or result "
                  "slots");
  ModuleDesc v5 = repeatAddModule(5);
  v5.version = 5;
  EXPECT_CONTAINS(loadError(v5), "function 'repeat_add': has a program, which schema version 5 "
                                 "does not have (version 6 added it)");
}

TEST_F(HostProgramTest, CallErrorsNameTheInstruction) {
  TensorType i64{ElementType::i64, {}};
  auto program = [&](std::vector<InstructionDesc> instructions, uint32_t ints, uint32_t buffers) {
    ModuleDesc m = testModule();
    FunctionDesc f;
    f.name = "f";
    f.arguments = {i64};
    f.results = {i64};
    ProgramDesc p;
    p.intRegisters = ints;
    p.bufferRegisters = buffers;
    p.instructions = std::move(instructions);
    f.program = std::move(p);
    m.functions.push_back(std::move(f));
    return m;
  };
  auto callError = [&](const ModuleDesc &m) {
    auto module = load(m);
    EXPECT_TRUE(module.ok()) << module.status().toString();
    if (!module.ok())
      return std::string();
    auto out = (*module)->call("f", {i64Scalar(0)});
    return out.ok() ? std::string() : out.status().message();
  };
  // The argument (0) is the divisor.
  EXPECT_CONTAINS(callError(program({op(fb::Opcode_Argument, {0, 0}),
                                     op(fb::Opcode_Int, {0, 0}),
                                     op(fb::Opcode_Read, {1, 0, 0, fb::ElementType_i64}),
                                     op(fb::Opcode_DivS, {1, 1, 1}),
                                     op(fb::Opcode_Return, {0})},
                                    2, 1)),
                  "function 'f': instruction 3 (DivS): division by zero");
  EXPECT_CONTAINS(callError(program({op(fb::Opcode_Return, {0})}, 0, 1)),
                  "function 'f': instruction 0 (Return): buffer register 0 is read before it "
                  "is set");
  EXPECT_CONTAINS(callError(program({op(fb::Opcode_Int, {0, 4}), op(fb::Opcode_Alloc, {0, 0}),
                                     op(fb::Opcode_Return, {0})},
                                    1, 1)),
                  "function 'f': instruction 2 (Return): result 0 of type i64 (8 bytes) is a "
                  "buffer of 4 bytes");
  EXPECT_CONTAINS(callError(program({op(fb::Opcode_Argument, {0, 0}),
                                     op(fb::Opcode_Int, {0, 5}),
                                     op(fb::Opcode_Read, {0, 0, 0, fb::ElementType_i32}),
                                     op(fb::Opcode_Return, {0})},
                                    1, 1)),
                  "function 'f': instruction 2 (Read): reads 4 bytes at offset 5 of a buffer of 8 "
                  "bytes");
  EXPECT_CONTAINS(callError(program({op(fb::Opcode_Int, {0, -1}), op(fb::Opcode_Alloc, {0, 0}),
                                     op(fb::Opcode_Return, {0})},
                                    1, 1)),
                  "function 'f': instruction 1 (Alloc): allocation of -1 bytes");
}

// Store: a host integer written into a one-element buffer in order with the
// dispatches (how kernels get host values); returned here to read it back.
TEST_F(HostProgramTest, StoreWritesTheRegister) {
  TensorType i16{ElementType::i16, {}}, i64{ElementType::i64, {}};
  ModuleDesc m = testModule();
  FunctionDesc f;
  f.name = "f";
  f.arguments = {i64};
  f.results = {i16, i16};
  ProgramDesc p;
  p.intRegisters = 3;
  p.bufferRegisters = 3;
  p.instructions = {op(fb::Opcode_Argument, {0, 0}),
                    op(fb::Opcode_Int, {0, 0}),
                    op(fb::Opcode_Read, {1, 0, 0, fb::ElementType_i64}),
                    op(fb::Opcode_Int, {2, -3}),
                    op(fb::Opcode_Mul, {1, 1, 2}),
                    op(fb::Opcode_Store, {1, 1, fb::ElementType_i16}),
                    op(fb::Opcode_Store, {2, 2, fb::ElementType_i16}),
                    op(fb::Opcode_Return, {1, 2})};
  f.program = std::move(p);
  m.functions.push_back(std::move(f));
  auto module = load(m);
  ASSERT_TRUE(module.ok()) << module.status().toString();
  for (int64_t x : {int64_t(0), int64_t(7), int64_t(-1000)}) {
    auto out = (*module)->call("f", {i64Scalar(x)});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    EXPECT_EQ(*(*out)[0].data<int16_t>(), static_cast<int16_t>(-3 * x));
    EXPECT_EQ(*(*out)[1].data<int16_t>(), -3);
  }
  // A prepared call (no Read) writes the value once, when it is prepared.
  ModuleDesc constant = testModule();
  FunctionDesc g;
  g.name = "g";
  g.results = {i16};
  ProgramDesc q;
  q.intRegisters = 1;
  q.bufferRegisters = 1;
  q.instructions = {op(fb::Opcode_Int, {0, 1234}), op(fb::Opcode_Store, {0, 0, fb::ElementType_i16}),
                    op(fb::Opcode_Return, {0})};
  g.program = std::move(q);
  constant.functions.push_back(std::move(g));
  auto loaded = load(constant);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  auto prepared = (*(*loaded)->lookupFunction("g"))->prepare({});
  ASSERT_TRUE(prepared.ok()) << prepared.status().toString();
  ASSERT_TRUE((*prepared)->run().ok());
  auto results = (*prepared)->results();
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ(*(*results)[0].data<int16_t>(), 1234);
}
