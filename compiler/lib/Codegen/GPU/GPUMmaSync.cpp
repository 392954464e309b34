//===- GPUMmaSync.cpp - mma.sync and ldmatrix building blocks ---*- C++ -*-===//

#include "tessel/Codegen/GPU/GPUMmaSync.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tessel;

SmallVector<Value> mlir::tessel::mmaSyncOperands(OpBuilder &b, Location loc,
                                                 Type inType, Value fragment,
                                                 int64_t firstRow,
                                                 int64_t rows) {
  SmallVector<Value> regs;
  for (int64_t i = firstRow; i < firstRow + rows; ++i) {
    Value word = vector::ExtractOp::create(b, loc, fragment, i);
    if (inType.isF16()) {
      regs.push_back(word);
      continue;
    }
    if (inType.isF32()) {
      // tf32: rounded to nearest (ties away), as cuBLAS does; mma.sync
      // alone would ignore the low 13 mantissa bits (truncation).
      Value value = vector::ExtractOp::create(b, loc, word, 0);
      regs.push_back(NVVM::ConvertFloatToTF32Op::create(
          b, loc, b.getI32Type(), value,
          NVVM::FPRoundingModeAttr::get(b.getContext(),
                                        NVVM::FPRoundingMode::RNA)));
      continue;
    }
    // bf16 and i8 operands are passed as 32-bit registers.
    Value packed = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), word);
    regs.push_back(vector::ExtractOp::create(b, loc, packed, 0));
  }
  return regs;
}

Value mlir::tessel::mmaSyncM16N8(OpBuilder &b, Location loc, Type inType,
                                 Type accType, bool unsignedInt,
                                 ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                                 Value acc) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> cRegs;
  Type resultType;
  bool fourRegs = accType.isF32() || accType.isInteger(32);
  if (fourRegs) {
    for (int64_t i = 0; i < 4; ++i)
      cRegs.push_back(vector::ExtractOp::create(b, loc, acc, i));
    resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {accType, accType, accType,
                                               accType});
  } else {
    auto half2 = VectorType::get({2}, accType);
    for (int64_t i = 0; i < 2; ++i)
      cRegs.push_back(vector::ExtractStridedSliceOp::create(
          b, loc, acc, ArrayRef<int64_t>{2 * i}, ArrayRef<int64_t>{2},
          ArrayRef<int64_t>{1}));
    resultType = LLVM::LLVMStructType::getLiteral(ctx, {half2, half2});
  }
  NVVM::MMATypes ptxType = inType.isF16()    ? NVVM::MMATypes::f16
                           : inType.isBF16() ? NVVM::MMATypes::bf16
                           : inType.isF32()  ? NVVM::MMATypes::tf32
                           : unsignedInt     ? NVVM::MMATypes::u8
                                             : NVVM::MMATypes::s8;
  std::optional<NVVM::MMAIntOverflow> overflow;
  if (inType.isInteger(8))
    overflow = NVVM::MMAIntOverflow::wrapped;
  int64_t k = 32 / (inType.getIntOrFloatBitWidth() / 8);
  Value d = NVVM::MmaOp::create(
      b, loc, resultType, aRegs, bRegs, cRegs,
      ArrayRef<int64_t>{kMmaSyncM, kMmaSyncN, k}, std::nullopt, overflow,
      std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  if (fourRegs) {
    for (int64_t i = 0; i < 4; ++i)
      elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  } else {
    for (int64_t i = 0; i < 2; ++i) {
      Value half2 = LLVM::ExtractValueOp::create(b, loc, d, i);
      for (int64_t j = 0; j < 2; ++j)
        elements.push_back(vector::ExtractOp::create(b, loc, half2, j));
    }
  }
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({4}, accType), elements);
}

Value mlir::tessel::swizzledChunkColumn(OpBuilder &b, Location loc, Value row,
                                        Value chunk, int64_t chunksPerRow,
                                        int64_t chunkValues) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value key;
  if (chunksPerRow >= 8) {
    key = arith::RemUIOp::create(b, loc, row, c(8));
  } else {
    Value group = arith::DivUIOp::create(b, loc, row, c(8 / chunksPerRow));
    key = arith::RemUIOp::create(b, loc, group, c(chunksPerRow));
  }
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, key);
  return arith::MulIOp::create(b, loc, swizzled, c(chunkValues));
}
