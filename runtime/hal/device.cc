#include "runtime/hal/device.h"

#include <vector>

namespace ember::hal {

namespace {
thread_local int defer_submissions_depth = 0;
}  // namespace

ScopedDeferSubmissions::ScopedDeferSubmissions() { ++defer_submissions_depth; }
ScopedDeferSubmissions::~ScopedDeferSubmissions() { --defer_submissions_depth; }
bool ScopedDeferSubmissions::active() { return defer_submissions_depth > 0; }

bool MatchesGlob(std::string_view pattern, std::string_view text) {
  // Iterative matching with one backtrack point: linear in practice and
  // O(pattern x text) at worst, never exponential for hostile patterns.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace ember::hal
