#include "runtime/hal/driver.h"

#include <gtest/gtest.h>

#include <string>

namespace ember::hal {
namespace {

TEST(GlobTest, MatchesLikeIree) {
  EXPECT_TRUE(MatchesGlob("local*", "local-sync"));
  EXPECT_TRUE(MatchesGlob("local-????", "local-task"));
  EXPECT_TRUE(MatchesGlob("*", ""));
  EXPECT_TRUE(MatchesGlob("*sync", "local-sync"));
  EXPECT_TRUE(MatchesGlob("l*c*l-s*", "local-sync"));
  EXPECT_FALSE(MatchesGlob("local", "local-sync"));
  EXPECT_FALSE(MatchesGlob("cuda*", "local-sync"));
  EXPECT_FALSE(MatchesGlob("?", ""));
  // A hostile pattern stays fast (no exponential backtracking).
  std::string pattern(2000, '*');
  pattern += "b";
  std::string text(20000, 'a');
  EXPECT_FALSE(MatchesGlob(pattern, text));
}

TEST(DeviceUriTest, Parse) {
  auto plain = ParseDeviceUri("local-sync");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->driver, "local-sync");
  EXPECT_TRUE(plain->path.empty());
  auto full = ParseDeviceUri("local-task://0?worker_count=2&x=");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->driver, "local-task");
  EXPECT_EQ(full->path, "0");
  EXPECT_EQ(full->parameters.at("worker_count"), "2");
  EXPECT_EQ(full->parameters.at("x"), "");
  EXPECT_FALSE(ParseDeviceUri("").ok());
  EXPECT_FALSE(ParseDeviceUri("://x").ok());
  EXPECT_FALSE(ParseDeviceUri("local-task?noequals").ok());
  EXPECT_FALSE(ParseDeviceUri("local-task?=v").ok());
}

TEST(DriverRegistryTest, UnknownDriverNamesTheKnownOnes) {
  DriverRegistry registry;
  int made = 0;
  ASSERT_TRUE(registry
                  .Register({"fake", "a test driver"},
                            [&made](const DeviceUri&) -> Result<Ref<Device>> {
                              ++made;
                              return UnimplementedError("fake device");
                            })
                  .ok());
  EXPECT_EQ(registry.Register({"fake", ""}, nullptr).code(),
            StatusCode::kAlreadyExists);
  EXPECT_TRUE(registry.Has("fake"));
  auto missing = registry.CreateDevice("cuda");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().ToString().find("available: fake"),
            std::string::npos)
      << missing.status().ToString();
  EXPECT_EQ(registry.CreateDevice("fake?a=b").status().code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(made, 1);
}

}  // namespace
}  // namespace ember::hal
