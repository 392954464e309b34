//===- TesselPrimitiveOps.cpp - scan, gather, scatter, sort, ... -*- C++ -*-===//
//
// Verifiers, memory effects, tiling and bufferization of the primitive ops.
// Tiling is described once per op as a map from each operand dimension to
// a loop of the op's iteration domain (or to none: the operand is taken
// whole along that dimension); every interface method derives from it.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// How an op's operands walk its iteration domain.
struct TilingMap {
  SmallVector<int64_t> domain;                 // loop ranges
  /// The shaped operand (index into shapedOperands) whose dimensions are
  /// the loops, for dynamic sizes once tiled.
  unsigned domainOperand = 0;
  SmallVector<utils::IteratorType> iterators;  // per loop
  /// Per shaped operand (in operand order): per dimension the loop it
  /// follows, or -1 when it is taken whole.
  SmallVector<SmallVector<int64_t>> operandLoops;
};

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

SmallVector<int64_t> identityLoops(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// Loops 0..rank-1 without `dim`.
SmallVector<int64_t> loopsWithout(int64_t rank, int64_t dim) {
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      loops.push_back(d);
  return loops;
}

SmallVector<utils::IteratorType> iteratorsWithReduction(int64_t rank,
                                                        int64_t dim) {
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  if (dim >= 0 && dim < rank)
    iters[dim] = utils::IteratorType::reduction;
  return iters;
}

TilingMap tilingMapOf(Operation *op) {
  TilingMap m;
  if (auto scan = dyn_cast<ScanOp>(op)) {
    int64_t rank = scan.getInputType().getRank(), dim = scan.getDimension();
    m.domain = llvm::to_vector(shapeOf(scan.getInput()));
    m.iterators = iteratorsWithReduction(rank, dim);
    m.operandLoops = {identityLoops(rank)};
    if (scan.getInputs().size() == 2)
      m.operandLoops.push_back({-1}); // the look-back workspace, whole
    m.operandLoops.push_back(identityLoops(rank));
    m.operandLoops.push_back(loopsWithout(rank, dim));
  } else if (auto gather = dyn_cast<GatherOp>(op)) {
    int64_t outRank = shapeOf(gather.getOutput()).size();
    int64_t batch = gather.getBatchRank();
    m.domain = llvm::to_vector(shapeOf(gather.getOutput()));
    m.iterators.assign(outRank, utils::IteratorType::parallel);
    // Source dimensions not indexed follow the output's slice loops.
    SmallVector<int64_t> source;
    int64_t next = batch;
    ArrayRef<int64_t> map = gather.getDimensionMap();
    for (int64_t d = 0, e = shapeOf(gather.getSource()).size(); d < e; ++d)
      source.push_back(llvm::is_contained(map, d) ? -1 : next++);
    SmallVector<int64_t> indices = identityLoops(batch);
    if (static_cast<int64_t>(shapeOf(gather.getIndices()).size()) > batch)
      indices.push_back(-1);
    m.operandLoops = {source, indices, identityLoops(outRank)};
    m.domainOperand = 2;
  } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
    int64_t updRank = shapeOf(scatter.getUpdates()).size();
    int64_t batch = scatter.getBatchRank();
    m.domain = llvm::to_vector(shapeOf(scatter.getUpdates()));
    // Batch loops may hit the same element twice: never split them.
    m.iterators.assign(updRank, utils::IteratorType::parallel);
    for (int64_t d = 0; d < batch; ++d)
      m.iterators[d] = utils::IteratorType::reduction;
    SmallVector<int64_t> indices = identityLoops(batch);
    if (static_cast<int64_t>(shapeOf(scatter.getIndices()).size()) > batch)
      indices.push_back(-1);
    SmallVector<int64_t> original;
    int64_t next = batch;
    ArrayRef<int64_t> map = scatter.getDimensionMap();
    for (int64_t d = 0, e = shapeOf(scatter.getOriginal()).size(); d < e; ++d)
      original.push_back(llvm::is_contained(map, d) ? -1 : next++);
    m.operandLoops = {identityLoops(updRank), indices};
    if (scatter.getInputs().size() == 3)
      m.operandLoops.push_back({-1}); // the grid-barrier workspace, whole
    m.operandLoops.push_back(original);
  } else if (auto sort = dyn_cast<SortOp>(op)) {
    int64_t rank = sort.getOperandType().getRank();
    m.domain = llvm::to_vector(sort.getOperandType().getShape());
    m.iterators = iteratorsWithReduction(rank, sort.getDimension());
    // A radix sort's workspaces (scratch per operand, then counts), whole.
    for (size_t i = 0; i < sort.getInputs().size(); ++i)
      m.operandLoops.push_back(SmallVector<int64_t>(
          shapeOf(sort.getInputs()[i]).size(), -1));
    m.domainOperand = sort.getInputs().size();
    for (size_t i = 0; i < sort.getOutputs().size(); ++i)
      m.operandLoops.push_back(identityLoops(rank));
  } else if (auto topk = dyn_cast<TopkOp>(op)) {
    int64_t rank = shapeOf(topk.getValues()).size(), dim = topk.getDimension();
    m.domain = llvm::to_vector(shapeOf(topk.getValues()));
    m.iterators = iteratorsWithReduction(rank, dim);
    SmallVector<int64_t> out = identityLoops(rank);
    if (dim >= 0 && dim < rank)
      out[dim] = -1;
    for (size_t i = 0; i < topk.getInputs().size(); ++i)
      m.operandLoops.push_back(identityLoops(rank));
    m.operandLoops.push_back(out);
    m.operandLoops.push_back(out);
  } else if (auto arg = dyn_cast<ArgCompareOp>(op)) {
    int64_t rank = shapeOf(arg.getInput()).size(), dim = arg.getDimension();
    m.domain = llvm::to_vector(shapeOf(arg.getInput()));
    m.iterators = iteratorsWithReduction(rank, dim);
    m.operandLoops = {identityLoops(rank), loopsWithout(rank, dim),
                      loopsWithout(rank, dim)};
  }
  return m;
}

