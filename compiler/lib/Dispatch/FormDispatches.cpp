//===- FormDispatches.cpp - tessel-form-dispatches -------------*- C++ -*-===//
//
// Splits each public function into dispatch functions (one kernel each) and
// the host program that sequences them. A dispatch holds one root
// computation plus the cheap producers it needs (constants, tensor.empty,
// linalg.fill, tensor.extract_slice, scalar ops), cloned in so that they
// fuse into the root's tiles instead of costing a buffer round trip.
// Elementwise chains were already fused into single linalg.generic ops by
// elementwise fusion, so "one root per dispatch" keeps them in one kernel.
// Three options (for targets whose codegen runs the result as one kernel)
// join more roots: `fuse-rows` (chains of row ops: softmax, layernorm),
// `fuse-epilogues` (elementwise consumers of a float matmul, e.g. bias and
// activation, applied before its result is stored) and `fuse-primitives`
// (a scan with its elementwise producer, consumers and a scatter of its
// elements: stream compaction in one kernel).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dispatch/RowGroups.h"
#include "tessel/Dispatch/ScanGroups.h"
#include "tessel/Dispatch/StateAccess.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_FORMDISPATCHES
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

bool hasTensorResult(Operation *op) {
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<TensorType>(t); });
}

/// Host control flow: scf.if, scf.for, scf.while and their terminators.
bool isControlFlow(Operation *op) {
  return isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::YieldOp,
             scf::ConditionOp>(op);
}

/// Ops that stay in the host program: buffer reshapes, transient
/// allocations, constants, parameter and state accesses, control flow and
/// the return. (Scalar ops whose
/// values the host needs stay too: hostScalars.)
/// Marks the tensor.from_elements that carries a host scalar into a
/// dispatch (outlineGroup).
constexpr StringLiteral kHostScalarTensorAttr = "tessel.host_scalar_tensor";

bool isHostOp(Operation *op) {
  if (op->hasAttr(kHostScalarTensorAttr))
    return true;
  auto select = dyn_cast<arith::SelectOp>(op);
  if (select && isa<TensorType>(select.getType()) &&
      !isa<TensorType>(select.getCondition().getType()))
    return true; // one of two tensors, by a host condition
  return isa<func::ReturnOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::EmptyOp, AssertOp, ml_program::GlobalLoadConstOp,
             ml_program::GlobalLoadOp, ml_program::GlobalStoreOp>(op) ||
         isControlFlow(op) ||
         (isa<arith::ConstantOp>(op) && hasTensorResult(op));
}

/// Cheap producers that are cloned into every dispatch that uses them.
/// Every scalar op is one of them (a dispatch computes what it needs; the
/// host keeps a copy of those whose values it needs itself).
bool isClonableProducer(Operation *op) {
  if (!hasTensorResult(op))
    return !isa<func::ReturnOp>(op) && !isControlFlow(op);
  if (isa<arith::ConstantOp, tensor::EmptyOp, tensor::ExtractSliceOp>(op))
    return true;
  auto fill = dyn_cast<linalg::FillOp>(op);
  return fill && fill.hasPureTensorSemantics() && !fill->hasAttr(kWorkspaceAttr);
}

/// Values used by `op` or by ops nested in its regions.
SetVector<Value> usedValues(Operation *op) {
  SetVector<Value> used(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, used);
  return used;
}

/// A dispatch group of row ops (RowGroups.h) and the space it walks.
struct RowGroup {
  unsigned group;
  RowSpace space;
  Operation *first;
};

/// Whether `v` is computed from a result of `group`, whose first op is
/// `first` (ops before it in the block cannot be).
bool dependsOnGroup(Value v, unsigned group, Operation *first,
                    const DenseMap<Operation *, unsigned> &groupOf,
                    DenseMap<Operation *, bool> &memo) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != first->getBlock() ||
      def->isBeforeInBlock(first))
    return false;
  auto g = groupOf.find(def);
  if (g != groupOf.end() && g->second == group)
    return true;
  auto known = memo.find(def);
  if (known != memo.end())
    return known->second;
  memo[def] = false;
  bool result = llvm::any_of(usedValues(def), [&](Value u) {
    return dependsOnGroup(u, group, first, groupOf, memo);
  });
  memo[def] = result;
  return result;
}

