//===- GPUMatmulPlan.cpp - what a tensor-core matmul reads and writes -*- C++ -*-===//
//
// Qualification and operand planning shared by the mma.sync and wgmma
// strategies (GPUMatmulPlan.h).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUMatmulPlan.h"

#include "tessel/Codegen/Common/DynamicExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tessel;

static LogicalResult planMatmulOperands(MatmulPlan &plan, linalg::LinalgOp root,
                                 const linalg::ContractionDimensions &dims,
                                 ArrayRef<int64_t> ranges, Type aType,
                                 std::string &why);
static LogicalResult planDynamicM(MatmulPlan &plan, linalg::LinalgOp root,
                                  ArrayRef<int64_t> ranges, std::string &why);
static LogicalResult planConvOperands(MatmulPlan &plan,
                               linalg::Conv2DNhwcHwcfOp conv, Type elemType,
                               std::string &why);

FailureOr<MatmulPlan> mlir::tessel::planTensorCoreMatmul(Operation *rootOp,
                                                       bool allowTF32,
                                                       std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  auto root = dyn_cast_or_null<linalg::LinalgOp>(rootOp);
  auto conv = dyn_cast_or_null<linalg::Conv2DNhwcHwcfOp>(rootOp);
  if (!root || !root.hasPureTensorSemantics() ||
      root.getNumDpsInputs() != 2 || root.getNumDpsInits() != 1 ||
      (!conv && !linalg::isaContractionOpInterface(root)))
    return fail("not a contraction of two operands");
  FailureOr<linalg::ContractionDimensions> dims =
      conv ? FailureOr<linalg::ContractionDimensions>(failure())
           : linalg::inferContractionDims(root);
  if (!conv && (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
                dims->k.size() != 1 || dims->batch.size() > 1))
    return fail("not one M, N and K loop and at most one batch loop (a "
                "matvec, or several M/N/K loops)");
  Type aType = getElementTypeOrSelf(root.getDpsInputs()[0].getType());
  Type bType = getElementTypeOrSelf(root.getDpsInputs()[1].getType());
  Type cType = getElementTypeOrSelf(root.getDpsInits()[0].getType());
  if (aType != bType)
    return fail("operand types differ");
  bool isFloat16 = aType.isF16() || aType.isBF16();
  if (aType.isF32() && !allowTF32)
    return fail("f32 operands (exact f32 is the default; --cuda-tf32 allows "
                "TF32 tensor cores)");
  if (aType.isInteger(8) && !cType.isInteger(32))
    return fail("i8 operands need an i32 result");
  if (!isFloat16 && !aType.isF32() && !aType.isInteger(8))
    return fail("operand type is not f16, bf16, i8 or (with --cuda-tf32) "
                "f32");
  if (!aType.isInteger(8) && !cType.isF32() && !cType.isF16() &&
      !cType.isBF16())
    return fail("result type is not f32, f16 or bf16");
  if (aType.isF32() && !cType.isF32())
    return fail("f32 operands with a result that is not f32");
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  if (conv && llvm::any_of(ranges, ShapedType::isDynamic))
    return fail("a convolution with dynamic extents");
  if (llvm::is_contained(ranges, 0))
    return fail("an empty loop");

  MatmulPlan plan;
  plan.inType = aType;
  // A program that accumulates in f16 gets f16 accumulators; bf16 has none
  // on tensor cores, so bf16 results are accumulated in f32 and rounded.
  plan.accType = cType.isF16() || cType.isInteger(32)
                     ? cType
                     : Float32Type::get(root.getContext());
  root->getRegion(0).walk([&](arith::ExtUIOp) { plan.unsignedInt = true; });
  if (conv) {
    if (failed(planConvOperands(plan, conv, aType, why)))
      return failure();
  } else {
    if (failed(planMatmulOperands(plan, root, *dims, ranges, aType, why)))
      return failure();
    if (failed(planDynamicM(plan, root, ranges, why)))
      return failure();
  }
  FailureOr<MatmulOutput> out =
      planMatmulOutput(root, /*sameElementType=*/false, why);
  if (failed(out))
    return failure();
  Type outType = getElementTypeOrSelf(out->c.getType());
  if (!outType.isF32() && !outType.isF16() && !outType.isBF16() &&
      !outType.isInteger(32))
    return fail("the stored result is not f32, f16, bf16 or i32");
  // Without an epilogue, the accumulators are stored as they are (floats
  // rounded to the result type).
  if (out->epilogue.empty() && outType != plan.accType &&
      (!isa<FloatType>(outType) || !isa<FloatType>(plan.accType)))
    return fail("the result type differs from the accumulator type");
  plan.out = std::move(*out);
  FailureOr<ReductionInit> init = getReductionInit(root);
  if (failed(init))
    return fail("the initial value of C is neither a constant nor a buffer");
  plan.init = *init;
  if (plan.init.memRef &&
      !cast<MemRefType>(plan.init.memRef.getType()).getLayout().isIdentity())
    return fail("the initial value of C is not a row-major buffer");

  return plan;
}

