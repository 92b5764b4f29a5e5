#include "runtime/base/status.h"

#include <gtest/gtest.h>

#include <string>

#include "runtime/base/byte_storage.h"

namespace ember {
namespace {

Status FailsWith(StatusCode code) { return Status(code, "inner problem"); }

Status Outer(StatusCode code) {
  EMBER_RETURN_IF_ERROR(FailsWith(code), "doing step %d", 2);
  return Status();
}

Result<int> Half(int value) {
  if (value % 2)
    return InvalidArgumentError("odd value " + std::to_string(value));
  return value / 2;
}

Result<int> Quarter(int value) {
  EMBER_ASSIGN_OR_RETURN(int half, Half(value), "halving %d", value);
  EMBER_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(Status, OkIsOnePointerAndCheap) {
  static_assert(sizeof(Status) == sizeof(void*));
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.ToString(), "OK");
  // An OK code with a message is still OK and carries nothing.
  EXPECT_TRUE(Status(StatusCode::kOk, "ignored").ok());
}

TEST(Status, CarriesCodeMessageAndAnnotations) {
  Status status = Outer(StatusCode::kOutOfRange);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "inner problem");
  EXPECT_EQ(status.ToString(),
            "OUT_OF_RANGE: inner problem; while doing step 2");
}

TEST(Status, AnnotationsNeverDoubleWhile) {
  Status status = InvalidArgumentError("x");
  status.Annotate("while reading a").Annotate("reading b");
  EXPECT_EQ(status.ToString(),
            "INVALID_ARGUMENT: x; while reading a; while reading b");
}

TEST(Status, CopiesAreDeep) {
  Status a = InvalidArgumentError("a");
  Status b = a;
  b.Annotate("only b");
  EXPECT_EQ(a.ToString(), "INVALID_ARGUMENT: a");
  EXPECT_EQ(b.ToString(), "INVALID_ARGUMENT: a; while only b");
}

TEST(Status, EveryCodeHasAName) {
  for (uint32_t code = 0; code <= 18; ++code) {
    EXPECT_STRNE(StatusCodeName(static_cast<StatusCode>(code)), "UNKNOWN_CODE")
        << code;
  }
  EXPECT_STREQ(StatusCodeName(StatusCode::kIncompatible), "INCOMPATIBLE");
}

TEST(Result, ValueOrAnnotatedError) {
  Result<int> good = Quarter(8);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 2);
  Result<int> bad = Quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().ToString(), "INVALID_ARGUMENT: odd value 3");
  Result<int> bad_first = Quarter(5);
  EXPECT_EQ(bad_first.status().ToString(),
            "INVALID_ARGUMENT: odd value 5; while halving 5");
}

TEST(Result, FromOkStatusBecomesInternalError) {
  Result<int> result{Status()};
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInternal);
}

TEST(ResultDeathTest, ValueOfErrorAborts) {
  Result<int> bad = Half(3);
  EXPECT_DEATH((void)bad.value(), "value\\(\\) called on an error Result");
}

TEST(ByteStorage, CopiesAreAlignedAndIndependent) {
  std::vector<uint8_t> bytes = {1, 2, 3, 4, 5};
  auto storage = ByteStorage::CopyOf(bytes);
  ASSERT_TRUE(storage.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*storage)->data()) % kStorageAlignment,
            0u);
  bytes[0] = 99;
  EXPECT_EQ((*storage)->data()[0], 1);
  EXPECT_EQ((*storage)->size(), 5u);
  auto empty = ByteStorage::CopyOf({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->size(), 0u);
  EXPECT_NE((*empty)->data(), nullptr);
}

TEST(ByteStorage, MapFileErrorsNameThePath) {
  auto missing = ByteStorage::MapFile("/definitely/not/here.vmfb");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().ToString().find("/definitely/not/here.vmfb"),
            std::string::npos);
  auto directory = ByteStorage::MapFile("/tmp");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ember