/// Whether `op` can join row group `rg`: a row op of its space that reads
/// one of its results, with nothing in between that depends on the group
/// (outlining the group at `op` must not need a value computed from it
/// outside). Values from clonable producers are looked through, since
/// those are cloned into the dispatch.
bool canJoinRowGroup(Operation *op, const RowGroup &rg,
                     const DenseMap<Operation *, unsigned> &groupOf) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !classifyRowOp(generic, rg.space))
    return false;
  auto inGroup = [&](Value v) {
    auto g = groupOf.find(v.getDefiningOp());
    return g != groupOf.end() && g->second == rg.group;
  };
  // Values of the group are read at the row being computed only.
  for (OpOperand *in : generic.getDpsInputOperands())
    if (inGroup(in->get()) && !readsOwnRow(generic, in))
      return false;
  bool readsGroup = false;
  DenseMap<Operation *, bool> memo;
  std::function<bool(Value)> ok = [&](Value v) {
    if (inGroup(v)) {
      readsGroup = true;
      return true;
    }
    Operation *def = v.getDefiningOp();
    if (def && isClonableProducer(def) && !isHostOp(def))
      return llvm::all_of(usedValues(def), ok);
    return !dependsOnGroup(v, rg.group, rg.first, groupOf, memo);
  };
  return llvm::all_of(usedValues(op), ok) && readsGroup;
}

/// f32, f16 or bf16: the element types the GPU matmul strategies store.
bool isMatmulResultType(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF32() || element.isF16() || element.isBF16();
}

/// A float contraction with one M, N and K loop and at most one batch loop
/// (a matmul or batch matmul in any operand layout): the ops whose
/// elementwise consumers `fuse-epilogues` joins to their dispatch.
bool isEpilogueHost(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp->getNumResults() != 1 ||
      !linalg::isaContractionOpInterface(linalgOp) ||
      !isMatmulResultType(linalgOp->getResult(0).getType()))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  return succeeded(dims) && dims->m.size() == 1 && dims->n.size() == 1 &&
         dims->k.size() == 1 && dims->batch.size() <= 1;
}

/// A matmul dispatch group and the value its next epilogue op may read.
struct EpilogueGroup {
  unsigned group;
  Value tail;
  Operation *first;
};

/// Whether `op` can join epilogue group `eg`: an elementwise generic with an
/// f32, f16 or bf16 result (all loops parallel, identity output; bias,
/// activation, the cast to f16) reading the group's tail, the tail's only
/// use, at the same element, with nothing else it uses computed from the
/// group.
bool canJoinEpilogue(Operation *op, const EpilogueGroup &eg,
                     const DenseMap<Operation *, unsigned> &groupOf) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      !isMatmulResultType(generic->getResult(0).getType()) ||
      !eg.tail.hasOneUse() || *eg.tail.getUsers().begin() != op)
    return false;
  bool readsTail = false;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    if (in->get() != eg.tail)
      continue;
    if (!generic.getMatchingIndexingMap(in).isIdentity() ||
        cast<ShapedType>(in->get().getType()).getShape() !=
            cast<ShapedType>(generic->getResult(0).getType()).getShape())
      return false;
    readsTail = true;
  }
  if (!readsTail)
    return false;
  DenseMap<Operation *, bool> memo;
  return llvm::all_of(usedValues(op), [&](Value v) {
    return v == eg.tail ||
           !dependsOnGroup(v, eg.group, eg.first, groupOf, memo);
  });
}

/// With `fuse-primitives`: the scan groups (ScanGroups.h) of `roots` that
/// can be outlined as one dispatch, by op. A group's tensors from outside
/// must become bindings (arguments, host reshapes or other dispatches'
/// results, none of them computed from the group), and every use of its
/// results outside it must come after its last op (where its dispatch
/// goes). Without that the producer is left out, then the whole group.
/// Groups are numbered from 0.
DenseMap<Operation *, unsigned> findScanGroups(ArrayRef<Operation *> roots) {
  DenseMap<Operation *, unsigned> groupOf;
  unsigned count = 0;
  for (Operation *root : roots) {
    auto scan = dyn_cast<ScanOp>(root);
    if (!scan)
      continue;
    auto isExternal = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def)
        return isa<BlockArgument>(v);
      // Constants and fills are cloned into dispatches, not bindings.
      return def->getBlock() == scan->getBlock() &&
             def->isBeforeInBlock(scan) &&
             (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) ||
              !isClonableProducer(def));
    };
    if (!scanGroupBlocker(scan, isExternal).empty())
      continue;
    ScanGroup group = findScanGroup(scan, isExternal);
    auto usesFollow = [&](const ScanGroup &g) {
      SmallVector<Operation *> ops = g.ops();
      SetVector<Operation *> members(ops.begin(), ops.end());
      return llvm::all_of(ops, [&](Operation *op) {
        return !groupOf.count(op) &&
               llvm::all_of(op->getUsers(), [&](Operation *user) {
                 return members.contains(user) ||
                        ops.back()->isBeforeInBlock(user);
               });
      });
    };
    if (!usesFollow(group))
      group.producer = nullptr;
    if (!group.hasNeighbours() || !usesFollow(group))
      continue;
    for (Operation *op : group.ops())
      groupOf[op] = count;
    ++count;
  }
  return groupOf;
}

