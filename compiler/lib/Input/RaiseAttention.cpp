//===- RaiseAttention.cpp - tessel-raise-attention --------------*- C++ -*-===//
//
// Recognises scaled dot-product attention as importers write it and
// replaces it by one tessel.attention:
//
//   S = contraction(Q', K')         Q', K': Q and K through transposes,
//                                   reshapes and scalar multiplies
//   S' = S * c + mask               elementwise generics, casts anywhere
//   P = softmax(S', last dim)       linalg.softmax, then casts and torch's
//                                   Where(IsNaN(P), 0, P) guard
//   O = contraction(P, V')          then casts, reshapes and a transpose
//
// Shapes are followed as "atoms": the softmax input's dimensions (batch...,
// M, K2) are atoms, K1 and N are atoms of the two contractions, and every
// tensor on the way has, per dimension, the list of atoms it merges
// (reshapes split or merge them, transposes permute them). An operand is
// read from the deepest tensor of its chain whose dimensions are single
// atoms (no unit dimensions), so that its indexing map is a projected
// permutation of the attention's loops (batch atoms, M, N, K1, K2): the
// transposes and batch reshapes around the contractions disappear.
// The scale is the product of the constants on the way (S * c, S / c, and
// scalar multiplies of Q or K). Anything that does not fit is left alone.
// Batch, M and K2 may be dynamic (a reshape group may split off one
// dynamic dimension); the head dimensions K1 and N are static.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_RAISEATTENTION
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

using Atoms = SmallVector<int>;
/// Per dimension of a tensor, the atoms it merges (outermost first).
using DimAtoms = SmallVector<Atoms>;

struct AtomTable {
  SmallVector<int64_t> sizes;
  int add(int64_t size) {
    sizes.push_back(size);
    return sizes.size() - 1;
  }
};

/// `atoms` split into consecutive pieces of the given sizes (a size-1
/// piece is empty); failure where the sizes do not fall on atom bounds.
/// Static pieces take static atoms. One piece may be dynamic: the pieces
/// before it take atoms from the front, those after it from the back, and
/// it takes what is left (at least one atom), whose product its size is.
FailureOr<DimAtoms> splitAtoms(const Atoms &atoms, ArrayRef<int64_t> sizes,
                               const AtomTable &table) {
  size_t dyn = llvm::find_if(sizes, ShapedType::isDynamic) - sizes.begin();
  if (dyn < sizes.size() &&
      llvm::any_of(sizes.drop_front(dyn + 1), ShapedType::isDynamic))
    return failure();
  size_t front = 0, back = atoms.size();
  auto take = [&](int64_t size, bool fromBack, Atoms &piece) {
    int64_t product = 1;
    while (product < size && front < back) {
      int atom = fromBack ? atoms[--back] : atoms[front++];
      if (ShapedType::isDynamic(table.sizes[atom]))
        return false;
      product *= table.sizes[atom];
      piece.insert(fromBack ? piece.begin() : piece.end(), atom);
    }
    return product == size;
  };
  DimAtoms pieces(sizes.size());
  for (size_t i = 0; i < dyn; ++i)
    if (!take(sizes[i], /*fromBack=*/false, pieces[i]))
      return failure();
  for (size_t i = sizes.size(); i-- > dyn + 1;)
    if (!take(sizes[i], /*fromBack=*/true, pieces[i]))
      return failure();
  if (dyn < sizes.size()) {
    if (front == back)
      return failure();
    pieces[dyn].assign(atoms.begin() + front, atoms.begin() + back);
    front = back;
  }
  if (front != back)
    return failure();
  return pieces;
}

bool singleAtoms(const DimAtoms &dims) {
  return llvm::all_of(dims, [](const Atoms &a) { return a.size() == 1; });
}

/// The atoms of a reshape's merged side: each group's dimensions joined.
DimAtoms mergeGroups(ArrayRef<ReassociationIndices> groups,
                     const DimAtoms &split) {
  DimAtoms merged;
  for (const ReassociationIndices &group : groups) {
    Atoms atoms;
    for (int64_t i : group)
      llvm::append_range(atoms, split[i]);
    merged.push_back(atoms);
  }
  return merged;
}

