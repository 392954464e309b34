//===- ModuleWriter.cpp - serialize a .tmod file ---------------*- C++ -*-===//
//
// Turns each public function (a host program after dispatch formation) into
// slots and an ordered list of dispatches, and writes it with the compiled
// executables in the FlatBuffers format of schema/module.fbs, followed by
// the integrity trailer (crc32 of the FlatBuffer) the runtime checks first.
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/ModuleWriter.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CRC.h"

#include "module_generated.h"

using namespace mlir;
using namespace mlir::tessel;
namespace fb = ::tessel::fb;

namespace {

FailureOr<fb::ElementType> toElementType(Type t) {
  if (t.isF64()) return fb::ElementType_f64;
  if (t.isF32()) return fb::ElementType_f32;
  if (t.isF16()) return fb::ElementType_f16;
  if (t.isBF16()) return fb::ElementType_bf16;
  if (t.isSignlessInteger(64)) return fb::ElementType_i64;
  if (t.isSignlessInteger(32)) return fb::ElementType_i32;
  if (t.isSignlessInteger(16)) return fb::ElementType_i16;
  if (t.isSignlessInteger(8)) return fb::ElementType_i8;
  if (t.isSignlessInteger(1)) return fb::ElementType_i1;
  return failure();
}

/// Bytes per element in memory; i1 takes a byte, as numpy's bool does.
int64_t storageBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

int64_t byteSize(RankedTensorType t) {
  return t.getNumElements() * storageBytes(t.getElementType());
}

/// Raw little-endian bytes of a constant, one storage unit per element.
std::vector<uint8_t> constantBytes(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t width = storageBytes(type.getElementType());
  std::vector<uint8_t> out;
  out.reserve(type.getNumElements() * width);
  auto append = [&](const APInt &bits) {
    for (int64_t b = 0; b < width; ++b)
      out.push_back(bits.getBitWidth() == 1
                        ? static_cast<uint8_t>(b == 0 && bits.getBoolValue())
                        : static_cast<uint8_t>(
                              bits.extractBitsAsZExtValue(8, 8 * b)));
  };
  if (isa<FloatType>(type.getElementType())) {
    for (const APFloat &v : attr.getValues<APFloat>())
      append(v.bitcastToAPInt());
  } else {
    for (const APInt &v : attr.getValues<APInt>())
      append(v);
  }
  return out;
}

class FunctionWriter {
public:
  FunctionWriter(flatbuffers::FlatBufferBuilder &fbb,
                 const llvm::StringMap<uint32_t> &ordinals)
      : fbb(fbb), ordinals(ordinals) {}

  FailureOr<flatbuffers::Offset<fb::Function>> write(func::FuncOp fn) {
    std::vector<flatbuffers::Offset<fb::TensorType>> args, results;
    for (Type t : fn.getArgumentTypes()) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> tt = tensorType(fn, t);
      if (failed(tt))
        return failure();
      args.push_back(*tt);
    }
    for (Type t : fn.getResultTypes()) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> tt = tensorType(fn, t);
      if (failed(tt))
        return failure();
      results.push_back(*tt);
    }
    for (BlockArgument arg : fn.getArguments()) {
      slotOf[arg] = slots.size();
      slots.push_back(fb::CreateSlot(
          fbb, fb::SlotKind_Argument, arg.getArgNumber(),
          byteSize(cast<RankedTensorType>(arg.getType()))));
    }
    std::vector<uint32_t> resultSlots;
    for (Operation &op : fn.getBody().front()) {
      if (auto dispatch = dyn_cast<DispatchOp>(op)) {
        auto it = ordinals.find(dispatch.getCallee());
        if (it == ordinals.end())
          return op.emitError("dispatch of unknown function");
        std::vector<uint32_t> bindings;
        for (Value v : dispatch.getOperands())
          bindings.push_back(slotOf.lookup(v));
        for (Value r : dispatch.getResults()) {
          bindings.push_back(newTransient(r));
        }
        dispatches.push_back(
            fb::CreateDispatchDirect(fbb, it->second, &bindings));
      } else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
        slotOf[op.getResult(0)] = slotOf.lookup(op.getOperand(0));
      } else if (isa<tensor::EmptyOp>(op)) {
        newTransient(op.getResult(0));
      } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto attr = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!attr)
          return op.emitError("unsupported host constant ")
                 << constant.getValue();
        std::vector<uint8_t> bytes = constantBytes(attr);
        slotOf[constant.getResult()] = slots.size();
        slots.push_back(fb::CreateSlot(
            fbb, fb::SlotKind_Constant, 0, bytes.size(),
            fbb.CreateVector(bytes)));
      } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          resultSlots.push_back(slotOf.lookup(v));
      } else {
        return op.emitError() << "internal error: '" << op.getName()
                              << "' left in the host program";
      }
    }
    return fb::CreateFunctionDirect(fbb, fn.getSymName().str().c_str(), &args,
                                    &results, &slots, &dispatches,
                                    &resultSlots);
  }

