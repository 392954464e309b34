// Tests of types, 16-bit float codecs, tensor literals, printing and
// comparison.
#include "tessel/runtime/compare.h"
#include "tessel/runtime/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tessel::rt;

TEST(TypesTest, ParseAndPrint) {
  auto t = parseTensorType("4x5xf32");
  ASSERT_TRUE(t.ok()) << t.status().toString();
  EXPECT_EQ(t->shape, (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(t->elementType, ElementType::f32);
  EXPECT_EQ(t->byteSize(), 80u);
  EXPECT_EQ(t->toString(), "4x5xf32");
  auto scalar = parseTensorType("bf16");
  ASSERT_TRUE(scalar.ok());
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->numElements(), 1);
  EXPECT_EQ(parseTensorType("0x3xi1")->byteSize(), 0u);
  for (const char *bad : {"4x", "x4xf32", "4xf31", "", "-1xf32", "4x5", "99999999999999999999xf32",
                          "4294967296x4294967296xf64"})
    EXPECT_FALSE(parseTensorType(bad).ok()) << bad;
  for (uint8_t i = 0; i <= kMaxElementType; ++i) {
    auto e = static_cast<ElementType>(i);
    EXPECT_EQ(*parseElementType(elementTypeName(e)), e);
  }
}

TEST(TypesTest, HalfRoundTripsEveryBitPattern) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
    else
      EXPECT_EQ(floatToHalf(f), h) << std::hex << h;
  }
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds to inf
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie to even
}

TEST(TypesTest, Bf16RoundTripsEveryBitPattern) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16ToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(f))));
    else
      EXPECT_EQ(floatToBf16(f), h) << std::hex << h;
  }
  EXPECT_EQ(floatToBf16(1.00390625f), 0x3f80); // tie to even (down)
}

TEST(TensorLiteralTest, Parses) {
  auto t = parseTensorLiteral("2x3xf32=1,2,3,4,5,6");
  ASSERT_TRUE(t.ok()) << t.status().toString();
  EXPECT_EQ(t->type.toString(), "2x3xf32");
  EXPECT_EQ(t->data<float>()[5], 6.0f);

  auto scalar = parseTensorLiteral("f32=1.5");
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->data<float>()[0], 1.5f);

  auto splat = parseTensorLiteral("4x4xi32=-7");
  ASSERT_TRUE(splat.ok());
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(splat->data<int32_t>()[i], -7);

  auto bools = parseTensorLiteral("4xi1=true,0,1,false");
  ASSERT_TRUE(bools.ok());
  EXPECT_EQ(bools->bytes, (std::vector<uint8_t>{1, 0, 1, 0}));

  auto big = parseTensorLiteral("i64=9007199254740993");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->data<int64_t>()[0], 9007199254740993LL);

  auto special = parseTensorLiteral("3xf16=nan,inf,-inf");
  ASSERT_TRUE(special.ok());
  EXPECT_TRUE(std::isnan(special->elementAsDouble(0)));
  EXPECT_EQ(special->elementAsDouble(2), -std::numeric_limits<double>::infinity());

  auto bf = parseTensorLiteral("2xbf16=1.5,-2");
  ASSERT_TRUE(bf.ok());
  EXPECT_EQ(bf->elementAsDouble(1), -2.0);

  EXPECT_EQ(parseTensorLiteral("0x3xf32=")->bytes.size(), 0u);
}

TEST(HostTensorTest, FromValues) {
  auto t = HostTensor::fromValues(TensorType{ElementType::i16, {2, 2}},
                                  std::vector<int16_t>{1, -2, 3, -4});
  ASSERT_TRUE(t.ok()) << t.status().toString();
  EXPECT_EQ(t->elementAsDouble(3), -4.0);
  EXPECT_FALSE(HostTensor::fromValues(TensorType{ElementType::i16, {3}},
                                      std::vector<int16_t>{1, 2}).ok());
  EXPECT_FALSE(HostTensor::fromValues(TensorType{ElementType::f32, {1}},
                                      std::vector<double>{1}).ok());
}

