// The WordLevel model (docs/tokenizer.md "Coverage").
#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Result<std::unique_ptr<Model>> LoadWordLevelModel(const object& o) {
  (void)o;
  return Unimplemented("model", "WordLevel");
}

}  // namespace ember::tokenizer
