//===- TesselAttrs.cpp - strategy and target attributes --------*- C++ -*-===//
//
// #tessel.strategy has its own syntax (the kind first, then only the
// parameters it sets, arrays in brackets) and a verifier that knows which
// parameters each kind takes and what the emitters accept. The target
// descriptions use the struct format.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;

#include "tessel/Dialect/Tessel/TesselEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tessel/TesselAttrs.cpp.inc"

void TesselDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessel/Dialect/Tessel/TesselAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #tessel.strategy
//===----------------------------------------------------------------------===//

namespace {
/// Whether a kind takes a parameter.
enum class Use { No, Optional, Required };

/// The parameters a kind takes; the rest must be unset.
struct KindParameters {
  Use workgroup = Use::No, thread = Use::No, reduction = Use::No,
      vector = Use::No, cache = Use::No;
  bool tile = false, panel = false, stages = false, grid = false;
  /// `vector`, `reduction` and `cache` are per loop of the root op (else of
  /// the contraction of a matmul epilogue).
  bool perRootLoop = true;
};

KindParameters parametersOf(StrategyKind kind) {
  KindParameters p;
  switch (kind) {
  case StrategyKind::Tiled:
    p.workgroup = p.thread = Use::Required;
    p.reduction = Use::Optional;
    break;
  case StrategyKind::PrimitiveTiles:
    p.workgroup = Use::Required;
    p.thread = Use::Optional; // cuda only
    break;
  case StrategyKind::RowFusion: // loop tiles on cpu only
    p.workgroup = p.vector = p.reduction = Use::Optional;
    break;
  case StrategyKind::RegisterTiles:
    p.workgroup = p.vector = Use::Required;
    p.reduction = p.cache = Use::Optional;
    break;
  case StrategyKind::MatmulEpilogue:
    p.workgroup = p.vector = Use::Required;
    p.reduction = p.cache = Use::Optional;
    p.perRootLoop = false;
    break;
  case StrategyKind::PackedMatmul:
    p.workgroup = Use::Required;
    p.panel = true;
    break;
  case StrategyKind::PaddingCopy:
    p.workgroup = Use::Required;
    break;
  case StrategyKind::WgmmaMatmul:
    p.tile = p.stages = p.grid = true;
    break;
  case StrategyKind::MmaSyncMatmul:
    p.tile = p.stages = true;
    break;
  case StrategyKind::SimtMatmul:
    p.tile = true;
    break;
  default:
    break;
  }
  return p;
}

/// Checks the tile sizes the matmul emitters build.
LogicalResult verifyMatmulTile(function_ref<InFlightDiagnostic()> emitError,
                               StrategyKind kind, ArrayRef<int64_t> tile) {
  if (tile.size() != 3)
    return emitError() << "strategy '" << stringifyStrategyKind(kind)
                       << "' needs 'tile' = [M, N, K]";
  int64_t m = tile[0], n = tile[1];
  switch (kind) {
  case StrategyKind::WgmmaMatmul:
    if (m != 128 || (n != 128 && n != 192 && n != 256))
      return emitError() << "strategy 'wgmma_matmul': tile " << m << "x" << n
                         << " (the kernel builds 128x128, 128x192 and "
                            "128x256)";
    break;
  case StrategyKind::MmaSyncMatmul:
    if ((m != 64 && m != 128) || (n != 64 && n != 128))
      return emitError() << "strategy 'mma_sync_matmul': tile " << m << "x"
                         << n << " (M and N are each 64 or 128)";
    break;
  case StrategyKind::SimtMatmul:
    if (m != n || (m != 64 && m != 128) || tile[2] != 8)
      return emitError() << "strategy 'simt_matmul': tile " << m << "x" << n
                         << "x" << tile[2] << " (64x64x8 or 128x128x8)";
    break;
  default:
    break;
  }
  return success();
}

/// The loop-tile parameters of a strategy, by name.
struct LoopTileParameters {
  ArrayRef<int64_t> workgroup, thread, reduction, vector, cache;
};

LogicalResult verifyLoopTiles(function_ref<InFlightDiagnostic()> emitError,
                              StringRef name, const KindParameters &takes,
                              const LoopTileParameters &tiles) {
  auto sizeMismatch = [&](StringRef param, size_t size, StringRef other,
                          size_t otherSize) {
    return emitError() << "strategy '" << name << "': '" << param << "' has "
                       << size << " entries, '" << other << "' "
                       << otherSize;
  };
  if (tiles.workgroup.empty())
    return success();
  if (takes.vector == Use::Optional && tiles.vector.empty())
    return emitError() << "strategy '" << name
                       << "': 'workgroup' needs 'vector'";
  if (!tiles.thread.empty() && tiles.thread.size() != tiles.workgroup.size())
    return sizeMismatch("thread", tiles.thread.size(), "workgroup",
                        tiles.workgroup.size());
  // vector, reduction and cache are per loop of one op: the root's, or
  // the contraction's (matmul_epilogue).
  ArrayRef<int64_t> perLoop =
      takes.perRootLoop ? tiles.workgroup : tiles.vector;
  StringRef perLoopName = takes.perRootLoop ? "workgroup" : "vector";
  for (auto [param, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"vector", tiles.vector},
        {"reduction", tiles.reduction},
        {"cache", tiles.cache}})
    if (!values.empty() && values.size() != perLoop.size())
      return sizeMismatch(param, values.size(), perLoopName, perLoop.size());
  for (auto [i, w, t] : llvm::enumerate(
           tiles.thread.empty() ? ArrayRef<int64_t>() : tiles.workgroup,
           tiles.thread))
    if (t != 0 && w != 0 && w % t != 0)
      return emitError() << "strategy '" << name << "': loop " << i
                         << "'s thread tile " << t
                         << " does not divide its workgroup tile " << w;
  if (llvm::count_if(tiles.workgroup, [](int64_t w) { return w != 0; }) > 3)
    return emitError() << "strategy '" << name
                       << "': more than 3 loops split across workgroups";
  return success();
}
} // namespace