/// The atoms of a reshape's split side (of shape `shape`): each merged
/// dimension's atoms cut at its group's sizes; failure off atom bounds.
FailureOr<DimAtoms> splitGroups(ArrayRef<ReassociationIndices> groups,
                                const DimAtoms &merged,
                                ArrayRef<int64_t> shape,
                                const AtomTable &table) {
  DimAtoms split;
  for (auto [g, group] : llvm::enumerate(groups)) {
    SmallVector<int64_t> sizes;
    for (int64_t i : group)
      sizes.push_back(shape[i]);
    FailureOr<DimAtoms> pieces = splitAtoms(merged[g], sizes, table);
    if (failed(pieces))
      return failure();
    llvm::append_range(split, *pieces);
  }
  return split;
}

/// The float constant `v` is, if it is one (a scalar or a splat).
std::optional<double> constantFloat(Value v) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return f.getValueAsDouble();
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
      isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

/// An all-parallel generic with identity maps for `result` and its inputs
/// except those listed in `broadcast` (checked by the caller).
bool isElementwise(linalg::GenericOp g) {
  return g.getNumDpsInits() == 1 && g->getNumResults() == 1 &&
         g.getNumLoops() == g.getNumParallelLoops() &&
         g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity();
}

/// The value the body yields, looking through float casts.
Value yieldedThroughCasts(linalg::GenericOp g) {
  Value v = g.getBody()->getTerminator()->getOperand(0);
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// `v` without the float casts applied to it.
Value throughCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// For an elementwise generic of one identity-mapped tensor input whose
/// body only casts it: that input.
Value castInput(linalg::GenericOp g) {
  if (!isElementwise(g) || g.getNumDpsInputs() != 1 ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity())
    return {};
  Value y = yieldedThroughCasts(g);
  return y == g.getBody()->getArgument(0) ? g.getDpsInputs()[0] : Value();
}

/// For an elementwise generic computing x * c or x / c (c a constant in
/// the body, or a constant input), possibly with casts: x's tensor and
/// the factor.
std::optional<std::pair<Value, double>> scalarMultiply(linalg::GenericOp g) {
  if (!isElementwise(g))
    return std::nullopt;
  Value y = yieldedThroughCasts(g);
  Operation *def = y.getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::DivFOp>(def))
    return std::nullopt;
  Block *body = g.getBody();
  auto tensorArg = [&](Value v) -> std::optional<unsigned> {
    auto arg = dyn_cast<BlockArgument>(throughCasts(v));
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= g.getNumDpsInputs())
      return std::nullopt;
    return arg.getArgNumber();
  };
  auto constantOf = [&](Value v) -> std::optional<double> {
    v = throughCasts(v);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body || arg.getArgNumber() >= g.getNumDpsInputs())
        return std::nullopt;
      return constantFloat(g.getDpsInputs()[arg.getArgNumber()]);
    }
    return constantFloat(v);
  };
  bool isDiv = isa<arith::DivFOp>(def);
  for (int x = 0; x < 2; ++x) {
    if (isDiv && x == 1)
      break; // c / x is not a scale
    std::optional<unsigned> arg = tensorArg(def->getOperand(x));
    std::optional<double> c = constantOf(def->getOperand(1 - x));
    if (!arg || !c || *c == 0.0 ||
        !g.getMatchingIndexingMap(g.getDpsInputOperand(*arg)).isIdentity())
      continue;
    return std::make_pair(g.getDpsInputs()[*arg], isDiv ? 1.0 / *c : *c);
  }
  return std::nullopt;
}

/// A tensor read from where it is stored: `value`, its dimensions' atoms,
/// and the product of the scalar multiplies passed on the way there.
struct View {
  Value value;
  DimAtoms dims;
  double scale = 1.0;
};

/// Follows `v` (dimensions `dims`) back through transposes, reshapes and,
/// with `scales`, scalar multiplies, to the deepest tensor whose
/// dimensions are single atoms.
std::optional<View> traceBack(Value v, DimAtoms dims, const AtomTable &table,
                              bool scales) {
  std::optional<View> best;
  double scale = 1.0;
  if (singleAtoms(dims))
    best = View{v, dims, scale};
  while (Operation *def = v.getDefiningOp()) {
    if (auto t = dyn_cast<linalg::TransposeOp>(def)) {
      DimAtoms in(dims.size());
      for (auto [k, p] : llvm::enumerate(t.getPermutation()))
        in[p] = dims[k];
      v = t.getInput();
      dims = in;
    } else if (auto c = dyn_cast<tensor::CollapseShapeOp>(def)) {
      FailureOr<DimAtoms> in =
          splitGroups(c.getReassociationIndices(), dims,
                      c.getSrcType().getShape(), table);
      if (failed(in))
        break;
      v = c.getSrc();
      dims = *in;
    } else if (auto e = dyn_cast<tensor::ExpandShapeOp>(def)) {
      dims = mergeGroups(e.getReassociationIndices(), dims);
      v = e.getSrc();
    } else if (auto g = dyn_cast<linalg::GenericOp>(def); g && scales) {
      std::optional<std::pair<Value, double>> mul = scalarMultiply(g);
      if (!mul)
        break;
      v = mul->first;
      scale *= mul->second;
    } else {
      break;
    }
    if (singleAtoms(dims))
      best = View{v, dims, scale};
  }
  return best;
}