/// The shaped operands of a primitive op, in the order of TilingMap.
SmallVector<OpOperand *> shapedOperands(Operation *op) {
  SmallVector<OpOperand *> operands;
  for (OpOperand &operand : op->getOpOperands())
    if (isa<ShapedType>(operand.get().getType()))
      operands.push_back(&operand);
  return operands;
}

/// Offsets and sizes of operand `loops` for the domain tile (offsets, sizes).
void operandTile(OpBuilder &b, Value operand, ArrayRef<int64_t> loops,
                 ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                 SmallVectorImpl<OpFoldResult> &outOffsets,
                 SmallVectorImpl<OpFoldResult> &outSizes) {
  ArrayRef<int64_t> shape = shapeOf(operand);
  for (auto [d, loop] : llvm::enumerate(loops)) {
    if (loop < 0) {
      outOffsets.push_back(b.getIndexAttr(0));
      outSizes.push_back(
          !ShapedType::isDynamic(shape[d])
              ? OpFoldResult(b.getIndexAttr(shape[d]))
              : (isa<RankedTensorType>(operand.getType())
                     ? tensor::getMixedSize(b, operand.getLoc(), operand, d)
                     : memref::getMixedSize(b, operand.getLoc(), operand, d)));
    } else {
      outOffsets.push_back(offsets[loop]);
      outSizes.push_back(sizes[loop]);
    }
  }
}

SmallVector<Range> iterationDomainOf(Operation *op, OpBuilder &b) {
  TilingMap map = tilingMapOf(op);
  Value source = shapedOperands(op)[map.domainOperand]->get();
  SmallVector<Range> ranges;
  for (auto [d, size] : llvm::enumerate(map.domain)) {
    OpFoldResult extent = b.getIndexAttr(size);
    if (ShapedType::isDynamic(size))
      extent = isa<RankedTensorType>(source.getType())
                   ? tensor::getMixedSize(b, op->getLoc(), source, d)
                   : memref::getMixedSize(b, op->getLoc(), source, d);
    ranges.push_back(Range{b.getIndexAttr(0), extent, b.getIndexAttr(1)});
  }
  return ranges;
}