/// Checks shared by every operand: a row-major buffer, i8 only
/// k-contiguous; sets whether rows allow 16-byte cp.async.
static LogicalResult checkOperand(OperandPlan &op, Value tensor, Type elemType,
                           StringRef name, std::string &why) {
  op.mem = bindingMemRef(tensor);
  if (!op.mem) {
    auto constant = tensor.getDefiningOp<arith::ConstantOp>();
    op.constant = constant
                      ? dyn_cast<DenseElementsAttr>(constant.getValue())
                      : DenseElementsAttr();
    if (!op.constant) {
      why = ("operand " + name +
             " is computed in the kernel, not read from a buffer or a "
             "constant")
                .str();
      return failure();
    }
  }
  if (op.mem &&
      !cast<MemRefType>(op.mem.getType()).getLayout().isIdentity()) {
    why = ("operand " + name + " is not a row-major buffer").str();
    return failure();
  }
  // ldmatrix.trans moves 16-bit values: 8-bit operands must be
  // k-contiguous (32-bit ones are read with scalar loads instead).
  if (!op.kContiguous && elemType.isInteger(8)) {
    why = ("i8 operand " + name +
           " is not k-contiguous (ldmatrix cannot transpose 8-bit values)")
              .str();
    return failure();
  }
  int64_t chunk = kMatmulChunkBytes / (elemType.getIntOrFloatBitWidth() / 8);
  op.async = (op.kContiguous ? op.kExtent : op.mnExtent) % chunk == 0;
  return success();
}

/// A and B of a matmul-like contraction, indexed through its maps.
static LogicalResult planMatmulOperands(MatmulPlan &plan, linalg::LinalgOp root,
                                 const linalg::ContractionDimensions &dims,
                                 ArrayRef<int64_t> ranges, Type aType,
                                 std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  plan.mLoop = dims.m[0];
  plan.nLoop = dims.n[0];
  unsigned kLoop = dims.k[0];
  if (!dims.batch.empty())
    plan.batchLoop = dims.batch[0];
  plan.m = ranges[plan.mLoop];
  plan.n = ranges[plan.nLoop];
  plan.k = ranges[kLoop];
  if (plan.batchLoop)
    plan.batch = ranges[*plan.batchLoop];

  SmallVector<AffineMap> maps = root.getIndexingMapsArray();
  for (AffineMap map : maps)
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return fail("an indexing map is not a permutation of the loops");
  auto lastLoop = [](AffineMap map) {
    return cast<AffineDimExpr>(map.getResults().back()).getPosition();
  };
  auto setUp = [&](OperandPlan &op, Value tensor, AffineMap map,
                   unsigned mnLoop, StringRef name) -> LogicalResult {
    op.map = map;
    op.mnLoop = mnLoop;
    op.kLoop = kLoop;
    op.mnExtent = ranges[mnLoop];
    op.kExtent = ranges[kLoop];
    unsigned last = lastLoop(map);
    if (last != kLoop && last != mnLoop)
      return fail("operand " + name + "'s contiguous index is the batch loop");
    op.kContiguous = last == kLoop;
    return checkOperand(op, tensor, aType, name, why);
  };
  if (failed(setUp(plan.a, root.getDpsInputs()[0], maps[0], plan.mLoop,
                   "A")) ||
      failed(setUp(plan.b, root.getDpsInputs()[1], maps[1], plan.nLoop, "B")))
    return failure();
  plan.cMap = maps[2];
  if (lastLoop(plan.cMap) != plan.nLoop)
    return fail("the result's contiguous index is not N (a transposed "
                "result)");
  return success();
}