/// Atoms of the dimensions of a value that `op` reads through `map` (over
/// its loops, whose atoms are `loops`); failure for a map that is not a
/// projected permutation.
FailureOr<DimAtoms> operandAtoms(AffineMap map, ArrayRef<Atoms> loops) {
  DimAtoms dims;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return failure();
    dims.push_back(loops[d.getPosition()]);
  }
  return dims;
}

/// The loops' atoms of contraction `op` from its result's dimensions:
/// m and n (and batch) loops from the output map, the k loop a new atom.
FailureOr<SmallVector<Atoms>> contractionLoops(linalg::LinalgOp op,
                                               const DimAtoms &result,
                                               AtomTable &table,
                                               int *kAtom) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<Atoms> loops(op.getNumLoops());
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (auto [j, e] : llvm::enumerate(out.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return failure();
    loops[d.getPosition()] = result[j];
  }
  unsigned k = dims->k[0];
  if (ShapedType::isDynamic(ranges[k]) || ranges[k] < 2)
    return failure(); // the head dimension: static
  *kAtom = table.add(ranges[k]);
  loops[k] = {*kAtom};
  return loops;
}

/// Whether `op`'s init is a fill of zero.
bool zeroInit(linalg::LinalgOp op) {
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  std::optional<double> c =
      fill ? constantFloat(fill.getInputs()[0]) : std::nullopt;
  return c && *c == 0.0;
}

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumDpsInputs() == 2 && linalgOp.getNumDpsInits() == 1 &&
         linalg::isaContractionOpInterface(linalgOp) && zeroInit(linalgOp);
}

/// For x used only by torch's Where(IsNaN(x), 0, x) (two elementwise
/// generics): the guard's result.
Value nanGuard(Value v) {
  SmallVector<Operation *> users(v.getUsers());
  if (users.size() != 2)
    return {};
  linalg::GenericOp isNan, where;
  for (Operation *u : users) {
    auto g = dyn_cast<linalg::GenericOp>(u);
    if (!g || !isElementwise(g))
      return {};
    Value y = g.getBody()->getTerminator()->getOperand(0);
    if (auto cmp = y.getDefiningOp<arith::CmpFOp>();
        cmp && cmp.getPredicate() == arith::CmpFPredicate::UNO &&
        g.getNumDpsInputs() == 1)
      isNan = g;
    else if (y.getDefiningOp<arith::SelectOp>() && g.getNumDpsInputs() == 2)
      where = g;
  }
  if (!isNan || !where || !isNan->getResult(0).hasOneUse() ||
      *isNan->getResult(0).getUsers().begin() != where.getOperation())
    return {};
  for (OpOperand *in : where.getDpsInputOperands())
    if (!where.getMatchingIndexingMap(in).isIdentity())
      return {};
  auto select = where.getBody()
                    ->getTerminator()
                    ->getOperand(0)
                    .getDefiningOp<arith::SelectOp>();
  auto input = [&](Value x) -> Value {
    auto arg = dyn_cast<BlockArgument>(x);
    if (!arg || arg.getOwner() != where.getBody() ||
        arg.getArgNumber() >= where.getNumDpsInputs())
      return {};
    return where.getDpsInputs()[arg.getArgNumber()];
  };
  std::optional<double> zero = constantFloat(select.getTrueValue());
  if (input(select.getCondition()) != isNan->getResult(0) ||
      input(select.getFalseValue()) != v || !zero || *zero != 0.0)
    return {};
  return where->getResult(0);
}

