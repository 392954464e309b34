// Module loading: FlatBuffers verification, then semantic checks of every
// index and size the interpreter will trust, then executable preparation and
// constant upload. Checks run before anything touches the device, so a
// corrupt file never reaches dlopen or the kernels with bad indices.
#include "tessel/runtime/module.h"

#include "tessel/runtime/cuda_c_abi.h"

#include "file_util.h"
#include "hal/cpu/cpu_executable.h"
#include "hal/cpu/cpu_features.h"
#include "hal/device.h"
#include "module/function_program.h"
#include "module/integrity.h"
#include "module/kernel_module.h"
#include "module_generated.h"
#include "printable_text.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace tessel::rt {

namespace {

namespace fb = tessel::fb;

// Limits on what a module may ask for. No real module comes near them; a
// larger value means a damaged or hand-made file.
constexpr uint64_t kMaxWorkgroups = uint64_t(1) << 40;  // per dispatch
constexpr uint64_t kMaxWorkgroupThreads = 1024;         // x*y*z of workgroup_size
constexpr uint32_t kMaxSharedMemoryBytes = 227 * 1024;  // the largest GPU opt-in
constexpr uint32_t kMaxBindings = 4096;                 // per export
constexpr size_t kMaxNameLength = 1024;
// Tensor maps: the limits of cuTensorMapEncodeTiled (cuda.h), checked at
// load time so that a bad map is an error naming it, not a driver error at
// dispatch.
constexpr uint32_t kMaxTensorMaps = 8;   // per export
constexpr size_t kMaxTensorMapRank = 5;
constexpr uint64_t kMaxTensorMapDim = uint64_t(1) << 32;
constexpr uint64_t kMaxTensorMapStride = uint64_t(1) << 40; // exclusive
constexpr uint32_t kMaxTensorMapBox = 256;
constexpr uint32_t kMaxTensorMapElementStride = 8;
// Largest value of each CUtensorMap* enum this runtime passes on
// (CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, _INTERLEAVE_32B, _SWIZZLE_128B,
// _L2_PROMOTION_L2_256B, _FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA).
constexpr uint8_t kMaxTensorMapDataType = 12;
constexpr uint8_t kMaxTensorMapInterleave = 2;
constexpr uint8_t kMaxTensorMapSwizzle = 3;
constexpr uint8_t kMaxTensorMapL2Promotion = 3;
constexpr uint8_t kMaxTensorMapOobFill = 1;
// CUDA C kernels (abi CudaC, schema version 4).
constexpr uint32_t kMaxCudaCParameters = TESSEL_CUDA_C_MAX_PARAMETERS;
constexpr uint32_t kMaxCudaCParameterBytes = TESSEL_CUDA_C_MAX_PARAMETER_BYTES;
// Blocks of one kernel an SM holds at once (32 on sm_80 and sm_90).
constexpr uint32_t kMaxResidentBlocksPerSm = 32;
constexpr uint64_t kMaxScratchBytes = uint64_t(1) << 36; // per export

template <typename T> std::string str(const T &v) { return std::to_string(v); }

// "versions 3 and 4": the schema versions this runtime reads.
std::string readableVersions() {
  if (kMinSchemaVersion == kSchemaVersion)
    return "version " + str(kSchemaVersion);
  return "versions " + str(kMinSchemaVersion) +
         (kSchemaVersion == kMinSchemaVersion + 1 ? " and " : " to ") + str(kSchemaVersion);
}

// "1 tensor map", "2 tensor maps".
std::string countOf(size_t n, const std::string &noun) {
  return str(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &i : items)
    s += (s.empty() ? "" : ", ") + i;
  return s;
}

// An error unless a module of schema `version` has what version `added`
// added: "`what`, which schema version 6 does not have (version 7 added
// it)".
Status requireVersion(uint32_t version, uint32_t added, const std::string &what) {
  if (version >= added)
    return Status();
  return dataLoss(what + ", which schema version " + str(version) +
                  " does not have (version " + str(added) + " added it)");
}

// A signature type (Function.arguments and results, the only TensorTypes of
// the schema) of a module of schema `version`: from version 7 a dimension
// may be dynamic (-1).
StatusOr<TensorType> convertType(const fb::TensorType *t, const std::string &what,
                                 uint32_t version) {
  if (!t)
    return dataLoss(what + " has no type");
  auto elem = static_cast<uint8_t>(t->element_type());
  if (elem > kMaxElementType)
    return dataLoss(what + " has unknown element type " + str(elem));
  TensorType type{static_cast<ElementType>(elem), {}};
  if (t->shape()) {
    // The FlatBuffers verifier checks the alignment of a vector's length,
    // not of its 8-byte elements; reading misaligned ones is undefined
    // (found by fuzz_module). Buffers start 8-byte aligned (std::vector).
    if (t->shape()->size() &&
        reinterpret_cast<uintptr_t>(t->shape()->data()) % alignof(int64_t) != 0)
      return dataLoss(what + ": shape is not 8-byte aligned (the writer produced a bad file)");
    type.shape.assign(t->shape()->begin(), t->shape()->end());
  }
  if (type.isDynamic())
    TESSEL_RETURN_IF_ERROR(
        requireVersion(version, 7, what + " has a dynamic dimension (" + type.toString() + ")"));
  Status s = type.validate(/*allowDynamic=*/true);
  if (!s.ok())
    return dataLoss(what + ": " + s.message());
  return type;
}

StatusOr<std::vector<TensorType>>
convertTypes(const flatbuffers::Vector<flatbuffers::Offset<fb::TensorType>> *types,
             const std::string &what, uint32_t version) {
  std::vector<TensorType> out;
  if (types)
    for (uint32_t i = 0; i < types->size(); ++i) {
      TESSEL_ASSIGN_OR_RETURN(TensorType t,
                              convertType(types->Get(i), what + " " + str(i), version));
      out.push_back(std::move(t));
    }
  return out;
}

// A name read from the file (function, export, target, format, arch,
// feature): non-empty printable ASCII of bounded length, so that it can be
// quoted in errors and passed to dlsym. Errors describe a bad name without
// quoting it. `spaces`: whether ' ' is allowed.
StatusOr<std::string> checkedName(const flatbuffers::String *s, const std::string &what,
                                  bool spaces = false) {
  if (!s || s->size() == 0)
    return dataLoss(what + " is missing");
  if (s->size() > kMaxNameLength)
    return dataLoss(what + " is " + str(s->size()) + " bytes long (at most " +
                    str(kMaxNameLength) + ")");
  for (uint8_t c : *s)
    if (c < (spaces ? 0x20 : 0x21) || c > 0x7e)
      return dataLoss(what + " is not printable ASCII" + (spaces ? "" : " without spaces") +
                      " (" + str(s->size()) + " bytes)");
  return s->str();
}

// Copies a vector of the file into `out`; absent reads as empty. 8-byte
// elements must be 8-byte aligned (see convertType).
template <typename T>
Status readVector(const flatbuffers::Vector<T> *v, std::vector<T> &out, const std::string &what) {
  out.clear();
  if (!v || v->size() == 0)
    return Status();
  if (reinterpret_cast<uintptr_t>(v->data()) % alignof(T) != 0)
    return dataLoss(what + " is not " + str(alignof(T)) +
                    "-byte aligned (the writer produced a bad file)");
  out.assign(v->begin(), v->end());
  return Status();
}

// The most instructions and registers of a program (bounds for the loader,
// far above what the compiler writes).
constexpr uint32_t kMaxInstructions = 1u << 24;
constexpr uint32_t kMaxRegisters = 1u << 20;
// Workgroup count programs (schema version 7): a few instructions each.
constexpr uint32_t kMaxCountInstructions = 1u << 12;
constexpr uint32_t kMaxPushConstants = 256; // per export
constexpr size_t kMaxMessageLength = 4096;  // bytes of an Assert message

// Copies instructions of the file into `out`; `what` ("program") names them.
Status convertInstructions(const flatbuffers::Vector<flatbuffers::Offset<fb::Instruction>> *v,
                           std::vector<detail::Instruction> &out, const std::string &what) {
  out.resize(v ? v->size() : 0);
  for (size_t i = 0; i < out.size(); ++i) {
    const fb::Instruction *in = v->Get(static_cast<uint32_t>(i));
    if (!in)
      return dataLoss(what + " instruction " + str(i) + " is missing");
    out[i].opcode = in->opcode();
    TESSEL_RETURN_IF_ERROR(readVector(in->operands(), out[i].operands,
                                      what + " instruction " + str(i) + ": operands"));
  }
  return Status();
}

// The registers and instructions operands may name.
struct ProgramBounds {
  uint32_t intRegisters = 0, bufferRegisters = 0;
  size_t instructions = 0;
};

// Checks the operands of `in` against `kinds` (one per operand,
// detail::operandKindsOf) and `bounds`, and the immediates every opcode
// reads the same way wherever it runs.
Status checkOperands(const detail::Instruction &in, const std::string &kinds,
                     const ProgramBounds &bounds) {
  const char *name = fb::EnumNameOpcode(in.opcode);
  const auto &ops = in.operands;
  for (size_t k = 0; k < ops.size(); ++k) {
    int64_t v = ops[k];
    std::string what = std::string(name) + " operand " + str(k);
    if (kinds[k] == 'i' && (v < 0 || v >= int64_t(bounds.intRegisters)))
      return dataLoss(what + " is integer register " + str(v) + " but there are " +
                      str(bounds.intRegisters));
    if (kinds[k] == 'b' && (v < 0 || v >= int64_t(bounds.bufferRegisters)))
      return dataLoss(what + " is buffer register " + str(v) + " but there are " +
                      str(bounds.bufferRegisters));
    if (kinds[k] == '@' && (v < 0 || v >= int64_t(bounds.instructions)))
      return dataLoss(what + " branches to instruction " + str(v) + " but there are " +
                      str(bounds.instructions));
  }
  if ((in.opcode == fb::Opcode_SignExtend || in.opcode == fb::Opcode_ZeroExtend) &&
      (ops[2] < 1 || ops[2] > 63))
    return dataLoss(std::string(name) + " from " + str(ops[2]) + " bits (expected 1 to 63)");
  return Status();
}

// Converts and checks an export's workgroup count program (schema version
// 7) for `pushConstants` push constants; `what` names the export.
StatusOr<std::shared_ptr<const detail::WorkgroupCountProgram>>
convertCountProgram(const fb::WorkgroupCountProgram *w, uint32_t pushConstants,
                    const std::string &what) {
  auto program = std::make_shared<detail::WorkgroupCountProgram>();
  std::string ctx = what + ": workgroup count program";
  program->intRegisters = w->int_registers();
  if (program->intRegisters < pushConstants || program->intRegisters > kMaxRegisters)
    return dataLoss(ctx + " has " + str(program->intRegisters) +
                    " integer registers (at least the " + countOf(pushConstants, "push constant") +
                    " it starts with, at most " + str(kMaxRegisters) + ")");
  size_t n = w->instructions() ? w->instructions()->size() : 0;
  if (n > kMaxCountInstructions)
    return dataLoss(ctx + " has " + countOf(n, "instruction") + " (at most " +
                    str(kMaxCountInstructions) + ")");
  TESSEL_RETURN_IF_ERROR(convertInstructions(w->instructions(), program->instructions, ctx));
  for (size_t i = 0; i < n; ++i) {
    const detail::Instruction &in = program->instructions[i];
    std::string ictx = ctx + " instruction " + str(i);
    if (!detail::isIntegerOp(in.opcode)) {
      const char *name = fb::EnumNameOpcode(in.opcode);
      return dataLoss(ictx + ": " + (*name ? std::string(name) : "opcode " + str(int(in.opcode))) +
                      " is not allowed (only Int, Move, Add .. Select, SignExtend and "
                      "ZeroExtend)");
    }
    size_t expected = detail::operandKinds(in.opcode).size();
    if (in.operands.size() != expected)
      return dataLoss(ictx + ": " + fb::EnumNameOpcode(in.opcode) + " has " +
                      countOf(in.operands.size(), "operand") + " (expected " + str(expected) +
                      ")");
    Status s = checkOperands(in, std::string(detail::operandKinds(in.opcode)),
                             ProgramBounds{program->intRegisters, 0, 0});
    if (!s.ok())
      return s.withContext(ictx);
  }
  size_t results = w->results() ? w->results()->size() : 0;
  if (results != 3)
    return dataLoss(ctx + " has " + countOf(results, "result") + " (expected 3: x, y, z)");
  for (uint32_t d = 0; d < 3; ++d) {
    program->results[d] = w->results()->Get(d);
    if (program->results[d] >= program->intRegisters)
      return dataLoss(ctx + ": result " + str(d) + " is integer register " +
                      str(program->results[d]) + " but there are " +
                      str(program->intRegisters));
  }
  return std::shared_ptr<const detail::WorkgroupCountProgram>(std::move(program));
}

// Converts and checks one tensor map of an export with `bindingCount`
// bindings; `what` names it ("executable 0 (cuda): export 1 'mm': tensor
// map 0").
StatusOr<hal::TensorMapInfo> convertTensorMap(const fb::TensorMap *t, uint32_t bindingCount,
                                              uint32_t version, const std::string &what) {
  if (!t)
    return dataLoss(what + " is missing");
  auto fail = [&](const std::string &msg) { return dataLoss(what + ": " + msg); };
  hal::TensorMapInfo m;
  m.binding = t->binding();
  if (m.binding >= bindingCount)
    return fail("binding " + str(m.binding) + " but the export has " + str(bindingCount) +
                " bindings");
  m.dataType = t->data_type();
  m.interleave = t->interleave();
  m.swizzle = t->swizzle();
  m.l2Promotion = t->l2_promotion();
  m.oobFill = t->oob_fill();
  struct EnumField {
    const char *name;
    uint8_t value, max;
  } enums[] = {{"data_type", m.dataType, kMaxTensorMapDataType},
               {"interleave", m.interleave, kMaxTensorMapInterleave},
               {"swizzle", m.swizzle, kMaxTensorMapSwizzle},
               {"l2_promotion", m.l2Promotion, kMaxTensorMapL2Promotion},
               {"oob_fill", m.oobFill, kMaxTensorMapOobFill}};
  for (const EnumField &e : enums)
    if (e.value > e.max)
      return fail(std::string(e.name) + " " + str(e.value) + " is not a value this runtime " +
                  "passes to cuTensorMapEncodeTiled (0 to " + str(e.max) + ")");
  // Lengths first, so that nothing long is copied.
  auto length = [](const auto *v) -> size_t { return v ? v->size() : 0; };
  size_t rank = length(t->global_dims());
  if (rank < 1 || rank > kMaxTensorMapRank)
    return fail("rank " + str(rank) + " (global_dims has " + str(rank) + " entries; 1 to " +
                str(kMaxTensorMapRank) + " allowed)");
  auto wrongLength = [&](const char *field, size_t n, size_t expected) {
    return fail(std::string(field) + " has " + str(n) + " entries but the map has rank " +
                str(rank) + " (expected " + str(expected) + ")");
  };
  if (length(t->global_strides()) != rank - 1)
    return wrongLength("global_strides", length(t->global_strides()), rank - 1);
  if (length(t->box_dims()) != rank)
    return wrongLength("box_dims", length(t->box_dims()), rank);
  if (length(t->element_strides()) != rank)
    return wrongLength("element_strides", length(t->element_strides()), rank);
  TESSEL_RETURN_IF_ERROR(readVector(t->global_dims(), m.globalDims, what + ": global_dims"));
  TESSEL_RETURN_IF_ERROR(
      readVector(t->global_strides(), m.globalStrides, what + ": global_strides"));
  TESSEL_RETURN_IF_ERROR(readVector(t->box_dims(), m.boxDims, what + ": box_dims"));
  TESSEL_RETURN_IF_ERROR(
      readVector(t->element_strides(), m.elementStrides, what + ": element_strides"));
  for (size_t d = 0; d < rank; ++d) {
    std::string at = "[" + str(d) + "] is ";
    if (m.globalDims[d] < 1 || m.globalDims[d] > kMaxTensorMapDim)
      return fail("global_dims" + at + str(m.globalDims[d]) + " (1 to " + str(kMaxTensorMapDim) +
                  " allowed)");
    if (d + 1 < rank && (m.globalStrides[d] == 0 || m.globalStrides[d] % 16 != 0 ||
                         m.globalStrides[d] >= kMaxTensorMapStride))
      return fail("global_strides" + at + str(m.globalStrides[d]) +
                  " bytes (a positive multiple of 16 below 2^40 required)");
    if (m.boxDims[d] < 1 || m.boxDims[d] > kMaxTensorMapBox)
      return fail("box_dims" + at + str(m.boxDims[d]) + " (1 to " + str(kMaxTensorMapBox) +
                  " allowed)");
    if (m.elementStrides[d] < 1 || m.elementStrides[d] > kMaxTensorMapElementStride)
      return fail("element_strides" + at + str(m.elementStrides[d]) + " (1 to " +
                  str(kMaxTensorMapElementStride) + " allowed)");
  }
  // Dynamic extents: push constant numbers, checked against the export's
  // count once it is read.
  if (size_t n = length(t->global_dim_push_constants())) {
    TESSEL_RETURN_IF_ERROR(requireVersion(version, 8, what + ": has dynamic extents"));
    if (n != rank)
      return wrongLength("global_dim_push_constants", n, rank);
    TESSEL_RETURN_IF_ERROR(readVector(t->global_dim_push_constants(), m.globalDimPushConstants,
                                      what + ": global_dim_push_constants"));
    for (size_t d = 0; d < rank; ++d)
      if (m.globalDimPushConstants[d] < -1 ||
          m.globalDimPushConstants[d] >= int32_t(kMaxPushConstants))
        return fail("global_dim_push_constants[" + str(d) + "] is " +
                    str(m.globalDimPushConstants[d]) + " (-1 or a push constant below " +
                    str(kMaxPushConstants) + ")");
  }
  return m;
}

// Converts and checks one executable of a module of schema `version`;
// `index` is used in names and errors. Checks every binary's checksum, so
// nothing reaches a driver unverified.
StatusOr<hal::ExecutableSpec> convertExecutable(const fb::Executable *e, uint32_t index,
                                                uint32_t version) {
  std::string ctx = "executable " + str(index);
  if (!e)
    return dataLoss(ctx + " is missing");
  hal::ExecutableSpec spec;
  TESSEL_ASSIGN_OR_RETURN(spec.target, checkedName(e->target(), ctx + ": target"));
  spec.name = str(index) + " (" + spec.target + ")";
  ctx = "executable " + spec.name;
  if (e->exports())
    for (uint32_t i = 0; i < e->exports()->size(); ++i) {
      const fb::Export *x = e->exports()->Get(i);
      std::string xctx = ctx + ": export " + str(i);
      if (!x)
        return dataLoss(xctx + " is missing");
      hal::ExportInfo info;
      TESSEL_ASSIGN_OR_RETURN(info.name, checkedName(x->name(), xctx + ": name"));
      xctx += " '" + info.name + "'";
      auto abi = static_cast<uint8_t>(x->abi());
      if (abi > static_cast<uint8_t>(fb::KernelAbi_MAX))
        return dataLoss(xctx + ": unknown abi " + str(abi) +
                        " (this runtime knows Bindings = 0 and CudaC = 1)");
      info.abi = static_cast<hal::KernelAbi>(abi);
      const bool cudaC = info.abi == hal::KernelAbi::kCudaC;
      if (cudaC && version < 4)
        return dataLoss(xctx + ": is a CUDA C kernel (abi CudaC), which needs schema version 4, "
                               "but the module has version " + str(version));
      // A CUDA C kernel's launch gives grid and block, and a count program
      // the count: the counts may be left out (read as 1,1,1), and are
      // checked like any others if present.
      const bool counted = x->workgroup_count_program() != nullptr;
      if ((!x->workgroup_count() && !cudaC && !counted) ||
          (x->workgroup_count() && x->workgroup_count()->size() != 3))
        return dataLoss(xctx + ": workgroup_count must have 3 entries");
      uint64_t total = 1;
      for (uint32_t d = 0; d < 3 && x->workgroup_count(); ++d) {
        info.workgroupCount[d] = x->workgroup_count()->Get(d);
        if (info.workgroupCount[d] == 0)
          return dataLoss(xctx + ": workgroup_count entries must be > 0");
        // Checked before multiplying, so x*y*z never overflows.
        if (info.workgroupCount[d] > kMaxWorkgroups / total)
          return dataLoss(xctx + ": more than " + str(kMaxWorkgroups) + " workgroups");
        total *= info.workgroupCount[d];
      }
      if (x->workgroup_size()) {
        if (x->workgroup_size()->size() != 3)
          return dataLoss(xctx + ": workgroup_size must have 3 entries");
        uint64_t threads = 1;
        for (uint32_t d = 0; d < 3; ++d) {
          info.workgroupSize[d] = x->workgroup_size()->Get(d);
          if (info.workgroupSize[d] == 0 || info.workgroupSize[d] > kMaxWorkgroupThreads / threads)
            return dataLoss(xctx + ": workgroup_size entries must be > 0 and multiply to at most " +
                            str(kMaxWorkgroupThreads) + " threads");
          threads *= info.workgroupSize[d];
        }
      }
      info.bindingCount = x->binding_count();
      if (info.bindingCount > kMaxBindings)
        return dataLoss(xctx + ": " + str(info.bindingCount) + " bindings (at most " +
                        str(kMaxBindings) + ")");
      info.sharedMemoryBytes = x->shared_memory_bytes();
      if (info.sharedMemoryBytes > kMaxSharedMemoryBytes)
        return dataLoss(xctx + ": " + str(info.sharedMemoryBytes) +
                        " bytes of shared memory (at most " + str(kMaxSharedMemoryBytes) + ")");
      if (cudaC && info.bindingCount != 0)
        return dataLoss(xctx + ": a CUDA C kernel (abi CudaC) takes parameters, not bindings, "
                               "but binding_count is " + str(info.bindingCount));
      if (const auto *maps = x->tensor_maps(); maps && maps->size()) {
        if (cudaC)
          return dataLoss(xctx + ": has " + countOf(maps->size(), "tensor map") +
                          " but a CUDA C kernel (abi CudaC) takes none");
        if (spec.target != "cuda")
          return dataLoss(xctx + ": has " + countOf(maps->size(), "tensor map") +
                          " but only cuda kernels take them (target '" + spec.target + "')");
        if (maps->size() > kMaxTensorMaps)
          return dataLoss(xctx + ": " + countOf(maps->size(), "tensor map") + " (at most " +
                          str(kMaxTensorMaps) + ")");
        for (uint32_t j = 0; j < maps->size(); ++j) {
          TESSEL_ASSIGN_OR_RETURN(hal::TensorMapInfo map,
                                  convertTensorMap(maps->Get(j), info.bindingCount, version,
                                                   xctx + ": tensor map " + str(j)));
          info.tensorMaps.push_back(std::move(map));
        }
      }
      if (const auto *sizes = x->parameter_sizes(); sizes && sizes->size()) {
        if (!cudaC)
          return dataLoss(xctx + ": has parameter_sizes but is not a CUDA C kernel (abi "
                                 "Bindings takes bindings)");
        if (sizes->size() > kMaxCudaCParameters)
          return dataLoss(xctx + ": " + countOf(sizes->size(), "parameter") + " (at most " +
                          str(kMaxCudaCParameters) + ")");
        TESSEL_RETURN_IF_ERROR(
            readVector(sizes, info.parameterSizes, xctx + ": parameter_sizes"));
        for (size_t j = 0; j < info.parameterSizes.size(); ++j)
          if (info.parameterSizes[j] < 1 || info.parameterSizes[j] > kMaxCudaCParameterBytes)
            return dataLoss(xctx + ": parameter " + str(j) + " has " +
                            str(info.parameterSizes[j]) + " bytes (1 to " +
                            str(kMaxCudaCParameterBytes) + " allowed)");
      }
      info.residentBlocksPerSm = x->resident_blocks_per_sm();
      if (info.residentBlocksPerSm > kMaxResidentBlocksPerSm || (cudaC && info.residentBlocksPerSm))
        return dataLoss(xctx + ": resident_blocks_per_sm " + str(info.residentBlocksPerSm) +
                        " (at most " + str(kMaxResidentBlocksPerSm) +
                        ", and 0 for a CUDA C kernel, whose launch gives the grid)");
      info.scratchBytes = x->scratch_bytes();
      info.scratchZeroedBytes = x->scratch_zeroed_bytes();
      if (info.scratchBytes || info.scratchZeroedBytes) {
        if (version < 5)
          return dataLoss(xctx + ": has dispatch scratch (scratch_bytes), which needs schema "
                                 "version 5, but the module has version " + str(version));
        if (spec.target != "cpu" || cudaC)
          return dataLoss(xctx + ": has dispatch scratch (scratch_bytes), which only cpu kernels "
                                 "of abi Bindings take (target '" + spec.target + "')");
        if (info.scratchBytes > kMaxScratchBytes || info.scratchZeroedBytes > info.scratchBytes)
          return dataLoss(xctx + ": scratch_bytes " + str(info.scratchBytes) +
                          " and scratch_zeroed_bytes " + str(info.scratchZeroedBytes) +
                          " (at most " + str(kMaxScratchBytes) +
                          ", the zeroed bytes at most the scratch)");
      }
      info.pushConstantCount = x->push_constant_count();
      if (info.pushConstantCount) {
        TESSEL_RETURN_IF_ERROR(requireVersion(version, 7, xctx + ": has push constants"));
        if (cudaC)
          return dataLoss(xctx + ": a CUDA C kernel (abi CudaC) takes parameters, not push "
                                 "constants, but push_constant_count is " +
                          str(info.pushConstantCount));
        if (info.pushConstantCount > kMaxPushConstants)
          return dataLoss(xctx + ": " + str(info.pushConstantCount) + " push constants (at most " +
                          str(kMaxPushConstants) + ")");
      }
      for (size_t j = 0; j < info.tensorMaps.size(); ++j)
        for (int32_t pc : info.tensorMaps[j].globalDimPushConstants)
          if (pc >= 0 && uint32_t(pc) >= info.pushConstantCount)
            return dataLoss(xctx + ": tensor map " + str(j) + " takes a dimension from push "
                            "constant " + str(pc) + " but the export has " +
                            str(info.pushConstantCount));
      if (counted) {
        TESSEL_RETURN_IF_ERROR(
            requireVersion(version, 7, xctx + ": has a workgroup count program"));
        if (cudaC)
          return dataLoss(xctx + ": a CUDA C kernel (abi CudaC) has a workgroup count program "
                                 "(its launch gives the grid)");
        TESSEL_ASSIGN_OR_RETURN(info.workgroupCountProgram,
                                convertCountProgram(x->workgroup_count_program(),
                                                    info.pushConstantCount, xctx));
      }
      spec.exports.push_back(std::move(info));
    }
  if (e->binaries())
    for (uint32_t i = 0; i < e->binaries()->size(); ++i) {
      const fb::Binary *b = e->binaries()->Get(i);
      std::string bctx = ctx + ": binary " + str(i);
      if (!b)
        return dataLoss(bctx + " is missing");
      hal::BinaryInfo info;
      TESSEL_ASSIGN_OR_RETURN(info.format, checkedName(b->format(), bctx + ": format"));
      TESSEL_ASSIGN_OR_RETURN(info.arch, checkedName(b->arch(), bctx + ": arch"));
      bctx = ctx + ": " + spec.target + " binary " + str(i) + " (" + info.format + " " +
             info.arch + ")";
      if (b->features())
        for (uint32_t f = 0; f < b->features()->size(); ++f) {
          TESSEL_ASSIGN_OR_RETURN(std::string feature,
                                  checkedName(b->features()->Get(f),
                                              bctx + ": feature " + str(f)));
          info.features.push_back(std::move(feature));
        }
      if (b->cpu()) {
        TESSEL_ASSIGN_OR_RETURN(info.cpu, checkedName(b->cpu(), bctx + ": cpu"));
      }
      if (b->data()) {
        info.data = b->data()->data();
        info.size = b->data()->size();
      }
      uint32_t crc = detail::crc32Of(info.data, info.size);
      if (crc != b->crc32())
        return dataLoss(bctx + ": checksum mismatch: the binary is damaged (expected crc32 " +
                        detail::hexCrc(b->crc32()) + ", got " + detail::hexCrc(crc) + ")");
      spec.binaries.push_back(std::move(info));
    }
  return spec;
}

// Checks dispatch ordinal `ordinal` with `operands` operands after it
// against every executable (dispatch ordinals are shared by all of them,
// and every export of one ordinal takes as many bindings and push
// constants: parseModule checked): its bindings, then its push constants.
Status checkDispatch(uint32_t ordinal, size_t operands, const std::string &what,
                     const std::vector<hal::ExecutableSpec> &exes) {
  for (const hal::ExecutableSpec &e : exes) {
    if (ordinal >= e.exports.size())
      return dataLoss(what + " uses export " + str(ordinal) + " but executable " + e.name +
                      " has " + str(e.exports.size()) + " exports");
    const hal::ExportInfo &x = e.exports[ordinal];
    if (x.abi == hal::KernelAbi::kCudaC)
      return dataLoss(what + " uses export " + str(ordinal) + " '" + x.name +
                      "' of executable " + e.name +
                      ", a CUDA C kernel (abi CudaC): those are "
                      "launched only through the CUDA runtime API, never by a function");
    if (operands != size_t(x.bindingCount) + x.pushConstantCount)
      return dataLoss(what + " has " + str(operands) +
                      (x.pushConstantCount ? " bindings and push constants" : " bindings") +
                      " but export '" + x.name + "' of executable " + e.name + " takes " +
                      (x.pushConstantCount ? countOf(x.bindingCount, "binding") + " and " +
                                                 countOf(x.pushConstantCount, "push constant")
                                           : str(x.bindingCount)));
  }
  return Status();
}

// A function's constant data, uploaded by loadBytes (pointers into the
// module file's bytes).
using ConstantData = std::vector<const flatbuffers::Vector<uint8_t> *>;

// A module parameter (schema version 9): its bytes in the module file, one
// element's bytes (splat), or neither for an external one (found in a
// parameters file at load).
struct ParameterSpec {
  std::string name;
  TensorType type;
  const flatbuffers::Vector<uint8_t> *data = nullptr;
  const flatbuffers::Vector<uint8_t> *splat = nullptr;
  bool isMutable = false;
  bool external() const { return !data && !splat; }
};

StatusOr<std::vector<ParameterSpec>>
convertParameters(const flatbuffers::Vector<flatbuffers::Offset<fb::Parameter>> *table,
                  uint32_t version) {
  std::vector<ParameterSpec> out;
  if (!table || table->size() == 0)
    return out;
  TESSEL_RETURN_IF_ERROR(requireVersion(version, 9, "the module has parameters"));
  std::set<std::string> seen;
  for (uint32_t i = 0; i < table->size(); ++i) {
    const fb::Parameter *q = table->Get(i);
    std::string what = "parameter " + str(i);
    if (!q)
      return dataLoss(what + " is missing");
    ParameterSpec spec;
    TESSEL_ASSIGN_OR_RETURN(spec.name, checkedName(q->name(), what + ": name", true));
    what = "parameter '" + spec.name + "'";
    if (!seen.insert(spec.name).second)
      return dataLoss(what + " is defined twice");
    TESSEL_ASSIGN_OR_RETURN(spec.type, convertType(q->type(), what, version));
    if (spec.type.isDynamic())
      return dataLoss(what + " has a dynamic type " + spec.type.toString() +
                      " (parameters have static shapes)");
    spec.data = q->data();
    spec.splat = q->splat();
    spec.isMutable = q->is_mutable();
    if (spec.data && spec.splat)
      return dataLoss(what + " has both data and a splat value");
    if (spec.data && spec.data->size() != spec.type.byteSize())
      return dataLoss(what + " of type " + spec.type.toString() + " (" +
                      str(spec.type.byteSize()) + " bytes) carries " + str(spec.data->size()) +
                      " bytes of data");
    size_t element = elementByteSize(spec.type.elementType);
    if (spec.splat && spec.splat->size() != element)
      return dataLoss(what + " of type " + spec.type.toString() + " has a splat value of " +
                      str(spec.splat->size()) + " bytes (one element: " + str(element) + ")");
    out.push_back(std::move(spec));
  }
  return out;
}

// Fills `buffer` with copies of one element's bytes, a chunk of at most
// 1 MiB at a time (a splat may stand for a tensor larger than host memory).
Status writeSplat(hal::Buffer &buffer, const flatbuffers::Vector<uint8_t> &element) {
  size_t n = element.size(), size = buffer.size();
  std::vector<uint8_t> chunk(std::min<size_t>(size, (size_t(1) << 20) / n * n));
  for (size_t k = 0; k < chunk.size(); k += n)
    std::memcpy(chunk.data() + k, element.data(), n);
  for (size_t offset = 0; offset < size; offset += chunk.size())
    TESSEL_RETURN_IF_ERROR(
        buffer.write(offset, chunk.data(), std::min(chunk.size(), size - offset)));
  return Status();
}

// The device copy of every parameter of a module loaded on `device`: its
// data from the module, or (external) from the first of `files` holding its
// name, checked against its type.
StatusOr<std::vector<std::shared_ptr<hal::Buffer>>>
uploadParameters(const std::vector<ParameterSpec> &parameters, const LoadOptions &options,
                 hal::Device &device) {
  std::vector<std::shared_ptr<hal::Buffer>> buffers;
  for (const ParameterSpec &q : parameters) {
    std::string what = "parameter '" + q.name + "' (" + q.type.toString() + ")";
    const uint8_t *data = q.data ? q.data->data() : nullptr;
    if (!data && !q.splat) {
      const ParameterFile::Tensor *found = nullptr;
      const ParameterFile *file = nullptr;
      for (const std::shared_ptr<const ParameterFile> &f : options.parameters)
        if (f && (found = f->find(q.name))) {
          file = f.get();
          break;
        }
      if (!found) {
        std::string files;
        for (const std::shared_ptr<const ParameterFile> &f : options.parameters)
          files += (files.empty() ? "'" : ", '") + (f ? f->name() : "?") + "'";
        return notFound(what + " is external and " +
                        (files.empty() ? "no parameters file was given (tessel-run "
                                         "--parameters=FILE)"
                                       : "not in the parameters files given (" + files + ")"));
      }
      if (found->type != q.type)
        return invalidArgument(what + ": parameters file '" + file->name() + "' holds it as " +
                               found->type.toString());
      data = found->data;
    }
    // The device buffer first: a size no device has fails here, cleanly.
    auto buffer = device.allocate(q.type.byteSize());
    if (!buffer.ok())
      return buffer.status().withContext(what);
    if (q.splat)
      TESSEL_RETURN_IF_ERROR(writeSplat(**buffer, *q.splat).withContext(what));
    else
      TESSEL_RETURN_IF_ERROR((*buffer)->write(0, data, q.type.byteSize()).withContext(what));
    buffers.push_back(std::move(buffer).value());
  }
  return buffers;
}

// The slot form (versions 3 to 7) as a program: each slot becomes buffer
// register i (argument, constant or alloc, in slot order), then the
// dispatches, then the return.
Status convertSlotForm(const fb::Function *f, const std::vector<hal::ExecutableSpec> &exes,
                       detail::FunctionProgram &p, ConstantData &constants) {
  auto fail = [&](const std::string &msg) { return dataLoss(msg); };
  using detail::Instruction;
  uint32_t numSlots = f->slots() ? f->slots()->size() : 0;
  std::vector<uint64_t> slotBytes;
  std::vector<bool> constantSlot;
  for (uint32_t i = 0; i < numSlots; ++i) {
    const fb::Slot *s = f->slots()->Get(i);
    std::string sctx = "slot " + str(i);
    if (!s)
      return fail(sctx + " is missing");
    uint64_t byteSize = s->byte_size();
    if (s->kind() != fb::SlotKind_Constant && s->data())
      return fail(sctx + " is not a constant but carries " + str(s->data()->size()) +
                  " bytes of data");
    switch (s->kind()) {
    case fb::SlotKind_Argument: {
      uint32_t argument = s->argument();
      if (argument >= p.arguments.size())
        return fail(sctx + " is argument " + str(argument) + " but there are " +
                    str(p.arguments.size()) + " arguments");
      const TensorType &t = p.arguments[argument];
      if (byteSize != t.byteSize())
        return fail(sctx + " holds argument " + str(argument) + " of type " + t.toString() +
                    " (" + str(t.byteSize()) + " bytes) but has byte_size " + str(byteSize));
      p.instructions.push_back({fb::Opcode_Argument, {int64_t(i), int64_t(argument)}});
      break;
    }
    case fb::SlotKind_Transient:
      if (byteSize > (uint64_t(1) << 62))
        return fail(sctx + " has an impossible byte_size " + str(byteSize));
      p.instructions.push_back({fb::Opcode_Int, {0, int64_t(byteSize)}});
      p.instructions.push_back({fb::Opcode_Alloc, {int64_t(i), 0}});
      break;
    case fb::SlotKind_Constant: {
      uint64_t dataSize = s->data() ? s->data()->size() : 0;
      if (dataSize != byteSize)
        return fail(sctx + " is a constant of byte_size " + str(byteSize) + " but has " +
                    str(dataSize) + " bytes of data");
      p.instructions.push_back(
          {fb::Opcode_Constant, {int64_t(i), int64_t(constants.size())}});
      constants.push_back(s->data());
      break;
    }
    default:
      return fail(sctx + " has unknown kind " + str(static_cast<int>(s->kind())));
    }
    slotBytes.push_back(byteSize);
  }

  uint32_t numDispatches = f->dispatches() ? f->dispatches()->size() : 0;
  // Integer register 0 holds each transient's size.
  p.intRegisters = 1;
  p.bufferRegisters = numSlots;
  for (uint32_t i = 0; i < numDispatches; ++i) {
    const fb::Dispatch *d = f->dispatches()->Get(i);
    std::string dctx = "dispatch " + str(i);
    if (!d)
      return fail(dctx + " is missing");
    std::vector<uint32_t> bindings;
    if (d->bindings())
      bindings.assign(d->bindings()->begin(), d->bindings()->end());
    for (uint32_t slot : bindings)
      if (slot >= numSlots)
        return fail(dctx + " binds slot " + str(slot) + " but there are " + str(numSlots) +
                    " slots");
    TESSEL_RETURN_IF_ERROR(checkDispatch(d->ordinal(), bindings.size(), dctx, exes));
    Instruction dispatch{fb::Opcode_Dispatch, {int64_t(d->ordinal())}};
    for (uint32_t slot : bindings)
      dispatch.operands.push_back(slot);
    p.instructions.push_back(std::move(dispatch));
  }

  std::vector<uint32_t> resultSlots;
  if (f->result_slots())
    resultSlots.assign(f->result_slots()->begin(), f->result_slots()->end());
  if (resultSlots.size() != p.results.size())
    return fail("has " + str(p.results.size()) + " results but " + str(resultSlots.size()) +
                " result slots");
  Instruction ret{fb::Opcode_Return, {}};
  for (size_t i = 0; i < resultSlots.size(); ++i) {
    uint32_t slot = resultSlots[i];
    if (slot >= numSlots)
      return fail("result " + str(i) + " is in slot " + str(slot) + " but there are " +
                  str(numSlots) + " slots");
    if (slotBytes[slot] != p.results[i].byteSize())
      return fail("result " + str(i) + " of type " + p.results[i].toString() + " (" +
                  str(p.results[i].byteSize()) + " bytes) is in slot " + str(slot) +
                  " of byte_size " + str(slotBytes[slot]));
    ret.operands.push_back(slot);
  }
  p.instructions.push_back(std::move(ret));
  p.dispatchCount = numDispatches;
  p.summary = str(numSlots) + " slots, " + str(numDispatches) + " dispatches";
  return Status();
}

// How many operands of `in` (checked to have its fixed ones) are buffers
// in the first of two variadic runs (detail::operandKindsOf): a Dispatch's
// bindings, a Return's results.
size_t bufferOperands(const detail::Instruction &in, const detail::FunctionProgram &p,
                      const std::vector<hal::ExecutableSpec> &exes) {
  if (in.opcode == fb::Opcode_Return)
    return p.results.size();
  // A module without executables is still described: its Dispatches are
  // shown as all bindings.
  if (in.opcode == fb::Opcode_Dispatch && !exes.empty() && in.operands[0] >= 0 &&
      uint64_t(in.operands[0]) < exes[0].exports.size())
    return exes[0].exports[in.operands[0]].bindingCount;
  return in.operands.size();
}

// Checks one instruction of a program of a module of schema `version`:
// operand count and kinds, register ranges and the immediates each opcode
// reads.
Status checkInstruction(const detail::Instruction &in, const detail::FunctionProgram &p,
                        size_t numConstants, const std::vector<ParameterSpec> &parameters,
                        const std::vector<hal::ExecutableSpec> &exes, uint32_t version) {
  std::string_view kinds = detail::operandKinds(in.opcode);
  const char *name = fb::EnumNameOpcode(in.opcode);
  if (kinds.empty())
    return dataLoss("unknown opcode " + str(static_cast<int>(in.opcode)));
  if (in.opcode == fb::Opcode_Dim || in.opcode == fb::Opcode_Assert)
    TESSEL_RETURN_IF_ERROR(requireVersion(version, 7, std::string("uses ") + name));
  if (in.opcode == fb::Opcode_Parameter || in.opcode == fb::Opcode_GlobalStore)
    TESSEL_RETURN_IF_ERROR(requireVersion(version, 9, std::string("uses ") + name));
  size_t star = kinds.find('*');
  bool variadic = star != std::string_view::npos;
  size_t fixed = variadic ? star - 1 : kinds.size();
  const auto &ops = in.operands;
  if (ops.size() < fixed || (!variadic && ops.size() != fixed))
    return dataLoss(std::string(name) + " has " + countOf(ops.size(), "operand") +
                    (variadic ? " (at least " : " (expected ") + str(fixed) + ")");
  // The exact count of the variadic ones first, so that the kinds below
  // split them right.
  if (in.opcode == fb::Opcode_Dispatch) {
    if (ops[0] < 0 || ops[0] > int64_t(UINT32_MAX))
      return dataLoss("Dispatch of export " + str(ops[0]));
    TESSEL_RETURN_IF_ERROR(
        checkDispatch(static_cast<uint32_t>(ops[0]), ops.size() - 1, "Dispatch", exes));
  }
  if (in.opcode == fb::Opcode_Return && ops.size() != p.results.size() + p.resultDims) {
    if (p.resultDims == 0)
      return dataLoss("Return of " + countOf(ops.size(), "buffer") + " but the function has " +
                      countOf(p.results.size(), "result"));
    return dataLoss("Return of " + countOf(ops.size(), "operand") + " but the function has " +
                    countOf(p.results.size(), "result") + " and " +
                    countOf(p.resultDims, "dynamic result dimension") + " (expected " +
                    str(p.results.size() + p.resultDims) + ")");
  }
  std::string expanded = detail::operandKindsOf(in.opcode, ops.size(), bufferOperands(in, p, exes));
  TESSEL_RETURN_IF_ERROR(checkOperands(
      in, expanded,
      ProgramBounds{p.intRegisters, p.bufferRegisters, p.instructions.size()}));
  switch (in.opcode) {
  case fb::Opcode_Argument:
    if (ops[1] < 0 || ops[1] >= int64_t(p.arguments.size()))
      return dataLoss("Argument reads argument " + str(ops[1]) + " but there are " +
                      str(p.arguments.size()));
    break;
  case fb::Opcode_Constant:
    if (ops[1] < 0 || ops[1] >= int64_t(numConstants))
      return dataLoss("Constant reads constant " + str(ops[1]) + " but there are " +
                      str(numConstants));
    break;
  case fb::Opcode_Parameter:
    if (ops[1] < 0 || ops[1] >= int64_t(parameters.size()))
      return dataLoss("Parameter reads parameter " + str(ops[1]) + " but the module has " +
                      str(parameters.size()));
    break;
  case fb::Opcode_GlobalStore:
    if (ops[0] < 0 || ops[0] >= int64_t(parameters.size()))
      return dataLoss("GlobalStore writes parameter " + str(ops[0]) + " but the module has " +
                      str(parameters.size()));
    if (!parameters[ops[0]].isMutable)
      return dataLoss("GlobalStore writes parameter '" + parameters[ops[0]].name +
                      "', which is not mutable");
    break;
  case fb::Opcode_Read:
  case fb::Opcode_Store: {
    int64_t type = ops[in.opcode == fb::Opcode_Read ? 3 : 2];
    if (type != fb::ElementType_i64 && type != fb::ElementType_i32 &&
        type != fb::ElementType_i16 && type != fb::ElementType_i8 && type != fb::ElementType_i1)
      return dataLoss(std::string(name) + " of element type " + str(type) +
                      " (expected an integer type: i64, i32, i16, i8 or i1)");
    break;
  }
  case fb::Opcode_Dim:
    if (ops[1] < 0 || ops[1] >= int64_t(p.arguments.size()))
      return dataLoss("Dim of argument " + str(ops[1]) + " but there are " +
                      str(p.arguments.size()));
    if (ops[2] < 0 || ops[2] >= int64_t(p.arguments[ops[1]].shape.size()))
      return dataLoss("Dim " + str(ops[2]) + " of argument " + str(ops[1]) + " of type " +
                      p.arguments[ops[1]].toString() + " (rank " +
                      str(p.arguments[ops[1]].shape.size()) + ")");
    break;
  case fb::Opcode_Assert:
    if (ops[1] < 0 || ops[1] >= int64_t(p.messages.size()))
      return dataLoss("Assert of message " + str(ops[1]) + " but there are " +
                      str(p.messages.size()));
    break;
  default:
    break;
  }
  return Status();
}

// Reads and checks a `HostProgram` (version 6 or 7).
Status convertProgram(const fb::HostProgram *h, const std::vector<hal::ExecutableSpec> &exes,
                      uint32_t version, const std::vector<ParameterSpec> &parameters,
                      detail::FunctionProgram &p, ConstantData &constants) {
  p.intRegisters = h->int_registers();
  p.bufferRegisters = h->buffer_registers();
  if (p.intRegisters > kMaxRegisters || p.bufferRegisters > kMaxRegisters)
    return dataLoss("program has " + str(p.intRegisters) + " integer and " +
                    str(p.bufferRegisters) + " buffer registers (at most " + str(kMaxRegisters) +
                    " each)");
  if (h->constants())
    for (uint32_t i = 0; i < h->constants()->size(); ++i) {
      const fb::Constant *c = h->constants()->Get(i);
      if (!c)
        return dataLoss("program constant " + str(i) + " is missing");
      constants.push_back(c->data());
    }
  if (h->messages() && h->messages()->size()) {
    TESSEL_RETURN_IF_ERROR(requireVersion(version, 7, "program has messages"));
    for (uint32_t i = 0; i < h->messages()->size(); ++i) {
      // Printable, as it ends up in an error message.
      const flatbuffers::String *m = h->messages()->Get(i);
      std::string what = "program message " + str(i);
      if (!m)
        return dataLoss(what + " is missing");
      if (m->size() > kMaxMessageLength)
        return dataLoss(what + " is " + str(m->size()) + " bytes long (at most " +
                        str(kMaxMessageLength) + ")");
      if (printableText(m->string_view(), kMaxMessageLength) != m->string_view())
        return dataLoss(what + " is not printable ASCII (" + str(m->size()) + " bytes)");
      p.messages.push_back(m->str());
    }
  }
  size_t n = h->instructions() ? h->instructions()->size() : 0;
  if (n == 0 || n > kMaxInstructions)
    return dataLoss("program has " + countOf(n, "instruction") + " (expected 1 to " +
                    str(kMaxInstructions) + ")");
  TESSEL_RETURN_IF_ERROR(convertInstructions(h->instructions(), p.instructions, "program"));
  bool controlFlow = false;
  for (size_t i = 0; i < n; ++i) {
    Status s =
        checkInstruction(p.instructions[i], p, constants.size(), parameters, exes, version);
    if (!s.ok())
      return s.withContext("program instruction " + str(i));
    fb::Opcode op = p.instructions[i].opcode;
    const std::vector<int64_t> &o = p.instructions[i].operands;
    p.usesState |= op == fb::Opcode_GlobalStore ||
                   (op == fb::Opcode_Parameter && parameters[o[1]].isMutable);
    p.dispatchCount += op == fb::Opcode_Dispatch;
    p.readsDevice |= op == fb::Opcode_Read;
    controlFlow |= op == fb::Opcode_Branch || op == fb::Opcode_CondBranch;
  }
  fb::Opcode last = p.instructions.back().opcode;
  if (last != fb::Opcode_Return && last != fb::Opcode_Branch)
    return dataLoss("program ends with " + std::string(fb::EnumNameOpcode(last)) +
                    " (expected Return or Branch: execution must not run off the end)");
  p.summary = countOf(n, "instruction") + ", " + str(p.dispatchCount) + " dispatches" +
              (controlFlow ? ", control flow" : "");
  for (size_t i = 0; i < n; ++i) {
    const detail::Instruction &in = p.instructions[i];
    p.listing += "  " + str(i) + ": " +
                 detail::formatInstruction(in, bufferOperands(in, p, exes));
    if (in.opcode == fb::Opcode_Assert)
      p.listing += "  \"" + p.messages[in.operands[1]] + "\"";
    p.listing += "\n";
  }
  return Status();
}

// Converts and checks one function against every executable (dispatch
// ordinals are shared by all of them).
StatusOr<detail::FunctionProgram> convertFunction(const fb::Function *f, uint32_t index,
                                                  const std::vector<hal::ExecutableSpec> &exes,
                                                  uint32_t version,
                                                  const std::vector<ParameterSpec> &parameters,
                                                  ConstantData &constants) {
  if (!f)
    return dataLoss("function " + str(index) + " is missing");
  detail::FunctionProgram p;
  TESSEL_ASSIGN_OR_RETURN(p.name,
                          checkedName(f->name(), "function " + str(index) + ": name", true));
  std::string ctx = "function '" + p.name + "'";

  auto args = convertTypes(f->arguments(), "argument", version);
  if (!args.ok())
    return args.status().withContext(ctx);
  p.arguments = std::move(args).value();
  auto results = convertTypes(f->results(), "result", version);
  if (!results.ok())
    return results.status().withContext(ctx);
  p.results = std::move(results).value();
  for (const TensorType &t : p.results)
    p.resultDims += std::count(t.shape.begin(), t.shape.end(), kDynamicDim);

  if (f->program()) {
    TESSEL_RETURN_IF_ERROR(requireVersion(version, 6, ctx + ": has a program"));
    if (f->slots() || f->dispatches() || f->result_slots())
      return dataLoss(ctx + ": has both a program and slots, dispatches or result slots");
    Status s = convertProgram(f->program(), exes, version, parameters, p, constants);
    if (!s.ok())
      return s.withContext(ctx);
    return p;
  }
  // The slot form has static shapes: its buffers have fixed sizes.
  for (const std::vector<TensorType> *types : {&p.arguments, &p.results})
    for (size_t i = 0; i < types->size(); ++i)
      if ((*types)[i].isDynamic())
        return dataLoss(ctx + ": " + (types == &p.arguments ? "argument " : "result ") + str(i) +
                        " has a dynamic dimension (" + (*types)[i].toString() +
                        ") but the function has no program (slots have static sizes)");
  Status s = convertSlotForm(f, exes, p, constants);
  if (!s.ok())
    return s.withContext(ctx);
  return p;
}

std::string describeModule(const fb::Module *m, const std::string &fileName,
                           const std::vector<ParameterSpec> &parameters,
                           const std::vector<detail::FunctionProgram> &programs,
                           const std::vector<hal::ExecutableSpec> &exes) {
  // The producer is free text from the file: shown, never trusted.
  const flatbuffers::String *producer = m->producer();
  std::string s = "module '" + fileName + "': schema version " + str(m->version()) +
                  ", producer '" +
                  printableText(producer ? producer->string_view() : std::string_view(), 64) +
                  "'\n";
  if (!parameters.empty()) {
    uint64_t inside = 0, external = 0;
    for (const ParameterSpec &q : parameters)
      (q.external() ? external : inside) += q.type.byteSize();
    s += countOf(parameters.size(), "parameter") + ": " + str(inside) + " bytes in the module, " +
         str(external) + " bytes external\n";
    for (size_t i = 0; i < parameters.size(); ++i) {
      const ParameterSpec &q = parameters[i];
      s += "  parameter " + str(i) + ": '" + q.name + "', " + q.type.toString() +
           (q.isMutable ? ", mutable" : "") + (q.splat ? ", splat" : "") +
           (q.external() ? ", external" : "") + "\n";
    }
  }
  for (const detail::FunctionProgram &p : programs) {
    s += "function " + p.name + detail::formatSignature(p.arguments, p.results) + ": " +
         p.summary + "\n" + p.listing;
  }
  for (size_t i = 0; i < exes.size(); ++i) {
    const hal::ExecutableSpec &e = exes[i];
    s += "executable " + str(i) + ": target " + e.target + ", " + str(e.exports.size()) +
         " exports, " + str(e.binaries.size()) + " binaries\n";
    for (size_t j = 0; j < e.exports.size(); ++j) {
      const hal::ExportInfo &x = e.exports[j];
      if (x.abi == hal::KernelAbi::kCudaC) {
        std::string sizes;
        for (uint32_t b : x.parameterSizes)
          sizes += (sizes.empty() ? "" : ", ") + str(b);
        s += "  export " + str(j) + ": " + x.name + ", CUDA C kernel, " +
             countOf(x.parameterSizes.size(), "parameter") +
             (sizes.empty() ? "" : " (" + sizes + " bytes)");
        if (x.sharedMemoryBytes)
          s += ", " + str(x.sharedMemoryBytes) + " bytes of static shared memory";
        s += "\n";
        continue;
      }
      s += "  export " + str(j) + ": " + x.name + ", workgroups " +
           (x.workgroupCountProgram
                ? "from a program of " +
                      countOf(x.workgroupCountProgram->instructions.size(), "instruction")
                : str(x.workgroupCount[0]) + "x" + str(x.workgroupCount[1]) + "x" +
                      str(x.workgroupCount[2])) +
           ", " + str(x.bindingCount) + " bindings";
      if (x.pushConstantCount)
        s += ", " + countOf(x.pushConstantCount, "push constant");
      if (x.workgroupSize != std::array<uint32_t, 3>{1, 1, 1})
        s += ", workgroup size " + str(x.workgroupSize[0]) + "x" + str(x.workgroupSize[1]) + "x" +
             str(x.workgroupSize[2]);
      if (x.sharedMemoryBytes)
        s += ", " + str(x.sharedMemoryBytes) + " bytes of shared memory";
      if (!x.tensorMaps.empty())
        s += ", " + countOf(x.tensorMaps.size(), "tensor map");
      if (x.residentBlocksPerSm)
        s += ", persistent grid (at most " + str(x.residentBlocksPerSm) + " per SM)";
      if (x.scratchBytes)
        s += ", " + str(x.scratchBytes) + " bytes of dispatch scratch (" +
             str(x.scratchZeroedBytes) + " zeroed)";
      s += "\n";
    }
    for (size_t j = 0; j < e.binaries.size(); ++j) {
      const hal::BinaryInfo &b = e.binaries[j];
      s += "  binary " + str(j) + ": " + b.format + " " + b.arch + ", " + str(b.size) +
           " bytes, features [" + join(b.features) + "]" +
           (b.cpu.empty() ? "" : ", cpu " + b.cpu) + "\n";
    }
  }
  return s;
}

// Checks the file identifier, the trailer and checksum, the FlatBuffers
// structure and the version, in that order: nothing in the file is read
// before its checksum matches.
StatusOr<const fb::Module *> verifyModule(const std::vector<uint8_t> &bytes,
                                          const std::string &fileName) {
  std::string file = "module file '" + fileName + "'";
  if (bytes.size() < 8)
    return dataLoss("truncated or corrupt " + file + ": only " + str(bytes.size()) + " bytes");
  if (!fb::ModuleBufferHasIdentifier(bytes.data())) {
    std::string id;
    for (int i = 4; i < 8; ++i)
      id += (bytes[i] >= 32 && bytes[i] < 127) ? static_cast<char>(bytes[i]) : '?';
    return dataLoss(file + " is not a Tessel module (file identifier '" + id +
                    "', expected '" + fb::ModuleIdentifier() + "')");
  }
  if (!detail::hasTrailer(bytes)) {
    // Modules of schema version 1 had no trailer: name the version if the
    // file is one (the verifier makes reading it safe).
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (fb::VerifyModuleBuffer(verifier)) {
      uint32_t version = fb::GetModule(bytes.data())->version();
      if (version >= 1 && version < kMinSchemaVersion)
        return failedPrecondition(file + " has schema version " + str(version) +
                                  " (no checksums) but this runtime reads " +
                                  readableVersions() + ": recompile it with tessel-compile");
    }
    return dataLoss("truncated or corrupt " + file +
                    ": the integrity trailer at its end is missing (the file was cut short, "
                    "or bytes were appended)");
  }
  TESSEL_ASSIGN_OR_RETURN(size_t size, detail::checkTrailer(bytes, file));
  flatbuffers::Verifier verifier(bytes.data(), size);
  if (!fb::VerifyModuleBuffer(verifier))
    return dataLoss("corrupt " + file + ": flatbuffer verification failed (the checksum "
                    "matches: the writer produced a bad file)");
  const fb::Module *m = fb::GetModule(bytes.data());
  if (m->version() < kMinSchemaVersion || m->version() > kSchemaVersion)
    return failedPrecondition(file + " has schema version " + str(m->version()) +
                              " but this runtime reads " + readableVersions() +
                              (m->version() >= 1 && m->version() < kMinSchemaVersion
                                   ? ": recompile it with tessel-compile"
                                   : ""));
  return m;
}

} // namespace