LogicalResult
StrategyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     StrategyKind kind, ArrayRef<int64_t> workgroup,
                     ArrayRef<int64_t> thread, ArrayRef<int64_t> reduction,
                     ArrayRef<int64_t> vector, ArrayRef<int64_t> cache,
                     ArrayRef<int64_t> tile, ArrayRef<int64_t> panel,
                     int64_t stages, int64_t grid) {
  StringRef name = stringifyStrategyKind(kind);
  KindParameters takes = parametersOf(kind);
  for (auto [param, values, use] :
       {std::tuple<StringRef, ArrayRef<int64_t>, Use>{"workgroup", workgroup,
                                                      takes.workgroup},
        {"thread", thread, takes.thread},
        {"reduction", reduction, takes.reduction},
        {"vector", vector, takes.vector},
        {"cache", cache, takes.cache}}) {
    if (use == Use::No && !values.empty())
      return emitError() << "strategy '" << name << "' takes no '" << param
                         << "' parameter";
    if (use == Use::Required && values.empty())
      return emitError() << "strategy '" << name << "' needs '" << param
                         << "' (a tile per loop)";
  }
  for (auto [param, values, taken] :
       {std::tuple<StringRef, ArrayRef<int64_t>, bool>{"tile", tile,
                                                       takes.tile},
        {"panel", panel, takes.panel}})
    if (!taken && !values.empty())
      return emitError() << "strategy '" << name << "' takes no '" << param
                         << "' parameter";
  if (!takes.stages && stages != 0)
    return emitError() << "strategy '" << name << "' takes no 'stages' parameter";
  if (!takes.grid && grid != 0)
    return emitError() << "strategy '" << name << "' takes no 'grid' parameter";
  for (auto [param, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"workgroup", workgroup},
        {"thread", thread},
        {"reduction", reduction},
        {"vector", vector},
        {"cache", cache},
        {"tile", tile},
        {"panel", panel}})
    if (llvm::any_of(values, [](int64_t v) { return v < 0; }))
      return emitError() << "strategy '" << name << "': '" << param
                         << "' has a negative entry";
  if (failed(verifyLoopTiles(emitError, name, takes,
                             {workgroup, thread, reduction, vector, cache})))
    return failure();
  if (takes.tile && failed(verifyMatmulTile(emitError, kind, tile)))
    return failure();
  if (takes.panel &&
      (panel.size() != 5 || llvm::is_contained(panel, int64_t(0))))
    return emitError() << "strategy '" << name
                       << "' needs 'panel' = [MR, NR, KC, MC, NC], each "
                          "positive";
  if (takes.stages && (stages < 2 || stages > 8))
    return emitError() << "strategy '" << name << "': " << stages
                       << " stages (2 to 8)";
  if (takes.grid && grid < 0)
    return emitError() << "strategy '" << name << "': negative grid";
  return success();
}