/// One step forward from `v` (atoms `dims`, updated): its only user, if
/// that is a float cast, a reshape or (with `transposes`) a transpose;
/// with `guard`, torch's NaN guard. Null where none applies.
Value stepForward(Value v, DimAtoms &dims, const AtomTable &table,
                  bool guard, bool transposes) {
  if (guard && !v.hasOneUse())
    return nanGuard(v);
  if (!v.hasOneUse())
    return {};
  Operation *user = *v.getUsers().begin();
  if (auto g = dyn_cast<linalg::GenericOp>(user); g && castInput(g) == v)
    return g->getResult(0);
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(user)) {
    dims = mergeGroups(c.getReassociationIndices(), dims);
    return c.getResult();
  }
  if (auto e = dyn_cast<tensor::ExpandShapeOp>(user)) {
    FailureOr<DimAtoms> out =
        splitGroups(e.getReassociationIndices(), dims,
                    e.getResultType().getShape(), table);
    if (failed(out))
      return {};
    dims = *out;
    return e.getResult();
  }
  if (auto t = dyn_cast<linalg::TransposeOp>(user); t && transposes) {
    DimAtoms permuted;
    for (int64_t i : t.getPermutation())
      permuted.push_back(dims[i]);
    dims = permuted;
    return t->getResult(0);
  }
  return {};
}

/// The sizes of a tensor of `type` whose dimensions are the single atoms
/// `dims`: static ones from the type, dynamic ones read (tensor.dim) from
/// a view that has the same atom. Failure where none has it.
FailureOr<SmallVector<OpFoldResult>>
sizesFrom(OpBuilder &b, Location loc, const DimAtoms &dims,
          RankedTensorType type, ArrayRef<const View *> views) {
  // Where each dynamic size is read, found before anything is created.
  SmallVector<std::pair<Value, int64_t>> reads(dims.size());
  for (auto [j, atoms] : llvm::enumerate(dims)) {
    if (!type.isDynamicDim(j))
      continue;
    for (const View *view : views)
      for (auto [i, a] : llvm::enumerate(view->dims))
        if (!reads[j].first && a == atoms)
          reads[j] = {view->value, int64_t(i)};
    if (!reads[j].first)
      return failure();
  }
  SmallVector<OpFoldResult> sizes;
  for (auto [j, read] : llvm::enumerate(reads))
    sizes.push_back(read.first ? OpFoldResult(tensor::DimOp::create(
                                     b, loc, read.first, read.second))
                               : b.getIndexAttr(type.getDimSize(j)));
  return sizes;
}