StatusOr<std::vector<std::string>> Module::executableTargets(const std::string &path) {
  TESSEL_ASSIGN_OR_RETURN(auto bytes, readFileBytes(path, "module file"));
  TESSEL_ASSIGN_OR_RETURN(const fb::Module *m, verifyModule(bytes, path));
  std::vector<std::string> targets;
  if (m->executables())
    for (uint32_t i = 0; i < m->executables()->size(); ++i) {
      const fb::Executable *e = m->executables()->Get(i);
      auto target = checkedName(e ? e->target() : nullptr, "executable " + str(i) + ": target");
      if (!target.ok())
        return target.status().withContext("module file '" + path + "'");
      targets.push_back(std::move(target).value());
    }
  return targets;
}

StatusOr<std::shared_ptr<Module>> Module::loadFile(std::shared_ptr<Device> device,
                                                   const std::string &path,
                                                   const LoadOptions &options) {
  TESSEL_ASSIGN_OR_RETURN(auto bytes, readFileBytes(path, "module file"));
  return loadBytes(std::move(device), bytes, path, options);
}

namespace {

/// A verified module file converted to the loader's structures, before any
/// device is involved.
struct ParsedModule {
  const fb::Module *module;
  std::vector<hal::ExecutableSpec> exes;
  std::vector<detail::FunctionProgram> programs;
  std::vector<ConstantData> constants; // parallel to programs
  std::vector<ParameterSpec> parameters;
  bool anyDispatch = false;
};

StatusOr<ParsedModule> parseModule(const std::vector<uint8_t> &bytes,
                                   const std::string &fileName) {
  std::string file = "module file '" + fileName + "'";
  ParsedModule parsed;
  TESSEL_ASSIGN_OR_RETURN(parsed.module, verifyModule(bytes, fileName));
  const fb::Module *m = parsed.module;
  if (m->executables())
    for (uint32_t i = 0; i < m->executables()->size(); ++i) {
      auto spec = convertExecutable(m->executables()->Get(i), i, m->version());
      if (!spec.ok())
        return spec.status().withContext(file);
      if (!parsed.exes.empty() && spec->exports.size() != parsed.exes[0].exports.size())
        return dataLoss(file + ": executable " + spec->name + " has " +
                        str(spec->exports.size()) + " exports but executable " +
                        parsed.exes[0].name + " has " + str(parsed.exes[0].exports.size()) +
                        " (export i of every executable serves dispatch ordinal i)");
      // Export i of every executable is the same kernel: a CUDA C kernel is
      // found by its name and called with its parameter sizes, and a
      // dispatch passes the same bindings and push constants, whichever
      // executable the device loads.
      for (size_t j = 0; !parsed.exes.empty() && j < spec->exports.size(); ++j) {
        const hal::ExportInfo &a = parsed.exes[0].exports[j], &b = spec->exports[j];
        const char *field = a.abi != b.abi                           ? "abi"
                            : a.parameterSizes != b.parameterSizes       ? "parameter_sizes"
                            : a.bindingCount != b.bindingCount           ? "binding_count"
                            : a.pushConstantCount != b.pushConstantCount ? "push_constant_count"
                            : a.abi == hal::KernelAbi::kCudaC && a.name != b.name ? "name"
                                                                                  : nullptr;
        if (field)
          return dataLoss(file + ": export " + str(j) + " '" + b.name + "' of executable " +
                          spec->name + " differs from export " + str(j) + " '" + a.name +
                          "' of executable " + parsed.exes[0].name + " in its " + field +
                          " (export i of every executable is the same kernel)");
      }
      parsed.exes.push_back(std::move(spec).value());
    }
  auto parameters = convertParameters(m->parameters(), m->version());
  if (!parameters.ok())
    return parameters.status().withContext(file);
  parsed.parameters = std::move(parameters).value();
  std::set<std::string> names;
  if (m->functions())
    for (uint32_t i = 0; i < m->functions()->size(); ++i) {
      ConstantData constants;
      auto p = convertFunction(m->functions()->Get(i), i, parsed.exes, m->version(),
                               parsed.parameters, constants);
      if (!p.ok())
        return p.status().withContext(file);
      if (!names.insert(p->name).second)
        return dataLoss(file + ": function '" + p->name + "' is defined twice");
      parsed.anyDispatch |= p->dispatchCount > 0;
      parsed.programs.push_back(std::move(p).value());
      parsed.constants.push_back(std::move(constants));
    }
  return parsed;
}

// Which executable of `device`'s target loadBytes would try first to load,
// and why the ones before it do not fit: "cuda device: DESCRIPTION\n
//   skipped executable 0 (cuda): WHY\n  would load: executable 1 (ptx sm_80
// (JIT for sm_90))\n".
std::string describeChoice(const std::vector<hal::ExecutableSpec> &exes, const Device &device) {
  std::string s = device.name() + " device: " + device.description() + "\n";
  bool any = false;
  for (size_t i = 0; i < exes.size(); ++i) {
    if (exes[i].target != device.name())
      continue;
    any = true;
    auto choice = device.hal().chooseBinary(exes[i]);
    if (choice.ok())
      return s + "  would load: executable " + str(i) + " (" + *choice + ")\n";
    s += "  skipped executable " + exes[i].name + ": " + choice.status().message() + "\n";
  }
  return s + "  would load: none (" +
         (any ? "no " + device.name() + " executable fits this device"
              : "the module has no " + device.name() + " executable") +
         ")\n";
}

// For a module with cpu executables: the host's CPU features, then which
// cpu executable loading would use and why the ones before it do not fit,
// e.g. "cpu host: x86_64, features [sse3, avx2]\n  skipped executable 0
// (cpu): WHY\n  would load: executable 1 (elf-shared-object x86_64 for
// x86-64-v3, features [avx2])\n". The cpu driver's choice depends on the
// host alone, so no device is needed. An error for a malformed
// TESSEL_CPU_DISABLE_FEATURES.
StatusOr<std::string> describeCpuChoice(const std::vector<hal::ExecutableSpec> &exes) {
  bool any = false;
  for (const hal::ExecutableSpec &e : exes)
    any |= e.target == "cpu";
  if (!any)
    return std::string();
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> features, hal::cpu::hostFeatures());
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> masked, hal::cpu::disabledFeatures());
  std::string s = std::string("cpu host: ") + hal::cpu::hostArch() + ", features [";
  for (size_t i = 0; i < features.size(); ++i)
    s += (i ? ", " : "") + features[i];
  s += "]";
  if (!masked.empty())
    s += std::string(" (") + hal::cpu::kDisableFeaturesEnv + " masks " + join(masked) + ")";
  s += "\n";
  for (size_t i = 0; i < exes.size(); ++i) {
    if (exes[i].target != "cpu")
      continue;
    auto choice = hal::cpu::chooseBinary(exes[i]);
    if (choice.ok())
      return s + "  would load: executable " + str(i) + " (" +
             hal::cpu::describeBinary(**choice) + ")\n";
    s += "  skipped executable " + exes[i].name + ": " + choice.status().message() + "\n";
  }
  return s + "  would load: none (no cpu executable fits this host)\n";
}