FailureOr<TilingResult> tiledImplementationOf(Operation *op, OpBuilder &b,
                                              ArrayRef<OpFoldResult> offsets,
                                              ArrayRef<OpFoldResult> sizes) {
  TilingMap map = tilingMapOf(op);
  Location loc = op->getLoc();
  TilingResult result;
  SmallVector<Value> operands(op->getOperands());
  SmallVector<Type> resultTypes;
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (auto [operand, loops] :
       llvm::zip_equal(shapedOperands(op), map.operandLoops)) {
    SmallVector<OpFoldResult> tileOffsets, tileSizes;
    operandTile(b, operand->get(), loops, offsets, sizes, tileOffsets,
                tileSizes);
    SmallVector<OpFoldResult> strides(tileOffsets.size(), b.getIndexAttr(1));
    Value slice;
    if (isa<RankedTensorType>(operand->get().getType()))
      slice = tensor::ExtractSliceOp::create(b, loc, operand->get(),
                                             tileOffsets, tileSizes, strides);
    else
      slice = memref::SubViewOp::create(b, loc, operand->get(), tileOffsets,
                                        tileSizes, strides);
    result.generatedSlices.push_back(slice.getDefiningOp());
    operands[operand->getOperandNumber()] = slice;
    if (dps.isDpsInit(operand) && isa<RankedTensorType>(slice.getType()))
      resultTypes.push_back(slice.getType());
  }
  Operation *tiled = mlir::clone(b, op, resultTypes, operands);
  result.tiledOps.push_back(tiled);
  llvm::append_range(result.tiledValues, tiled->getResults());
  return result;
}

LogicalResult resultTilePositionOf(Operation *op, OpBuilder &b,
                                   unsigned resultNumber,
                                   ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes,
                                   SmallVector<OpFoldResult> &resultOffsets,
                                   SmallVector<OpFoldResult> &resultSizes) {
  TilingMap map = tilingMapOf(op);
  auto dps = cast<DestinationStyleOpInterface>(op);
  OpOperand *init = dps.getDpsInitOperand(resultNumber);
  SmallVector<OpOperand *> operands = shapedOperands(op);
  auto it = llvm::find(operands, init);
  if (it == operands.end())
    return failure();
  operandTile(b, init->get(), map.operandLoops[it - operands.begin()],
              offsets, sizes, resultOffsets, resultSizes);
  return success();
}

void effectsOf(Operation *op,
               SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                   &effects) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    if (dps.isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

/// Whether the op reads the initial contents of init `operand`: gather and
/// topk outputs and a scan's output are written before being read; an
/// inclusive scan never reads its accumulator.
bool initIsRead(Operation *op, OpOperand &operand) {
  if (isa<GatherOp, TopkOp>(op))
    return false;
  if (auto scan = dyn_cast<ScanOp>(op))
    return &operand == &scan.getOutputsMutable()[1] && !scan.getInclusive();
  return true;
}

LogicalResult bufferizeOp(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<Value> results;
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<TensorType>(operand.get().getType())) {
      operands.push_back(operand.get());
      continue;
    }
    FailureOr<Value> buffer =
        bufferization::getBuffer(rewriter, operand.get(), options, state);
    if (failed(buffer))
      return failure();
    operands.push_back(*buffer);
    if (dps.isDpsInit(&operand))
      results.push_back(*buffer);
  }
  mlir::clone(rewriter, op, TypeRange{}, operands);
  bufferization::replaceOpWithBufferizedValues(rewriter, op, results);
  return success();
}

//===----------------------------------------------------------------------===//
// Verification helpers
//===----------------------------------------------------------------------===//

