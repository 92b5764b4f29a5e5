// Text forms of tensor contents, as IREE's tools print them.
//
// `2x2xf32=[1 2][3 4]`: the shape and element type, then the elements of the
// innermost dimension separated by spaces and every outer dimension's
// entries in brackets. ember-run-module prints results this way and the
// `check` module shows differing operands this way, so output can be
// compared with iree-run-module's directly. Small floats (f16, bf16, the f8
// variants) are decoded to their exact value; DecodeFloat is also what the
// `check` module compares them with.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/status.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/element_type.h"

namespace ember::hal {

// The value of one element of a floating-point `type` (f16, bf16, f32, f64
// and the f8 variants) at `bytes`; false for other types.
bool DecodeFloat(const uint8_t* bytes, ElementType type, double* value);

// One element as text ("1.5", "-3", "0x1f" for opaque data).
std::string FormatElement(const uint8_t* bytes, ElementType type);

// "SHAPExTYPE=..." for `view`, printing at most `max_elements` elements
// ("..." after them).
Result<std::string> FormatBufferView(BufferView& view,
                                     uint64_t max_elements = ~uint64_t{0});

}  // namespace ember::hal
