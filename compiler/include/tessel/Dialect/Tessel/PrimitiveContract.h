//===- PrimitiveContract.h - facts Dispatch and emitters share -*- C++ -*-===//
//
// Facts about tessel.sort, tessel.scan and tessel.scatter that dispatch
// formation (tessel-add-primitive-workspaces, tessel-expand-long-sorts, the
// scan groups) and the primitives' emitters (Codegen/Primitives) both need,
// so that Dispatch includes no strategy:
//  - which sorts are radix sorts (RadixKey);
//  - which combiners a kernel can clone (isScalarCombiner);
//  - the size of each workspace: a long scan's look-back status words, a
//    radix sort's digit counts (for at most kRadixMaxBlocks blocks).
//
// A tessel.sort whose comparator is one `<` or `>` on its first operand
// (arith.cmpi ult/slt/ugt/sgt or arith.cmpf olt/ult/ogt/ugt, either operand
// order) orders the keys by their bits once they are mapped to unsigned
// integers that compare the same way: signed integers flip the sign bit,
// floats flip every bit when negative and the sign bit otherwise, and a
// descending order inverts the result. Such a sort of one dimension (a
// 1-D static tensor) is a radix sort: kRadixBits bits per pass, least
// significant digit first, every pass stable, so the sort is stable and
// the other operands are carried along as values. NaNs sort by their bits
// (positive NaNs after +inf, negative ones before -inf).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_PRIMITIVECONTRACT_H
#define TESSEL_DIALECT_TESSEL_PRIMITIVECONTRACT_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include <optional>
#include <string>

namespace mlir::tessel {

//===--- radix sorts ------------------------------------------------------===//

inline constexpr int64_t kRadixBits = 8;
inline constexpr int64_t kRadixBuckets = int64_t(1) << kRadixBits;

struct RadixKey {
  enum class Kind { Unsigned, Signed, Float };
  Kind kind;
  unsigned bits; // of the key's element type
  bool descending;
  int64_t passes() const { return bits / kRadixBits; }
};

/// The radix order of `sort`'s keys when `sort` is a radix sort candidate:
/// one static dimension of 2 to 2^31 - 1 elements, key
/// elements of 8, 16, 32 or 64 bits, and a comparator that is one `<` or
/// `>` on the keys. Otherwise std::nullopt, with `why` set.
std::optional<RadixKey> matchRadixKey(SortOp sort, std::string &why);

/// Whether `sort` carries the workspaces of a radix sort (added by
/// tessel-add-primitive-workspaces): a scratch buffer per operand, then
/// the digit counts (i32).
bool hasRadixWorkspaces(SortOp sort);

/// Elements of a GPU radix-sort tile, blocks per SM, and the most blocks
/// (the counts workspace holds theirs): 4 on each of a 132-SM GPU's SMs.
inline constexpr int64_t kRadixTileElements = 2048;
inline constexpr int64_t kRadixBlocksPerSM = 4;
inline constexpr int64_t kRadixMaxBlocks = kRadixBlocksPerSM * 132;

/// Blocks of the GPU radix sort of `n` elements: every block has at least
/// one tile and at most one tile more than any other.
int64_t gridRadixSortBlocks(int64_t n);

/// Words of the counts workspace for `blocks` blocks: a count per bucket
/// and block, then the GPU's grid-barrier counter.
inline int64_t radixCountWords(int64_t blocks) {
  return blocks * kRadixBuckets + 1;
}

//===--- scans ------------------------------------------------------------===//

/// Elements of a look-back tile: the workspace of a scan of n elements has
/// ceil(n / kLookbackTileElements) status words plus a ticket counter.
inline constexpr int64_t kLookbackTileElements = 256 * 16;

/// Whether `combiner`'s body is scalar arith/math only (what a GPU thread
/// can clone); if not, `why` says what is in the way.
bool isScalarCombiner(Region &combiner, std::string &why);

} // namespace mlir::tessel

#endif