private:
  FailureOr<flatbuffers::Offset<fb::TensorType>> tensorType(func::FuncOp fn,
                                                           Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    FailureOr<fb::ElementType> et = failure();
    if (tensor)
      et = toElementType(tensor.getElementType());
    if (failed(et))
      return fn.emitError() << "unsupported boundary type " << t;
    std::vector<int64_t> shape(tensor.getShape().begin(),
                               tensor.getShape().end());
    return fb::CreateTensorTypeDirect(fbb, *et, &shape);
  }

  uint32_t newTransient(Value v) {
    uint32_t index = slots.size();
    slotOf[v] = index;
    slots.push_back(fb::CreateSlot(fbb, fb::SlotKind_Transient, 0,
                                   byteSize(cast<RankedTensorType>(v.getType()))));
    return index;
  }

  flatbuffers::FlatBufferBuilder &fbb;
  const llvm::StringMap<uint32_t> &ordinals;
  DenseMap<Value, uint32_t> slotOf;
  std::vector<flatbuffers::Offset<fb::Slot>> slots;
  std::vector<flatbuffers::Offset<fb::Dispatch>> dispatches;
};

flatbuffers::Offset<fb::Executable>
writeExecutable(flatbuffers::FlatBufferBuilder &fbb,
                const ExecutableImage &image) {
  std::vector<flatbuffers::Offset<fb::Export>> exports;
  for (const KernelExport &e : image.exports) {
    std::vector<uint32_t> count(e.workgroupCount.begin(),
                                e.workgroupCount.end());
    std::vector<uint32_t> size(e.workgroupSize.begin(), e.workgroupSize.end());
    std::vector<flatbuffers::Offset<fb::TensorMap>> maps;
    for (const TensorMapSpec &m : e.tensorMaps)
      maps.push_back(fb::CreateTensorMapDirect(
          fbb, m.binding, m.dataType, &m.globalDims, &m.globalStrides,
          &m.boxDims, &m.elementStrides, m.interleave, m.swizzle,
          m.l2Promotion, m.oobFill));
    bool cudaC = e.abi == KernelAbi::CudaC;
    exports.push_back(fb::CreateExportDirect(
        fbb, e.name.c_str(), &count, &size, e.bindingCount,
        e.sharedMemoryBytes, maps.empty() ? nullptr : &maps,
        cudaC ? fb::KernelAbi_CudaC : fb::KernelAbi_Bindings,
        cudaC ? &e.parameterSizes : nullptr, e.residentBlocksPerSm,
        e.scratchBytes, e.scratchZeroedBytes));
  }
  std::vector<flatbuffers::Offset<fb::Binary>> binaries;
  for (const BinaryImage &b : image.binaries) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> features;
    for (const std::string &f : b.features)
      features.push_back(fbb.CreateString(f));
    binaries.push_back(fb::CreateBinaryDirect(
        fbb, b.format.c_str(), b.arch.c_str(), &features, &b.data,
        llvm::crc32(b.data), b.cpu.empty() ? nullptr : b.cpu.c_str()));
  }
  return fb::CreateExecutableDirect(fbb, image.target.c_str(), &exports,
                                    &binaries);
}

/// Appends the trailer of schema/module.fbs (mirrors the runtime's
/// runtime/src/module/integrity.cpp): magic "TMODTAIL", trailer version 1,
/// crc32 of the FlatBuffer, its length; little-endian.
void appendTrailer(std::vector<uint8_t> &bytes) {
  uint32_t crc = llvm::crc32(bytes);
  uint64_t length = bytes.size();
  const char magic[8] = {'T', 'M', 'O', 'D', 'T', 'A', 'I', 'L'};
  bytes.insert(bytes.end(), magic, magic + 8);
  auto put = [&](uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  put(1, 4);
  put(crc, 4);
  put(length, 8);
}

} // namespace

FailureOr<std::vector<uint8_t>>
mlir::tessel::writeModule(ModuleOp module,
                          const std::vector<ExecutableImage> &executables) {
  flatbuffers::FlatBufferBuilder fbb;
  llvm::StringMap<uint32_t> ordinals;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr(kDispatchFunctionAttr)) {
      uint32_t next = ordinals.size();
      ordinals[fn.getSymName()] = next;
    }
  // Export i serves dispatch ordinal i: the first ordinals.size() exports
  // are the dispatched (Bindings) kernels; CUDA C kernels, launched through
  // the CUDA runtime library rather than by a host program, follow them (a
  // module may consist of those alone).
  for (const ExecutableImage &image : executables) {
    size_t bindings = 0;
    while (bindings < image.exports.size() &&
           image.exports[bindings].abi == KernelAbi::Bindings)
      ++bindings;
    if (bindings != ordinals.size())
      return module.emitError() << "internal error: target '" << image.target
                                << "' has " << bindings << " kernels for "
                                << ordinals.size() << " dispatches";
    for (size_t i = bindings; i < image.exports.size(); ++i)
      if (image.exports[i].abi != KernelAbi::CudaC)
        return module.emitError()
               << "internal error: target '" << image.target << "': export "
               << i << " '" << image.exports[i].name
               << "' is a dispatched kernel after a CUDA C kernel";
  }

  std::vector<flatbuffers::Offset<fb::Function>> functions;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic())
      continue;
    FunctionWriter writer(fbb, ordinals);
    FailureOr<flatbuffers::Offset<fb::Function>> f = writer.write(fn);
    if (failed(f))
      return failure();
    functions.push_back(*f);
  }
  std::vector<flatbuffers::Offset<fb::Executable>> exes;
  for (const ExecutableImage &image : executables)
    exes.push_back(writeExecutable(fbb, image));
  auto root = fb::CreateModuleDirect(fbb, kSchemaVersion, "tessel-compile",
                                     &functions, &exes);
  fb::FinishModuleBuffer(fbb, root);
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(),
                             fbb.GetBufferPointer() + fbb.GetSize());
  appendTrailer(bytes);
  return bytes;
}