/// Checks operand counts, that shaped operands are ranked and static or
/// memrefs, and that results match the outputs (tensor semantics) or are
/// absent (buffer semantics).
LogicalResult verifyOperandsAndResults(Operation *op, ValueRange inputs,
                                       ValueRange outputs,
                                       ArrayRef<StringRef> inputNames,
                                       ArrayRef<StringRef> outputNames,
                                       size_t minInputs) {
  if (inputs.size() < minInputs || inputs.size() > inputNames.size())
    return op->emitOpError() << "expects " << minInputs
                             << (minInputs == inputNames.size()
                                     ? std::string()
                                     : " to " + std::to_string(inputNames.size()))
                             << " ins (" << llvm::join(inputNames, ", ")
                             << "), got " << inputs.size();
  if (outputs.size() != outputNames.size())
    return op->emitOpError() << "expects " << outputNames.size() << " outs ("
                             << llvm::join(outputNames, ", ") << "), got "
                             << outputs.size();
  bool tensors = false, memrefs = false;
  auto check = [&](Value v, StringRef name) -> LogicalResult {
    auto type = dyn_cast<ShapedType>(v.getType());
    if (!type || !type.hasRank())
      return op->emitOpError() << name << " must be a ranked tensor or memref, got "
                               << v.getType();
    tensors |= isa<TensorType>(type);
    memrefs |= isa<MemRefType>(type);
    return success();
  };
  for (auto [v, name] : llvm::zip(inputs, inputNames))
    if (failed(check(v, name)))
      return failure();
  for (auto [v, name] : llvm::zip(outputs, outputNames))
    if (failed(check(v, name)))
      return failure();
  if (tensors && memrefs)
    return op->emitOpError("mixes tensor and memref operands");
  if (memrefs && op->getNumResults() != 0)
    return op->emitOpError("on memrefs has no results");
  if (tensors) {
    if (op->getNumResults() != outputs.size())
      return op->emitOpError() << "expects one result per outs operand ("
                               << outputs.size() << "), got "
                               << op->getNumResults();
    for (auto [i, r] : llvm::enumerate(op->getResults()))
      if (r.getType() != outputs[i].getType())
        return op->emitOpError() << "result " << i << " type " << r.getType()
                                 << " does not match " << outputNames[i] << " "
                                 << outputs[i].getType();
  }
  return success();
}

Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

bool isIndexLike(Type t) { return t.isIndex() || t.isSignlessInteger(); }

/// Checks a region with `argTypes` arguments yielding one value of type
/// `yieldType`.
LogicalResult verifyRegion(Operation *op, Region &region,
                           ArrayRef<Type> argTypes, Type yieldType,
                           StringRef what) {
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError() << what << " region expects " << argTypes.size()
                             << " arguments, got " << block.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != argTypes[i])
      return op->emitOpError()
             << what << " region argument " << i << " has type "
             << arg.getType() << ", expected " << argTypes[i];
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0).getType() != yieldType)
    return op->emitOpError() << what
                             << " region must end in tessel.yield of one "
                             << yieldType;
  return success();
}

/// Rejects combiners that are obviously not associative: the yielded value
/// is a subtraction, division, remainder or power of the two arguments.
LogicalResult verifyAssociative(Operation *op, Region &region) {
  Block &block = region.front();
  Value yielded = block.getTerminator()->getOperand(0);
  Operation *def = yielded.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return success();
  if (!llvm::is_contained(block.getArguments(), def->getOperand(0)) ||
      !llvm::is_contained(block.getArguments(), def->getOperand(1)))
    return success();
  if (isa<arith::SubFOp, arith::SubIOp, arith::DivFOp, arith::DivSIOp,
          arith::DivUIOp, arith::RemFOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::FloorDivSIOp, arith::ShLIOp,
          arith::ShRSIOp, arith::ShRUIOp>(def))
    return op->emitOpError() << "combiner '" << def->getName()
                             << "' is not associative: a scan needs an "
                                "associative combiner (add, mul, min, max, "
                                "and, or, xor, ...)";
  return success();
}

