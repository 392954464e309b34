//===- TesselAttentionOp.cpp - tessel.attention ----------------*- C++ -*-===//
//
// Assembly format, loop roles and verifier of tessel.attention.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tessel;

//===----------------------------------------------------------------------===//
// Assembly: `{indexing_maps = [...]} ins(%q, %k, %v, %scale[, %mask] : ...)
// outs(%o : ...) region -> type`, IREE's LinalgExt attention format.
//===----------------------------------------------------------------------===//

ParseResult AttentionOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SmallVector<OpAsmParser::UnresolvedOperand> ins, outs;
  SmallVector<Type> inTypes, outTypes;
  llvm::SMLoc insLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("ins") || parser.parseLParen() ||
      parser.parseOperandList(ins) || parser.parseColonTypeList(inTypes) ||
      parser.parseRParen())
    return failure();
  if (ins.size() != 4 && ins.size() != 5)
    return parser.emitError(insLoc)
           << "expected 4 or 5 inputs (query, key, value, scale[, mask]), got "
           << ins.size();
  llvm::SMLoc outsLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("outs") || parser.parseLParen() ||
      parser.parseOperandList(outs) || parser.parseColonTypeList(outTypes) ||
      parser.parseRParen())
    return failure();
  if (outs.size() != 1)
    return parser.emitError(outsLoc) << "expected one output, got "
                                     << outs.size();
  if (parser.resolveOperands(ins, inTypes, insLoc, result.operands) ||
      parser.resolveOperands(outs, outTypes, outsLoc, result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  AttentionOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  Type resultType;
  if (parser.parseArrow() || parser.parseType(resultType))
    return failure();
  result.addTypes(resultType);
  return success();
}

void AttentionOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " ins(";
  SmallVector<Value> ins = {getQuery(), getKey(), getValue(), getScale()};
  if (getMask())
    ins.push_back(getMask());
  p << ins << " : ";
  llvm::interleaveComma(ins, p, [&](Value v) { p << v.getType(); });
  p << ") outs(" << getOutput() << " : " << getOutput().getType() << ") ";
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
  p << " -> " << getResult().getType();
}

//===----------------------------------------------------------------------===//
// Loop roles
//===----------------------------------------------------------------------===//

FailureOr<AttentionOp::Dims> AttentionOp::getDims() {
  SmallVector<AffineMap> maps = getIndexingMapsArray();
  if (maps.empty())
    return failure();
  unsigned numLoops = maps[0].getNumDims();
  auto uses = [&](AffineMap map, unsigned d) {
    return map.getResultPosition(getAffineDimExpr(d, getContext()))
        .has_value();
  };
  Dims dims;
  for (unsigned d = 0; d < numLoops; ++d) {
    bool q = uses(getQueryMap(), d), k = uses(getKeyMap(), d),
         v = uses(getValueMap(), d), o = uses(getOutputMap(), d);
    if (q && k && v && o)
      dims.batch.push_back(d);
    else if (q && o && !k && !v)
      dims.m.push_back(d);
    else if (q && k && !v && !o)
      dims.k1.push_back(d);
    else if (k && v && !q && !o)
      dims.k2.push_back(d);
    else if (v && o && !q && !k)
      dims.n.push_back(d);
    else
      return failure();
  }
  return dims;
}

