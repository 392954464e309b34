//===- ModuleWriter.cpp - serialize a .tmod file ---------------*- C++ -*-===//
//
// Turns each public function (a host program after dispatch formation) into
// a program of schema/module.fbs's register machine, and writes it with the compiled
// executables in the FlatBuffers format of schema/module.fbs, followed by
// the integrity trailer (crc32 of the FlatBuffer) the runtime checks first.
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/ModuleWriter.h"
#include "tessel/Target/ParametersFile.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
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

/// The module's parameters: the globals its host programs read, numbered in
/// the order of their first read.
struct ParameterTable {
  SmallVector<ml_program::GlobalOp> globals;
  DenseMap<Operation *, int64_t> index;

  /// The index of the global `user` (a load or store) refers to.
  FailureOr<int64_t> indexOf(Operation *user, SymbolRefAttr name) {
    auto global =
        SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(user, name);
    if (!global)
      return user->emitError() << "no ml_program.global " << name;
    auto [it, fresh] = index.try_emplace(global, globals.size());
    if (fresh)
      globals.push_back(global);
    return it->second;
  }
};

/// Lowers a public function (a host program after dispatch formation) to
/// the register machine of schema/module.fbs (`HostProgram`): tensors live
/// in buffer registers, integers, indices and i1 in integer registers, and
/// scf control flow becomes branches. Region results and carried values are
/// assigned by parallel moves (through temporaries).
class ProgramWriter {
public:
  ProgramWriter(flatbuffers::FlatBufferBuilder &fbb,
                const llvm::StringMap<uint32_t> &ordinals,
                ParameterTable &parameters)
      : fbb(fbb), ordinals(ordinals), parameters(parameters) {}

  FailureOr<flatbuffers::Offset<fb::Function>> write(func::FuncOp fn) {
    // Shape arithmetic folded into affine form (a collapsed dimension's
    // extent) becomes the arith ops it stands for.
    WalkResult expanded = fn.walk([&](affine::AffineApplyOp apply) {
      OpBuilder b(apply);
      std::optional<SmallVector<Value>> values = affine::expandAffineMap(
          b, apply.getLoc(), apply.getAffineMap(),
          llvm::to_vector(apply.getMapOperands()));
      if (!values) {
        apply.emitError("internal error: an affine.apply the host program "
                        "cannot expand");
        return WalkResult::interrupt();
      }
      apply.getResult().replaceAllUsesWith(values->front());
      apply.erase();
      return WalkResult::advance();
    });
    if (expanded.wasInterrupted())
      return failure();
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
      emit(fb::Opcode_Argument, {define(arg), arg.getArgNumber()});
      auto t = cast<RankedTensorType>(arg.getType());
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (t.isDynamicDim(d))
          emit(fb::Opcode_Dim, {dims[arg][t.getDynamicDimIndex(d)],
                                arg.getArgNumber(), d});
    }
    if (failed(writeBlock(fn.getBody().front())))
      return failure();

    std::vector<flatbuffers::Offset<fb::Constant>> constantTables;
    for (const std::vector<uint8_t> &c : constants)
      constantTables.push_back(fb::CreateConstantDirect(fbb, &c));
    std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
    for (const Instr &in : code) {
      std::vector<int64_t> operands(in.operands.begin(), in.operands.end());
      instructions.push_back(
          fb::CreateInstructionDirect(fbb, in.opcode, &operands));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> messageStrings;
    for (const std::string &m : messages)
      messageStrings.push_back(fbb.CreateString(m));
    auto program = fb::CreateHostProgramDirect(
        fbb, numInts, numBuffers, &constantTables, &instructions,
        messages.empty() ? nullptr : &messageStrings);
    return fb::CreateFunctionDirect(fbb, fn.getSymName().str().c_str(), &args,
                                    &results, nullptr, nullptr, nullptr,
                                    program);
  }

private:
  struct Instr {
    fb::Opcode opcode;
    SmallVector<int64_t, 4> operands;
  };

  size_t emit(fb::Opcode opcode, ArrayRef<int64_t> operands) {
    code.push_back({opcode, SmallVector<int64_t, 4>(operands)});
    return code.size() - 1;
  }
  /// The next instruction's index (a branch target).
  int64_t here() const { return code.size(); }

  static bool isBuffer(Type t) { return isa<RankedTensorType>(t); }
  static bool isInteger(Type t) { return isa<IntegerType, IndexType>(t); }
  /// Bits of an integer value (index: 64).
  static unsigned bitsOf(Type t) {
    return isa<IndexType>(t) ? 64 : t.getIntOrFloatBitWidth();
  }