LogicalResult verifyDimension(Operation *op, int64_t dim, int64_t rank,
                              StringRef operand) {
  if (dim < 0 || dim >= rank)
    return op->emitOpError() << "dimension " << dim << " is out of range for "
                             << operand << " of rank " << rank;
  return success();
}

/// Shape of `shape` without dimension `dim`.
SmallVector<int64_t> dropDim(ArrayRef<int64_t> shape, int64_t dim) {
  SmallVector<int64_t> out;
  for (auto [d, s] : llvm::enumerate(shape))
    if (static_cast<int64_t>(d) != dim)
      out.push_back(s);
  return out;
}

/// Whether two extents differ (a dynamic extent, left by tiling, matches
/// anything).
bool extentsDiffer(int64_t a, int64_t b) {
  return a != b && !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b);
}

bool shapesDiffer(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return true;
  for (auto [x, y] : llvm::zip(a, b))
    if (extentsDiffer(x, y))
      return true;
  return false;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s + "]";
}

/// Shared checks of gather and scatter: the dimension map, the index
/// tensor and the batch rank. `sliced` is the operand indexed (gather's
/// source, scatter's original), `other` the one with [batch..., slice...]
/// (gather's output, scatter's updates).
FailureOr<int64_t> verifyIndexedAccess(Operation *op, ArrayRef<int64_t> map,
                                       Value sliced, StringRef slicedName,
                                       Value indices, Value other,
                                       StringRef otherName) {
  ArrayRef<int64_t> slicedShape = shapeOf(sliced);
  int64_t rank = slicedShape.size();
  if (map.empty())
    return op->emitOpError("dimension_map must not be empty");
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t d : map) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << "dimension_map entry " << d
                               << " is out of range for " << slicedName
                               << " of rank " << rank;
    if (!seen.insert(d).second)
      return op->emitOpError() << "dimension_map has " << d << " twice";
  }
  if (!isIndexLike(elementTypeOf(indices)))
    return op->emitOpError() << "indices must have integer or index elements, got "
                             << elementTypeOf(indices);
  int64_t depth = map.size();
  ArrayRef<int64_t> otherShape = shapeOf(other);
  int64_t batch = static_cast<int64_t>(otherShape.size()) - (rank - depth);
  ArrayRef<int64_t> idxShape = shapeOf(indices);
  int64_t idxRank = idxShape.size();
  bool explicitDepth =
      idxRank > 0 && idxRank == batch + 1 && idxShape.back() == depth;
  bool implicitDepth = depth == 1 && idxRank == batch;
  if (batch < 0 || (!explicitDepth && !implicitDepth))
    return op->emitOpError()
           << "indices " << indices.getType() << " do not match "
           << otherName << " " << other.getType()
           << ": expected indices [batch..., " << depth << "] with "
           << otherName << " [batch..., " << slicedName
           << " dimensions not in dimension_map]";
  for (int64_t d = 0; d < batch; ++d)
    if (extentsDiffer(idxShape[d], otherShape[d]))
      return op->emitOpError() << "batch dimension " << d << " of indices ("
                               << idxShape[d] << ") differs from " << otherName
                               << " (" << otherShape[d] << ")";
  int64_t k = batch;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(map, d))
      continue;
    if (extentsDiffer(otherShape[k], slicedShape[d]))
      return op->emitOpError()
             << otherName << " dimension " << k << " (" << otherShape[k]
             << ") differs from " << slicedName << " dimension " << d << " ("
             << slicedShape[d] << ")";
    ++k;
  }
  if (elementTypeOf(sliced) != elementTypeOf(other))
    return op->emitOpError() << otherName << " element type "
                             << elementTypeOf(other) << " differs from "
                             << slicedName << " " << elementTypeOf(sliced);
  return batch;
}

} // namespace