// Prepares the first executable of `device`'s target that loads; `file`
// ("module file 'm.tmod'") prefixes the errors.
StatusOr<std::shared_ptr<hal::Executable>>
prepareFirstExecutable(const std::vector<hal::ExecutableSpec> &exes, const Device &device,
                       const std::string &file) {
  std::vector<Status> errors;
  std::vector<std::string> targets;
  for (const hal::ExecutableSpec &spec : exes) {
    targets.push_back(spec.target);
    if (spec.target != device.name())
      continue;
    auto exe = device.hal().prepareExecutable(spec);
    if (exe.ok())
      return std::move(exe).value();
    errors.push_back(exe.status());
  }
  // One error, or the same for all (a malformed setting): said once.
  bool allSame = true;
  for (const Status &e : errors)
    allSame &= e.message() == errors[0].message();
  if (!errors.empty() && allSame)
    return errors[0].withContext(file);
  if (errors.empty())
    return notFound(file + ": no executable for target '" + device.name() +
                    "' (module has: " + (targets.empty() ? "none" : join(targets)) + ")");
  std::string all;
  for (const Status &e : errors)
    all += (all.empty() ? "" : "; ") + e.message();
  return Status(errors[0].code(), file + ": none of its " + str(errors.size()) + " " +
                                      device.name() + " executables loads: " + all);
}

} // namespace