/// A dynamic extent is allowed along M only, for a k-contiguous A with no
/// batch loop: rows of A and C stay whole, so every stride, the grid's
/// columns and the tile order are static. Sets the M strategies plan for.
static LogicalResult planDynamicM(MatmulPlan &plan, linalg::LinalgOp root,
                                  ArrayRef<int64_t> ranges,
                                  std::string &why) {
  plan.assumedM = plan.m;
  for (auto [loop, range] : llvm::enumerate(ranges))
    if (ShapedType::isDynamic(range) && loop != plan.mLoop) {
      why = "a dynamic extent along a loop other than M (tensor-core "
            "matmuls take dynamic M only)";
      return failure();
    }
  if (!plan.dynamicM())
    return success();
  if (!plan.a.mem || !plan.a.kContiguous || plan.batchLoop) {
    why = "dynamic M needs a k-contiguous A read from a buffer and no batch "
          "loop";
    return failure();
  }
  unsigned aDim = *plan.a.map.getResultPosition(
      getAffineDimExpr(plan.mLoop, root.getContext()));
  plan.assumedM = assumedExtent(root.getDpsInputs()[0], aDim);
  return success();
}

/// A conv_2d_nhwc_hwcf as an implicit GEMM: A = the input read as
/// [N*OH*OW, KH*KW*C] (im2col, never materialized), B = the filter viewed
/// as [KH*KW*C, F], C = the output viewed as [N*OH*OW, F].
static LogicalResult planConvOperands(MatmulPlan &plan,
                               linalg::Conv2DNhwcHwcfOp conv, Type elemType,
                               std::string &why) {
  auto input = cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto output = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  ConvGeometry g;
  g.outH = output.getDimSize(1);
  g.outW = output.getDimSize(2);
  g.kernelW = filter.getDimSize(1);
  g.channels = input.getDimSize(3);
  SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());
  g.strideH = strides[0];
  g.strideW = strides[1];
  g.dilationH = dilations[0];
  g.dilationW = dilations[1];
  // A 16-byte chunk of K must not cross from one filter tap to the next.
  int64_t chunk = kMatmulChunkBytes / (elemType.getIntOrFloatBitWidth() / 8);
  if (g.channels % chunk != 0) {
    why = "implicit GEMM needs input channels in multiples of " +
          std::to_string(chunk) + " (16 bytes); the input has " +
          std::to_string(g.channels);
    return failure();
  }
  plan.conv = g;
  plan.m = output.getDimSize(0) * g.outH * g.outW;
  plan.assumedM = plan.m;
  plan.n = output.getDimSize(3);
  plan.k = filter.getDimSize(0) * g.kernelW * g.channels;
  plan.a.indexing = Indexing::ConvInput;
  plan.a.kContiguous = true;
  plan.a.mnExtent = plan.m;
  plan.a.kExtent = plan.k;
  plan.b.indexing = Indexing::ConvFilter;
  plan.b.kContiguous = false;
  plan.b.mnExtent = plan.n;
  plan.b.kExtent = plan.k;
  return failure(
      failed(checkOperand(plan.a, conv.getInputs()[0], elemType, "input",
                          why)) ||
      failed(checkOperand(plan.b, conv.getInputs()[1], elemType, "filter",
                          why)));
}

