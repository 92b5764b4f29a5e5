#include "runtime/base/printable.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace ember {
namespace {

using namespace std::string_literals;

// Bytes that exercise every rule: printable ASCII, the two quoted
// characters, controls, NUL, DEL, well-formed UTF-8 (2, 3 and 4 bytes) and
// ill-formed UTF-8 (a lone continuation, an overlong, a surrogate, a
// truncated sequence, a code point past U+10FFFF).
const std::string kMixed =
    "a\\\"\n\0\x7F"
    "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
    "\x80\xC0\xAF\xED\xA0\x80\xE2\x82"
    "A\xF4\x90\x80\x80"s;

TEST(Printable, AsciiEscapesEverythingElse) {
  EXPECT_EQ(Escaped(kMixed, Escape::kAscii),
            "a\\\\\\\"\\x0a\\x00\\x7f"
            "\\xc3\\xa9\\xe2\\x82\\xac\\xf0\\x9f\\x98\\x80"
            "\\x80\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82"
            "A\\xf4\\x90\\x80\\x80");
}

TEST(Printable, Utf8KeepsWellFormedSequencesOnly) {
  EXPECT_EQ(Escaped(kMixed, Escape::kUtf8),
            "a\\\\\\\"\\x0a\\x00\\x7f"
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
            "\\x80\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82"
            "A\\xf4\\x90\\x80\\x80");
}

TEST(Printable, InvalidUtf8EscapesOnlyIllFormedBytes) {
  // As Python's bytes.decode("utf-8", "backslashreplace").
  EXPECT_EQ(Escaped(kMixed, Escape::kInvalidUtf8),
            "a\\\"\n\0\x7F"
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
            "\\x80\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82"
            "A\\xf4\\x90\\x80\\x80"s);
  // A lead byte followed by a byte that starts a sequence of its own.
  EXPECT_EQ(Escaped("\xE2\xC3\xA9", Escape::kInvalidUtf8), "\\xe2\xC3\xA9");
}

TEST(Printable, CutsLongTextAndGivesItsLength) {
  const std::string name(300, '\x01');
  std::string expected;
  for (size_t i = 0; i < kMaxQuotedBytes; ++i) expected += "\\x01";
  expected += "... (300 bytes)";
  EXPECT_EQ(Printable(name), expected);
  EXPECT_EQ(Escaped("abcdef", Escape::kAscii, 3), "abc... (6 bytes)");
  EXPECT_EQ(Escaped("abc", Escape::kAscii, 3), "abc");
  // A sequence split by the cut is ill-formed and escaped.
  EXPECT_EQ(Escaped("\xC3\xA9\xC3\xA9", Escape::kUtf8, 3),
            "\xC3\xA9\\xc3... (4 bytes)");
}

TEST(Printable, AppendsToExistingText) {
  std::string out = "name: ";
  AppendEscaped(out, "m\x02", Escape::kAscii);
  EXPECT_EQ(out, "name: m\\x02");
  EXPECT_EQ(Printable(""), "");
}

TEST(Printable, JsonString) {
  std::string out;
  AppendJsonString(out, kMixed);
  EXPECT_EQ(out,
            "\"a\\\\\\\"\\n\\u0000\\u007f"
            "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
            "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
            "A\\ufffd\\ufffd\\ufffd\\ufffd\"");
  out.clear();
  AppendJsonString(out, "\r\t\x1F ok");
  EXPECT_EQ(out, "\"\\r\\t\\u001f ok\"");
}

}  // namespace
}  // namespace ember