/// Raises the attention around `softmax`, if it is one.
LogicalResult raise(RewriterBase &rewriter, linalg::SoftmaxOp softmax) {
  auto inType = cast<RankedTensorType>(softmax.getInput().getType());
  int64_t rank = inType.getRank();
  auto unitOrSmall = [&](int64_t i) {
    return !inType.isDynamicDim(i) && inType.getDimSize(i) < 2;
  };
  if (rank < 2 || softmax.getDimension() != uint64_t(rank - 1) ||
      unitOrSmall(rank - 1) || unitOrSmall(rank - 2))
    return failure();
  AtomTable table;
  DimAtoms anchor;
  for (int64_t size : inType.getShape())
    anchor.push_back(size == 1 ? Atoms{} : Atoms{table.add(size)});
  int mAtom = anchor[rank - 2][0], k2Atom = anchor[rank - 1][0];

  // Back from the scores to Q K^T: casts, a mask add, scalar multiplies
  // (all before the mask), reshapes.
  Value v = softmax.getInput();
  DimAtoms dims = anchor;
  double scale = 1.0;
  std::optional<View> mask;
  Operation *qk = nullptr;
  while (true) {
    Operation *def = v.getDefiningOp();
    if (!def || !v.hasOneUse())
      return failure();
    if (isContraction(def)) {
      qk = def;
      break;
    }
    if (auto g = dyn_cast<linalg::GenericOp>(def)) {
      if (Value in = castInput(g)) {
        v = in;
        continue;
      }
      if (auto mul = scalarMultiply(g)) {
        scale *= mul->second;
        v = mul->first;
        continue;
      }
      // chain + mask: addf of the chain (identity) and a broadcast input.
      auto add = yieldedThroughCasts(g).getDefiningOp<arith::AddFOp>();
      if (mask || scale != 1.0 || !isElementwise(g) ||
          g.getNumDpsInputs() != 2 || !add)
        return failure();
      auto arg = [&](Value x) -> int {
        auto a = dyn_cast<BlockArgument>(throughCasts(x));
        return a && a.getOwner() == g.getBody() ? int(a.getArgNumber()) : -1;
      };
      int lhs = arg(add.getLhs()), rhs = arg(add.getRhs());
      if (lhs < 0 || rhs < 0 || lhs == rhs || lhs > 1 || rhs > 1)
        return failure();
      int chain = g.getMatchingIndexingMap(g.getDpsInputOperand(0))
                          .isIdentity()
                      ? 0
                      : 1;
      int other = 1 - chain;
      if (!g.getMatchingIndexingMap(g.getDpsInputOperand(chain)).isIdentity())
        return failure();
      FailureOr<DimAtoms> maskDims = operandAtoms(
          g.getMatchingIndexingMap(g.getDpsInputOperand(other)), dims);
      if (failed(maskDims))
        return failure();
      mask = traceBack(g.getDpsInputs()[other], *maskDims, table,
                       /*scales=*/false);
      if (!mask)
        return failure();
      v = g.getDpsInputs()[chain];
      continue;
    }
    if (auto e = dyn_cast<tensor::ExpandShapeOp>(def)) {
      dims = mergeGroups(e.getReassociationIndices(), dims);
      v = e.getSrc();
      continue;
    }
    if (auto c = dyn_cast<tensor::CollapseShapeOp>(def)) {
      FailureOr<DimAtoms> in =
          splitGroups(c.getReassociationIndices(), dims,
                      c.getSrcType().getShape(), table);
      if (failed(in))
        return failure();
      v = c.getSrc();
      dims = *in;
      continue;
    }
    return failure();
  }
  auto qkOp = cast<linalg::LinalgOp>(qk);
  int k1Atom = -1;
  FailureOr<SmallVector<Atoms>> qkLoops =
      contractionLoops(qkOp, dims, table, &k1Atom);
  if (failed(qkLoops))
    return failure();
  auto viewOf = [&](linalg::LinalgOp op, unsigned input,
                    ArrayRef<Atoms> loops) -> std::optional<View> {
    OpOperand *operand = op.getDpsInputOperand(input);
    FailureOr<DimAtoms> atoms =
        operandAtoms(op.getMatchingIndexingMap(operand), loops);
    if (failed(atoms))
      return std::nullopt;
    return traceBack(operand->get(), *atoms, table, /*scales=*/true);
  };
  std::optional<View> q = viewOf(qkOp, 0, *qkLoops);
  std::optional<View> k = viewOf(qkOp, 1, *qkLoops);
  if (!q || !k)
    return failure();

  // Forward from P to P V.
  DimAtoms pDims = anchor;
  Value p = softmax.getResult()[0];
  while (Value next = stepForward(p, pDims, table, /*guard=*/true,
                                  /*transposes=*/false))
    p = next;
  if (!p.hasOneUse())
    return failure();
  OpOperand &pUse = *p.getUses().begin();
  Operation *pv = pUse.getOwner();
  if (!isContraction(pv) || pUse.getOperandNumber() != 0)
    return failure();
  auto pvOp = cast<linalg::LinalgOp>(pv);
  FailureOr<linalg::ContractionDimensions> pvDims =
      linalg::inferContractionDims(pvOp);
  if (failed(pvDims) || pvDims->m.size() != 1 || pvDims->n.size() != 1 ||
      pvDims->k.size() != 1)
    return failure();
  SmallVector<int64_t> pvRanges = pvOp.getStaticLoopRanges();
  if (ShapedType::isDynamic(pvRanges[pvDims->n[0]]) ||
      pvRanges[pvDims->n[0]] < 2)
    return failure(); // the value head dimension: static
  SmallVector<Atoms> pvLoops(pvOp.getNumLoops());
  AffineMap pMap = pvOp.getMatchingIndexingMap(pvOp.getDpsInputOperand(0));
  for (auto [j, e] : llvm::enumerate(pMap.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return failure();
    pvLoops[d.getPosition()] = pDims[j];
  }
  if (pvLoops[pvDims->m[0]] != Atoms{mAtom} ||
      pvLoops[pvDims->k[0]] != Atoms{k2Atom})
    return failure();
  int nAtom = table.add(pvRanges[pvDims->n[0]]);
  pvLoops[pvDims->n[0]] = {nAtom};
  std::optional<View> val = viewOf(pvOp, 1, pvLoops);
  if (!val || val->scale != 1.0)
    return failure();
  FailureOr<DimAtoms> oDims = operandAtoms(
      pvOp.getMatchingIndexingMap(pvOp.getDpsInitOperand(0)), pvLoops);
  if (failed(oDims))
    return failure();
  // The output: the last single-atom tensor after P V through casts,
  // reshapes and transposes that nothing else uses.
  Value o = pv->getResult(0);
  DimAtoms outDims = *oDims;
  std::optional<View> out;
  if (singleAtoms(outDims))
    out = View{o, outDims};
  while (Value next = stepForward(o, outDims, table, /*guard=*/false,
                                  /*transposes=*/true)) {
    o = next;
    if (singleAtoms(outDims))
      out = View{o, outDims};
  }
  if (!out)
    return failure();

  // Q and K in one element type; the score scale; the M and K2 atoms.
  Type qType = getElementTypeOrSelf(q->value.getType());
  if (qType != getElementTypeOrSelf(k->value.getType()) ||
      qType != getElementTypeOrSelf(val->value.getType()) ||
      !isa<FloatType>(qType) ||
      !isa<FloatType>(getElementTypeOrSelf(out->value.getType())))
    return failure();
  if (mask && !isa<FloatType>(getElementTypeOrSelf(mask->value.getType())))
    return failure();

  // Loops: batch atoms (the softmax input's order), M, N, K1, K2.
  SmallVector<int> loopAtoms;
  for (const Atoms &a : anchor)
    for (int atom : a)
      if (atom != mAtom && atom != k2Atom)
        loopAtoms.push_back(atom);
  llvm::append_range(loopAtoms, ArrayRef<int>{mAtom, nAtom, k1Atom, k2Atom});
  MLIRContext *ctx = softmax.getContext();
  unsigned numLoops = loopAtoms.size();
  auto mapOf = [&](const DimAtoms &d) -> FailureOr<AffineMap> {
    SmallVector<AffineExpr> results;
    for (const Atoms &a : d) {
      auto it = llvm::find(loopAtoms, a[0]);
      if (it == loopAtoms.end())
        return failure();
      results.push_back(getAffineDimExpr(it - loopAtoms.begin(), ctx));
    }
    return AffineMap::get(numLoops, 0, results, ctx);
  };
  SmallVector<AffineMap> maps;
  for (const View *view : {&*q, &*k, &*val}) {
    FailureOr<AffineMap> m = mapOf(view->dims);
    if (failed(m))
      return failure();
    maps.push_back(*m);
  }
  maps.push_back(AffineMap::get(numLoops, 0, {}, ctx));
  if (mask) {
    FailureOr<AffineMap> m = mapOf(mask->dims);
    if (failed(m))
      return failure();
    maps.push_back(*m);
  }
  FailureOr<AffineMap> outMap = mapOf(out->dims);
  if (failed(outMap))
    return failure();
  maps.push_back(*outMap);

  Location loc = softmax.getLoc();
  rewriter.setInsertionPointAfterValue(out->value);
  auto outType = cast<RankedTensorType>(out->value.getType());
  FailureOr<SmallVector<OpFoldResult>> outSizes =
      sizesFrom(rewriter, loc, out->dims, outType, {&*q, &*k, &*val});
  if (failed(outSizes))
    return failure();
  Value init = tensor::EmptyOp::create(rewriter, loc, *outSizes,
                                       outType.getElementType());
  Value scaleValue = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getF32FloatAttr(scale * q->scale * k->scale));
  auto attention = AttentionOp::create(
      rewriter, loc, TypeRange{outType}, q->value, k->value, val->value,
      scaleValue, mask ? mask->value : Value(), init,
      rewriter.getAffineMapArrayAttr(maps));
  Block *block = rewriter.createBlock(&attention.getRegion(), {},
                                      {rewriter.getF32Type()}, {loc});
  YieldOp::create(rewriter, loc, ValueRange{block->getArgument(0)});
  {
    // Built to verify; should it not, nothing changes and nothing is said.
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    if (failed(mlir::verify(attention))) {
      rewriter.eraseOp(attention);
      return failure();
    }
  }
  rewriter.replaceAllUsesWith(out->value, attention.getResult());
  return success();
}

struct RaiseAttentionPass
    : tessel::impl::RaiseAttentionBase<RaiseAttentionPass> {
  void runOnOperation() override {
    SmallVector<linalg::SoftmaxOp> softmaxes;
    getOperation().walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool raised = false;
    for (linalg::SoftmaxOp op : softmaxes)
      raised |= succeeded(raise(rewriter, op));
    if (!raised)
      return;
    // The replaced chains (contractions, softmax, transposes) are dead.
    bool erased = true;
    while (erased) {
      erased = false;
      SmallVector<Operation *> dead;
      getOperation().walk([&](Operation *op) {
        if (op->getNumResults() && isOpTriviallyDead(op))
          dead.push_back(op);
      });
      for (Operation *op : dead) {
        if (!op->use_empty())
          continue;
        rewriter.eraseOp(op);
        erased = true;
      }
    }
  }
};

} // namespace