/// Groups root ops into dispatches. A tensor.insert_slice chain (what pad
/// and concat decompose into) whose intermediate results have one use
/// becomes one dispatch, so the destination is copied once. With
/// `fuseRows`, a row reduction starts a row group that later row ops of the
/// same space join when they read it (softmax, layernorm: one dispatch).
/// With `fuseEpilogues`, an f32 matmul starts a group that a chain of
/// elementwise consumers joins (matmul + bias + relu: one dispatch). With
/// `fusePrimitives`, scan groups are formed first.
SmallVector<SmallVector<Operation *>> groupRoots(ArrayRef<Operation *> roots,
                                                 bool fuseRows,
                                                 bool rowGroupsSingleResult,
                                                 bool fuseEpilogues,
                                                 bool fusePrimitives) {
  SmallVector<SmallVector<Operation *>> groups;
  SmallVector<RowGroup> rowGroups;
  SmallVector<EpilogueGroup> epilogueGroups;
  DenseMap<Operation *, unsigned> scanGroupOf;
  DenseMap<unsigned, unsigned> scanGroupIndex; // scan group -> groups[i]
  if (fusePrimitives)
    scanGroupOf = findScanGroups(roots);
  DenseMap<Operation *, unsigned> groupOf;
  auto addTo = [&](unsigned g, Operation *root) {
    groups[g].push_back(root);
    groupOf[root] = g;
  };
  for (Operation *root : roots) {
    if (auto it = scanGroupOf.find(root); it != scanGroupOf.end()) {
      auto [index, first] =
          scanGroupIndex.try_emplace(it->second, groups.size());
      if (first)
        groups.push_back({});
      addTo(index->second, root);
      continue;
    }
    auto insert = dyn_cast<tensor::InsertSliceOp>(root);
    Operation *destDef = insert ? insert.getDest().getDefiningOp() : nullptr;
    if (destDef && groupOf.count(destDef) && destDef->hasOneUse()) {
      addTo(groupOf[destDef], root);
      continue;
    }
    if (fuseRows) {
      auto joined = llvm::find_if(llvm::reverse(rowGroups), [&](auto &rg) {
        return canJoinRowGroup(root, rg, groupOf);
      });
      if (joined != rowGroups.rend()) {
        addTo(joined->group, root);
        continue;
      }
    }
    if (fuseEpilogues) {
      auto joined = llvm::find_if(epilogueGroups, [&](auto &eg) {
        return canJoinEpilogue(root, eg, groupOf);
      });
      if (joined != epilogueGroups.end()) {
        addTo(joined->group, root);
        joined->tail = root->getResult(0);
        continue;
      }
    }
    groupOf[root] = groups.size();
    groups.push_back({root});
    if (fuseEpilogues && isEpilogueHost(root))
      epilogueGroups.push_back({groupOf[root], root->getResult(0), root});
    if (auto generic = dyn_cast<linalg::GenericOp>(root))
      if (std::optional<RowSpace> space = rowReductionSpace(generic);
          fuseRows && space)
        rowGroups.push_back({groupOf[root], *space, root});
  }
  if (!rowGroupsSingleResult)
    return groups;
  // Row groups whose members' results are used outside the group more than
  // once in total go back to one dispatch per op.
  DenseSet<unsigned> split;
  for (const RowGroup &rg : rowGroups) {
    ArrayRef<Operation *> members = groups[rg.group];
    if (members.size() < 2)
      continue;
    unsigned external = 0;
    for (Operation *op : members)
      for (Value r : op->getResults())
        external += llvm::any_of(r.getUsers(), [&](Operation *user) {
          return !llvm::is_contained(members, user);
        });
    if (external > 1)
      split.insert(rg.group);
  }
  SmallVector<SmallVector<Operation *>> result;
  for (auto [g, members] : llvm::enumerate(groups)) {
    if (!split.contains(g)) {
      result.push_back(std::move(members));
      continue;
    }
    for (Operation *op : members)
      result.push_back({op});
  }
  return result;
}