  int64_t newRegister(Type t) {
    return isBuffer(t) ? numBuffers++ : numInts++;
  }
  /// A new register for `v` (and, for a tensor with dynamic dimensions,
  /// one integer register per dynamic dimension: dims[v]).
  int64_t define(Value v) {
    int64_t r = newRegister(v.getType());
    reg[v] = r;
    defineDims(v);
    return r;
  }
  /// New registers for the dynamic dimensions of `v`.
  void defineDims(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return;
    SmallVector<int64_t> &d = dims[v];
    d.clear();
    for (int64_t i = 0; i < t.getNumDynamicDims(); ++i)
      d.push_back(numInts++);
  }
  /// The register of `v`, then those of its dynamic dimensions.
  FailureOr<SmallVector<int64_t>> regsOf(Operation *user, Value v) {
    FailureOr<int64_t> r = use(user, v);
    if (failed(r))
      return failure();
    SmallVector<int64_t> regs{*r};
    auto it = dims.find(v);
    if (it != dims.end())
      regs.append(it->second);
    return regs;
  }
  /// A register holding extent `d` of tensor `v`.
  FailureOr<int64_t> dimRegister(Operation *user, Value v, int64_t d) {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t r = numInts++;
    if (!t.isDynamicDim(d)) {
      emit(fb::Opcode_Int, {r, t.getDimSize(d)});
      return r;
    }
    auto it = dims.find(v);
    if (it == dims.end())
      return user->emitError()
             << "internal error: the host program has no shape for a value";
    emit(fb::Opcode_Move, {r, it->second[t.getDynamicDimIndex(d)]});
    return r;
  }
  /// Sets the dynamic dimensions of `v` (just defined) from `sizes`.
  LogicalResult setDims(Operation *user, Value v,
                        ArrayRef<OpFoldResult> sizes) {
    auto t = cast<RankedTensorType>(v.getType());
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (!t.isDynamicDim(d))
        continue;
      int64_t target = dims[v][t.getDynamicDimIndex(d)];
      if (std::optional<int64_t> c = getConstantIntValue(sizes[d])) {
        emit(fb::Opcode_Int, {target, *c});
        continue;
      }
      FailureOr<int64_t> r = use(user, cast<Value>(sizes[d]));
      if (failed(r))
        return failure();
      emit(fb::Opcode_Move, {target, *r});
    }
    return success();
  }
  /// A register holding the bytes of tensor `v` (its dims set).
  int64_t byteSizeRegister(Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t size = numInts++;
    int64_t fixed = storageBytes(t.getElementType());
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!t.isDynamicDim(d))
        fixed *= t.getDimSize(d);
    emit(fb::Opcode_Int, {size, fixed});
    for (int64_t r : dims[v])
      emit(fb::Opcode_Mul, {size, size, r});
    return size;
  }
  FailureOr<int64_t> use(Operation *user, Value v) {
    auto it = reg.find(v);
    if (it != reg.end())
      return it->second;
    return user->emitError()
           << "internal error: the host program reads a value it never set";
  }

  /// The registers of `values`, in order.
  FailureOr<SmallVector<int64_t>> useAll(Operation *user, ValueRange values) {
    SmallVector<int64_t> regs;
    for (Value v : values) {
      FailureOr<int64_t> r = use(user, v);
      if (failed(r))
        return failure();
      regs.push_back(*r);
    }
    return regs;
  }

  /// Keeps a value of `bits` canonical (sign-extended; i1 as 0 or 1).
  void canonicalize(int64_t r, unsigned bits) {
    if (bits == 1)
      emit(fb::Opcode_ZeroExtend, {r, r, 1});
    else if (bits < 64)
      emit(fb::Opcode_SignExtend, {r, r, bits});
  }

  /// dst[i] = src[i] for all i at once (with their dimensions); every
  /// destination is defined.
  LogicalResult moveAll(Operation *user, ValueRange sources,
                        ValueRange destinations) {
    SmallVector<std::pair<bool, int64_t>> from, to; // (buffer?, register)
    for (auto [src, dst] : llvm::zip(sources, destinations)) {
      FailureOr<SmallVector<int64_t>> s = regsOf(user, src);
      FailureOr<SmallVector<int64_t>> d = regsOf(user, dst);
      if (failed(s) || failed(d))
        return failure();
      if (s->size() != d->size())
        return user->emitError() << "internal error: a carried value changes "
                                    "its number of dynamic dimensions";
      for (auto [k, r] : llvm::enumerate(*s)) {
        bool buffer = k == 0 && isBuffer(src.getType());
        from.push_back({buffer, r});
        to.push_back({buffer, (*d)[k]});
      }
    }
    SmallVector<int64_t> temps;
    for (auto [buffer, r] : from) {
      int64_t t = buffer ? numBuffers++ : numInts++;
      emit(buffer ? fb::Opcode_MoveBuffer : fb::Opcode_Move, {t, r});
      temps.push_back(t);
    }
    for (auto [t, d] : llvm::zip(temps, to))
      emit(d.first ? fb::Opcode_MoveBuffer : fb::Opcode_Move, {d.second, t});
    return success();
  }

  /// Defines `values` (block arguments, op results).
  LogicalResult defineAll(Operation *op, ValueRange values) {
    for (Value v : values) {
      if (!isBuffer(v.getType()) && !isInteger(v.getType()))
        return op->emitError()
               << "a host value of type " << v.getType()
               << " is not supported (host programs hold tensors and "
                  "integers)";
      define(v);
    }
    return success();
  }

  /// Gives `values` the registers of `others` (with their dimensions).
  void alias(ValueRange values, ValueRange others) {
    for (auto [v, o] : llvm::zip(values, others)) {
      reg[v] = reg[o];
      if (auto it = dims.find(o); it != dims.end())
        dims[v] = it->second;
    }
  }

  LogicalResult writeBlock(Block &block) {
    for (Operation &op : block)
      if (failed(writeOp(&op)))
        return failure();
    return success();
  }

  LogicalResult writeOp(Operation *op);
  LogicalResult writeArith(Operation *op);
  LogicalResult writeExtract(tensor::ExtractOp op);
  LogicalResult writeReshape(Operation *op);
  LogicalResult writeAssert(AssertOp op);
  LogicalResult writeFor(scf::ForOp op);
  LogicalResult writeIf(scf::IfOp op);
  LogicalResult writeWhile(scf::WhileOp op);

  FailureOr<flatbuffers::Offset<fb::TensorType>> tensorType(func::FuncOp fn,
                                                           Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    FailureOr<fb::ElementType> et = failure();
    if (tensor)
      et = toElementType(tensor.getElementType());
    if (failed(et))
      return fn.emitError() << "unsupported boundary type " << t;
    // A dynamic dimension is -1 in the module.
    std::vector<int64_t> shape;
    for (int64_t d : tensor.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    return fb::CreateTensorTypeDirect(fbb, *et, &shape);
  }

  flatbuffers::FlatBufferBuilder &fbb;
  const llvm::StringMap<uint32_t> &ordinals;
  ParameterTable &parameters;
  DenseMap<Value, int64_t> reg;
  /// Registers of the dynamic dimensions of tensor values, in order.
  DenseMap<Value, SmallVector<int64_t>> dims;
  uint32_t numInts = 0, numBuffers = 0;
  std::vector<Instr> code;
  std::vector<std::vector<uint8_t>> constants;
  std::vector<std::string> messages;
};

