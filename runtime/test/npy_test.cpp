// Tests of the .npy codec: round trips for every dtype and rank, header
// variants numpy may write, the bf16/bool conventions, and malformed files.
#include "tessel/runtime/npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace tessel::rt;

namespace {

HostTensor randomTensor(TensorType type, std::mt19937 &rng) {
  HostTensor t = HostTensor::zeros(std::move(type));
  for (uint8_t &b : t.bytes)
    b = static_cast<uint8_t>(rng());
  if (t.type.elementType == ElementType::i1)
    for (uint8_t &b : t.bytes)
      b &= 1;
  return t;
}

// A .npy image with an arbitrary header dict (padded like numpy's).
std::vector<uint8_t> npyWithHeader(const std::string &dict, const std::vector<uint8_t> &data,
                                   int major = 1) {
  size_t lenBytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((8 + lenBytes + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i < lenBytes; ++i)
    out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "tessel_npy_test_" + name;
}

} // namespace

TEST(NpyTest, RoundTripEveryTypeAndRank) {
  std::mt19937 rng(1234);
  const std::vector<std::vector<int64_t>> shapes = {{}, {7}, {3, 5}, {2, 0, 3}, {1, 3, 1, 13}};
  for (uint8_t e = 0; e <= kMaxElementType; ++e) {
    for (const auto &shape : shapes) {
      auto type = static_cast<ElementType>(e);
      HostTensor t = randomTensor(TensorType{type, shape}, rng);
      std::vector<uint8_t> bytes = encodeNpy(t);
      EXPECT_EQ(bytes[6], 1);
      size_t headerLen = bytes[8] | (bytes[9] << 8);
      EXPECT_EQ((10 + headerLen) % 64, 0u);
      auto back = parseNpy(bytes, "mem", type);
      ASSERT_TRUE(back.ok()) << back.status().toString();
      EXPECT_EQ(back->type, t.type) << t.type.toString();
      EXPECT_EQ(back->bytes, t.bytes) << t.type.toString();
    }
  }
}

TEST(NpyTest, FileRoundTrip) {
  std::mt19937 rng(7);
  HostTensor t = randomTensor(TensorType{ElementType::f64, {3, 11}}, rng);
  std::string path = tempPath("file.npy");
  ASSERT_TRUE(writeNpy(path, t).ok());
  auto back = readNpy(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->bytes, t.bytes);
  std::remove(path.c_str());
}

TEST(NpyTest, HeaderMatchesNumpy) {
  auto header = [](TensorType type) {
    std::vector<uint8_t> bytes = encodeNpy(HostTensor::zeros(std::move(type)));
    return std::string(bytes.begin() + 10, bytes.begin() + 10 + (bytes[8] | (bytes[9] << 8)));
  };
  std::string h = header(TensorType{ElementType::f32, {2, 3}});
  EXPECT_EQ(h.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << h;
  EXPECT_EQ(h.back(), '\n');
  h = header(TensorType{ElementType::i1, {5}});
  EXPECT_NE(h.find("'descr': '|b1'"), std::string::npos) << h;
  EXPECT_NE(h.find("'shape': (5,)"), std::string::npos) << h;
  h = header(TensorType{ElementType::bf16, {}});
  EXPECT_NE(h.find("'descr': '<u2'"), std::string::npos) << h;
  EXPECT_NE(h.find("'shape': ()"), std::string::npos) << h;
}

TEST(NpyTest, HeaderVariants) {
  std::vector<uint8_t> data(24);
  data[0] = 1;
  const char *dicts[] = {
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
      "{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<i4\"}",
      "{'descr':'<i4','fortran_order':False,'shape':(2L, 3L)}",
      "  { 'descr' : '=i4' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) , }  ",
  };
  for (const char *dict : dicts)
    for (int major : {1, 2, 3}) {
      auto t = parseNpy(npyWithHeader(dict, data, major), "v.npy");
      ASSERT_TRUE(t.ok()) << dict << " v" << major << ": " << t.status().toString();
      EXPECT_EQ(t->type.toString(), "2x3xi32");
      EXPECT_EQ(t->data<int32_t>()[0], 1);
    }
}

TEST(NpyTest, Bf16AndBoolConventions) {
  std::vector<uint8_t> two(4, 0x3f);
  for (const char *descr : {"<u2", "<V2", "|V2"}) {
    std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2,), }";
    auto raw = parseNpy(npyWithHeader(dict, two), "raw.npy");
    ASSERT_FALSE(raw.ok()) << descr;
    EXPECT_NE(raw.status().message().find("bfloat16"), std::string::npos)
        << raw.status().message();
    auto bf = parseNpy(npyWithHeader(dict, two), "raw.npy", ElementType::bf16);
    ASSERT_TRUE(bf.ok()) << descr << ": " << bf.status().toString();
    EXPECT_EQ(bf->type.toString(), "2xbf16");
  }
  auto ml = parseNpy(
      npyWithHeader("{'descr': 'bfloat16', 'fortran_order': False, 'shape': (2,), }", two), "ml");
  ASSERT_TRUE(ml.ok()) << ml.status().toString();
  EXPECT_EQ(ml->type.elementType, ElementType::bf16);

