//===- MaterializeKernelABI.cpp - tessel-materialize-kernel-abi -*- C++ -*-===//
//
// Gives every dispatch function the kernel signature shared by all targets'
// host sides: a binding table plus the workgroup id. Operands are read and
// results written through bindings, in tessel.dispatch operand order, then
// result order. Tensors of i1 are stored one byte per element (i8) and
// converted at the boundary, because vectors of i1 are bit-packed in memory.
// A dynamic dimension of an operand or a result is a push constant
// (tessel.push_constant: the dispatch's dims, in order), and a tensor.dim of
// a binding becomes that push constant.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_MATERIALIZEKERNELABI
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

enum class KernelABI { BindingTable, Pointers };

/// Element type used in memory for `t`.
Type storageType(Type t) {
  return t.isInteger(1) ? IntegerType::get(t.getContext(), 8) : t;
}

/// Elementwise cast of `value` to element type `to` (only i1 <-> i8 occur).
Value castElements(OpBuilder &b, Location loc, Value value, Type to) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == to)
    return value;
  auto resultType = type.clone(to);
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, value), to);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(),
                                         utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, ValueRange{value}, ValueRange{init},
      ArrayRef<AffineMap>{id, id}, iters,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = to.getIntOrFloatBitWidth() > 1
                      ? arith::ExtUIOp::create(nb, nloc, to, args[0])
                            .getResult()
                      : arith::TruncIOp::create(nb, nloc, to, args[0])
                            .getResult();
        linalg::YieldOp::create(nb, nloc, r);
      });
  return generic.getResult(0);
}

/// Operands are read-only. Where one is the destination (init) of an op,
/// that op would update the operand in place, so bufferization would copy
/// the whole operand inside every workgroup. An explicit linalg.copy into a
/// fresh tensor instead tiles and fuses with its consumer: each workgroup
/// copies only its own tile, straight into the result binding.
void copyIntoFreshInits(OpBuilder &b, Value operand) {
  for (OpOperand &use : llvm::make_early_inc_range(operand.getUses())) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (!dps || !dps.isDpsInit(&use))
      continue;
    auto type = cast<RankedTensorType>(operand.getType());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(use.getOwner());
    Location loc = use.getOwner()->getLoc();
    Value empty = tensor::EmptyOp::create(
        b, loc, tensor::getMixedSizes(b, loc, operand), type.getElementType());
    Value copy =
        linalg::CopyOp::create(b, loc, operand, empty).getResult(0);
    use.set(copy);
  }
}

} // namespace