LogicalResult ProgramWriter::writeOp(Operation *op) {
  if (auto dispatch = dyn_cast<DispatchOp>(op)) {
    auto it = ordinals.find(dispatch.getCallee());
    if (it == ordinals.end())
      return op->emitError("dispatch of unknown function");
    FailureOr<SmallVector<int64_t>> bindings = useAll(op, dispatch.getInputs());
    FailureOr<SmallVector<int64_t>> pushConstants =
        useAll(op, dispatch.getDims());
    if (failed(bindings) || failed(pushConstants))
      return failure();
    SmallVector<int64_t> operands{it->second};
    operands.append(*bindings);
    ValueRange resultDims = dispatch.getResultDims();
    // A result tied to an operand is written into the operand's buffer.
    auto tied = op->getAttrOfType<DenseI64ArrayAttr>(kTiedOperandsAttr);
    for (auto [i, r] : llvm::enumerate(dispatch.getResults())) {
      if (tied && tied[i] >= 0) {
        Value operand = dispatch.getInputs()[tied[i]];
        if (operand.getType() != r.getType())
          return op->emitError("internal error: a result tied to an operand "
                               "of another type");
        reg[r] = reg.lookup(operand);
        dims[r] = dims.lookup(operand);
        operands.push_back(reg[r]);
        continue;
      }
      int64_t b = define(r);
      for (int64_t &d : dims[r]) {
        FailureOr<int64_t> dim = use(op, resultDims.front());
        if (failed(dim))
          return failure();
        d = *dim;
        resultDims = resultDims.drop_front();
      }
      emit(fb::Opcode_Alloc, {b, byteSizeRegister(r)});
      operands.push_back(b);
    }
    operands.append(*pushConstants);
    emit(fb::Opcode_Dispatch, operands);
    return success();
  }
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
          op))
    return writeReshape(op);
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    int64_t b = define(empty);
    if (failed(setDims(op, empty, empty.getMixedSizes())))
      return failure();
    emit(fb::Opcode_Alloc, {b, byteSizeRegister(empty)});
    return success();
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      return op->emitError("a tensor.dim with a dimension computed on the "
                           "host is not supported");
    FailureOr<int64_t> r = dimRegister(op, dim.getSource(), *index);
    if (failed(r))
      return failure();
    reg[dim.getResult()] = *r;
    return success();
  }
  if (auto assertOp = dyn_cast<AssertOp>(op))
    return writeAssert(assertOp);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto attr = dyn_cast<DenseElementsAttr>(constant.getValue())) {
      emit(fb::Opcode_Constant,
           {define(constant), static_cast<int64_t>(constants.size())});
      constants.push_back(constantBytes(attr));
      return success();
    }
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue());
        attr && isInteger(constant.getType())) {
      int64_t value = bitsOf(constant.getType()) == 1
                          ? int64_t(attr.getValue().getBoolValue())
                          : attr.getValue().getSExtValue();
      emit(fb::Opcode_Int, {define(constant), value});
      return success();
    }
    return op->emitError("unsupported host constant ") << constant.getValue();
  }
  if (isa<ml_program::GlobalLoadConstOp, ml_program::GlobalLoadOp>(op)) {
    auto name = op->getAttrOfType<SymbolRefAttr>("global");
    FailureOr<int64_t> index = parameters.indexOf(op, name);
    if (failed(index))
      return failure();
    emit(fb::Opcode_Parameter, {define(op->getResult(0)), *index});
    return success();
  }
  if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op)) {
    FailureOr<int64_t> index = parameters.indexOf(op, store.getGlobalAttr());
    FailureOr<int64_t> value = use(op, store.getValue());
    if (failed(index) || failed(value))
      return failure();
    emit(fb::Opcode_GlobalStore, {*index, *value});
    return success();
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return writeExtract(extract);
  if (auto fromElements = dyn_cast<tensor::FromElementsOp>(op)) {
    // A host integer for a kernel: a one-element buffer (FormDispatches).
    Type element = fromElements.getType().getElementType();
    FailureOr<fb::ElementType> et = toElementType(element);
    if (fromElements.getElements().size() != 1 || failed(et) ||
        !element.isInteger())
      return op->emitError() << "internal error: only one-element integer "
                                "tensors are built on the host";
    FailureOr<int64_t> value = use(op, fromElements.getElements()[0]);
    if (failed(value))
      return failure();
    emit(fb::Opcode_Store, {define(fromElements), *value, *et});
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return writeFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return writeIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return writeWhile(whileOp);
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    // The buffers, then the dynamic dimensions of each result.
    FailureOr<SmallVector<int64_t>> results = useAll(op, ret.getOperands());
    if (failed(results))
      return failure();
    for (Value v : ret.getOperands())
      results->append(dims.lookup(v));
    emit(fb::Opcode_Return, *results);
    return success();
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "arith")
    return writeArith(op);
  return op->emitError() << "internal error: '" << op->getName()
                         << "' left in the host program";
}

