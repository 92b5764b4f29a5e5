// The WordPiece model (docs/tokenizer.md "Coverage").
#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Result<std::unique_ptr<Model>> LoadWordPieceModel(const object& o) {
  (void)o;
  return Unimplemented("model", "WordPiece");
}

}  // namespace ember::tokenizer