Value mlir::tessel::matmulRows(OpBuilder &b, Location loc,
                               const MatmulPlan &plan) {
  if (!plan.dynamicM())
    return arith::ConstantIndexOp::create(b, loc, plan.m);
  unsigned cDim = *plan.cMap.getResultPosition(
      getAffineDimExpr(plan.mLoop, b.getContext()));
  return memref::DimOp::create(b, loc, plan.out.c, cDim);
}

FailureOr<AffineExpr> mlir::tessel::dynamicRowTiles(const MatmulPlan &plan,
                                                    Operation *root,
                                                    int64_t blockM) {
  std::optional<int64_t> pc = pushConstantOfDim(plan.a.mem, 0);
  if (!pc)
    return root->emitError("dynamic M of A is not a push constant of the "
                           "kernel");
  return getAffineSymbolExpr(*pc, root->getContext()).ceilDiv(blockM);
}

/// Rows of tiles (along M) in a group of the grouped raster order.
static constexpr int64_t kRasterGroup = 8;

bool mlir::tessel::usesGroupedRaster(int64_t gridM, int64_t gridN) {
  return gridM > kRasterGroup && gridN > 1;
}

std::pair<Value, Value> mlir::tessel::groupedRasterTile(OpBuilder &b,
                                                        Location loc,
                                                        Value id,
                                                        int64_t gridM,
                                                        int64_t gridN) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value groupTiles = index(kRasterGroup * gridN);
  Value firstM = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, id, groupTiles),
      index(kRasterGroup));
  Value inGroup = arith::RemUIOp::create(b, loc, id, groupTiles);
  // Row and column in a group of `rows` rows, by a constant: a division
  // by a value in a register is a subroutine call on NVIDIA GPUs, and
  // ptxas (CUDA 13) scheduled accumulator reads of the wgmma kernel's
  // epilogue above the wgmma wait when such a call sat between them
  // (wrong f16 results, 2026-11-28).
  auto place = [&](int64_t rows) -> std::pair<Value, Value> {
    return {arith::RemUIOp::create(b, loc, inGroup, index(rows)),
            arith::DivUIOp::create(b, loc, inGroup, index(rows))};
  };
  auto [row, col] = place(kRasterGroup);
  // The last group may have fewer rows.
  if (int64_t lastRows = gridM % kRasterGroup) {
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         firstM,
                                         index(gridM - lastRows));
    auto [lastRow, lastCol] = place(lastRows);
    row = arith::SelectOp::create(b, loc, isLast, lastRow, row);
    col = arith::SelectOp::create(b, loc, isLast, lastCol, col);
  }
  return {arith::AddIOp::create(b, loc, firstM, row), col};
}

std::pair<Value, Value> mlir::tessel::groupedRasterTile(OpBuilder &b,
                                                        Location loc,
                                                        Value id, Value gridM,
                                                        int64_t gridN) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto div = [&](Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, index(y)).getResult();
  };
  auto rem = [&](Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, index(y)).getResult();
  };
  int64_t groupTiles = kRasterGroup * gridN;
  Value firstM =
      arith::MulIOp::create(b, loc, div(id, groupTiles), index(kRasterGroup));
  Value inGroup = rem(id, groupTiles);
  // A full group: column by column; the last one (fewer than 8 rows left):
  // row by row, whose divisions are by gridN.
  Value isLast = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt,
      arith::AddIOp::create(b, loc, firstM, index(kRasterGroup)), gridM);
  Value row = arith::SelectOp::create(b, loc, isLast, div(inGroup, gridN),
                                      rem(inGroup, kRasterGroup));
  Value col = arith::SelectOp::create(b, loc, isLast, rem(inGroup, gridN),
                                      div(inGroup, kRasterGroup));
  return {arith::AddIOp::create(b, loc, firstM, row), col};
}