/// Integer arithmetic the host computes (loop bounds, conditions), and
/// the choice between two tensors by a host condition.
LogicalResult ProgramWriter::writeArith(Operation *op) {
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isBuffer(select.getType())) {
    FailureOr<int64_t> cond = use(op, select.getCondition());
    if (failed(cond))
      return failure();
    define(select);
    size_t branch = emit(fb::Opcode_CondBranch, {*cond, here() + 1, -1});
    if (failed(moveAll(op, select.getTrueValue(), select.getResult())))
      return failure();
    size_t skip = emit(fb::Opcode_Branch, {-1});
    code[branch].operands[2] = here();
    if (failed(moveAll(op, select.getFalseValue(), select.getResult())))
      return failure();
    code[skip].operands[0] = here();
    return success();
  }
  if (op->getNumResults() != 1 || !isInteger(op->getResult(0).getType()) ||
      !llvm::all_of(op->getOperandTypes(),
                    [](Type t) { return isInteger(t); }))
    return op->emitError()
           << "'" << op->getName()
           << "' on the host: host programs compute with integers, "
              "indices and i1 only (compute float values on the device)";
  FailureOr<SmallVector<int64_t>> operands = useAll(op, op->getOperands());
  if (failed(operands))
    return failure();
  ArrayRef<int64_t> in = *operands;
  Value result = op->getResult(0);
  unsigned bits = bitsOf(result.getType());
  int64_t out = define(result);
  auto binary = [&](fb::Opcode opcode) {
    emit(opcode, {out, in[0], in[1]});
    canonicalize(out, bits);
    return success();
  };
  if (isa<arith::AddIOp>(op)) return binary(fb::Opcode_Add);
  if (isa<arith::SubIOp>(op)) return binary(fb::Opcode_Sub);
  if (isa<arith::MulIOp>(op)) return binary(fb::Opcode_Mul);
  if (isa<arith::DivSIOp>(op)) return binary(fb::Opcode_DivS);
  if (isa<arith::RemSIOp>(op)) return binary(fb::Opcode_RemS);
  if (isa<arith::MinSIOp>(op)) return binary(fb::Opcode_MinS);
  if (isa<arith::MaxSIOp>(op)) return binary(fb::Opcode_MaxS);
  if (isa<arith::AndIOp>(op)) return binary(fb::Opcode_And);
  if (isa<arith::OrIOp>(op)) return binary(fb::Opcode_Or);
  if (isa<arith::XOrIOp>(op)) return binary(fb::Opcode_Xor);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    std::optional<fb::Opcode> opcode;
    switch (cmp.getPredicate()) {
    case P::eq: opcode = fb::Opcode_CmpEq; break;
    case P::ne: opcode = fb::Opcode_CmpNe; break;
    case P::slt: opcode = fb::Opcode_CmpLt; break;
    case P::sle: opcode = fb::Opcode_CmpLe; break;
    case P::sgt: opcode = fb::Opcode_CmpGt; break;
    case P::sge: opcode = fb::Opcode_CmpGe; break;
    default: break;
    }
    if (!opcode)
      return op->emitError()
             << "unsigned comparison '" << arith::stringifyCmpIPredicate(cmp.getPredicate())
             << "' on the host is not supported (host integers are signed)";
    emit(*opcode, {out, in[0], in[1]});
    return success();
  }
  if (isa<arith::SelectOp>(op)) {
    emit(fb::Opcode_Select, {out, in[0], in[1], in[2]});
    return success();
  }
  if (isa<arith::ExtSIOp, arith::IndexCastOp, arith::TruncIOp>(op)) {
    emit(fb::Opcode_Move, {out, in[0]});
    canonicalize(out, bits);
    return success();
  }
  if (isa<arith::ExtUIOp>(op)) {
    unsigned from = bitsOf(op->getOperand(0).getType());
    emit(fb::Opcode_Move, {out, in[0]});
    if (from < 64)
      emit(fb::Opcode_ZeroExtend, {out, out, from});
    canonicalize(out, bits);
    return success();
  }
  return op->emitError() << "'" << op->getName()
                         << "' is not supported in a host program";
}