namespace mlir::tessel {

/// Rewrites dispatch function `fn` to the kernel ABI in place.
LogicalResult materializeKernelABI(func::FuncOp fn, KernelABI abi) {
  MLIRContext *ctx = fn.getContext();
  OpBuilder b(ctx);
  Location loc = fn.getLoc();
  Block &entry = fn.getBody().front();
  FunctionType oldType = fn.getFunctionType();
  unsigned numInputs = oldType.getNumInputs();

  // A dynamic tensor is bound as its base (a rank-0 memref: a plain
  // pointer in either ABI) and viewed with its extents, which come as push
  // constants: every dynamic dimension of the operands, then of the
  // results, in order.
  auto bindingMemRef = [&](Type tensorType) -> FailureOr<MemRefType> {
    auto t = dyn_cast<RankedTensorType>(tensorType);
    if (!t)
      return fn.emitError() << "dispatch operand of type " << tensorType
                            << " is not a ranked tensor";
    return MemRefType::get(t.getShape(), storageType(t.getElementType()));
  };
  auto baseType = [](MemRefType t) {
    return t.hasStaticShape() ? t : MemRefType::get({}, t.getElementType());
  };

  // The kernel's own arguments: a binding table plus workgroup ids, or one
  // memref per binding.
  Value table;
  SmallVector<MemRefType> bindingTypes;
  for (Type t : llvm::concat<const Type>(oldType.getInputs(),
                                         oldType.getResults())) {
    FailureOr<MemRefType> memrefType = bindingMemRef(t);
    if (failed(memrefType))
      return failure();
    bindingTypes.push_back(*memrefType);
  }
  if (abi == KernelABI::BindingTable) {
    table = entry.addArgument(LLVM::LLVMPointerType::get(ctx), loc);
    for (int i = 0; i < 3; ++i)
      entry.addArgument(b.getIndexType(), loc);
  } else {
    for (MemRefType t : bindingTypes)
      entry.addArgument(baseType(t), loc);
  }
  fn->setAttr(kBindingCountAttr, b.getI64IntegerAttr(bindingTypes.size()));
  // Both runtimes allocate buffers at least 64-byte aligned; saying so lets
  // LLVM prove that vector accesses are aligned (128-bit loads on GPUs).
  int64_t pushConstants = 0;
  DenseMap<Value, SmallVector<OpFoldResult>> sizesOf; // dynamic bindings
  auto binding = [&](unsigned i) -> Value {
    MemRefType type = bindingTypes[i];
    Value mem = abi == KernelABI::Pointers
                    ? Value(entry.getArgument(numInputs + i))
                    : Value(BindingOp::create(b, loc, baseType(type), table,
                                              b.getI64IntegerAttr(i)));
    mem = memref::AssumeAlignmentOp::create(b, loc, mem,
                                            b.getI32IntegerAttr(64));
    if (type.hasStaticShape())
      return mem;
    SmallVector<OpFoldResult> sizes, strides(type.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(type.isDynamicDim(d)
                          ? OpFoldResult(PushConstantOp::create(
                                b, loc, b.getIndexType(),
                                b.getI64IntegerAttr(pushConstants++)))
                          : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    OpFoldResult stride = b.getIndexAttr(1);
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      strides[d] = stride;
      stride = affine::makeComposedFoldedAffineApply(
          b, loc, b.getAffineSymbolExpr(0) * b.getAffineSymbolExpr(1),
          {stride, sizes[d]});
    }
    // Static strides stay static in the view's type (the innermost is 1),
    // so that a fold of the cast below leaves vector accesses legal.
    SmallVector<int64_t> staticStrides = llvm::map_to_vector(
        strides, [](OpFoldResult s) {
          return getConstantIntValue(s).value_or(ShapedType::kDynamic);
        });
    auto view = MemRefType::get(
        type.getShape(), type.getElementType(),
        StridedLayoutAttr::get(ctx, 0, staticStrides));
    Value cast = memref::ReinterpretCastOp::create(
        b, loc, view, mem, b.getIndexAttr(0), sizes, strides);
    // Identity layout again (the strides are the row-major ones), so
    // that nothing downstream sees a strided binding.
    Value identity = memref::CastOp::create(b, loc, type, cast);
    sizesOf[identity] = sizes;
    return identity;
  };

  b.setInsertionPointToStart(&entry);
  for (unsigned i = 0; i < numInputs; ++i) {
    BlockArgument arg = entry.getArgument(i);
    Value mem = binding(i);
    Value tensor = bufferization::ToTensorOp::create(
        b, loc,
        cast<TensorType>(memref::getTensorTypeFromMemRefType(bindingTypes[i])),
        mem,
        /*restrict=*/true, /*writable=*/false);
    auto elementType = cast<RankedTensorType>(arg.getType()).getElementType();
    Value value = castElements(b, loc, tensor, elementType);
    arg.replaceAllUsesWith(value);
    copyIntoFreshInits(b, value);
  }

  // Result bindings are defined up front so that they dominate every op
  // that empty-tensor elimination lets write into them.
  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  SmallVector<Value> resultMems;
  for (unsigned j = 0; j < ret.getNumOperands(); ++j)
    resultMems.push_back(binding(numInputs + j));
  b.setInsertionPoint(ret);
  for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
    Value mem = resultMems[j];
    Value stored = castElements(b, loc, value,
                                bindingTypes[numInputs + j].getElementType());
    bufferization::MaterializeInDestinationOp::create(
        b, loc, Type(), stored, mem, /*restrict=*/true, /*writable=*/true);
  }
  func::ReturnOp::create(b, loc);
  ret.erase();

  // tensor.dim of a dynamic binding is its push constant.
  fn.walk([&](tensor::DimOp dim) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto toTensor = dim.getSource().getDefiningOp<bufferization::ToTensorOp>();
    auto sizes = toTensor ? sizesOf.find(toTensor.getBuffer()) : sizesOf.end();
    if (!index || sizes == sizesOf.end())
      return;
    OpBuilder db(dim);
    dim.replaceAllUsesWith(getValueOrCreateConstantIndexOp(
        db, dim.getLoc(), sizes->second[*index]));
    dim.erase();
  });
  fn->setAttr(kPushConstantCountAttr, b.getI64IntegerAttr(pushConstants));
  entry.eraseArguments(0, numInputs);
  fn.setFunctionType(
      FunctionType::get(ctx, entry.getArgumentTypes(), TypeRange{}));
  fn->setAttr(kKernelAttr, UnitAttr::get(ctx));
  return success();
}

namespace {
struct MaterializeKernelABIPass
    : impl::MaterializeKernelABIBase<MaterializeKernelABIPass> {
  using Base::Base;
  void runOnOperation() override {
    KernelABI kind;
    if (abi == "binding-table")
      kind = KernelABI::BindingTable;
    else if (abi == "pointers")
      kind = KernelABI::Pointers;
    else {
      getOperation().emitError() << "unknown kernel ABI '" << abi
                                 << "' (expected binding-table or pointers)";
      return signalPassFailure();
    }
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kDispatchFunctionAttr) && !fn->hasAttr(kKernelAttr))
        if (failed(materializeKernelABI(fn, kind)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