/// The blocks of `fn` that hold host ops: its body and the regions of its
/// control flow, outer blocks first.
SmallVector<Block *> hostBlocks(func::FuncOp fn) {
  SmallVector<Block *> blocks{&fn.getBody().front()};
  for (size_t i = 0; i < blocks.size(); ++i)
    for (Operation &op : *blocks[i])
      if (isControlFlow(&op))
        for (Region &region : op.getRegions())
          for (Block &block : region)
            blocks.push_back(&block);
  return blocks;
}

/// Scalar ops of host blocks whose values the host needs (loop bounds,
/// conditions, values carried by control flow) and, transitively, the
/// scalars they are computed from. A tensor.extract among them is a read
/// of a device value by the host.
DenseSet<Operation *> hostScalars(ArrayRef<Block *> blocks) {
  DenseSet<Operation *> result;
  SmallVector<Operation *> worklist;
  for (Block *block : blocks)
    for (Operation &op : *block)
      if (isHostOp(&op))
        worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || isa<TensorType>(v.getType()) || isHostOp(def) ||
          !llvm::is_contained(blocks, def->getBlock()))
        continue;
      if (result.insert(def).second)
        worklist.push_back(def);
    }
  }
  return result;
}

/// The depth of `op`'s block below the function body.
unsigned blockDepth(Operation *op) {
  unsigned depth = 0;
  for (Operation *p = op->getParentOp(); p && !isa<func::FuncOp>(p);
       p = p->getParentOp())
    ++depth;
  return depth;
}

/// Rewrites the `tensor.dim`s that `dispatch` takes as dims into values the
/// host has: a dimension of a value computed by the dispatch's ops
/// (`members`) becomes its reified shape, in terms of their operands, until
/// no member is involved. Fails on a dimension the host cannot compute that
/// way (naming the op).
LogicalResult resolveResultDims(DispatchOp dispatch,
                                const SetVector<Operation *> &members) {
  MLIRContext *ctx = dispatch.getContext();
  RewritePatternSet patterns(ctx);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
  SmallVector<Operation *> dimOps;
  for (Value d : dispatch.getDims())
    if (auto dim = d.getDefiningOp<tensor::DimOp>())
      dimOps.push_back(dim);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(dimOps, std::move(patterns), config);
  for (Value d : dispatch.getDims()) {
    SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.inclusive = true;
    // The dims of an earlier dispatch's results are host values: its
    // operands do not matter here.
    options.filter = [](Operation *op) { return !isa<DispatchOp>(op); };
    (void)getBackwardSlice(d, &slice, options);
    for (Operation *op : slice)
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp(); def && members.contains(def) &&
                                                isa<TensorType>(v.getType()))
          return def->emitError()
                 << "the host cannot compute the dynamic shape of this "
                    "result from the operands' shapes ('"
                 << def->getName() << "' has no reifiable result shape)";
  }
  return success();
}

/// Outlines `group` (ops of one block) plus the clonable producers it
/// transitively needs (from that block or the blocks around it) into a new
/// dispatch function and replaces it by a tessel.dispatch. Fails on a
/// scalar the dispatch would need from the host.
/// The lone insert of `group` if it updates module state in place
/// (StateAccess.h): its dispatch's result is then tied to the state.
tensor::InsertSliceOp inPlaceInsert(ArrayRef<Operation *> group) {
  auto insert = group.size() == 1 ? dyn_cast<tensor::InsertSliceOp>(group[0])
                                  : nullptr;
  return insert && updatesStateInPlace(insert) ? insert : nullptr;
}