namespace detail {

StatusOr<KernelModuleInfo> inspectKernelModule(const std::vector<uint8_t> &bytes,
                                               const std::string &name) {
  TESSEL_ASSIGN_OR_RETURN(ParsedModule parsed, parseModule(bytes, name));
  KernelModuleInfo info;
  info.version = parsed.module->version();
  for (const hal::ExecutableSpec &e : parsed.exes)
    info.targets.push_back(e.target);
  // Export i is the same kernel in every executable (checked by parseModule).
  if (!parsed.exes.empty())
    for (const hal::ExportInfo &x : parsed.exes[0].exports)
      if (x.abi == hal::KernelAbi::kCudaC)
        info.cudaCKernels.push_back(x.name);
  return info;
}

StatusOr<std::shared_ptr<hal::Executable>> loadKernelExecutable(const Device &device,
                                                                const std::vector<uint8_t> &bytes,
                                                                const std::string &name) {
  TESSEL_ASSIGN_OR_RETURN(ParsedModule parsed, parseModule(bytes, name));
  return prepareFirstExecutable(parsed.exes, device, "module file '" + name + "'");
}

} // namespace detail

StatusOr<std::string> Module::describeFile(const std::string &path, const Device *device,
                                           bool hostCpu) {
  TESSEL_ASSIGN_OR_RETURN(auto bytes, readFileBytes(path, "module file"));
  return describeBytes(bytes, path, device, hostCpu);
}

