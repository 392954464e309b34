//===- RadixKey.h - radix order of a sort's keys ----------------*- C++ -*-===//
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
// The element level: the digit of one key, in registers. The passes are
// the loops of one thread on the CPU (LowerPrimitivesToLoops) and a
// persistent grid on the GPU (GridRadixSort.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_RADIXKEY_H
#define TESSEL_CODEGEN_PRIMITIVES_RADIXKEY_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::tessel {

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

/// Words of the counts workspace for `blocks` blocks: a count per bucket
/// and block, then the GPU's grid-barrier counter.
inline int64_t radixCountWords(int64_t blocks) {
  return blocks * kRadixBuckets + 1;
}

/// The digit (an i32 in [0, kRadixBuckets)) of `key` in pass `pass`.
Value emitRadixDigit(OpBuilder &b, Location loc, Value key,
                     const RadixKey &order, int64_t pass);

} // namespace mlir::tessel

#endif