LogicalResult outlineGroup(func::FuncOp parent, ArrayRef<Operation *> group,
                           unsigned ordinal, SymbolTable &symbols) {
  // Ops to clone: the group and its clonable producers.
  SetVector<Operation *> members(group.begin(), group.end());
  SmallVector<Operation *> worklist(group.begin(), group.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value v : usedValues(op)) {
      Operation *def = v.getDefiningOp();
      if (def && isClonableProducer(def) && members.insert(def))
        worklist.push_back(def);
    }
  }
  // Clone order: a producer from an enclosing block comes before the ops
  // of the blocks it encloses; within a block, block order.
  SmallVector<Operation *> ordered(members.begin(), members.end());
  llvm::stable_sort(ordered, [](Operation *a, Operation *b) {
    unsigned da = blockDepth(a), db = blockDepth(b);
    if (da != db)
      return da < db;
    return a->getBlock() == b->getBlock() && a->isBeforeInBlock(b);
  });
  // Operands: values used by members but defined by none of them. An
  // integer or index the host computed (a loop's induction variable, a value
  // read from the device) reaches the kernel as a one-element tensor the
  // host writes (tensor.from_elements, i64 for an index) and the kernel
  // reads back (scalars).
  SetVector<Value> operands;
  SmallVector<Value> scalars;
  for (Operation *op : ordered)
    for (Value v : usedValues(op))
      if (!members.contains(v.getDefiningOp())) {
        if (isa<TensorType>(v.getType()))
          operands.insert(v);
        else if (!llvm::is_contained(scalars, v))
          scalars.push_back(v);
      }
  OpBuilder host(group.back());
  for (Value v : scalars) {
    if (!isa<IntegerType, IndexType>(v.getType()))
      return group.back()->emitError()
             << "a value of type " << v.getType()
             << " computed by the host program is used inside a computation: "
                "host programs pass integers and indices to kernels, not "
                "floats; compute it on the device";
    Location loc = v.getLoc();
    Value element = v;
    if (isa<IndexType>(v.getType()))
      element = arith::IndexCastOp::create(host, loc, host.getI64Type(), v);
    auto tensor = tensor::FromElementsOp::create(
        host, loc, RankedTensorType::get({}, element.getType()), element);
    tensor->setAttr(kHostScalarTensorAttr, host.getUnitAttr());
    operands.insert(tensor);
  }
  // Results: group values used outside the group.
  SmallVector<Value> results;
  for (Operation *op : group)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        results.push_back(r);

  OpBuilder builder(parent);
  Location loc = group.back()->getLoc();
  auto type = builder.getFunctionType(
      llvm::to_vector(llvm::map_range(operands, [](Value v) {
        return v.getType();
      })),
      llvm::to_vector(llvm::map_range(results, [](Value v) {
        return v.getType();
      })));
  std::string name =
      (parent.getSymName() + "_dispatch_" + Twine(ordinal)).str();
  auto fn = func::FuncOp::create(builder, loc, name, type);
  fn.setPrivate();
  fn->setAttr(kDispatchFunctionAttr, builder.getUnitAttr());
  symbols.insert(fn);

  Block *body = fn.addEntryBlock();
  IRMapping mapping;
  mapping.map(operands.getArrayRef(), body->getArguments());
  builder.setInsertionPointToStart(body);
  // The host's scalars, read back from their tensors (the last operands).
  for (auto [i, v] : llvm::enumerate(scalars)) {
    Value arg = body->getArgument(operands.size() - scalars.size() + i);
    Value element = tensor::ExtractOp::create(builder, loc, arg, ValueRange{});
    if (isa<IndexType>(v.getType()))
      element = arith::IndexCastOp::create(builder, loc, v.getType(), element);
    mapping.map(v, element);
  }
  for (Operation *op : ordered)
    builder.clone(*op, mapping);
  // An in-place insert writes only its slice: the kernel's destination is
  // the result binding, which the host binds to the state's buffer.
  tensor::InsertSliceOp inPlace = inPlaceInsert(group);
  if (inPlace) {
    auto clone =
        mapping.lookup(inPlace.getResult()).getDefiningOp<tensor::InsertSliceOp>();
    OpBuilder at(clone);
    clone.getDestMutable().assign(tensor::EmptyOp::create(
        at, loc, clone.getDestType().getShape(),
        clone.getDestType().getElementType()));
  }
  func::ReturnOp::create(
      builder, loc,
      llvm::to_vector(llvm::map_range(
          results, [&](Value v) { return mapping.lookup(v); })));

  builder.setInsertionPoint(group.back());
  // The dynamic dimensions of the operands, then of the results, as host
  // values: `tensor.dim`s, those of results resolved through the group's
  // ops (reified shapes) to values the host has.
  SmallVector<Value> dims;
  SmallVector<Value> tensors(operands.begin(), operands.end());
  llvm::append_range(tensors, results);
  for (Value v : tensors) {
    auto t = cast<RankedTensorType>(v.getType());
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        dims.push_back(tensor::DimOp::create(builder, loc, v, d));
  }
  auto dispatch = DispatchOp::create(builder, loc, type.getResults(),
                                     fn.getSymName(), operands.getArrayRef(),
                                     dims);
  if (inPlace) {
    int64_t dest = llvm::find(operands, inPlace.getDest()) - operands.begin();
    dispatch->setAttr(kTiedOperandsAttr, builder.getDenseI64ArrayAttr({dest}));
  }
  if (failed(resolveResultDims(dispatch, members)))
    return failure();
  for (auto [oldValue, newValue] : llvm::zip(results, dispatch.getResults()))
    oldValue.replaceAllUsesWith(newValue);
  for (Operation *op : llvm::reverse(group))
    op->erase();
  return success();
}

} // namespace

