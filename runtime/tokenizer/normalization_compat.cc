// The code points that HuggingFace `tokenizers` (0.23) normalizes as if
// unassigned: its normalization tables (the unicode-normalization-alignments
// crate) predate the Unicode version of utf8proc, so for these it knows no
// combining class, decomposition or composition. To normalize exactly as it
// does, Ember leaves them as they are and normalizes the text between them
// separately (docs/tokenizer.md "Unicode normalization").
//
// The table was measured, not copied: every code point was normalized by
// `tokenizers`' NFD/NFKD alone and beside combining marks of class 1 and 230,
// and by utf8proc 2.8 (Unicode 15), and the canonical pairs each composes
// were compared; these are the code points where the two differ.
// tests/python/test_tokenizer.py re-checks every code point.
#include <algorithm>
#include <cstdint>
#include <iterator>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

struct Range {
  uint32_t first, last;
};

constexpr Range kUnknownToTokenizers[] = {
    {0x7FD, 0x7FD},     {0x898, 0x89F},     {0x8CA, 0x8D3},
    {0x9FE, 0x9FE},     {0xC3C, 0xC3C},     {0xD3B, 0xD3C},
    {0xEBA, 0xEBA},     {0x1715, 0x1715},   {0x1ABF, 0x1ACE},
    {0x1DF6, 0x1DFA},   {0x32FF, 0x32FF},   {0xA7F2, 0xA7F4},
    {0xA82C, 0xA82C},   {0xAB69, 0xAB69},   {0x10781, 0x10785},
    {0x10787, 0x107B0}, {0x107B2, 0x107BA}, {0x10D24, 0x10D27},
    {0x10EAB, 0x10EAC}, {0x10EFD, 0x10EFF}, {0x10F46, 0x10F50},
    {0x10F82, 0x10F85}, {0x11070, 0x11070}, {0x1133B, 0x1133B},
    {0x1145E, 0x1145E}, {0x11839, 0x1183A}, {0x11930, 0x11930},
    {0x11935, 0x11935}, {0x11938, 0x11938}, {0x1193D, 0x1193E},
    {0x11943, 0x11943}, {0x119E0, 0x119E0}, {0x11A34, 0x11A34},
    {0x11A47, 0x11A47}, {0x11A99, 0x11A99}, {0x11D42, 0x11D42},
    {0x11D44, 0x11D45}, {0x11D97, 0x11D97}, {0x11F41, 0x11F42},
    {0x16FF0, 0x16FF1}, {0x1E030, 0x1E06D}, {0x1E08F, 0x1E08F},
    {0x1E130, 0x1E136}, {0x1E2AE, 0x1E2AE}, {0x1E2EC, 0x1E2EF},
    {0x1E4EC, 0x1E4EF}, {0x1F16C, 0x1F16C}, {0x1FBF0, 0x1FBF9},
};

}  // namespace

bool UnknownToTokenizersNormalization(uint32_t code_point) {
  auto it = std::upper_bound(
      std::begin(kUnknownToTokenizers), std::end(kUnknownToTokenizers),
      code_point, [](uint32_t c, const Range& r) { return c < r.first; });
  if (it == std::begin(kUnknownToTokenizers)) return false;
  --it;
  return code_point <= it->last;
}

}  // namespace ember::tokenizer