bool mlir::tessel::isPrimitiveOp(Operation *op) {
  return isa<ScanOp, GatherOp, ScatterOp, SortOp, TopkOp, ArgCompareOp>(op);
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  if (failed(verifyOperandsAndResults(*this, getInputs(), getOutputs(),
                                      {"input", "workspace"},
                                      {"output", "accumulator"}, 1)))
    return failure();
  if (getInputs().size() == 2) {
    auto ws = cast<ShapedType>(getInputs()[1].getType());
    if (ws.getRank() != 1 || !ws.getElementType().isSignlessInteger(64))
      return emitOpError() << "workspace (the look-back status words that "
                              "tessel-add-primitive-workspaces adds) must be a 1-D "
                              "i64 tensor, got "
                           << ws;
  }
  int64_t rank = getInputType().getRank();
  if (failed(verifyDimension(*this, getDimension(), rank, "input")))
    return failure();
  Type e = elementTypeOf(getInput());
  if (shapesDiffer(shapeOf(getOutput()), shapeOf(getInput())) ||
      elementTypeOf(getOutput()) != e)
    return emitOpError() << "output " << getOutput().getType()
                         << " must have the input's shape and element type ("
                         << getInput().getType() << ")";
  SmallVector<int64_t> accShape = dropDim(shapeOf(getInput()), getDimension());
  if (shapesDiffer(accShape, shapeOf(getAccumulator())) ||
      elementTypeOf(getAccumulator()) != e)
    return emitOpError() << "accumulator " << getAccumulator().getType()
                         << " must be the input's shape without dimension "
                         << getDimension() << " (" << shapeString(accShape)
                         << ") of " << e;
  if (failed(verifyRegion(*this, getRegion(), {e, e}, e, "combiner")))
    return failure();
  return verifyAssociative(*this, getRegion());
}

int64_t GatherOp::getBatchRank() {
  return static_cast<int64_t>(shapeOf(getOutput()).size()) -
         (static_cast<int64_t>(shapeOf(getSource()).size()) -
          static_cast<int64_t>(getDimensionMap().size()));
}

LogicalResult GatherOp::verify() {
  if (failed(verifyOperandsAndResults(*this, getInputs(), getOutputs(),
                                      {"source", "indices"}, {"output"}, 2)))
    return failure();
  return verifyIndexedAccess(*this, getDimensionMap(), getSource(), "source",
                             getIndices(), getOutput(), "output");
}

int64_t ScatterOp::getBatchRank() {
  return static_cast<int64_t>(shapeOf(getUpdates()).size()) -
         (static_cast<int64_t>(shapeOf(getOriginal()).size()) -
          static_cast<int64_t>(getDimensionMap().size()));
}

LogicalResult ScatterOp::verify() {
  if (failed(verifyOperandsAndResults(*this, getInputs(), getOutputs(),
                                      {"updates", "indices", "workspace"},
                                      {"original"}, 2)))
    return failure();
  if (getInputs().size() == 3) {
    auto ws = cast<ShapedType>(getInputs()[2].getType());
    if (ws.getRank() != 1 || !ws.getElementType().isSignlessInteger(64))
      return emitOpError() << "workspace (the grid-barrier counter that "
                              "tessel-add-primitive-workspaces adds) must be "
                              "a 1-D i64 tensor, got "
                           << ws;
  }
  if (failed(verifyIndexedAccess(*this, getDimensionMap(), getOriginal(),
                                 "original", getIndices(), getUpdates(),
                                 "updates")))
    return failure();
  Type e = elementTypeOf(getOriginal());
  return verifyRegion(*this, getRegion(), {e, e}, e, "combiner");
}