/// A tensor element the host needs (a condition, a trip count): a read,
/// which waits for the dispatches recorded before it.
LogicalResult ProgramWriter::writeExtract(tensor::ExtractOp op) {
  auto type = cast<RankedTensorType>(op.getTensor().getType());
  Type element = type.getElementType();
  FailureOr<fb::ElementType> et = toElementType(element);
  if (failed(et) || !element.isInteger())
    return op.emitError() << "reading a " << element
                          << " element on the host is not supported (host "
                             "programs read integers and i1)";
  FailureOr<int64_t> tensor = use(op, op.getTensor());
  if (failed(tensor))
    return failure();
  // Byte offset = row-major linear index x element bytes.
  int64_t offset = numInts++;
  emit(fb::Opcode_Int, {offset, 0});
  int64_t scratch = numInts++;
  for (auto [i, index] : llvm::enumerate(op.getIndices())) {
    FailureOr<int64_t> r = use(op, index);
    if (failed(r))
      return failure();
    FailureOr<int64_t> extent = dimRegister(op, op.getTensor(), i);
    if (failed(extent))
      return failure();
    emit(fb::Opcode_Mul, {offset, offset, *extent});
    emit(fb::Opcode_Add, {offset, offset, *r});
  }
  emit(fb::Opcode_Int, {scratch, storageBytes(element)});
  emit(fb::Opcode_Mul, {offset, offset, scratch});
  emit(fb::Opcode_Read, {define(op.getResult()), *tensor, offset, *et});
  return success();
}

