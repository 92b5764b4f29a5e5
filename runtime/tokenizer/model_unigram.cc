// The Unigram model (docs/tokenizer.md "Coverage").
#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Result<std::unique_ptr<Model>> LoadUnigramModel(const object& o) {
  (void)o;
  return Unimplemented("model", "Unigram");
}

}  // namespace ember::tokenizer