namespace mlir::tessel {

/// Turns the body of public function `fn` into a host program: every
/// block of it (the body and the regions of its control flow) keeps its
/// host ops, and its computations become dispatches.
LogicalResult formDispatches(func::FuncOp fn, SymbolTable &symbols,
                             bool fuseRows, bool rowGroupsSingleResult,
                             bool fuseEpilogues, bool fusePrimitives) {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "function '" << fn.getSymName()
                          << "' has control flow; Tessel needs one block";
  snapshotStaleStateReads(fn);
  SmallVector<Block *> blocks = hostBlocks(fn);
  DenseSet<Operation *> scalars = hostScalars(blocks);
  unsigned ordinal = 0;
  for (Block *block : blocks) {
    SmallVector<Operation *> roots;
    for (Operation &op : *block) {
      if (isa<func::CallOp, func::CallIndirectOp>(op))
        return op.emitError() << "'" << op.getName()
                              << "' is not supported: calls must be inlinable";
      if (!isHostOp(&op) && !isClonableProducer(&op))
        roots.push_back(&op);
    }
    for (ArrayRef<Operation *> group :
         groupRoots(roots, fuseRows, rowGroupsSingleResult, fuseEpilogues,
                    fusePrimitives))
      if (failed(outlineGroup(fn, group, ordinal++, symbols)))
        return failure();
  }

  // Clonable producers now have uses only if the host needs their value
  // (returned, reshaped or carried by control flow): tensors become
  // dispatches of their own, scalars the host needs stay. Inner blocks
  // first, so that uses there are gone before their producers are seen.
  for (Block *block : llvm::reverse(blocks)) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block))) {
      if (isa<func::ReturnOp>(op) || op.hasTrait<OpTrait::IsTerminator>() ||
          isControlFlow(&op))
        continue;
      if (op.getNumResults() > 0 && op.use_empty() &&
          (isHostOp(&op) || isClonableProducer(&op))) {
        scalars.erase(&op);
        op.erase();
        continue;
      }
      // A scalar the host needs: used by a host op, as a dispatch's
      // dimension, or by another such scalar (users come first here).
      bool hostNeedsIt =
          scalars.contains(&op) ||
          (!hasTensorResult(&op) &&
           llvm::any_of(op.getUsers(), [&](Operation *user) {
             return isHostOp(user) || isa<DispatchOp>(user) ||
                    scalars.contains(user);
           }));
      if (hostNeedsIt && !hasTensorResult(&op))
        scalars.insert(&op);
      if (!isClonableProducer(&op) || isHostOp(&op) || hostNeedsIt)
        continue;
      if (failed(outlineGroup(fn, {&op}, ordinal++, symbols)))
        return failure();
    }
  }
  return success();
}

namespace {
struct FormDispatchesPass : impl::FormDispatchesBase<FormDispatchesPass> {
  using FormDispatchesBase::FormDispatchesBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> publics;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn->hasAttr(kDispatchFunctionAttr))
        publics.push_back(fn);
    for (func::FuncOp fn : publics)
      if (failed(formDispatches(fn, symbols, fuseRows,
                                rowGroupsSingleResult, fuseEpilogues,
                                fusePrimitives)))
        return signalPassFailure();
    // Private helpers called from public functions are not supported; any
    // left are unreferenced after dispatch formation.
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (fn.isPrivate() && !fn->hasAttr(kDispatchFunctionAttr))
        fn.erase();
  }
};
} // namespace
} // namespace mlir::tessel