/// A reshape or cast on the host: the same buffer, with the result's
/// dimensions computed from the source's (expand_shape lists its output
/// sizes; a collapsed dimension is the product of its group).
LogicalResult ProgramWriter::writeReshape(Operation *op) {
  Value source = op->getOperand(0), result = op->getResult(0);
  FailureOr<int64_t> r = use(op, source);
  if (failed(r))
    return failure();
  reg[result] = *r;
  defineDims(result);
  auto t = cast<RankedTensorType>(result.getType());
  if (t.hasStaticShape())
    return success();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return setDims(op, result, expand.getMixedOutputShape());
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (!t.isDynamicDim(d))
      continue;
    int64_t target = dims[result][t.getDynamicDimIndex(d)];
    SmallVector<int64_t> group{d};
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      group = llvm::to_vector(collapse.getReassociationIndices()[d]);
    emit(fb::Opcode_Int, {target, 1});
    for (int64_t s : group) {
      FailureOr<int64_t> extent = dimRegister(op, source, s);
      if (failed(extent))
        return failure();
      emit(fb::Opcode_Mul, {target, target, *extent});
    }
  }
  return success();
}

/// A shape check (tessel-insert-shape-checks): the call fails with the
/// message, each "{}" in it replaced by the next value.
LogicalResult ProgramWriter::writeAssert(AssertOp op) {
  FailureOr<int64_t> cond = use(op, op.getCondition());
  FailureOr<SmallVector<int64_t>> values = useAll(op, op.getValues());
  if (failed(cond) || failed(values))
    return failure();
  SmallVector<int64_t> operands{*cond,
                                static_cast<int64_t>(messages.size())};
  operands.append(*values);
  messages.push_back(op.getMessage().str());
  emit(fb::Opcode_Assert, operands);
  return success();
}

LogicalResult ProgramWriter::writeFor(scf::ForOp op) {
  if (op.getUnsignedCmp())
    return op.emitError("an unsigned scf.for on the host is not supported");
  FailureOr<int64_t> lb = use(op, op.getLowerBound());
  FailureOr<int64_t> ub = use(op, op.getUpperBound());
  FailureOr<int64_t> step = use(op, op.getStep());
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  Block &body = *op.getBody();
  Value ivValue = body.getArgument(0);
  if (failed(defineAll(op, ivValue)) ||
      failed(defineAll(op, op.getRegionIterArgs())) ||
      failed(moveAll(op, op.getInitArgs(), op.getRegionIterArgs())))
    return failure();
  int64_t iv = reg[ivValue];
  emit(fb::Opcode_Move, {iv, *lb});
  // header: while (iv < ub) { body; iv += step; }
  int64_t header = here();
  int64_t cond = numInts++;
  emit(fb::Opcode_CmpLt, {cond, iv, *ub});
  size_t exit = emit(fb::Opcode_CondBranch, {cond, here() + 1, -1});
  for (Operation &inner : body.without_terminator())
    if (failed(writeOp(&inner)))
      return failure();
  auto yield = cast<scf::YieldOp>(body.getTerminator());
  if (failed(moveAll(yield, yield.getOperands(), op.getRegionIterArgs())))
    return failure();
  emit(fb::Opcode_Add, {iv, iv, *step});
  canonicalize(iv, bitsOf(op.getInductionVar().getType()));
  emit(fb::Opcode_Branch, {header});
  code[exit].operands[2] = here();
  alias(op.getResults(), op.getRegionIterArgs());
  return success();
}

LogicalResult ProgramWriter::writeIf(scf::IfOp op) {
  FailureOr<int64_t> cond = use(op, op.getCondition());
  if (failed(cond) || failed(defineAll(op, op.getResults())))
    return failure();
  size_t branch = emit(fb::Opcode_CondBranch, {*cond, here() + 1, -1});
  auto writeRegion = [&](Region &region) -> LogicalResult {
    Block &block = region.front();
    for (Operation &inner : block.without_terminator())
      if (failed(writeOp(&inner)))
        return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    return moveAll(yield, yield.getOperands(), op.getResults());
  };
  if (failed(writeRegion(op.getThenRegion())))
    return failure();
  if (op.getElseRegion().empty()) {
    code[branch].operands[2] = here();
    return success();
  }
  size_t skip = emit(fb::Opcode_Branch, {-1});
  code[branch].operands[2] = here();
  if (failed(writeRegion(op.getElseRegion())))
    return failure();
  code[skip].operands[0] = here();
  return success();
}

