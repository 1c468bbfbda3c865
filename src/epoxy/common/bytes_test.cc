// SPDX-License-Identifier: Apache-2.0
#include "epoxy/common/bytes.h"

#include <string>

#include <gtest/gtest.h>

namespace epoxy {
namespace {

TEST(BytesTest, EqualBytesAgreesWithStringCompareAtEveryLength) {
  for (size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
    EXPECT_TRUE(EqualBytes(a, std::string(a))) << n;
    for (size_t flip = 0; flip < n; ++flip) {
      std::string b = a;
      b[flip] = '#';
      EXPECT_FALSE(EqualBytes(a, b)) << n << " " << flip;
    }
    EXPECT_FALSE(EqualBytes(a, a + "y")) << n;
  }
}

TEST(BytesTest, CopyBytesCopiesExactlyTheRange) {
  for (size_t n = 0; n <= 40; ++n) {
    std::string src(n, '\0');
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>('A' + i % 26);
    std::string dst(n + 16, '.');
    CopyBytes(dst.data() + 8, src.data(), n);
    EXPECT_EQ(dst.substr(0, 8), "........") << n;
    EXPECT_EQ(dst.substr(8, n), src) << n;
    EXPECT_EQ(dst.substr(8 + n), "........") << n;
  }
}

}  // namespace
}  // namespace epoxy