Attribute StrategyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseLess() || parser.parseKeyword(&kindName))
    return {};
  std::optional<StrategyKind> kind = symbolizeStrategyKind(kindName);
  if (!kind) {
    parser.emitError(loc) << "unknown strategy kind '" << kindName << "'";
    return {};
  }
  SmallVector<int64_t> workgroup, thread, reduction, vector, cache, tile,
      panel;
  int64_t stages = 0, grid = 0;
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc) << "parameter '" << key << "' given twice";
      return {};
    }
    SmallVector<int64_t> *array =
        llvm::StringSwitch<SmallVector<int64_t> *>(key)
            .Case("workgroup", &workgroup)
            .Case("thread", &thread)
            .Case("reduction", &reduction)
            .Case("vector", &vector)
            .Case("cache", &cache)
            .Case("tile", &tile)
            .Case("panel", &panel)
            .Default(nullptr);
    if (array) {
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                return parser.parseInteger(array->emplace_back());
              }))
        return {};
      continue;
    }
    int64_t *scalar = llvm::StringSwitch<int64_t *>(key)
                          .Case("stages", &stages)
                          .Case("grid", &grid)
                          .Default(nullptr);
    if (!scalar) {
      parser.emitError(keyLoc)
          << "unknown strategy parameter '" << key
          << "' (expected workgroup, thread, reduction, vector, cache, tile, "
             "panel, stages or grid)";
      return {};
    }
    if (parser.parseInteger(*scalar))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<StrategyAttr>(loc, parser.getContext(), *kind,
                                         workgroup, thread, reduction, vector,
                                         cache, tile, panel, stages, grid);
}

void StrategyAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyStrategyKind(getKind());
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"workgroup", getWorkgroup()},
        {"thread", getThread()},
        {"reduction", getReduction()},
        {"vector", getVector()},
        {"cache", getCache()},
        {"tile", getTile()},
        {"panel", getPanel()}})
    if (!values.empty()) {
      printer << ", " << name << " = [";
      llvm::interleaveComma(values, printer);
      printer << "]";
    }
  if (getStages())
    printer << ", stages = " << getStages();
  if (getGrid())
    printer << ", grid = " << getGrid();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Target descriptions
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kMmaKinds[] = {"mma_sync", "wgmma"};

LogicalResult
CUDATargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringAttr arch, int64_t sms, int64_t sharedPerBlock,
                       int64_t sharedPerSm, int64_t registersPerSm,
                       ArrayAttr mma, BoolAttr, BoolAttr) {
  if (!arch || !arch.getValue().starts_with("sm_"))
    return emitError() << "cuda_target: arch must be an sm_NN name";
  if (sms <= 0 || sharedPerBlock <= 0 || sharedPerSm < sharedPerBlock ||
      registersPerSm <= 0)
    return emitError() << "cuda_target: sms, shared_per_block and "
                          "registers_per_sm must be positive and "
                          "shared_per_sm at least shared_per_block";
  for (Attribute kind : mma) {
    auto name = dyn_cast<StringAttr>(kind);
    if (!name || !llvm::is_contained(kMmaKinds, name.getValue()))
      return emitError() << "cuda_target: unknown MMA kind " << kind
                         << " (expected \"mma_sync\" or \"wgmma\")";
  }
  return success();
}

bool CUDATargetAttr::hasMma(StringRef kind) const {
  return llvm::any_of(getMma(), [&](Attribute a) {
    return cast<StringAttr>(a).getValue() == kind;
  });
}

LogicalResult
CPUTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr cpu, int64_t vectorBits, int64_t cores,
                      int64_t l1, int64_t l2, int64_t l3) {
  if (!cpu || cpu.getValue().empty())
    return emitError() << "cpu_target: cpu is empty";
  if (vectorBits < 64 || !llvm::isPowerOf2_64(vectorBits))
    return emitError() << "cpu_target: vector_bits " << vectorBits
                       << " (a power of 2, at least 64)";
  if (cores <= 0 || l1 <= 0 || l2 <= 0 || l3 < 0)
    return emitError() << "cpu_target: cores, l1 and l2 must be positive";
  return success();
}