StatusOr<std::string> Module::describeBytes(const std::vector<uint8_t> &bytes,
                                            const std::string &name, const Device *device,
                                            bool hostCpu) {
  TESSEL_ASSIGN_OR_RETURN(ParsedModule parsed, parseModule(bytes, name));
  std::string s =
      describeModule(parsed.module, name, parsed.parameters, parsed.programs, parsed.exes);
  if (hostCpu) {
    TESSEL_ASSIGN_OR_RETURN(std::string cpu, describeCpuChoice(parsed.exes));
    s += cpu;
  }
  if (device)
    s += describeChoice(parsed.exes, *device);
  return s;
}

StatusOr<std::shared_ptr<Module>> Module::loadBytes(std::shared_ptr<Device> device,
                                                    const std::vector<uint8_t> &bytes,
                                                    const std::string &fileName,
                                                    const LoadOptions &options) {
  if (!device)
    return invalidArgument("Module::load needs a device");
  std::string file = "module file '" + fileName + "'";
  TESSEL_ASSIGN_OR_RETURN(ParsedModule parsed, parseModule(bytes, fileName));
  const fb::Module *m = parsed.module;
  std::vector<hal::ExecutableSpec> &exes = parsed.exes;
  std::vector<detail::FunctionProgram> &programs = parsed.programs;
  bool anyDispatch = parsed.anyDispatch;

  // Prepare the first executable for this device's target that loads (a
  // module may carry several, e.g. cuda for sm_90a and for other archs).
  std::shared_ptr<hal::Executable> executable;
  if (anyDispatch) {
    TESSEL_ASSIGN_OR_RETURN(executable, prepareFirstExecutable(exes, *device, file));
  }

  auto parameters = uploadParameters(parsed.parameters, options, device->hal());
  if (!parameters.ok())
    return parameters.status().withContext(file);

  std::shared_ptr<Module> module(new Module());
  module->name_ = fileName;
  module->device_ = device;
  // Calls that touch the module's state run one at a time.
  auto stateLock = std::make_shared<std::mutex>();
  for (size_t fi = 0; fi < programs.size(); ++fi) {
    detail::FunctionProgram &p = programs[fi];
    p.parameters = *parameters;
    if (p.usesState)
      p.stateLock = stateLock;
    const ConstantData &constants = parsed.constants[fi];
    for (size_t i = 0; i < constants.size(); ++i) {
      const flatbuffers::Vector<uint8_t> *data = constants[i];
      auto buffer = device->hal().allocate(data ? data->size() : 0);
      if (!buffer.ok())
        return buffer.status().withContext(file + ": function '" + p.name + "': constant " +
                                           str(i));
      if (data)
        TESSEL_RETURN_IF_ERROR((*buffer)->write(0, data->data(), data->size()));
      p.constants.push_back(std::move(buffer).value());
    }
    p.device = device->halShared();
    if (p.dispatchCount > 0)
      p.executable = executable;
  }
  module->description_ = describeModule(m, fileName, parsed.parameters, programs, exes);
  for (detail::FunctionProgram &p : programs)
    module->functions_.emplace_back(std::make_shared<detail::FunctionProgram>(std::move(p)));
  return module;
}

StatusOr<const Function *> Module::lookupFunction(std::string_view fnName) const {
  std::vector<std::string> available;
  for (const Function &f : functions_) {
    if (f.name() == fnName)
      return &f;
    available.push_back(f.name());
  }
  return notFound("module '" + name_ + "' has no function '" + std::string(fnName) +
                  "' (available: " + (available.empty() ? "none" : join(available)) + ")");
}

StatusOr<std::vector<HostTensor>> Module::call(std::string_view function,
                                               const std::vector<HostTensor> &inputs) const {
  TESSEL_ASSIGN_OR_RETURN(const Function *f, lookupFunction(function));
  return f->call(inputs);
}

std::string Module::describe() const { return description_; }

} // namespace tessel::rt