LogicalResult SortOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expects at least one outs operand");
  // ins are a radix sort's workspaces (tessel-add-primitive-workspaces):
  // a 1-D scratch buffer per operand, then 1-D i32 counts.
  size_t operands = getOutputs().size();
  if (!getInputs().empty() && getInputs().size() != operands + 1)
    return emitOpError("takes no ins but radix-sort workspaces: one scratch "
                       "buffer per outs operand, then i32 counts (")
           << getInputs().size() << " ins for " << operands << " outs)";
  SmallVector<std::string> storage;
  for (size_t i = 0; i < operands; ++i)
    storage.push_back("operand " + std::to_string(i));
  for (size_t i = 0; i < operands && !getInputs().empty(); ++i)
    storage.push_back("scratch " + std::to_string(i));
  if (!getInputs().empty())
    storage.push_back("counts");
  SmallVector<StringRef> names(storage.begin(), storage.end());
  ArrayRef<StringRef> outNames = ArrayRef<StringRef>(names).take_front(operands);
  ArrayRef<StringRef> inNames = ArrayRef<StringRef>(names).drop_front(operands);
  if (failed(verifyOperandsAndResults(*this, getInputs(), getOutputs(), inNames,
                                      outNames, inNames.size())))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(getOutputs()[0]);
  if (failed(verifyDimension(*this, getDimension(), shape.size(), "operand 0")))
    return failure();
  SmallVector<Type> argTypes;
  for (auto [i, v] : llvm::enumerate(getOutputs())) {
    if (shapesDiffer(shapeOf(v), shape))
      return emitOpError() << "operand " << i << " " << v.getType()
                           << " must have the shape of operand 0 "
                           << getOutputs()[0].getType();
    argTypes.push_back(elementTypeOf(v));
    argTypes.push_back(elementTypeOf(v));
  }
  for (auto [i, ws] : llvm::enumerate(getInputs())) {
    bool counts = i == operands;
    Type want = counts ? Type(IntegerType::get(getContext(), 32))
                       : elementTypeOf(getOutputs()[i]);
    if (shapeOf(ws).size() != 1 || elementTypeOf(ws) != want ||
        (!counts && shapesDiffer(shapeOf(ws), shapeOf(getOutputs()[i]))))
      return emitOpError() << inNames[i] << " " << ws.getType() << " must be "
                           << (counts ? "1-D i32"
                                      : "shaped and typed like operand " +
                                            std::to_string(i));
  }
  if (!getInputs().empty() && shape.size() != 1)
    return emitOpError("radix-sort workspaces need a 1-D sort");
  return verifyRegion(*this, getRegion(), argTypes,
                      IntegerType::get(getContext(), 1), "comparator");
}

LogicalResult TopkOp::verify() {
  if (failed(verifyOperandsAndResults(
          *this, getInputs(), getOutputs(), {"values", "indices"},
          {"output values", "output indices"}, 1)))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(getValues());
  int64_t dim = getDimension();
  if (failed(verifyDimension(*this, dim, shape.size(), "values")))
    return failure();
  if (getInputs().size() == 2) {
    if (shapesDiffer(shapeOf(getInputs()[1]), shape))
      return emitOpError() << "indices " << getInputs()[1].getType()
                           << " must have the shape of values "
                           << getValues().getType();
    if (!isIndexLike(elementTypeOf(getInputs()[1])))
      return emitOpError() << "indices must have integer elements, got "
                           << elementTypeOf(getInputs()[1]);
  }
  ArrayRef<int64_t> outShape = shapeOf(getOutputValues());
  if (outShape.size() != shape.size() ||
      shapesDiffer(shapeOf(getOutputIndices()), outShape))
    return emitOpError() << "output values " << getOutputValues().getType()
                         << " and output indices "
                         << getOutputIndices().getType()
                         << " must have one shape, of the values' rank";
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d == dim) {
      if (!ShapedType::isDynamic(shape[d]) && outShape[d] > shape[d])
        return emitOpError() << "k = " << outShape[d]
                             << " exceeds the size of dimension " << d
                             << " of values (" << shape[d] << ")";
      continue;
    }
    if (extentsDiffer(outShape[d], shape[d]))
      return emitOpError() << "output dimension " << d << " (" << outShape[d]
                           << ") differs from values (" << shape[d] << ")";
  }
  Type e = elementTypeOf(getValues());
  if (elementTypeOf(getOutputValues()) != e)
    return emitOpError() << "output values must have element type " << e;
  if (!isIndexLike(elementTypeOf(getOutputIndices())))
    return emitOpError() << "output indices must have integer elements, got "
                         << elementTypeOf(getOutputIndices());
  return verifyRegion(*this, getRegion(), {e, e},
                      IntegerType::get(getContext(), 1), "comparator");
}