SmallVector<int64_t> AttentionOp::getStaticLoopRanges() {
  SmallVector<AffineMap> maps = getIndexingMapsArray();
  SmallVector<int64_t> ranges(maps[0].getNumDims(), ShapedType::kDynamic);
  SmallVector<Value> shaped = {getQuery(), getKey(), getValue(), getOutput()};
  SmallVector<AffineMap> shapedMaps = {getQueryMap(), getKeyMap(),
                                       getValueMap(), getOutputMap()};
  for (auto [value, map] : llvm::zip(shaped, shapedMaps)) {
    ArrayRef<int64_t> shape = cast<ShapedType>(value.getType()).getShape();
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (i < shape.size() && ranges[dim.getPosition()] == ShapedType::kDynamic)
          ranges[dim.getPosition()] = shape[i];
  }
  return ranges;
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  SmallVector<AffineMap> maps = getIndexingMapsArray();
  unsigned expected = getMask() ? 6 : 5;
  if (maps.size() != expected)
    return emitOpError() << "expects " << expected
                         << " indexing maps (query, key, value, scale"
                         << (getMask() ? ", mask" : "") << ", output), got "
                         << maps.size();
  unsigned numLoops = maps[0].getNumDims();
  for (auto [i, map] : llvm::enumerate(maps)) {
    if (map.getNumDims() != numLoops || map.getNumSymbols() != 0 ||
        !map.isProjectedPermutation())
      return emitOpError() << "indexing map #" << i
                           << " must be a projected permutation of the "
                           << numLoops << " loops of map #0";
  }
  if (getScaleMap().getNumResults() != 0)
    return emitOpError() << "the scale's indexing map must be () -> ()";

  struct Operand {
    Value value;
    AffineMap map;
    StringRef name;
  };
  SmallVector<Operand> operands = {{getQuery(), getQueryMap(), "query"},
                                   {getKey(), getKeyMap(), "key"},
                                   {getValue(), getValueMap(), "value"},
                                   {getOutput(), getOutputMap(), "output"}};
  if (getMask())
    operands.push_back({getMask(), *getMaskMap(), "mask"});
  SmallVector<int64_t> ranges(numLoops, ShapedType::kDynamic);
  for (const Operand &o : operands) {
    auto type = cast<RankedTensorType>(o.value.getType());
    if (type.getRank() != static_cast<int64_t>(o.map.getNumResults()))
      return emitOpError() << "the " << o.name << " has rank "
                           << type.getRank() << " but its indexing map has "
                           << o.map.getNumResults() << " results";
    for (auto [i, e] : llvm::enumerate(o.map.getResults())) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      int64_t size = type.getDimSize(i);
      if (ranges[d] != ShapedType::kDynamic && size != ShapedType::kDynamic &&
          ranges[d] != size)
        return emitOpError() << "loop d" << d << " has size " << ranges[d]
                             << " but the " << o.name << "'s dimension " << i
                             << " is " << size;
      if (size != ShapedType::kDynamic)
        ranges[d] = size;
    }
  }
  if (getResult().getType() != getOutput().getType())
    return emitOpError() << "the result type " << getResult().getType()
                         << " differs from the output's "
                         << getOutput().getType();

  FailureOr<Dims> dims = getDims();
  if (failed(dims))
    return emitOpError()
           << "every loop must be a batch loop (in query, key, value and "
              "output), M (query and output), K1 (query and key), K2 (key "
              "and value) or N (value and output)";
  if (dims->m.size() != 1 || dims->k1.size() != 1 || dims->k2.size() != 1 ||
      dims->n.size() != 1)
    return emitOpError() << "expects exactly one M, K1, K2 and N loop (got "
                         << dims->m.size() << ", " << dims->k1.size() << ", "
                         << dims->k2.size() << ", " << dims->n.size() << ")";
  if (getMask()) {
    for (AffineExpr e : getMaskMap()->getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      if (d == dims->k1[0] || d == dims->n[0])
        return emitOpError() << "the mask may only index batch, M and K2 "
                                "loops";
    }
  }

  Type elt = getElementTypeOrSelf(getQuery().getType());
  if (!isa<Float16Type, BFloat16Type, Float32Type>(elt))
    return emitOpError() << "expects f16, bf16 or f32 operands, got " << elt;
  for (const Operand &o : operands)
    if (!isa<FloatType>(getElementTypeOrSelf(o.value.getType())))
      return emitOpError() << "the " << o.name << " must have a float type";
  if (getElementTypeOrSelf(getKey().getType()) != elt ||
      getElementTypeOrSelf(getValue().getType()) != elt)
    return emitOpError() << "query, key and value must have one element type";

  Block &body = getRegion().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isF32())
    return emitOpError() << "the region takes one f32 argument (the score)";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      !yield.getOperand(0).getType().isF32())
    return emitOpError() << "the region must yield one f32 (the score)";
  return success();
}