LogicalResult ProgramWriter::writeWhile(scf::WhileOp op) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  if (failed(defineAll(op, before.getArguments())) ||
      failed(defineAll(op, after.getArguments())) ||
      failed(moveAll(op, op.getInits(), before.getArguments())))
    return failure();
  // The values scf.condition forwards are both the after region's
  // arguments and the loop's results.
  alias(op.getResults(), after.getArguments());
  int64_t header = here();
  for (Operation &inner : before.without_terminator())
    if (failed(writeOp(&inner)))
      return failure();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  FailureOr<int64_t> cond = use(condition, condition.getCondition());
  if (failed(cond) ||
      failed(moveAll(condition, condition.getArgs(), after.getArguments())))
    return failure();
  size_t exit = emit(fb::Opcode_CondBranch, {*cond, here() + 1, -1});
  for (Operation &inner : after.without_terminator())
    if (failed(writeOp(&inner)))
      return failure();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  if (failed(moveAll(yield, yield.getOperands(), before.getArguments())))
    return failure();
  emit(fb::Opcode_Branch, {header});
  code[exit].operands[2] = here();
  return success();
}

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
          m.l2Promotion, m.oobFill,
          m.globalDimPushConstants.empty() ? nullptr
                                           : &m.globalDimPushConstants));
    bool cudaC = e.abi == KernelAbi::CudaC;
    flatbuffers::Offset<fb::WorkgroupCountProgram> countProgram;
    if (const std::optional<WorkgroupCountProgram> &p =
            e.workgroupCountProgram) {
      std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
      for (const std::vector<int64_t> &in : p->instructions) {
        std::vector<int64_t> operands(in.begin() + 1, in.end());
        instructions.push_back(fb::CreateInstructionDirect(
            fbb, static_cast<fb::Opcode>(in[0]), &operands));
      }
      std::vector<uint32_t> results(p->results.begin(), p->results.end());
      countProgram = fb::CreateWorkgroupCountProgramDirect(
          fbb, p->intRegisters, &instructions, &results);
    }
    exports.push_back(fb::CreateExportDirect(
        fbb, e.name.c_str(), &count, &size, e.bindingCount,
        e.sharedMemoryBytes, maps.empty() ? nullptr : &maps,
        cudaC ? fb::KernelAbi_CudaC : fb::KernelAbi_Bindings,
        cudaC ? &e.parameterSizes : nullptr, e.residentBlocksPerSm,
        e.scratchBytes, e.scratchZeroedBytes, e.pushConstantCount,
        countProgram));
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

/// The bytes of a parameter's value (not extern, not missing), as the
/// module stores them; `storage`
/// keeps those that had to be expanded (a splat, i1).
FailureOr<ArrayRef<uint8_t>> parameterBytes(ml_program::GlobalOp global,
                                            std::vector<uint8_t> &storage) {
  Attribute value = *global.getValue();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    auto type = cast<RankedTensorType>(resource.getType());
    int64_t bytes = type.getNumElements() *
                    storageBytes(type.getElementType());
    if (!blob || int64_t(blob->getData().size()) != bytes)
      return global.emitError()
             << "ml_program.global @" << global.getSymName()
             << ": its dense_resource holds "
             << (blob ? std::to_string(blob->getData().size()) : "no")
             << " bytes (expected " << bytes << ")";
    ArrayRef<char> data = blob->getData();
    return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data.data()),
                             data.size());
  }
  auto dense = cast<DenseElementsAttr>(value);
  if (dense.isSplat() || dense.getElementType().isInteger(1)) {
    storage = constantBytes(dense);
    return ArrayRef<uint8_t>(storage);
  }
  // Whole bytes per element, stored little-endian, in order.
  ArrayRef<char> raw = dense.getRawData();
  return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(raw.data()),
                           raw.size());
}

/// FlatBuffers offsets are 32-bit: a module holds less than 2 GiB.
constexpr uint64_t kMaxModuleBytes = (uint64_t(1) << 31) - (64u << 20);