LogicalResult ArgCompareOp::verify() {
  if (failed(verifyOperandsAndResults(*this, getInputs(), getOutputs(),
                                      {"input"}, {"value", "index"}, 1)))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(getInput());
  if (failed(verifyDimension(*this, getDimension(), shape.size(), "input")))
    return failure();
  SmallVector<int64_t> outShape = dropDim(shape, getDimension());
  Type e = elementTypeOf(getInput());
  if (shapesDiffer(shapeOf(getOutputValue()), outShape) ||
      shapesDiffer(shapeOf(getOutputIndex()), outShape))
    return emitOpError() << "outs must have the input's shape without "
                         << "dimension " << getDimension() << " ("
                         << shapeString(outShape) << ")";
  if (elementTypeOf(getOutputValue()) != e)
    return emitOpError() << "output value must have element type " << e;
  if (!isIndexLike(elementTypeOf(getOutputIndex())))
    return emitOpError() << "output index must have integer or index "
                            "elements, got "
                         << elementTypeOf(getOutputIndex());
  return verifyRegion(*this, getRegion(), {e, e},
                      IntegerType::get(getContext(), 1), "comparator");
}

//===----------------------------------------------------------------------===//
// Interfaces, the same for every primitive
//===----------------------------------------------------------------------===//

#define TESSEL_PRIMITIVE_INTERFACES(OP)                                        \
  SmallVector<utils::IteratorType> OP::getLoopIteratorTypes() {                \
    return tilingMapOf(*this).iterators;                                       \
  }                                                                            \
  SmallVector<Range> OP::getIterationDomain(OpBuilder &b) {                    \
    return iterationDomainOf(*this, b);                                        \
  }                                                                            \
  FailureOr<TilingResult> OP::getTiledImplementation(                          \
      OpBuilder &b, ArrayRef<OpFoldResult> offsets,                            \
      ArrayRef<OpFoldResult> sizes) {                                          \
    return tiledImplementationOf(*this, b, offsets, sizes);                    \
  }                                                                            \
  LogicalResult OP::getResultTilePosition(                                     \
      OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,     \
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,  \
      SmallVector<OpFoldResult> &resultSizes) {                                \
    return resultTilePositionOf(*this, b, resultNumber, offsets, sizes,        \
                                resultOffsets, resultSizes);                   \
  }                                                                            \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    effectsOf(*this, effects);                                                 \
  }                                                                            \
  bool OP::bufferizesToMemoryRead(OpOperand &operand,                         \
                                  const bufferization::AnalysisState &) {      \
    return !isDpsInit(&operand) || initIsRead(*this, operand);                 \
  }                                                                            \
  bool OP::bufferizesToMemoryWrite(OpOperand &operand,                         \
                                   const bufferization::AnalysisState &) {     \
    return isDpsInit(&operand);                                                \
  }                                                                            \
  bufferization::AliasingValueList OP::getAliasingValues(                      \
      OpOperand &operand, const bufferization::AnalysisState &) {              \
    if (!isDpsInit(&operand))                                                  \
      return {};                                                               \
    return {{getTiedOpResult(&operand),                                        \
             bufferization::BufferRelation::Equivalent}};                      \
  }                                                                            \
  LogicalResult OP::bufferize(RewriterBase &rewriter,                          \
                              const bufferization::BufferizationOptions &o,    \
                              bufferization::BufferizationState &state) {      \
    return bufferizeOp(*this, rewriter, o, state);                             \
  }

TESSEL_PRIMITIVE_INTERFACES(ScanOp)
TESSEL_PRIMITIVE_INTERFACES(GatherOp)
TESSEL_PRIMITIVE_INTERFACES(ScatterOp)
TESSEL_PRIMITIVE_INTERFACES(SortOp)
TESSEL_PRIMITIVE_INTERFACES(TopkOp)
TESSEL_PRIMITIVE_INTERFACES(ArgCompareOp)

#undef TESSEL_PRIMITIVE_INTERFACES