TEST(TensorLiteralTest, Errors) {
  struct Case {
    const char *text, *needle;
  } cases[] = {
      {"2x3xf32=1,2,3", "has 3 values but needs 6"},
      {"2xf32", "no '='"},
      {"2xi8=1,300", "out of range"},
      {"2xi1=1,2", "expected 0, 1, true or false"},
      {"2xf32=1,abc", "bad f32 value 'abc'"},
      {"2xf32=1,", "empty"},
      {"2xq32=1,2", "unknown element type"},
      {"i64=99999999999999999999", "out of range"},
      // Count and size are checked before anything is allocated.
      {"1099511627776xf32=1,2", "has 2 values but needs 1099511627776"},
      {"1099511627776xf32=1", "is 4398046511104 bytes (a literal makes at most 1073741824"},
      {"268435457xf32=0", "is 1073741828 bytes"},
  };
  for (const Case &c : cases) {
    auto t = parseTensorLiteral(c.text);
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_NE(t.status().message().find(c.needle), std::string::npos)
        << c.text << ": " << t.status().message();
  }
}

TEST(FormatTensorTest, Nested) {
  EXPECT_EQ(formatTensor(*parseTensorLiteral("2x3xf32=1,2,3,4,5,6")), "2x3xf32=[[1 2 3][4 5 6]]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("f32=1.5")), "f32=1.5");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("3xi1=1,0,1")), "3xi1=[1 0 1]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("2xi64=-5,7")), "2xi64=[-5 7]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("0x2xf32=")), "0x2xf32=[]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("2x0xf32=")), "2x0xf32=[]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("100000000x100000000x0xi8=")),
            "100000000x100000000x0xi8=[]");
  EXPECT_EQ(formatTensor(*parseTensorLiteral("2xf32=0.1,nan")), "2xf32=[0.1 nan]");
}

TEST(FormatTensorTest, Elides) {
  auto t = HostTensor::zeros(TensorType{ElementType::i32, {3, 4}});
  EXPECT_EQ(formatTensor(t, 5), "3x4xi32=[[0 0 0 0][0 ...]...]");
  auto flat = HostTensor::zeros(TensorType{ElementType::i8, {10}});
  EXPECT_EQ(formatTensor(flat, 3), "10xi8=[0 0 0 ...]");
}

TEST(CompareTest, FloatTolerance) {
  auto exp = *parseTensorLiteral("4xf32=1,100,nan,inf");
  auto close = *parseTensorLiteral("4xf32=1.000001,100.0001,nan,inf");
  CompareResult r = compareTensors(close, exp, 1e-5);
  EXPECT_TRUE(r.pass) << r.message;
  EXPECT_NEAR(r.maxAbsError, 1e-4, 1e-5);

  auto off = *parseTensorLiteral("4xf32=1,100.01,nan,inf");
  r = compareTensors(off, exp, 1e-5);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.message.find("[1]"), std::string::npos) << r.message;
  EXPECT_TRUE(compareTensors(off, exp, 1e-3).pass);

  EXPECT_FALSE(compareTensors(*parseTensorLiteral("4xf32=1,100,1,inf"), exp, 1).pass);
  EXPECT_FALSE(compareTensors(*parseTensorLiteral("4xf32=1,100,nan,-inf"), exp, 1).pass);
}

TEST(CompareTest, IntsExactAndTypeMismatch) {
  auto a = *parseTensorLiteral("2x2xi64=1,2,3,9007199254740993");
  auto b = *parseTensorLiteral("2x2xi64=1,2,3,9007199254740992");
  CompareResult r = compareTensors(a, b, 1.0);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.message.find("[1,1]"), std::string::npos) << r.message;
  EXPECT_TRUE(compareTensors(a, a, 0).pass);
  r = compareTensors(*parseTensorLiteral("2xf32=1,2"), *parseTensorLiteral("2xf64=1,2"), 1);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.message.find("expected type 2xf64"), std::string::npos) << r.message;
}