/// The module's `Parameter` tables: each global's data in the module,
/// 64-byte aligned, or (extern, or every one with a `file`) none, the data
/// then written to `file`.
FailureOr<std::vector<flatbuffers::Offset<fb::Parameter>>>
writeParameters(flatbuffers::FlatBufferBuilder &fbb, Location loc,
                ArrayRef<ml_program::GlobalOp> globals,
                const std::vector<ExecutableImage> &executables,
                const std::string &file) {
  std::vector<std::vector<uint8_t>> storage(globals.size());
  std::vector<std::optional<ArrayRef<uint8_t>>> data(globals.size());
  // State that starts as one value (zeros when it has none) keeps one
  // element's bytes, in the module whatever `file` says.
  std::vector<std::optional<std::vector<uint8_t>>> splats(globals.size());
  std::vector<NamedTensor> outside;
  uint64_t inside = 0;
  for (const ExecutableImage &image : executables)
    for (const BinaryImage &b : image.binaries)
      inside += b.data.size();
  for (size_t i = 0; i < globals.size(); ++i) {
    ml_program::GlobalOp global = globals[i];
    std::string name = global.getSymName().str();
    if (name.size() > 1024 || llvm::any_of(name, [](char c) {
          return c < 0x20 || c > 0x7e;
        }))
      return global.emitError()
             << "parameter name @" << global.getSymName()
             << " is not 1 to 1024 printable ASCII characters (the module "
                "format's names)";
    std::optional<Attribute> value = global.getValue();
    if (value && isa<ml_program::ExternAttr>(*value))
      continue;
    if (global.getIsMutable()) {
      auto type = cast<RankedTensorType>(global.getType());
      auto dense = value ? dyn_cast<DenseElementsAttr>(*value) : nullptr;
      if (!value)
        splats[i] = std::vector<uint8_t>(storageBytes(type.getElementType()), 0);
      else if (dense && dense.isSplat())
        splats[i] = constantBytes(DenseElementsAttr::get(
            RankedTensorType::get({}, type.getElementType()),
            dense.getSplatValue<Attribute>()));
      if (splats[i])
        continue;
    }
    FailureOr<ArrayRef<uint8_t>> bytes = parameterBytes(global, storage[i]);
    if (failed(bytes))
      return failure();
    if (!file.empty()) {
      outside.push_back(
          {name, cast<RankedTensorType>(global.getType()), *bytes});
      continue;
    }
    data[i] = *bytes;
    inside += bytes->size();
  }
  if (inside > kMaxModuleBytes)
    return emitError(loc)
           << "the module would hold " << inside
           << " bytes of parameters and kernels, above the module format's "
              "2 GiB: keep the parameters outside it (tessel-compile "
              "--parameters-file=FILE.safetensors)";
  if (!file.empty()) {
    std::string error;
    if (failed(writeParametersFile(file, outside, error)))
      return emitError(loc) << error;
  }
  std::vector<flatbuffers::Offset<fb::Parameter>> tables;
  for (size_t i = 0; i < globals.size(); ++i) {
    ml_program::GlobalOp global = globals[i];
    auto type = cast<RankedTensorType>(global.getType());
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    auto typeTable = fb::CreateTensorTypeDirect(
        fbb, *toElementType(type.getElementType()), &shape);
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> bytes;
    if (data[i]) {
      fbb.ForceVectorAlignment(data[i]->size(), sizeof(uint8_t), 64);
      bytes = fbb.CreateVector(data[i]->data(), data[i]->size());
    }
    tables.push_back(fb::CreateParameter(
        fbb, fbb.CreateString(global.getSymName().str()), typeTable, bytes,
        global.getIsMutable(),
        splats[i] ? fbb.CreateVector(*splats[i])
                  : flatbuffers::Offset<flatbuffers::Vector<uint8_t>>()));
  }
  return tables;
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

bool mlir::tessel::isModuleElementType(Type t) {
  return succeeded(toElementType(t));
}

FailureOr<std::vector<uint8_t>>
mlir::tessel::writeModule(ModuleOp module,
                          const std::vector<ExecutableImage> &executables,
                          const ModuleWriterOptions &options) {
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
  ParameterTable parameterTable;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic())
      continue;
    ProgramWriter writer(fbb, ordinals, parameterTable);
    FailureOr<flatbuffers::Offset<fb::Function>> f = writer.write(fn);
    if (failed(f))
      return failure();
    functions.push_back(*f);
  }
  FailureOr<std::vector<flatbuffers::Offset<fb::Parameter>>> parameters =
      writeParameters(fbb, module.getLoc(), parameterTable.globals, executables,
                      options.parametersFile);
  if (failed(parameters))
    return failure();
  std::vector<flatbuffers::Offset<fb::Executable>> exes;
  for (const ExecutableImage &image : executables)
    exes.push_back(writeExecutable(fbb, image));
  auto root = fb::CreateModuleDirect(
      fbb, kSchemaVersion, "tessel-compile", &functions, &exes,
      parameters->empty() ? nullptr : &*parameters);
  fb::FinishModuleBuffer(fbb, root);
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(),
                             fbb.GetBufferPointer() + fbb.GetSize());
  appendTrailer(bytes);
  return bytes;
}
