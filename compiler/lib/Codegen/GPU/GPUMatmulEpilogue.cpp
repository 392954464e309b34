//===- GPUMatmulEpilogue.cpp - what follows a matmul in its kernel -*- C++ -*-===//

#include "tessel/Codegen/GPU/GPUMatmulEpilogue.h"

#include "tessel/Codegen/Common/CloneGenericBody.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

FailureOr<MatmulEpilogueOp> planEpilogueOp(linalg::GenericOp op, Value value,
                                           bool sameElementType,
                                           std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = ("epilogue op " + op->getName().getStringRef() + ": " + reason)
              .str();
    return failure();
  };
  auto valueType = cast<ShapedType>(value.getType());
  auto resultType = cast<ShapedType>(op->getResult(0).getType());
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      resultType.getShape() != valueType.getShape())
    return fail("not elementwise over the matmul's result");
  if (sameElementType &&
      resultType.getElementType() != valueType.getElementType())
    return fail("changes the element type");
  Block &body = op.getRegion().front();
  if (!body.getArguments().back().use_empty())
    return fail("reads its output's initial value");
  MatmulEpilogueOp epilogueOp{op, {}};
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (in->get() == value) {
      if (!map.isIdentity())
        return fail("reads the matmul's result through a non-identity map");
      epilogueOp.mems.push_back(Value());
      epilogueOp.constants.push_back(Value());
      continue;
    }
    Value mem = bindingMemRef(in->get());
    Value constant = in->get().getDefiningOp<arith::ConstantOp>()
                         ? in->get()
                         : Value();
    if ((!mem && !constant) || !map.isProjectedPermutation() ||
        (mem && !cast<MemRefType>(mem.getType()).getLayout().isIdentity()))
      return fail("an input is neither the matmul's result nor a buffer or "
                  "constant read through a projection");
    epilogueOp.mems.push_back(mem);
    epilogueOp.constants.push_back(constant);
  }
  return epilogueOp;
}

} // namespace

FailureOr<MatmulOutput>
mlir::tessel::planMatmulOutput(linalg::LinalgOp matmul, bool sameElementType,
                               std::string &why) {
  MatmulOutput out;
  Value result = matmul->getResult(0);
  while (result.hasOneUse()) {
    auto consumer = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
    if (!consumer)
      break;
    FailureOr<MatmulEpilogueOp> epilogueOp =
        planEpilogueOp(consumer, result, sameElementType, why);
    if (failed(epilogueOp))
      return failure();
    out.epilogue.push_back(*epilogueOp);
    result = consumer->getResult(0);
  }
  if (!result.hasOneUse()) {
    why = "the result has several uses in the kernel";
    return failure();
  }
  out.store = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *result.getUsers().begin());
  if (!out.store) {
    why = "the result is used by " +
          result.getUsers().begin()->getName().getStringRef().str() +
          ", not stored";
    return failure();
  }
  out.c = out.store.getDest();
  auto type = dyn_cast<MemRefType>(out.c.getType());
  if (!type || !type.getLayout().isIdentity()) {
    why = "the output buffer is not a row-major memref";
    return failure();
  }
  return out;
}

Value mlir::tessel::applyMatmulEpilogue(OpBuilder &b, Location loc,
                                        ArrayRef<MatmulEpilogueOp> epilogue,
                                        Value v, ArrayRef<Value> indices) {
  for (const MatmulEpilogueOp &ep : epilogue) {
    linalg::GenericOp op = ep.op;
    Block &body = op.getRegion().front();
    IRMapping mapping;
    for (auto [operand, mem, constant, arg] :
         llvm::zip(op.getDpsInputOperands(), ep.mems, ep.constants,
                   body.getArguments())) {
      if (!mem && !constant) {
        mapping.map(arg, v);
        continue;
      }
      SmallVector<Value> at;
      for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults())
        at.push_back(indices[cast<AffineDimExpr>(expr).getPosition()]);
      // A constant stays a tensor: bufferization makes it a global.
      mapping.map(arg, mem ? memref::LoadOp::create(b, loc, mem, at).getResult()
                           : tensor::ExtractOp::create(b, loc, constant, at)
                                 .getResult());
    }
    v = cloneGenericBody(b, body, mapping, indices).front();
  }
  return v;
}

Value mlir::tessel::castForStore(OpBuilder &b, Location loc, Value v,
                                 Type elem) {
  if (v.getType().getIntOrFloatBitWidth() > elem.getIntOrFloatBitWidth())
    return arith::TruncFOp::create(b, loc, elem, v);
  if (v.getType() != elem)
    return arith::ExtFOp::create(b, loc, elem, v);
  return v;
}

void mlir::tessel::storeMatmulPair(OpBuilder &b, Location loc, Value c,
                                   ArrayRef<Value> pair,
                                   ArrayRef<Value> indices, Value row,
                                   Value col, OpFoldResult m, int64_t n,
                                   bool inBounds) {
  Type elem = getElementTypeOrSelf(c.getType());
  Value value = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, elem), pair);
  if (inBounds) {
    int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
    vector::StoreOp::create(b, loc, value, c, indices, /*nontemporal=*/false,
                            llvm::MaybeAlign(n % 2 == 0 ? 2 * bytes : bytes));
    return;
  }
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value rowIn = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, row,
      getValueOrCreateConstantIndexOp(b, loc, m));
  Value left = arith::SubIOp::create(b, loc, index(n), col);
  Value count = arith::SelectOp::create(b, loc, rowIn, left, index(0));
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({2}, b.getI1Type()), ValueRange{count});
  vector::MaskedStoreOp::create(b, loc, c, indices, mask, value);
}