  std::vector<uint8_t> bytes = {0, 1, 7};
  std::string u1 = "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_FALSE(parseNpy(npyWithHeader(u1, bytes), "u1").ok());
  auto b = parseNpy(npyWithHeader(u1, bytes), "u1", ElementType::i1);
  ASSERT_TRUE(b.ok()) << b.status().toString();
  EXPECT_EQ(b->bytes, (std::vector<uint8_t>{0, 1, 1}));
}

TEST(NpyTest, MalformedHeadersNameTheFile) {
  std::vector<uint8_t> data(8);
  struct Case {
    std::string dict, needle;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", "fortran_order"},
      {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", "big-endian"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '<c8'"},
      {"{'descr': '<f4', 'fortran_order': False, }", "'shape'"},
      {"{'descr': '<f4', 'shape': (2,), }", "'fortran_order'"},
      {"{'fortran_order': False, 'shape': (2,), }", "'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", "malformed header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", "malformed header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "malformed header"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }", "malformed header"},
      {"[1, 2]", "malformed header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", "truncated data"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", "trailing data"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
       "too large"},
  };
  for (const Case &c : cases) {
    auto t = parseNpy(npyWithHeader(c.dict, data), "bad.npy");
    ASSERT_FALSE(t.ok()) << c.dict;
    EXPECT_NE(t.status().message().find("bad.npy"), std::string::npos) << t.status().message();
    EXPECT_NE(t.status().message().find(c.needle), std::string::npos)
        << c.dict << " -> " << t.status().message();
  }
  // Strings from the file are quoted only when printable (found by fuzz_npy).
  for (std::string dict : {std::string("{'descr': '<f4', 'fortran_\x01\x0f' True}"),
                           std::string("{'descr': '\x1b[31m<c8', 'fortran_order': False, "
                                       "'shape': (1,)}"),
                           std::string("{'descr': '>\xff" "4', 'fortran_order': False, "
                                       "'shape': (1,)}")}) {
    auto t = parseNpy(npyWithHeader(dict, data), "bad.npy");
    ASSERT_FALSE(t.ok()) << dict;
    std::string message = t.status().message();
    EXPECT_NE(message.find("bytes that are not short printable ASCII"), std::string::npos)
        << message;
    for (unsigned char c : message)
      EXPECT_TRUE(c >= 0x20 && c < 0x7f) << message;
  }
  std::vector<uint8_t> v4 = npyWithHeader("{}", {});
  v4[6] = 4;
  EXPECT_NE(parseNpy(v4, "v4.npy").status().message().find("version 4"), std::string::npos);
  std::vector<uint8_t> notNpy = {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(parseNpy(notNpy, "x.npz").status().message().find("bad magic"), std::string::npos);
}

TEST(NpyTest, EveryTruncationIsAnError) {
  std::mt19937 rng(99);
  std::vector<uint8_t> full = encodeNpy(randomTensor(TensorType{ElementType::f16, {5, 3}}, rng));
  for (size_t len = 0; len < full.size(); ++len) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + len);
    auto t = parseNpy(cut, "cut.npy");
    EXPECT_FALSE(t.ok()) << "length " << len;
    EXPECT_NE(t.status().message().find("cut.npy"), std::string::npos);
  }
  // A header length pointing past the end of the file.
  std::vector<uint8_t> lying = full;
  lying[8] = 0xff;
  lying[9] = 0xff;
  EXPECT_NE(parseNpy(lying, "lie.npy").status().message().find("truncated header"),
            std::string::npos);
}

TEST(NpyTest, MissingFile) {
  auto t = readNpy("/nonexistent/dir/x.npy");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("'/nonexistent/dir/x.npy'"), std::string::npos);
  HostTensor z = HostTensor::zeros(TensorType{ElementType::f32, {1}});
  EXPECT_FALSE(writeNpy("/nonexistent/dir/y.npy", z).ok());
}
